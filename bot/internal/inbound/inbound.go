// Package inbound is the request path both chat adapters share: what is
// logged and observed about one request (Report, Recorder.Done) and the
// HTTP answers of a request refused before it reaches the bot (a body
// that cannot be read, a bad signature, a malformed payload).
//
// It knows nothing of Slack or Discord: each adapter adds its own fields
// to the log line as attributes.
package inbound

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"time"

	"github.com/connect4/connect4/bot"
	"github.com/connect4/connect4/bot/internal/bodies"
)

// KindUnknown is the kind of a request that never became a command.
const KindUnknown = "unknown"

// Report is what is logged and observed about one request: never tokens,
// secrets or message text. The adapters fill it in as the request goes.
type Report struct {
	Start   time.Time
	Via     string // "http", "socket", "gateway"
	Channel string
	Kind    string // bot.Kind's String, or KindUnknown
	Outcome bot.Outcome
	Reason  string // why a request was refused before it reached the bot
}

// NewReport returns the Report of a request arriving now by via.
func NewReport(via string) Report {
	return Report{Start: time.Now(), Via: via, Kind: KindUnknown}
}

// Recorder observes and logs finished requests. Its zero Observe observes
// nothing. It is safe for concurrent use when Observe is.
type Recorder struct {
	Log *slog.Logger
	// Observe, when set, is called once per request with its kind, its
	// outcome and how long it took.
	Observe func(kind, outcome string, elapsed time.Duration)
	// Message is the log line's message ("slack request").
	Message string
}

// Done records one finished request: Observe, and one log line at
// bot.OutcomeLevel with rep's fields, then attrs (the adapter's own).
func (r Recorder) Done(rep *Report, attrs ...any) {
	elapsed := time.Since(rep.Start)
	if r.Observe != nil {
		r.Observe(rep.Kind, rep.Outcome.String(), elapsed)
	}
	level := bot.OutcomeLevel(rep.Outcome)
	if !r.Log.Enabled(context.Background(), level) {
		return
	}
	all := make([]any, 0, 12+len(attrs))
	all = append(all, "via", rep.Via, "channel", rep.Channel, "kind", rep.Kind, "outcome", rep.Outcome)
	all = append(all, attrs...)
	all = append(all, "duration", elapsed)
	if rep.Reason != "" {
		all = append(all, "reason", rep.Reason)
	}
	r.Log.Log(context.Background(), level, r.Message, all...)
}

// Refuse answers w with status and text, and records rep with outcome and
// reason.
func (r Recorder) Refuse(w http.ResponseWriter, rep *Report, status int, text string, outcome bot.Outcome, reason string, attrs ...any) {
	rep.Outcome, rep.Reason = outcome, reason
	if status == http.StatusServiceUnavailable {
		w.Header().Set("Retry-After", "1")
	}
	http.Error(w, text, status)
	r.Done(rep, attrs...)
}

// BodyError answers a request whose body bodies.Slots.Read could not read
// (err): 503 with Retry-After: 1 when every slot is taken, 413 for a body
// over bodies.Max, 408 for a body that did not arrive by its deadline,
// 400 otherwise; and records rep.
func (r Recorder) BodyError(w http.ResponseWriter, rep *Report, err error, attrs ...any) {
	var tooBig *http.MaxBytesError
	switch {
	case errors.Is(err, bodies.ErrBusy):
		r.Refuse(w, rep, http.StatusServiceUnavailable, "busy, try again", bot.OutcomeError, "too many bodies in flight", attrs...)
	case errors.As(err, &tooBig):
		r.Refuse(w, rep, http.StatusRequestEntityTooLarge, "request body too large", bot.OutcomeTooLarge, "", attrs...)
	case errors.Is(err, bodies.ErrSlow):
		r.Refuse(w, rep, http.StatusRequestTimeout, "request body too slow", bot.OutcomeBadRequest, "body too slow", attrs...)
	default:
		r.Refuse(w, rep, http.StatusBadRequest, "cannot read request body", bot.OutcomeBadRequest, "unreadable body", attrs...)
	}
}

// CheckLimits returns an error for each negative limit of an adapter's
// configuration, prefixed by platform ("slack").
func CheckLimits(platform string, timeout time.Duration, maxBodies int, reconnectMax time.Duration) []error {
	var errs []error
	if timeout < 0 {
		errs = append(errs, fmt.Errorf("%s: negative timeout %v", platform, timeout))
	}
	if maxBodies < 0 {
		errs = append(errs, fmt.Errorf("%s: negative MaxBodies %d", platform, maxBodies))
	}
	if reconnectMax < 0 {
		errs = append(errs, fmt.Errorf("%s: negative ReconnectMax %v", platform, reconnectMax))
	}
	return errs
}
