package discord

import (
	"crypto/ed25519"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"time"

	discordgo "github.com/bwmarrin/discordgo"

	"github.com/connect4/connect4/bot"
)

// InteractionsPath is where Register mounts the interactions endpoint; the
// Interactions Endpoint URL in the Developer Portal is
// https://<host>/discord/interactions.
const InteractionsPath = "/discord/interactions"

// maxBody is the largest interaction body read; larger ones get 413.
const maxBody = 1 << 20

// Register mounts POST /discord/interactions on mux when Config.PublicKey
// is set, and does nothing otherwise.
func (a *Adapter) Register(mux *http.ServeMux) {
	if a.pub == nil {
		return
	}
	mux.HandleFunc("POST "+InteractionsPath, a.serveInteraction)
}

// serveInteraction answers one interaction from Discord's HTTP endpoint:
// 413 for a body over 1 MiB, 401 unless it is signed with the
// application's key, 400 for a body that is not an interaction, and
// otherwise 200 with the interaction response as JSON. It never answers
// 5xx to anything a client sends.
func (a *Adapter) serveInteraction(w http.ResponseWriter, r *http.Request) {
	start := time.Now()
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxBody))
	if err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			a.done(start, "", kindUnknown, bot.OutcomeTooLarge, false)
			http.Error(w, "request body too large", http.StatusRequestEntityTooLarge)
			return
		}
		a.done(start, "", kindUnknown, bot.OutcomeBadRequest, false)
		http.Error(w, "cannot read request body", http.StatusBadRequest)
		return
	}
	if !verify(a.pub, r.Header, body) {
		a.done(start, "", kindUnknown, bot.OutcomeUnauthorized, false)
		http.Error(w, "invalid request signature", http.StatusUnauthorized)
		return
	}
	in, err := parse(body)
	if err != nil {
		a.done(start, "", kindUnknown, bot.OutcomeBadRequest, false)
		http.Error(w, "malformed interaction", http.StatusBadRequest)
		return
	}
	resp, later, kind, outcome := a.answer(r.Context(), a.rest, in)
	if outcome == bot.OutcomeBadRequest {
		a.done(start, in.ChannelID, kind, outcome, false)
		http.Error(w, "malformed interaction", http.StatusBadRequest)
		return
	}
	out, err := json.Marshal(resp)
	if err != nil { // cannot happen: a response is plain data
		a.log.Error("encode interaction response", "platform", "discord", "err", err)
		out = []byte(`{"type":6}`)
	}
	w.Header().Set("Content-Type", "application/json")
	w.Write(out)
	if later == nil {
		a.done(start, in.ChannelID, kind, outcome, false)
		return
	}
	// Send the deferral before the edit can reach Discord.
	if f, ok := w.(http.Flusher); ok {
		f.Flush()
	}
	a.runLater(start, in.ChannelID, kind, later, true)
}

// verify reports whether h carries a valid Ed25519 signature by pub of the
// X-Signature-Timestamp header followed by body. Any missing or malformed
// header fails.
func verify(pub ed25519.PublicKey, h http.Header, body []byte) bool {
	sig, err := hex.DecodeString(h.Get("X-Signature-Ed25519"))
	ts := h.Get("X-Signature-Timestamp")
	if err != nil || len(sig) != ed25519.SignatureSize || ts == "" || len(pub) != ed25519.PublicKeySize {
		return false
	}
	msg := make([]byte, 0, len(ts)+len(body))
	msg = append(append(msg, ts...), body...)
	return ed25519.Verify(pub, msg, sig)
}

// parse decodes an interaction. Anything that is not a JSON object of an
// interaction type this bot knows, with data of the right shape, is an
// error.
func parse(body []byte) (in *discordgo.Interaction, err error) {
	defer func() {
		// discordgo's decoders are not ours to vouch for: no input may
		// crash the server.
		if p := recover(); p != nil {
			in, err = nil, errMalformed
		}
	}()
	in = new(discordgo.Interaction)
	if err := json.Unmarshal(body, in); err != nil {
		return nil, err
	}
	switch in.Type {
	case discordgo.InteractionPing, discordgo.InteractionApplicationCommandAutocomplete:
		return in, nil
	case discordgo.InteractionApplicationCommand:
		if _, ok := in.Data.(discordgo.ApplicationCommandInteractionData); ok {
			return in, nil
		}
	case discordgo.InteractionMessageComponent:
		if _, ok := in.Data.(discordgo.MessageComponentInteractionData); ok {
			return in, nil
		}
	}
	return nil, errMalformed
}
