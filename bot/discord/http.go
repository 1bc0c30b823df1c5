package discord

import (
	"crypto/ed25519"
	"encoding/hex"
	"errors"
	"net/http"
	"strconv"
	"time"

	"github.com/connect4/connect4/bot"
)

// InteractionsPath is where Register mounts the interactions endpoint; the
// Interactions Endpoint URL in the Developer Portal is
// https://<host>/discord/interactions.
const InteractionsPath = "/discord/interactions"

// Register mounts POST /discord/interactions on mux when Config.PublicKey
// is set, and does nothing otherwise.
func (a *Adapter) Register(mux *http.ServeMux) {
	if a.pub == nil {
		return
	}
	mux.HandleFunc("POST "+InteractionsPath, a.serveInteraction)
}

// serveInteraction answers one interaction from Discord's HTTP endpoint:
// 401 before the body is read unless the signature headers are well formed
// and the timestamp within 5 minutes of now; 503 with Retry-After: 1 when
// every body slot is taken; 413 for a body over MaxBody; 401 unless the
// body is signed with the application's key; 400 for a body that is not an
// interaction; and otherwise 200 with the interaction response: JSON, or
// for a click answered with its board's picture a multipart body
// (payload_json and files[0]), as the interaction callback takes it.
func (a *Adapter) serveInteraction(w http.ResponseWriter, r *http.Request) {
	rep := newReport("http")
	sig, ts, err := signatureHeaders(r.Header, time.Now())
	if err != nil {
		a.refuse(w, rep, http.StatusUnauthorized, "invalid request signature", bot.OutcomeUnauthorized, err.Error())
		return
	}
	body, err := a.bodies.Read(w, r)
	if err != nil {
		a.rec.BodyError(w, &rep.Report, err, "deferred", rep.deferred)
		return
	}
	if !a.key.verify(sig[:], ts, body) {
		a.refuse(w, rep, http.StatusUnauthorized, "invalid request signature", bot.OutcomeUnauthorized, "bad signature")
		return
	}
	in, err := parse(body)
	if err != nil {
		a.refuse(w, rep, http.StatusBadRequest, "malformed interaction", bot.OutcomeBadRequest, "malformed interaction")
		return
	}
	resp, later := a.answer(r.Context(), a.rest, in, rep)
	if rep.Outcome == bot.OutcomeBadRequest {
		a.refuse(w, rep, http.StatusBadRequest, "malformed interaction", bot.OutcomeBadRequest, rep.Reason)
		return
	}
	buf := a.buffers.get()
	ct, out, pooled, err := resp.encode(*buf)
	if err != nil { // cannot happen: a response is plain data
		a.log.Error("encode interaction response", "err", err)
		ct, out, pooled = "application/json", []byte(`{"type":6}`), false
	}
	// Set by their canonical keys, as Header.Set would after
	// canonicalizing them on every response.
	h := w.Header()
	h["Content-Type"] = []string{ct}
	// With its length the response leaves whole at the Flush below,
	// rather than as a chunk now and the chunked encoding's end later.
	h["Content-Length"] = []string{strconv.Itoa(len(out))}
	w.Write(out) // copies out or writes it through: it is free again
	if pooled {
		*buf = out
	}
	a.buffers.put(buf)
	if later == nil {
		a.done(rep)
		if rep.attachGame != "" {
			if f, ok := w.(http.Flusher); ok {
				f.Flush()
			}
			a.attach(a.rest, in, rep.attachKey, rep.attachGame)
		}
		return
	}
	// Send the deferral before the edit can reach Discord.
	if f, ok := w.(http.Flusher); ok {
		f.Flush()
	}
	a.runLater(rep, later, true)
}

// refuse answers a request refused before it reached the bot, and records
// it.
func (a *Adapter) refuse(w http.ResponseWriter, rep *report, status int, text string, outcome bot.Outcome, reason string) {
	a.rec.Refuse(w, &rep.Report, status, text, outcome, reason, "deferred", rep.deferred)
}

// Why signature headers are refused before the body is read.
var (
	errNoSignature  = errors.New("discord: no well-formed X-Signature-Ed25519")
	errBadTimestamp = errors.New("discord: X-Signature-Timestamp is not a number of seconds")
	errStale        = errors.New("discord: X-Signature-Timestamp is more than 5 minutes from now")
)

// signatureHeaders checks the signature headers of h without the body: an
// Ed25519 signature in hex, and a timestamp that is a decimal number of
// Unix seconds within 5 minutes of now. It returns the signature and the
// timestamp as sent, or errNoSignature, errBadTimestamp or errStale.
func signatureHeaders(h http.Header, now time.Time) (sig [ed25519.SignatureSize]byte, ts string, err error) {
	if !decodeHex(sig[:], h.Get("X-Signature-Ed25519")) {
		return sig, "", errNoSignature
	}
	ts = h.Get("X-Signature-Timestamp")
	if ts == "" || len(ts) > 19 {
		return sig, "", errBadTimestamp
	}
	for _, c := range []byte(ts) {
		if c < '0' || c > '9' {
			return sig, "", errBadTimestamp
		}
	}
	secs, err := strconv.ParseInt(ts, 10, 64)
	if err != nil {
		return sig, "", errBadTimestamp
	}
	if d := now.Sub(time.Unix(secs, 0)); d > window || d < -window {
		return sig, "", errStale
	}
	return sig, ts, nil
}

// decodeHex decodes s, hex digits of either case, into dst, reporting
// whether s is exactly dst's length in hex: the signature into an array of
// the caller's, where hex.DecodeString made a slice on every request (the
// conversion of s to bytes does not escape, so it is not copied to the heap).
func decodeHex(dst []byte, s string) bool {
	if len(s) != hex.EncodedLen(len(dst)) {
		return false
	}
	_, err := hex.Decode(dst, []byte(s))
	return err == nil
}
