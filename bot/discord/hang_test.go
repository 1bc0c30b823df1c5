package discord

import (
	"encoding/json"
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
func (f *fixture) problemLines() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	logs := f.logs.String()
	return strings.Count(logs, "level=WARN") + strings.Count(logs, "level=ERROR")
}

// TestHungStoreAnswered checks that with a store that never answers, slash
// commands, clicks and deferred moves over HTTP and the Gateway all get
// the bot's "try again" sentence within Discord's 3 seconds (in the
// response, or in the edit or follow-up after a deferral), with one log
// line each at Warn or above.
func TestHungStoreAnswered(t *testing.T) {
	t.Parallel() // it waits on timeouts
	sentence := bot.ProblemUnavailable.Sentence()
	// shown returns what the person is shown: the response's content, or
	// for a deferral what the REST calls after it carried.
	shown := func(t *testing.T, f *fixture, resp gotResponse, calls []fakeCall) (string, bool) {
		t.Helper()
		switch resp.Type {
		case typeMessage, typeUpdate:
			return resp.content(), false
		case typeDeferMessage, typeDeferUpdate:
		default:
			t.Fatalf("response type %d", resp.Type)
		}
		var texts []string
		for _, c := range calls {
			if c.Method == "DELETE" || strings.HasSuffix(c.Path, "/callback") {
				continue
			}
			var d gotData
			if err := json.Unmarshal(c.Body, &d); err != nil {
				t.Fatalf("REST call %s %s: %v", c.Method, c.Path, err)
			}
			texts = append(texts, d.Content)
		}
		if len(texts) != 1 {
			t.Fatalf("after a deferral the REST calls %+v carry %d messages, want 1", calls, len(texts))
		}
		return texts[0], true
	}
	viaHTTP := func(in func(f *fixture) map[string]any) func(t *testing.T, f *fixture) (string, bool) {
		return func(t *testing.T, f *fixture) (string, bool) {
			resp := f.send(in(f))
			if err := f.a.work.Wait(t.Context()); err != nil {
				t.Fatal(err)
			}
			return shown(t, f, resp, f.fake.take())
		}
	}
	viaGateway := func(in func(f *fixture) map[string]any) func(t *testing.T, f *fixture) (string, bool) {
		return func(t *testing.T, f *fixture) (string, bool) {
			f.a.gatewayInteraction(t.Context(), gatewaySession(t, f), gatewayEvent(t, in(f)))
			if err := f.a.work.Wait(t.Context()); err != nil {
				t.Fatal(err)
			}
			calls := f.fake.take()
			if len(calls) == 0 || !strings.HasSuffix(calls[0].Path, "/callback") {
				t.Fatalf("REST calls %+v, want the callback first", calls)
			}
			var resp gotResponse
			if err := json.Unmarshal(calls[0].Body, &resp); err != nil {
				t.Fatal(err)
			}
			return shown(t, f, resp, calls[1:])
		}
	}
	board := func(f *fixture) map[string]any { return f.slashIn("UA", "board", nil) }
	ai := func(f *fixture) map[string]any { return f.slashIn("UA", "ai", nil) }
	accept := func(f *fixture) map[string]any { return f.clickIn("UB", "c4:accept:g1:0:0") }
	move := func(f *fixture) map[string]any {
		in := f.clickIn("UA", "c4:drop:g1:2:3")
		in["message"] = map[string]any{"id": "600000000000000001", "channel_id": chanID}
		return in
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
		for _, tc := range []struct {
			name     string
			run      func(t *testing.T, f *fixture) (string, bool)
			deferred bool
		}{
			{"http command", viaHTTP(board), false},
			{"http slow command", viaHTTP(ai), true},
			{"http click", viaHTTP(accept), false},
			{"http deferred move", viaHTTP(move), true},
			{"gateway command", viaGateway(board), false},
			{"gateway deferred move", viaGateway(move), true},
		} {
			run(st.name+"/"+tc.name, func(t *testing.T) {
				// The adapter's own deadline, shortened from DefaultTimeout
				// (2.5 s, inside Discord's 3 s: TestDefaultTimeoutFits) to
				// keep the suite quick; what is tested is that it holds.
				f := newFixtureWith(t, st.make(t), 0, func(c *Config) { c.Timeout = 1200 * time.Millisecond })
				f.a.deferAfter = deferAfter
				start := time.Now()
				got, deferred := tc.run(t, f)
				// A store that is down answers at once, before the
				// deferral threshold: nothing then needs deferring.
				if st.name != "redis down" && deferred != tc.deferred {
					t.Errorf("deferred = %v, want %v", deferred, tc.deferred)
				}
				if d := time.Since(start); d > 3*time.Second {
					t.Errorf("answered after %v, want within 3s", d)
				}
				if !strings.Contains(got, sentence) {
					t.Errorf("shown %q, want %q", got, sentence)
				}
				if n := f.problemLines(); n != 1 {
					f.mu.Lock()
					t.Errorf("%d log lines at Warn or above, want 1:\n%s", n, f.logs.String())
					f.mu.Unlock()
				}
			})
		}
	}
	wg.Wait()
}

// TestDefaultTimeoutFits: the adapter's default deadline for a command
// leaves room inside Discord's 3 s for the answer to travel.
func TestDefaultTimeoutFits(t *testing.T) {
	if DefaultTimeout > 2500*time.Millisecond || handleTimeout > 2500*time.Millisecond {
		t.Errorf("DefaultTimeout %v, handleTimeout %v: want at most 2.5 s, inside Discord's 3 s", DefaultTimeout, handleTimeout)
	}
}
