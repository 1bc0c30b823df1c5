package bot

import (
	"strings"
	"testing"
	"time"

	"github.com/connect4/connect4/bot/clock"
	"github.com/connect4/connect4/bot/lang"
	"github.com/connect4/connect4/bot/match"
	"github.com/connect4/connect4/bot/pairing"
	"github.com/connect4/connect4/bot/tournament"
)

// firedPosts claims what is due on h's store, fires it and returns the
// texts the notices post, and the notices.
func firedPosts(t *testing.T, h *harness) ([]string, []Notice) {
	t.Helper()
	_, ns := fired(t, h, h.store.(Schedule))
	var texts []string
	for _, n := range ns {
		if n.Post != nil {
			texts = append(texts, n.Post.Text)
		}
	}
	return texts, ns
}

// TestTournamentRoundLimit: when a round's time limit passes, the
// schedule adjudicates its unfinished games once: on a clock, the player
// with less time left loses on time (the other can still connect); the
// game's message is edited to say so, and the next round starts. Without
// a clock the game is drawn.
func TestTournamentRoundLimit(t *testing.T) {
	forEachStore(t, func(t *testing.T, h *harness) {
		ctx := t.Context()
		ts := h.store.(TournamentStore)
		r := h.svc.HandleText(ctx, Command{Key: h.key, User: player("UO"), Self: h.self, CanManage: true}, "tournament new swiss rounds 2 clock 60+0 round 30m")
		h.want(r, Public, ProblemNone, "opens a tournament", "Each round lasts at most 30 minutes")
		for _, u := range []string{"UA", "UB", "UC"} {
			h.want(h.say(u, "tournament join"), Public, ProblemNone, "joins the tournament")
		}
		start := h.say("UO", "tournament start")
		h.want(start, Public, ProblemNone, "Round 1 of 2 begins")
		game := start.Posts[0]
		rec := h.record(game)
		white, black := rec.Challenger.ID, rec.Opponent.ID
		h.want(h.click(white, game, "4"), Update, ProblemNone, "dropped a disc in column 4")
		h.clock.Advance(20 * time.Minute)
		if texts, _ := firedPosts(t, h); len(texts) != 0 {
			t.Fatalf("before the limit: %q", texts)
		}
		h.clock.Advance(11 * time.Minute)
		texts, ns := firedPosts(t, h)
		if len(texts) != 1 || !strings.Contains(texts[0], "Round 1's time is up") || !strings.Contains(texts[0], "Round 2 of 2 begins") {
			t.Fatalf("after the limit: %q, want round 1 adjudicated and round 2 begun, once", texts)
		}
		var edited bool
		for _, e := range ns[0].Post.Edits {
			if e.Reply.GameID == rec.ID && !e.Message.IsZero() && strings.Contains(e.Reply.Text, "<@"+black+"> has less time left and loses on time") {
				edited = true
			}
		}
		if !edited {
			t.Errorf("the game's message is not edited to say %s lost on time: %+v", black, ns[0].Post.Edits)
		}
		tr, err := ts.Tournament(ctx, h.key)
		if err != nil || tr.Round() != 2 || tr.Rounds[0].Games[0].Result != pairing.WhiteWins {
			t.Fatalf("tournament at round %d, round 1 %v (%v); want round 2, White winning round 1", tr.Round(), tr.Rounds[0].Games, err)
		}
		// The same entry fired again (a worker that died before its Done)
		// changes nothing more.
		if n, err := h.svc.Fire(ctx, match.Due{Key: h.key, GameID: tr.ID, Kind: match.TimerRoundLimit, Due: tr.Rounds[0].Started.Add(30 * time.Minute)}); err != nil || !n.IsZero() {
			t.Fatalf("the limit fired again: %+v, %v; want nothing", n, err)
		}
		h.say("UO", "tournament cancel")

		// Without a clock: a draw.
		h.svc.HandleText(ctx, Command{Key: h.key, User: player("UO"), Self: h.self, CanManage: true}, "tournament new round-robin round 1h")
		for _, u := range []string{"UA", "UB", "UC"} {
			h.say(u, "tournament join")
		}
		h.want(h.say("UO", "tournament start"), Public, ProblemNone, "Round 1 of 3 begins")
		h.clock.Advance(61 * time.Minute)
		texts, _ = firedPosts(t, h)
		if len(texts) != 1 || !strings.Contains(texts[0], "Round 2 of 3 begins") {
			t.Fatalf("after the limit without a clock: %q", texts)
		}
		if tr, _ := ts.Tournament(ctx, h.key); tr.Rounds[0].Games[0].Result != pairing.Draw {
			t.Errorf("round 1 without a clock: %v, want a draw", tr.Rounds[0].Games[0].Result)
		}
	})
}

