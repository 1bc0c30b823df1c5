package slack

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"net/http"

	slackapi "github.com/slack-go/slack"

	"github.com/connect4/connect4/bot"
)

// MaxBody is the largest request body accepted, in bytes; larger ones get
// 413.
const MaxBody = 1 << 20

// Register mounts POST /slack/commands (slash commands) and POST
// /slack/interactions (button clicks) on mux. Every request is verified
// with the signing secret before anything in it is parsed. Without a
// signing secret it mounts nothing.
func (a *Adapter) Register(mux *http.ServeMux) {
	if a.cfg.SigningSecret == "" {
		a.log.Info("slack: no signing secret, HTTP endpoints not mounted", "platform", Platform)
		return
	}
	mux.HandleFunc("POST /slack/commands", a.serveCommand)
	mux.HandleFunc("POST /slack/interactions", a.serveInteraction)
}

// serveCommand answers a slash command in the response body.
func (a *Adapter) serveCommand(w http.ResponseWriter, r *http.Request) {
	rep := newReport("http", "command")
	if !a.verified(w, r, rep) {
		return
	}
	sc, err := slackapi.SlashCommandParse(r)
	if err != nil {
		a.badRequest(w, rep, "unreadable form")
		return
	}
	msg, err := a.command(r.Context(), sc, rep)
	if err != nil {
		http.Error(w, "bad request", http.StatusBadRequest)
		a.done(rep)
		return
	}
	if msg != nil {
		w.Header().Set("Content-Type", "application/json")
		if err := json.NewEncoder(w).Encode(msg); err != nil {
			a.log.Warn("slack: writing the command response failed", "platform", Platform, "err", err)
		}
	}
	a.done(rep)
}

// serveInteraction acknowledges a button click at once and finishes it in
// the background.
func (a *Adapter) serveInteraction(w http.ResponseWriter, r *http.Request) {
	rep := newReport("http", "click")
	if !a.verified(w, r, rep) {
		return
	}
	ic, err := slackapi.InteractionCallbackParse(r)
	if err != nil {
		a.badRequest(w, rep, "unreadable payload")
		return
	}
	if err := a.interact(ic, rep); err != nil {
		http.Error(w, "bad request", http.StatusBadRequest)
		return
	}
	w.WriteHeader(http.StatusOK)
}

// verified reads the body (at most MaxBody bytes) and checks its Slack
// signature. On success it puts the body back for the form parsers and
// returns true; otherwise it has answered 413 or 401 (or 400 for an
// unreadable body), logged the request and returns false.
func (a *Adapter) verified(w http.ResponseWriter, r *http.Request, rep *report) bool {
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, MaxBody))
	if err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			http.Error(w, "request body too large", http.StatusRequestEntityTooLarge)
			rep.outcome = bot.OutcomeTooLarge
			a.done(rep)
			return false
		}
		a.badRequest(w, rep, "unreadable body")
		return false
	}
	if err := verify(r.Header, body, a.cfg.SigningSecret); err != nil {
		http.Error(w, "unauthorized", http.StatusUnauthorized)
		rep.outcome, rep.reason = bot.OutcomeUnauthorized, err.Error()
		a.done(rep)
		return false
	}
	r.Body = io.NopCloser(bytes.NewReader(body))
	return true
}

// verify checks Slack's v0 signature of body (HMAC-SHA256 of
// "v0:<timestamp>:<body>", compared in constant time) and that the
// timestamp is within 5 minutes of now, with slack-go's SecretsVerifier.
func verify(h http.Header, body []byte, secret string) error {
	sv, err := slackapi.NewSecretsVerifier(h, secret)
	if err != nil {
		return err
	}
	if _, err := sv.Write(body); err != nil {
		return err
	}
	return sv.Ensure()
}

func (a *Adapter) badRequest(w http.ResponseWriter, rep *report, reason string) {
	http.Error(w, "bad request", http.StatusBadRequest)
	rep.outcome, rep.reason = bot.OutcomeBadRequest, reason
	a.done(rep)
}
