package bot

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/connect4/connect4/bot/clock"
	"github.com/connect4/connect4/bot/match"
	"github.com/connect4/connect4/sessions"
	"github.com/connect4/connect4/sessions/storetest"
	"github.com/redis/go-redis/v9"
)

// TestClockRefusals: every bad time control is one clear line that
// creates nothing.
func TestClockRefusals(t *testing.T) {
	h, m := timedHarness(t)
	for _, tc := range []struct{ text, want string }{
		{"<@UB> clock 0+0", `"0+0" gives no time at all`},
		{"<@UB> clock 999+0", "the minutes must be 0 to 180"},
		{"<@UB> clock 3+99", "the seconds added per move must be 0 to 60"},
		{"<@UB> days 99", "allows 1 to 14 days per move"},
		{"<@UB> days 0", "allows 1 to 14 days per move"},
		{"<@UB> clock fast", `"fast" is not a time control`},
		{"<@UB> <@UC> clock 3+2", "games of two players"},
		{"<@UBOT> clock 3+2", "between two people"},
		{"<@UB> days 7", "longer than this bot keeps a game without a move"},
	} {
		r := h.say("UA", tc.text)
		if r.Problem == ProblemNone || !strings.Contains(r.Text, tc.want) || strings.Contains(r.Text, "\n") {
			t.Errorf("%q: %v %q, want one line refusing with %q", tc.text, r.Problem, r.Text, tc.want)
		}
	}
	if m.Pending() != 0 {
		t.Errorf("%d schedule entries after refusals, want none", m.Pending())
	}
	if r := h.say("UA", "<@UB> clock"); r.Problem != ProblemUsage || !strings.Contains(r.Text, "clock needs a number") {
		t.Errorf("clock without a value: %v %q, want the usage refusal", r.Problem, r.Text)
	}
	if r := h.say("UA", "<@UB> clock 3+2"); r.Problem != ProblemNone {
		t.Fatalf("a good time control refused: %q", r.Text)
	}
}

// TestClockRunsAndFlagFalls: the clocks start at the accept, charge each
// move and add the increment; the game message says the time left and
// when the flag falls; a move after the flag fell does not count; the
// flag timer decides the game on time, rated, once.
func TestClockRunsAndFlagFalls(t *testing.T) {
	h, m := timedHarness(t)
	r := h.start("UA", "UB", "clock 1+2")
	rec := h.record(r)
	if !rec.Timed() || rec.Clock.Players != 2 || rec.Clock.Left[0] != time.Minute {
		t.Fatalf("clock after the accept %+v, want 1:00 each, running", rec.Clock)
	}
	if r.Clock != "<@UA>: 1:00 left · <@UB>: 1:00 left" || !r.FlagAt.Equal(h.clock.Now().Add(time.Minute)) {
		t.Fatalf("reply clock %q flag %v, want both 1:00 and the flag in a minute", r.Clock, r.FlagAt)
	}
	if _, ok := rec.Timer(match.TimerTimeout); ok {
		t.Errorf("a game under a clock has a claim timer: %v", rec.Timers)
	}
	h.clock.Advance(10 * time.Second)
	r = h.drops(r, 4) // UA: 60 - 10 + 2 = 52 s
	if want := "<@UA>: 0:52 left · <@UB>: 1:00 left"; r.Clock != want {
		t.Fatalf("after UA's move the clock says %q, want %q", r.Clock, want)
	}
	h.clock.Advance(59 * time.Second)
	wantFired(t, h, m)
	h.clock.Advance(time.Second) // UB's flag falls
	if c := h.click("UB", r, "4"); c.Problem == ProblemNone || !strings.Contains(c.Text, "doesn't count") {
		t.Fatalf("a move after the flag fell: %v %q, want it refused", c.Problem, c.Text)
	}
	n := wantFired(t, h, m, "flag")[0]
	if n.Edit == nil || !strings.Contains(n.Edit.Text, "<@UB> ran out of time. <@UA> wins on time!") {
		t.Fatalf("flag notice %+v, want an edit saying UB lost on time", n.Edit)
	}
	got := h.record(r)
	if got.Status != match.StatusFinished || got.Finish != match.FinishTimeout || got.Rounds[0].Winner != "UA" || got.Rating == nil {
		t.Fatalf("after the flag: %v/%v rounds %v rating %v, want a rated loss on time for UB", got.Status, got.Finish, got.Rounds, got.Rating)
	}
	h.clock.Advance(testIdle)
	wantFired(t, h, m)
}

