package slack

import (
	"context"
	"time"

	"github.com/connect4/connect4/bot"
)

// kindUnknown is the kind of a request that never became a command.
const kindUnknown = "unknown"

// report is what is logged and observed about one request: never tokens,
// secrets or message text.
type report struct {
	start   time.Time
	via     string // "http" or "socket"
	what    string // "command" or "click"
	channel string
	kind    string
	outcome bot.Outcome
	reason  string // why a request was refused before it reached the bot
}

func newReport(via, what string) *report {
	return &report{start: time.Now(), via: via, what: what, kind: kindUnknown}
}

// done observes rep and logs it at bot.OutcomeLevel.
func (a *Adapter) done(rep *report) {
	elapsed := time.Since(rep.start)
	if a.cfg.Observe != nil {
		a.cfg.Observe(rep.kind, rep.outcome.String(), elapsed)
	}
	level := bot.OutcomeLevel(rep.outcome)
	if !a.log.Enabled(context.Background(), level) {
		return
	}
	attrs := []any{"via", rep.via, "request", rep.what,
		"channel", rep.channel, "kind", rep.kind, "outcome", rep.outcome, "duration", elapsed}
	if rep.reason != "" {
		attrs = append(attrs, "reason", rep.reason)
	}
	a.log.Log(context.Background(), level, "slack request", attrs...)
}
