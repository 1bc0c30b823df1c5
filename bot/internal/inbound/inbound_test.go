package inbound

import (
	"bytes"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/connect4/connect4/bot"
	"github.com/connect4/connect4/bot/internal/bodies"
)

// TestBodyError checks the status, outcome and log line of each way a
// body can fail to be read.
func TestBodyError(t *testing.T) {
	tests := []struct {
		err         error
		status      int
		outcome     bot.Outcome
		retryAfter  string
		logFragment string
	}{
		{bodies.ErrBusy, http.StatusServiceUnavailable, bot.OutcomeError, "1", "too many bodies"},
		{&http.MaxBytesError{Limit: bodies.Max}, http.StatusRequestEntityTooLarge, bot.OutcomeTooLarge, "", "outcome=too_large"},
		{fmt.Errorf("%w: i/o timeout", bodies.ErrSlow), http.StatusRequestTimeout, bot.OutcomeBadRequest, "", "body too slow"},
		{errors.New("unexpected EOF"), http.StatusBadRequest, bot.OutcomeBadRequest, "", "unreadable body"},
	}
	for _, tt := range tests {
		var logs bytes.Buffer
		var observed []string
		rec := Recorder{Log: slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug})), Message: "test request",
			Observe: func(kind, outcome string, _ time.Duration) { observed = append(observed, kind+" "+outcome) }}
		rep := NewReport("http")
		w := httptest.NewRecorder()
		rec.BodyError(w, &rep, tt.err, "extra", "x")
		if w.Code != tt.status || w.Header().Get("Retry-After") != tt.retryAfter || rep.Outcome != tt.outcome {
			t.Errorf("BodyError(%v): status %d, Retry-After %q, outcome %q; want %d, %q, %q",
				tt.err, w.Code, w.Header().Get("Retry-After"), rep.Outcome, tt.status, tt.retryAfter, tt.outcome)
		}
		line := logs.String()
		if !strings.Contains(line, `msg="test request"`) || !strings.Contains(line, "extra=x") || !strings.Contains(line, tt.logFragment) {
			t.Errorf("BodyError(%v) logged %q, want the message, the adapter's attribute and %q", tt.err, line, tt.logFragment)
		}
		if len(observed) != 1 || observed[0] != KindUnknown+" "+tt.outcome.String() {
			t.Errorf("BodyError(%v) observed %q, want one %q", tt.err, observed, KindUnknown+" "+tt.outcome.String())
		}
	}
}

// TestCheckLimits checks that every negative limit is reported, named.
func TestCheckLimits(t *testing.T) {
	if errs := CheckLimits("slack", 0, 0, 0); len(errs) != 0 {
		t.Fatalf("CheckLimits of zeros = %v, want none", errs)
	}
	errs := CheckLimits("slack", -1, -1, -1)
	if len(errs) != 3 {
		t.Fatalf("CheckLimits of three negatives = %v, want three errors", errs)
	}
	for i, want := range []string{"slack: negative timeout", "slack: negative MaxBodies", "slack: negative ReconnectMax"} {
		if !strings.HasPrefix(errs[i].Error(), want) {
			t.Errorf("error %d = %q, want it to start %q", i, errs[i], want)
		}
	}
}
