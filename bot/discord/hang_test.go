package discord

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/connect4/connect4/bot"
	"github.com/connect4/connect4/bot/match"
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
			if err := f.a.work.wait(t.Context()); err != nil {
				t.Fatal(err)
			}
			return shown(t, f, resp, f.fake.take())
		}
	}
	viaGateway := func(in func(f *fixture) map[string]any) func(t *testing.T, f *fixture) (string, bool) {
		return func(t *testing.T, f *fixture) (string, bool) {
			f.a.gatewayInteraction(t.Context(), gatewaySession(t, f), gatewayEvent(t, in(f)))
			if err := f.a.work.wait(t.Context()); err != nil {
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
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			f := newFixture(t, hungStore{}, 0)
			f.a.deferAfter = deferAfter
			start := time.Now()
			got, deferred := tc.run(t, f)
			if deferred != tc.deferred {
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

// ignoringStore hangs on every call and ignores its context, for longer
// than any deadline of the adapter.
type ignoringStore struct {
	hungStore
	release chan struct{}
}

func (s ignoringStore) Update(ctx context.Context, _ match.Key, _ string, _ func(*match.Record) (match.Tally, error)) (*match.Record, error) {
	<-s.release
	return nil, errors.New("too late")
}

// TestDeferredOverrunStillAnswers checks that when the store ignores the
// deadline of a deferred move, the adapter still delivers the "try again"
// sentence once the deadline has passed, with one log line.
func TestDeferredOverrunStillAnswers(t *testing.T) {
	st := ignoringStore{release: make(chan struct{})}
	f := newFixtureWith(t, st, 0, func(c *Config) { c.Timeout = 200 * time.Millisecond })
	t.Cleanup(func() { close(st.release) })
	f.a.deferAfter = 10 * time.Millisecond
	in := f.clickIn("UA", "c4:drop:g1:2:3")
	start := time.Now()
	if resp := f.send(in); resp.Type != typeDeferUpdate {
		t.Fatalf("response type %d, want a deferral", resp.Type)
	}
	// The move's goroutine stays stuck in the store until the test ends:
	// wait for the follow-up itself.
	waitFor(t, "the follow-up", func() bool {
		for _, o := range f.observations() {
			if o == "drop/refused" || o == "drop/error" {
				return true
			}
		}
		return false
	})
	if d := time.Since(start); d > time.Second {
		t.Errorf("the follow-up came after %v, want soon after the 200ms deadline", d)
	}
	calls := f.fake.take()
	if len(calls) != 1 {
		t.Fatalf("REST calls %+v, want one follow-up", calls)
	}
	var note gotData
	if err := json.Unmarshal(calls[0].Body, &note); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(note.Content, bot.ProblemUnavailable.Sentence()) || note.Flags != flagEphemeral {
		t.Fatalf("follow-up %+v, want the ephemeral store sentence", note)
	}
	if got := f.observations(); len(got) != 1 || got[0] != "drop/error" {
		t.Errorf("observed %v, want the overrun drop as an error", got)
	}
	if n := f.problemLines(); n != 1 {
		t.Errorf("%d log lines at Warn or above, want 1", n)
	}
}

// TestCloseCancelsDeferredWork checks that Close waits for deferred work,
// and that when its context ends first it cancels that work, returns
// promptly with the context's error, and the interaction counts as an
// error.
func TestCloseCancelsDeferredWork(t *testing.T) {
	f := newFixtureWith(t, hungStore{}, 0, func(c *Config) { c.Timeout = time.Minute })
	f.a.deferAfter = 10 * time.Millisecond
	if resp := f.send(f.clickIn("UA", "c4:drop:g1:2:3")); resp.Type != typeDeferUpdate {
		t.Fatalf("response type %d, want a deferral", resp.Type)
	}
	ctx, cancel := context.WithTimeout(t.Context(), 100*time.Millisecond)
	defer cancel()
	start := time.Now()
	if err := f.a.Close(ctx); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Close with a hung deferred move = %v, want a deadline", err)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Fatalf("Close took %v after cancelling the work", d)
	}
	if got := f.observations(); len(got) != 1 || got[0] != "drop/error" {
		t.Fatalf("observed %v, want the cancelled drop as an error", got)
	}
	// Closed and idle: Close returns at once.
	if err := f.a.Close(t.Context()); err != nil {
		t.Fatalf("second Close = %v", err)
	}
}