// TestTournamentStartAt: a tournament opened with a start time starts by
// the schedule with the players who joined; one with too few players is
// cancelled and says so; bad times are refused in one line.
func TestTournamentStartAt(t *testing.T) {
	forEachStore(t, func(t *testing.T, h *harness) {
		ctx := t.Context()
		ts := h.store.(TournamentStore)
		manage := func(k match.Key, text string) Reply {
			return h.svc.HandleText(ctx, Command{Key: k, User: player("UO"), Self: h.self, CanManage: true}, text)
		}
		for _, bad := range []string{"round 0m", "round 15d", "round 2x", "start 25:00", "start in 0h", "start in 15d", "start"} {
			r := manage(h.key, "tournament new swiss "+bad)
			if r.Problem == ProblemNone || strings.Contains(r.Text, "\n") {
				t.Errorf("%q: %v %q, want a one-line refusal", bad, r.Problem, r.Text)
			}
		}
		if _, err := ts.Tournament(ctx, h.key); err == nil {
			t.Fatal("a refused tournament was stored")
		}
		if h.prefix == "" { // the memory store's clock is at noon: 11:00 has passed
			h.want(manage(h.key, "tournament new swiss start 11:00"), Ephemeral, ProblemBadVariant, "The start time must be ahead")
		}
		r := manage(h.key, "tournament new swiss start in 2h")
		h.want(r, Public, ProblemNone, "It starts on its own at")
		for _, u := range []string{"UA", "UB", "UC"} {
			h.say(u, "tournament join")
		}
		other := h.key
		other.Channel = "C2"
		h.want(manage(other, "tournament new swiss start in 2h"), Public, ProblemNone, "opens a tournament")
		h.svc.HandleText(ctx, Command{Key: other, User: player("UA"), Self: h.self}, "tournament join")
		h.clock.Advance(time.Hour)
		if texts, _ := firedPosts(t, h); len(texts) != 0 {
			t.Fatalf("an hour early: %q", texts)
		}
		h.clock.Advance(time.Hour + time.Second)
		texts, _ := firedPosts(t, h)
		joined := strings.Join(texts, "\n")
		if len(texts) != 2 || strings.Count(joined, "Round 1 of 2 begins") != 1 || strings.Count(joined, "fewer than 3 players joined") != 1 {
			t.Fatalf("at the start time: %q, want one start and one cancel", texts)
		}
		if tr, err := ts.Tournament(ctx, h.key); err != nil || tr.Status != tournament.Running {
			t.Errorf("the full one: %v (%v), want running", tr.Status, err)
		}
		if tr, err := ts.Tournament(ctx, other); err != nil || tr.Status != tournament.Cancelled {
			t.Errorf("the one short of players: %v (%v), want cancelled", tr.Status, err)
		}
	})
}

// TestTournamentIdleForfeit: a tournament game nobody moves in is closed
// by the abandon timer as a loss by forfeit for the player whose turn it
// was (the other can still connect), not as a draw, and the round goes
// on.
func TestTournamentIdleForfeit(t *testing.T) {
	h, m := timedHarness(t)
	h.svc.HandleText(t.Context(), Command{Key: h.key, User: player("UO"), Self: h.self, CanManage: true}, "tournament new swiss rounds 2")
	for _, u := range []string{"UA", "UB", "UC"} {
		h.say(u, "tournament join")
	}
	start := h.say("UO", "tournament start")
	h.want(start, Public, ProblemNone, "Round 1 of 2 begins")
	rec := h.record(start.Posts[0])
	h.want(h.click(rec.Challenger.ID, start.Posts[0], "4"), Update, ProblemNone, "dropped a disc") // now the other's turn
	var texts []string
	for range 8 { // a day at a time: reminders and claims come first, then the abandon
		h.clock.Advance(24 * time.Hour)
		_, ns := fired(t, h, m)
		for _, n := range ns {
			if n.Edit != nil {
				texts = append(texts, n.Edit.Text)
			}
			if n.Post != nil {
				texts = append(texts, n.Post.Text)
			}
		}
	}
	said := strings.Join(texts, "\n")
	if !strings.Contains(said, "<@"+rec.Opponent.ID+"> left the game waiting for") || !strings.Contains(said, "Round 2 of 2 begins") {
		t.Fatalf("the idle game's notices: %q, want a forfeit by %s and round 2", said, rec.Opponent.ID)
	}
	tr, err := m.Tournament(t.Context(), h.key)
	if err != nil || tr.Rounds[0].Games[0].Result != pairing.WhiteWins {
		t.Fatalf("round 1: %v (%v), want won by White by forfeit", tr.Rounds[0].Games, err)
	}
}