// TestFlagDrawnWhenNobodyCanConnect: a flag that falls when the other
// player could no longer complete a line is a draw (clock.FlagVerdict).
func TestFlagDrawnWhenNobodyCanConnect(t *testing.T) {
	h, m := timedHarness(t)
	r := h.start("UA", "UB", "4x4", "connect", "4", "clock", "1+0")
	// Columns 1-4 stacked so that neither side holds any line of 4 open
	// to them: a full board but for the last cells.
	r = h.drops(r, 1, 2, 1, 2, 2, 1, 2, 1, 3, 4, 3, 4, 4, 3)
	if r.Game.State().Over() {
		t.Fatalf("the game ended early: %v", r.Game.State())
	}
	rec := h.record(r)
	if clock.CanConnect(rec.Game, rec.Game.Turn()%2+1) {
		t.Skip("the position still lets the other player connect; the draw rule needs a closed one")
	}
	h.clock.Advance(2 * time.Minute)
	n := wantFired(t, h, m, "flag")[0]
	if n.Edit == nil || !strings.Contains(n.Edit.Text, "it's a draw") {
		t.Fatalf("flag notice %+v, want a draw", n.Edit)
	}
	if got := h.record(r); got.Finish != match.FinishDraw {
		t.Fatalf("finish %v, want draw", got.Finish)
	}
}

// TestFlagFallsOnceRacing: on each store, two replicas' workers race for
// the flags of several games; each flag falls once (one edit, one
// finished game), never before its time and within the poll interval of
// it (with a second of slack for a loaded machine).
func TestFlagFallsOnceRacing(t *testing.T) {
	t.Parallel()
	stores := map[string]func(t *testing.T) []Store{
		"memory": func(t *testing.T) []Store {
			m := storetest.NewMemory(t, sessions.Options{})
			return []Store{m, m}
		},
		"redis": func(t *testing.T) []Store { return twoReplicas(t, storetest.Redis(t)) },
		"cluster": func(t *testing.T) []Store {
			if testing.Short() {
				t.Skip("a private cluster takes seconds to start")
			}
			return twoReplicas(t, storetest.SharedCluster(t))
		},
	}
	for name, mk := range stores {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			const games, poll = 6, 20 * time.Millisecond
			sts := mk(t)
			nf := &timedNotifier{}
			ctx, cancel := context.WithCancel(t.Context())
			var wg sync.WaitGroup
			svcs := make([]*Service, len(sts))
			for i, st := range sts {
				svcs[i] = New(st, Options{AI: lowestColumn})
				wg.Add(1)
				go func() {
					defer wg.Done()
					svcs[i].RunSchedule(ctx, st.(Schedule), map[string]Notifier{"test": nf}, WorkerOptions{Poll: poll})
				}()
			}
			live, _ := clock.NewLive(1, 0)
			flags, ids := map[string]time.Time{}, map[string]string{}
			for g := range games {
				k := match.Key{Platform: "test", Workspace: "T1", Channel: "F" + string(rune('a'+g))}
				now := time.Now()
				k0 := clock.Start(live, 2, now.Truncate(time.Millisecond))
				k0.Left[0] = time.Duration(200+100*g) * time.Millisecond
				rec := &match.Record{Key: k, Status: match.StatusPlaying, Challenger: player("UA"), Opponent: player("UB"), RedID: "UA",
					Game: newTestGame(t), FirstTo: 1, Clock: k0, Message: match.MessageRef{Channel: k.Channel, Timestamp: "1.0"}}
				if err := svcs[g%len(svcs)].store.Create(t.Context(), rec); err != nil {
					t.Fatal(err)
				}
				flags[k.Channel], ids[k.Channel] = k0.FlagAt(), rec.ID
			}
			waitFor(t, "every flag's edit", func() bool { return nf.count() >= games })
			time.Sleep(10 * poll) // room for a second edit of any of them
			cancel()
			wg.Wait()
			sent := nf.snapshot()
			if len(sent) != games {
				t.Fatalf("%d edits for %d flags: %v", len(sent), games, sent)
			}
			for _, s := range sent {
				due := flags[s.channel]
				if !strings.Contains(s.text, "<@UA> ran out of time") || s.at.Before(due) || s.at.Sub(due) > poll+time.Second {
					t.Errorf("%s: edit %q at %v, flag at %v: want a loss on time, not early, within the poll interval", s.channel, s.text, s.at, due)
				}
				rec, err := sts[0].Load(t.Context(), match.Key{Platform: "test", Workspace: "T1", Channel: s.channel}, ids[s.channel])
				if err != nil {
					t.Fatal(err)
				}
				if rec.Finish != match.FinishTimeout || rec.Rounds[0].Winner != "UB" {
					t.Errorf("%s: finish %v rounds %v, want UB winning on time", s.channel, rec.Finish, rec.Rounds)
				}
			}
		})
	}
}

// twoReplicas returns two stores over one Redis (or Cluster) under one
// key prefix, as two replicas see it.
func twoReplicas(t *testing.T, c redis.UniversalClient) []Store {
	prefix := storetest.Prefix(t, c)
	return []Store{storetest.NewRedis(t, c, sessions.Options{Prefix: prefix}), storetest.NewRedis(t, c, sessions.Options{Prefix: prefix})}
}

