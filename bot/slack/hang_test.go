package slack

import (
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/connect4/connect4/bot"
	"github.com/connect4/connect4/sessions/storetest"
)

// hungStore is a store whose every call blocks until its context is done.
type hungStore = storetest.Hung

var _ bot.Store = hungStore{}

// problemLines counts the log lines at Warn or above.
func problemLines(logs string) int {
	return strings.Count(logs, "level=WARN") + strings.Count(logs, "level=ERROR")
}

// TestHungStoreAnswered checks that with a store that never answers, slash
// commands, clicks and moves over HTTP and Socket Mode all get the bot's
// "try again" sentence within Slack's 3 seconds, with one log line each
// at Warn or above.
func TestHungStoreAnswered(t *testing.T) {
	t.Parallel() // it waits on timeouts
	sentence := bot.ProblemUnavailable.Sentence()
	tests := []struct {
		name string
		// run sends one request and returns what the person is shown.
		run func(t *testing.T, e *env) posted
	}{
		{"http command", func(t *testing.T, e *env) posted { return e.slash("UA", "board") }},
		{"http click", func(t *testing.T, e *env) posted {
			return e.only(e.clickRaw(e.clickPayload("UB", "c4_0", "c4:accept:g1:0:0")))
		}},
		{"http move", func(t *testing.T, e *env) posted {
			return e.only(e.clickRaw(e.clickPayload("UA", "c4_3", "c4:drop:g1:2:3")))
		}},
		{"socket command", func(t *testing.T, e *env) posted {
			f := &fakeAcker{}
			e.a.dispatch(t.Context(), f, slashEvent("env-1", "UA", "leaderboard"))
			e.wait()
			acks := f.all()
			if len(acks) != 1 {
				t.Fatalf("acks %+v, want one", acks)
			}
			return payloadOf(t, acks[0])
		}},
		{"socket move", func(t *testing.T, e *env) posted {
			e.a.dispatch(t.Context(), &fakeAcker{}, clickEvent(t, e, "env-2", "UA", "c4_3", "c4:drop:g1:2:3"))
			e.wait()
			e.mu.Lock()
			defer e.mu.Unlock()
			return e.only(http.StatusOK, e.received)
		}},
	}
	stores := []struct {
		name string
		make func(t *testing.T) bot.Store
	}{
		{"hung", func(*testing.T) bot.Store { return hungStore{} }},
		// A real Redis client, set up as connect4 serve sets it up, on a
		// server that accepts connections and never answers, and on one
		// that is not there at all.
		{"silent redis", func(t *testing.T) bot.Store { return storetest.RedisAt(t, storetest.SilentServer(t)) }},
		{"redis down", func(t *testing.T) bot.Store { return storetest.RedisAt(t, storetest.ClosedPort(t)) }},
	}
	// The cases mostly wait (for a store that never answers, a deadline):
	// they run all at once, not -parallel (GOMAXPROCS) at a time.
	var wg sync.WaitGroup
	run := func(name string, f func(*testing.T)) { wg.Go(func() { t.Run(name, f) }) }
	for _, st := range stores {
		for _, tt := range tests {
			run(st.name+"/"+tt.name, func(t *testing.T) {
				// The adapter's own deadline, shortened from DefaultTimeout
				// (2.5 s, inside Slack's 3 s: TestDefaultTimeoutFits) to keep
				// the suite quick; what is tested is that it holds.
				e := newEnv(t, st.make(t), Config{AppToken: "xapp-1-test", Timeout: 1200 * time.Millisecond})
				e.a.selfPlayer(t.Context()) // learn the bot's id before the clock starts
				before := problemLines(e.logs.String())
				start := time.Now()
				got := tt.run(t, e)
				elapsed := time.Since(start)
				if elapsed > 3*time.Second {
					t.Errorf("answered after %v, want within 3s", elapsed)
				}
				if !strings.Contains(got.Text, sentence) {
					t.Errorf("answered %q, want %q", got.Text, sentence)
				}
				if n := problemLines(e.logs.String()) - before; n != 1 {
					t.Errorf("%d log lines at Warn or above, want 1:\n%s", n, e.logs)
				}
			})
		}
	}
	wg.Wait()
}

// only returns the one message posted, failing unless the status is 200
// and there is exactly one.
func (e *env) only(status int, got []posted) posted {
	e.t.Helper()
	if status != http.StatusOK || len(got) != 1 {
		e.t.Fatalf("status %d, response_url got %+v, want 200 and one message", status, got)
	}
	return got[0]
}

// TestDefaultTimeoutFits: the adapter's default deadline for a command
// leaves room inside Slack's 3 s for the answer to travel.
func TestDefaultTimeoutFits(t *testing.T) {
	if DefaultTimeout > 2500*time.Millisecond || commandBudget > 2500*time.Millisecond {
		t.Errorf("DefaultTimeout %v, commandBudget %v: want at most 2.5 s, inside Slack's 3 s", DefaultTimeout, commandBudget)
	}
}