// TestTournamentCancelEndsGames: the organiser's cancel ends the running
// round's games, unrated, each message edited to say so, instead of
// leaving them as ordinary games.
func TestTournamentCancelEndsGames(t *testing.T) {
	forEachStore(t, func(t *testing.T, h *harness) {
		h.svc.HandleText(t.Context(), Command{Key: h.key, User: player("UO"), Self: h.self, CanManage: true}, "tournament new round-robin")
		for _, u := range []string{"UA", "UB", "UC", "UD"} {
			h.say(u, "tournament join")
		}
		start := h.say("UO", "tournament start")
		if len(start.Posts) != 2 {
			t.Fatalf("start posted %d games, want 2", len(start.Posts))
		}
		first := h.record(start.Posts[0])
		h.click(first.Challenger.ID, start.Posts[0], "4")
		h.svc.Attach(t.Context(), h.key, first.ID, match.MessageRef{Channel: "C1", MessageID: "G1"})
		c := h.say("UO", "tournament cancel")
		h.want(c, Public, ProblemNone, "<@UO> cancelled the tournament.")
		var edited bool
		for _, e := range c.Edits {
			if e.Message.MessageID == "G1" && strings.Contains(e.Reply.Text, "this game ends here, unrated") && len(e.Reply.Buttons) == 0 {
				edited = true
			}
		}
		if !edited {
			t.Errorf("cancel edits %+v, want the game's message to say it ended unrated", c.Edits)
		}
		for _, p := range start.Posts {
			rec := h.record(p)
			if rec.Status != match.StatusFinished || rec.Finish != match.FinishCancelled || rec.Rating != nil {
				t.Errorf("game %s after the cancel: %v/%v rating %v, want cancelled unrated", rec.ID, rec.Status, rec.Finish, rec.Rating)
			}
		}
		for _, u := range []string{"UA", "UB", "UC", "UD"} {
			if g, err := h.store.PlayerGame(t.Context(), h.key, u); err == nil {
				t.Errorf("%s still in game %s after the cancel", u, g.ID)
			}
		}
		if st, err := h.store.Stats(t.Context(), h.key, first.Challenger.ID); err == nil && st.Games() > 0 {
			t.Errorf("%s has %d games counted, want none", first.Challenger.ID, st.Games())
		}
	})
}

// TestTournamentStartRounds: a Swiss opened with as many rounds as the
// players who joined, or more, cannot start: by hand the organiser is
// told how many players it needs and what to do, and nothing changes; at
// its start time the schedule cancels it and says so, once, instead of
// failing at every poll.
func TestTournamentStartRounds(t *testing.T) {
	tests := []struct {
		name string
		open string
		// start starts it: by hand, or by the schedule.
		byHand bool
		want   string
	}{
		{"by hand", "tournament new swiss rounds 3", true, "This Swiss needs at least 4 players for its rounds: wait for more to join"},
		{"at its time", "tournament new swiss rounds 5 start in 1h", false, "fewer than 6 players joined: it is cancelled"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			forEachStore(t, func(t *testing.T, h *harness) {
				ctx := t.Context()
				ts := h.store.(TournamentStore)
				h.want(h.svc.HandleText(ctx, Command{Key: h.key, User: player("UO"), Self: h.self, CanManage: true}, tc.open), Public, ProblemNone, "opens a tournament")
				for _, u := range []string{"UA", "UB", "UC"} {
					h.say(u, "tournament join")
				}
				if tc.byHand {
					h.want(h.say("UO", "tournament start"), Ephemeral, ProblemNotStarted, tc.want)
					if tr, err := ts.Tournament(ctx, h.key); err != nil || tr.Status != tournament.Joining {
						t.Errorf("after the refused start: %v (%v), want still taking players", tr.Status, err)
					}
					return
				}
				h.clock.Advance(time.Hour + time.Second)
				texts, _ := firedPosts(t, h)
				if len(texts) != 1 || !strings.Contains(texts[0], tc.want) {
					t.Fatalf("at the start time: %q, want %q once", texts, tc.want)
				}
				if tr, err := ts.Tournament(ctx, h.key); err != nil || tr.Status != tournament.Cancelled {
					t.Errorf("after the start time: %v (%v), want cancelled", tr.Status, err)
				}
				if texts, _ := firedPosts(t, h); len(texts) != 0 {
					t.Errorf("fired again: %q", texts)
				}
			})
		})
	}
}

// TestAdjudicateSaysWhy: at a round's time limit the player with less
// time left loses on time, and on equal time the player to move; the
// message says which of the two reasons it was.
func TestAdjudicateSaysWhy(t *testing.T) {
	now := time.Date(2026, 12, 6, 12, 0, 0, 0, time.UTC)
	live, err := clock.NewLive(5, 0)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name         string
		redLeft      time.Duration // red is to move; yellow has 5 minutes
		want, wantNo string
	}{
		{"less time", 2 * time.Minute, "<@UA> has less time left and loses on time. <@UB> wins!", "same time"},
		{"equal time", 5 * time.Minute, "both have the same time left, so <@UA>, who is to move, loses on time. <@UB> wins!", "less time"},
	}
	for _, tc := range tests {
		k0 := clock.Start(live, 2, now)
		k0.Left[0] = tc.redLeft
		k := match.Key{Platform: "test", Workspace: "T1", Channel: "CA"}
		r := &match.Record{Key: k, Status: match.StatusPlaying, Challenger: player("UA"), Opponent: player("UB"), RedID: "UA",
			Game: newTestGame(t), FirstTo: 1, Clock: k0}
		_, text, ok := adjudicate(r, now)
		got := text.in(lang.English)
		if !ok || !strings.Contains(got, tc.want) || strings.Contains(got, tc.wantNo) {
			t.Errorf("%s: adjudicate = %q (%v), want %q", tc.name, got, ok, tc.want)
		}
	}
}
