package slack

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"time"

	slackapi "github.com/slack-go/slack"
	"github.com/slack-go/slack/socketmode"

	"github.com/connect4/connect4/bot"
)

// ackBudget bounds sending one Socket Mode ack.
const ackBudget = 2 * time.Second

// acker acknowledges Socket Mode envelopes; *socketmode.Client is one.
type acker interface {
	AckCtx(ctx context.Context, envelopeID string, payload any) error
}

var _ acker = (*socketmode.Client)(nil)

// dispatch routes one Socket Mode event. Slash commands are answered in
// their ack, from the background so that one slow command does not hold up
// the others; clicks are acked at once and then handled like HTTP clicks.
func (a *Adapter) dispatch(ctx context.Context, ack acker, evt socketmode.Event) {
	switch evt.Type {
	case socketmode.EventTypeIncomingError, socketmode.EventTypeErrorBadMessage, socketmode.EventTypeErrorWriteFailed:
		a.log.Warn("slack socket mode trouble", "event", string(evt.Type), "err", troubleCause(evt.Data))
		return
	}
	if evt.Request == nil || evt.Request.EnvelopeID == "" {
		return // hello, disconnect: handled by the client
	}
	envelope := evt.Request.EnvelopeID
	nonce := envelopeNonce(envelope)
	switch evt.Type {
	case socketmode.EventTypeSlashCommand:
		rep := newReport("socket", "command")
		sc, ok := evt.Data.(slackapi.SlashCommand)
		if !ok {
			a.ack(ctx, ack, envelope, nil)
			rep.Outcome, rep.Reason = bot.OutcomeBadRequest, "unreadable slash command"
			a.done(rep)
			return
		}
		if !a.work.Go(func(wctx context.Context) {
			msg, _ := a.command(wctx, sc, nonce, rep)
			var payload any
			if msg != nil {
				payload = msg
			}
			// The ack has a budget of its own: the command may have used
			// all of its time.
			if err := a.ack(wctx, ack, envelope, payload); err != nil {
				rep.Outcome = bot.OutcomeError
			}
			a.done(rep)
		}) {
			a.ack(ctx, ack, envelope, nil)
			rep.Outcome, rep.Reason = bot.OutcomeError, "shutting down"
			a.done(rep)
		}
	case socketmode.EventTypeInteractive:
		a.ack(ctx, ack, envelope, nil) // block_actions acks carry no message
		rep := newReport("socket", "click")
		ic, ok := evt.Data.(slackapi.InteractionCallback)
		if !ok {
			rep.Outcome, rep.Reason = bot.OutcomeBadRequest, "unreadable interaction"
			a.done(rep)
			return
		}
		_ = a.interact(fromCallback(ic), nonce, rep) // a malformed click is logged; there is nobody to answer
	case socketmode.EventTypeEventsAPI:
		a.ack(ctx, ack, envelope, nil)
		a.socketEvent(evt.Data) // link_shared: unfurls
	default:
		a.ack(ctx, ack, envelope, nil) // events we did not subscribe to
	}
}

// troubleCause is the error inside the Data of a socketmode trouble event.
func troubleCause(data any) error {
	switch d := data.(type) {
	case *slackapi.IncomingEventError:
		return d.ErrorObj
	case *socketmode.ErrorBadMessage:
		return d.Cause
	case *socketmode.ErrorWriteFailed:
		return d.Cause
	case error:
		return d
	}
	return fmt.Errorf("slack: %T", data)
}

// ack acknowledges an envelope, with payload (nil for none), logging a
// failure.
func (a *Adapter) ack(ctx context.Context, ack acker, envelope string, payload any) error {
	ctx, cancel := context.WithTimeout(ctx, ackBudget)
	defer cancel()
	err := ack.AckCtx(ctx, envelope, payload)
	if err != nil {
		a.log.Warn("slack socket mode ack failed", "err", err)
	}
	return err
}

// maxNonce is the longest bot.Command.Nonce.
const maxNonce = 128

// envelopeNonce is the identity of a Socket Mode envelope, for
// bot.Command.Nonce: its envelope_id when that is at most 128 URL-safe
// characters (Slack sends UUIDs), else the hex of the first 16 bytes of its
// sha256.
func envelopeNonce(id string) string {
	if len(id) <= maxNonce && urlSafe(id) {
		return id
	}
	sum := sha256.Sum256([]byte(id))
	return hex.EncodeToString(sum[:16])
}

// urlSafe reports whether s is non-empty and made only of the characters
// of base64url: letters, digits, '-' and '_'.
func urlSafe(s string) bool {
	for _, c := range []byte(s) {
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9', c == '-', c == '_':
		default:
			return false
		}
	}
	return s != ""
}