// timedNotifier records each edit with its channel and when it came.
type timedNotifier struct {
	mu   sync.Mutex
	sent []sentAt
}

type sentAt struct {
	channel, text string
	at            time.Time
}

func (f *timedNotifier) Edit(_ context.Context, k match.Key, _ match.MessageRef, r Reply) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.sent = append(f.sent, sentAt{k.Channel, r.Text, time.Now()})
	return nil
}

func (f *timedNotifier) Post(ctx context.Context, k match.Key, ref match.MessageRef, r Reply) error {
	return f.Edit(ctx, k, ref, r)
}

func (f *timedNotifier) count() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.sent)
}

func (f *timedNotifier) snapshot() []sentAt {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]sentAt(nil), f.sent...)
}

// TestClockNextRound: in a match under a clock each game starts with
// fresh clocks, and its flag is the new game's.
func TestClockNextRound(t *testing.T) {
	h, _ := timedHarness(t)
	r := h.start("UA", "UB", "first-to", "2", "clock", "1+0")
	h.clock.Advance(20 * time.Second)
	r = h.drops(r, 1, 2, 1, 2, 1, 2, 1) // UA wins the first game
	h.clock.Advance(time.Minute)
	r = h.agree("UB", "UA", r, "Next round")
	rec := h.record(r)
	if rec.Clock.Left[0] != time.Minute || rec.Clock.Left[1] != time.Minute || rec.Clock.Turn != int(rec.Game.Turn())-1 {
		t.Fatalf("clock of the second game %+v, want 1:00 each, the first mover's running", rec.Clock)
	}
	if f, ok := rec.Timer(match.TimerFlag); !ok || !f.Due.Equal(h.clock.Now().Add(time.Minute).Truncate(time.Millisecond)) {
		t.Fatalf("flag timer %+v, want a minute from the start of the second game", f)
	}
}

// TestTimeRefusalsNamePlatformSyntax: a refused time control, round limit
// or start time shows the example as the player's platform reads it
// (Discord's options take a colon), never the other platform's syntax.
func TestTimeRefusalsNamePlatformSyntax(t *testing.T) {
	tests := []struct {
		platform, text string
		want, not      string
	}{
		{"slack", "challenge <@UB> clock 0+0", "try `clock 3+2` (3 minutes", "clock:"},
		{"discord", "challenge <@UB> clock 0+0", "try `clock:3+2` (3 minutes", "`clock 3"},
		{"slack", "challenge <@UB> clock 3-2", "say `clock 3+2` (minutes + seconds per move) or `days 2`", "days:"},
		{"discord", "challenge <@UB> clock 3-2", "say `clock:3+2` (minutes + seconds per move) or `days:2`", "`days 2"},
		{"slack", "tournament new swiss round 99d", "say `round 2h` (m, h, d)", "round:"},
		{"discord", "tournament new swiss round 99d", "say `round:2h` (m, h, d)", "`round 2h"},
		{"slack", "tournament new swiss start in 99d", "say `start 18:00` (today, UTC) or `start in 2h`", "start:"},
		{"discord", "tournament new swiss start in 99d", "say `start:18:00` (today, UTC) or `start:in 2h`", "`start in"},
	}
	forEachStore(t, func(t *testing.T, h *harness) {
		for _, tc := range tests {
			k := h.key
			k.Platform = tc.platform
			r := h.svc.HandleText(t.Context(), Command{Key: k, User: player("UA"), Self: h.self, CanManage: true}, tc.text)
			if r.Problem != ProblemBadVariant || !strings.Contains(r.Text, tc.want) || strings.Contains(r.Text, tc.not) {
				t.Errorf("%s %q: %v %q, want a refusal with %q and without %q", tc.platform, tc.text, r.Problem, r.Text, tc.want, tc.not)
			}
		}
	})
}

// TestDaysRefusalEchoesTheNumber: a refused number of days is echoed as
// typed after "days", without quotes.
func TestDaysRefusalEchoesTheNumber(t *testing.T) {
	tests := []struct{ text, want string }{
		{"challenge <@UB> days 99", "days 99: a correspondence game allows 1 to 14 days per move."},
		{"challenge <@UB> days 0", "days 0: a correspondence game allows 1 to 14 days per move."},
	}
	forEachStore(t, func(t *testing.T, h *harness) {
		for _, tc := range tests {
			r := h.say("UA", tc.text)
			if r.Problem != ProblemBadVariant || !strings.Contains(r.Text, tc.want) || strings.Contains(r.Text, `"`) {
				t.Errorf("%q: %v %q, want %q", tc.text, r.Problem, r.Text, tc.want)
			}
		}
	})
}
