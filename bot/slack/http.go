package slack

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"net/http"
	"strings"

	slackapi "github.com/slack-go/slack"

	"github.com/connect4/connect4/bot"
)

// Register mounts POST /slack/commands (slash commands) and POST
// /slack/interactions (button clicks) on mux. Every request is verified
// with the signing secret before anything in it is parsed. Without a
// signing secret it mounts nothing.
func (a *Adapter) Register(mux *http.ServeMux) {
	if a.pics.signer != nil {
		mux.HandleFunc("GET "+BoardsPath+"{token}", a.serveBoard)
	}
	if a.cfg.SigningSecret == "" {
		a.log.Info("slack: no signing secret, HTTP endpoints not mounted")
		return
	}
	mux.HandleFunc("POST /slack/commands", a.serveCommand)
	mux.HandleFunc("POST /slack/interactions", a.serveInteraction)
	if a.cfg.Previews != nil {
		mux.HandleFunc("POST "+EventsPath, a.serveEvents)
	}
}

// serveCommand answers a slash command in the response body.
func (a *Adapter) serveCommand(w http.ResponseWriter, r *http.Request) {
	rep := newReport("http", "command")
	nonce, ok := a.verified(w, r, rep)
	if !ok {
		return
	}
	sc, err := slackapi.SlashCommandParse(r)
	if err != nil {
		a.badRequest(w, rep, "unreadable form")
		return
	}
	msg, err := a.command(r.Context(), sc, nonce, rep)
	if err != nil {
		http.Error(w, "bad request", http.StatusBadRequest)
		a.done(rep)
		return
	}
	if msg != nil {
		w.Header().Set("Content-Type", "application/json")
		if err := json.NewEncoder(w).Encode(msg); err != nil {
			a.log.Warn("slack: writing the command response failed", "err", err)
		}
	}
	a.done(rep)
}

// serveInteraction acknowledges a button click at once and finishes it in
// the background.
func (a *Adapter) serveInteraction(w http.ResponseWriter, r *http.Request) {
	rep := newReport("http", "click")
	nonce, ok := a.verified(w, r, rep)
	if !ok {
		return
	}
	ic, err := readClick(r)
	if err != nil {
		a.badRequest(w, rep, "unreadable payload")
		return
	}
	if err := a.interact(ic, nonce, rep); err != nil {
		http.Error(w, "bad request", http.StatusBadRequest)
		return
	}
	w.WriteHeader(http.StatusOK)
}

// verified checks the request's Slack signature. Requests without the
// signature headers, with a malformed signature or with a timestamp
// outside the 5-minute window are answered 401 before the body is read;
// when every body slot is taken the answer is 503 with Retry-After: 1.
// Otherwise it reads the body (at most MaxBody bytes, else 413) and checks
// the signature of it. On success it puts the body back for the form
// parsers and returns the request's nonce (see requestNonce) and true;
// otherwise it has answered, logged the request and returns false.
func (a *Adapter) verified(w http.ResponseWriter, r *http.Request, rep *report) (string, bool) {
	sv, err := slackapi.NewSecretsVerifier(r.Header, a.cfg.SigningSecret) // headers and window
	if err != nil {
		a.unauthorized(w, rep, err)
		return "", false
	}
	body, err := a.bodies.Read(w, r)
	if err != nil {
		a.rec.BodyError(w, &rep.Report, err, "request", rep.what)
		return "", false
	}
	if _, err := sv.Write(body); err != nil {
		a.unauthorized(w, rep, err)
		return "", false
	}
	if err := sv.Ensure(); err != nil {
		a.unauthorized(w, rep, err)
		return "", false
	}
	r.Body = io.NopCloser(bytes.NewReader(body))
	return requestNonce(r.Header), true
}

func (a *Adapter) unauthorized(w http.ResponseWriter, rep *report, err error) {
	a.rec.Refuse(w, &rep.Report, http.StatusUnauthorized, "unauthorized", bot.OutcomeUnauthorized, err.Error(), "request", rep.what)
}

// requestNonce is the identity of a signed HTTP request, for
// bot.Command.Nonce: the hex of the first 16 bytes of
// sha256(timestamp + ":" + signature), the signature in canonical form
// ("v0=" and its bytes in lower-case hex), so that a replay that spells
// the signature otherwise (hex digits in the other case) has the same
// identity as the request it copies. Slack's retries of a request are
// signed anew.
func requestNonce(h http.Header) string {
	sig := h.Get(headerSignature)
	if raw, ok := strings.CutPrefix(sig, "v0="); ok {
		if b, err := hex.DecodeString(raw); err == nil {
			sig = "v0=" + hex.EncodeToString(b)
		}
	}
	sum := sha256.Sum256([]byte(h.Get(headerTimestamp) + ":" + sig))
	return hex.EncodeToString(sum[:16])
}

// The signature headers of a Slack request.
const (
	headerTimestamp = "X-Slack-Request-Timestamp"
	headerSignature = "X-Slack-Signature"
)

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
	a.rec.Refuse(w, &rep.Report, http.StatusBadRequest, "bad request", bot.OutcomeBadRequest, reason, "request", rep.what)
}
