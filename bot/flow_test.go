package bot

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/connect4/connect4/bot/match"

	"github.com/connect4/connect4/engine"
	"github.com/connect4/connect4/render"
	"github.com/connect4/connect4/sessions"
	"github.com/connect4/connect4/sessions/storetest"
)

// flows are the whole-flow tests, each run on every store by TestFlows
// and on a Redis Cluster by TestFlowsOnCluster.
var flows = []struct {
	name string
	run  func(t *testing.T, h *harness)
}{
	{"GameToWinAndRematch", flowGameToWinAndRematch},
	{"Draw", flowDraw},
	{"ChallengeAnswers", flowChallengeAnswers},
	{"Refusals", flowRefusals},
	{"ResignAndClaim", flowResignAndClaim},
	{"Match", flowMatch},
	{"LeaderboardAndStats", flowLeaderboardAndStats},
	{"BoardRepost", flowBoardRepost},
	{"AIGame", flowAIGame},
	{"RacingClicks", flowRacingClicks},
	{"Ratings", flowRatings},
	{"Offers", flowOffers},
	{"ResignInMatch", flowResignInMatch},
	{"Takebacks", flowTakebacks},
	{"OpenChallenge", flowOpenChallenge},
	{"CrossedOpenChallenges", flowCrossedOpen},
	{"ManyGames", flowManyGames},
	{"GameLimits", flowGameLimits},
}

func TestFlows(t *testing.T) {
	t.Parallel() // each flow has its own store, key prefix and clock
	for _, f := range flows {
		t.Run(f.name, func(t *testing.T) {
			t.Parallel()
			forEachStore(t, f.run)
		})
	}
}

// TestFlowsOnCluster runs every flow, of two players (flows) and of more
// (multiFlows), on one 3-master Redis Cluster started for the test, the way
// a multi-replica deployment stores games. The flows run at once, each
// under its own key prefix: starting the cluster is most of the wait.
func TestFlowsOnCluster(t *testing.T) {
	t.Parallel() // it waits (its own servers, timers) and shares nothing
	c := storetest.SharedCluster(t)
	for _, f := range append(slices.Clone(flows), multiFlows...) {
		t.Run(f.name, func(t *testing.T) {
			t.Parallel()
			clk := storetest.NewClock(time.Now())
			prefix := storetest.Prefix(t, c)
			f.run(t, newHarness(t, storetest.NewRedis(t, c, sessions.Options{Prefix: prefix, Now: clk.Now}), clk, prefix))
		})
	}
}

func flowGameToWinAndRematch(t *testing.T, h *harness) {
	r := h.start("UA", "UB")
	if r.Red.ID != "UA" || r.Yellow.ID != "UB" || r.Game.Turn() != engine.Red || r.Game.Moves() != 0 {
		t.Fatalf("after accept: red %s yellow %s turn %v moves %d, want UA red to move first", r.Red.ID, r.Yellow.ID, r.Game.Turn(), r.Game.Moves())
	}
	if len(r.Buttons) != 8 || r.Buttons[0].Label != "1" || r.Buttons[6].Label != "7" || r.Buttons[7].Label != "Offer draw" {
		t.Fatalf("buttons %v, want columns 1..7 and Offer draw", r.Buttons)
	}
	r = h.drops(r, 1, 2, 1, 2, 1, 2)
	h.want(r, Update, ProblemNone, "<@UB> dropped a disc in column 2.")
	if m := r.Format(render.Unicode()); !strings.Contains(m.Status, "<@UA>, it's your turn") {
		t.Errorf("status %q, want UA to move", m.Status)
	}
	r = h.drops(r, 1)
	h.want(r, Update, ProblemNone, "<@UA> wins!")
	if r.Game.State() != engine.Won || r.Game.Winner() != engine.Red {
		t.Fatalf("state %v winner %v", r.Game.State(), r.Game.Winner())
	}
	last := r.Buttons[len(r.Buttons)-1]
	if last.Label != "Rematch" {
		t.Fatalf("last button %q, want Rematch", last.Label)
	}
	for _, b := range r.Buttons[:7] {
		if !b.Disabled {
			t.Fatalf("column button %s enabled after the win", b.Label)
		}
	}
	if m := r.Format(render.Unicode()); strings.Count(m.Board, "🟥") != 4 {
		t.Errorf("board does not highlight the winning line:\n%s", m.Board)
	}
	// A late click on the finished board.
	h.want(h.click("UB", r, "3"), Ephemeral, ProblemGameOver)

	// The rematch is an offer: nothing starts until the other player agrees.
	offer := h.click("UB", r, "Rematch")
	h.want(offer, Update, ProblemNone, "<@UB> offers a rematch. <@UA>, do you accept?")
	h.want(h.click("UB", offer, "Accept"), Ephemeral, ProblemOwnOffer)
	h.want(h.click("UC", offer, "Accept"), Ephemeral, ProblemNotInGame)
	h.want(h.click("UB", r, "Rematch"), Ephemeral, ProblemOfferPending, "<@UA>")
	if rec := h.record(offer); rec.Status != match.StatusFinished || rec.Offer == nil {
		t.Fatalf("after the offer: %v with offer %+v, want the finished game with the offer", rec.Status, rec.Offer)
	}
	r = h.click("UA", offer, "Accept")
	h.want(r, Update, ProblemNone, "Rematch! <@UB> is red")
	h.want(h.click("UA", offer, "Accept"), Ephemeral, ProblemNoOffer) // a double click
	if r.Red.ID != "UB" || r.Game.Moves() != 0 {
		t.Fatalf("rematch: red %s moves %d, want UB and a fresh board", r.Red.ID, r.Game.Moves())
	}
	h.want(h.click("UA", r, "4"), Ephemeral, ProblemNotYourTurn, "<@UB>")
	st, err := h.store.Stats(t.Context(), h.key, "UA")
	if err != nil || st.Wins != 1 || st.Losses != 0 {
		t.Fatalf("stats of UA = %+v, %v; want 1 win", st, err)
	}
}

func flowDraw(t *testing.T, h *harness) {
	r := h.start("UA", "UB")
	draw := []int{0, 1, 5, 5, 0, 4, 4, 1, 4, 6, 0, 6, 1, 3, 5, 5, 6, 0, 5, 1, 4, 3, 2, 4, 4, 3, 3, 3, 0, 0, 5, 3, 2, 6, 2, 2, 1, 2, 6, 2, 1, 6}
	for i := range draw {
		draw[i]++
	}
	r = h.drops(r, draw...)
	h.want(r, Update, ProblemNone, "It's a draw!")
	if r.Buttons[len(r.Buttons)-1].Label != "Rematch" {
		t.Error("no Rematch after a draw")
	}
	for _, id := range []string{"UA", "UB"} {
		st, _ := h.store.Stats(t.Context(), h.key, id)
		if st.Draws != 1 || st.Wins != 0 || st.Losses != 0 {
			t.Errorf("stats of %s = %+v, want one draw", id, st)
		}
	}
}

func flowChallengeAnswers(t *testing.T, h *harness) {
	c := h.say("UA", "<@UB>")
	h.want(c, Public, ProblemNone, "<@UA> challenges <@UB> to Connect Four", "10 minutes")
	// Others may play beside them, but not a player of the open challenge.
	h.want(h.say("UC", "challenge <@UA>"), Ephemeral, ProblemBusy, "<@UA> has challenged <@UB> in this channel already")
	h.want(h.click("UC", c, "Accept"), Ephemeral, ProblemNotForYou, "<@UB>")
	h.want(h.click("UA", c, "Accept"), Ephemeral, ProblemOwnChallenge)
	h.want(h.click("UB", c, "Cancel"), Ephemeral, ProblemOnlyChallenger, "<@UA>")
	h.want(h.say("UA", "resign"), Ephemeral, ProblemNotStarted, "<@UB>")
	h.want(h.click("UB", c, "Decline"), Update, ProblemNone, "<@UB> declined the challenge from <@UA>")
	h.want(h.click("UB", c, "Accept"), Ephemeral, ProblemStale)

	c = h.say("UA", "<@UB>")
	h.want(h.click("UA", c, "Cancel"), Update, ProblemNone, "<@UA> withdrew")
	h.want(h.say("UA", "<@UB>"), Public, ProblemNone, "<@UA> challenges <@UB>")
	h.want(h.say("UA", "cancel"), Public, ProblemNone, "<@UA> withdrew")
	h.want(h.say("UA", "cancel"), Ephemeral, ProblemNoChallenge)

	c = h.say("UA", "<@UB>")
	h.clock.Advance(11 * time.Minute)
	h.want(h.click("UB", c, "Accept"), Update, ProblemExpired, "expired")
	h.want(h.click("UB", c, "Accept"), Ephemeral, ProblemExpired)
	h.want(h.say("UC", "<@UD>"), Public, ProblemNone, "<@UC> challenges <@UD>")

	if want := []string{"finished:declined", "finished:cancelled", "finished:cancelled", "finished:expired"}; fmt.Sprint(h.events) != fmt.Sprint(want) {
		t.Errorf("events %v, want %v", h.events, want)
	}
}

func flowRefusals(t *testing.T, h *harness) {
	h.want(h.say("UA", "<@UA>"), Ephemeral, ProblemSelfChallenge)
	h.want(h.svc.Handle(t.Context(), Command{Key: h.key, User: player("UA"),
		Request: Request{Kind: KindChallenge, Opponent: player("UOTHERBOT"), OpponentIsBot: true}}), Ephemeral, ProblemBotChallenge, "<@UOTHERBOT>")
	h.want(h.say("UA", "<@UB> 7x11"), Ephemeral, ProblemBadVariant, "rows 11", "4 to 10")
	h.want(h.say("UA", "<@UB> 11x7"), Ephemeral, ProblemBadVariant, "cols 11", "4 to 10")
	h.want(h.say("UA", "<@UB> 6x7 connect 8"), Ephemeral, ProblemBadVariant, "connect 8", "3 to 7")
	h.want(h.say("UA", "<@UB> first-to 12"), Ephemeral, ProblemBadVariant, "first-to 12", "1 to 9")
	h.want(h.say("UA", "<@UB> sideways"), Ephemeral, ProblemUsage, "sideways", "/connect4 help")
	h.want(h.say("UA", "dance"), Ephemeral, ProblemUsage)
	h.want(h.say("UA", "board"), Ephemeral, ProblemNoGame)
	h.want(h.say("UA", "resign"), Ephemeral, ProblemNoGame)
	h.want(h.say("UA", "rematch"), Ephemeral, ProblemRematchButton)
	h.want(h.say("UA", "ai impossible"), Ephemeral, ProblemBadLevel, `"impossible"`)
	h.want(h.say("UA", "help"), Ephemeral, ProblemNone, "/connect4 leaderboard")

	r := h.start("UA", "UB")
	h.want(h.say("UC", "<@UB>"), Ephemeral, ProblemBusy, "<@UB> is playing <@UA> in this channel already")
	h.want(h.click("UC", r, "1"), Ephemeral, ProblemNotInGame)
	h.want(h.click("UB", r, "1"), Ephemeral, ProblemNotYourTurn, "<@UA>")
	after := h.drops(r, 3)
	// Stale: the old board's buttons, and a double click of the same column.
	h.want(h.click("UB", r, "1"), Ephemeral, ProblemStale)
	h.want(h.click("UA", r, "3"), Ephemeral, ProblemStale)
	full := h.drops(after, 3, 3, 3, 3, 3)
	for _, b := range full.Buttons {
		if b.Label == "3" && !b.Disabled {
			t.Error("full column 3 has an enabled button")
		}
	}
	// A forged click on the full column at the right move number.
	forged := Command{Key: h.key, User: player(full.Red.ID), Request: Request{
		Kind: KindDrop, GameID: mustGameID(t, full), Move: full.Game.Moves(), Column: 2}}
	h.want(h.svc.Handle(t.Context(), forged), Ephemeral, ProblemColumnFull, "Column 3 is full")
	forged.Column = 9 // off a 7-wide board
	h.want(h.svc.Handle(t.Context(), forged), Ephemeral, ProblemStale)
	h.want(h.say("UC", "resign"), Ephemeral, ProblemNotInGame)
	h.want(h.say("UA", "reset"), Ephemeral, ProblemNotCorrupt)
	if full.Game.Moves() != 6 {
		t.Errorf("moves %d, want 6: a refused click changed the game", full.Game.Moves())
	}
	rec := h.record(full)
	if g := rec.Game; g.Moves() != 6 {
		t.Errorf("stored moves %d, want 6", g.Moves())
	}
}

func mustGameID(t *testing.T, r Reply) string {
	req, err := ParseAction(r.Buttons[0].Value)
	if err != nil {
		t.Fatal(err)
	}
	return req.GameID
}

func flowResignAndClaim(t *testing.T, h *harness) {
	r := h.start("UA", "UB")
	h.drops(r, 4)
	h.want(h.say("UB", "claim"), Ephemeral, ProblemYourMove)
	h.want(h.say("UA", "claim"), Ephemeral, ProblemTooEarly, "<@UB> still has 24 hours")
	h.clock.Advance(23 * time.Hour)
	h.want(h.say("UA", "claim"), Ephemeral, ProblemTooEarly, "1 hour")
	h.clock.Advance(time.Hour)
	r = h.say("UA", "claim")
	h.want(r, Public, ProblemNone, "<@UB> didn't move in time. <@UA> wins!")
	if r.Game == nil || r.Game.State() != engine.Resigned {
		t.Fatalf("after the claim: %+v", r.Game)
	}
	if alt := r.AltText(); !strings.Contains(alt, "ran out of time;") || strings.Contains(alt, "resigned") {
		t.Errorf("a claim's alt text says %q, want it lost on time", alt)
	}

	r = h.agree("UB", "UA", r, "Rematch")
	h.want(r, Update, ProblemNone, "<@UB> is red")
	h.want(h.say("UC", "resign"), Ephemeral, ProblemNotInGame)
	r = h.say("UB", "resign")
	h.want(r, Public, ProblemNone, "<@UB> resigned. <@UA> wins!")
	if alt := r.AltText(); !strings.Contains(alt, "resigned;") {
		t.Errorf("a resignation's alt text says %q", alt)
	}
	h.want(h.say("UA", "resign"), Ephemeral, ProblemNoGame)
	st, _ := h.store.Stats(t.Context(), h.key, "UA")
	if st.Wins != 2 {
		t.Errorf("UA %+v, want 2 wins (claim and resignation)", st)
	}
}

func flowMatch(t *testing.T, h *harness) {
	r := h.start("UA", "UB", "6x5", "connect", "3", "first-to", "2")
	if cfg := r.Game.Config(); cfg != (engine.Config{Rows: 5, Cols: 6, Connect: 3}) || len(r.Buttons) != 6 {
		t.Fatalf("config %+v with %d buttons", cfg, len(r.Buttons))
	}
	if !strings.Contains(r.Score, "first to 2: <@UA> 0 – 0 <@UB>") {
		t.Fatalf("score %q", r.Score)
	}
	r = h.drops(r, 1, 2, 1, 2, 1) // UA (red) wins round 1
	h.want(r, Update, ProblemNone, "<@UA> wins!", "<@UA> leads 1–0, first to 2.")
	h.want(h.click("UB", r, "3"), Ephemeral, ProblemRoundOver)
	h.want(h.click("UC", r, "Next round"), Ephemeral, ProblemNotInGame)
	next := h.agree("UB", "UA", r, "Next round")
	h.want(next, Update, ProblemNone, "Round 2! <@UB> is red")
	h.want(h.click("UA", r, "Next round"), Ephemeral, ProblemStale) // double click
	if next.Red.ID != "UB" || !strings.Contains(next.Score, "<@UA> 1 – 0 <@UB>") {
		t.Fatalf("round 2: red %s score %q", next.Red.ID, next.Score)
	}
	r = h.drops(next, 1, 2, 1, 2, 1) // UB (red) wins round 2
	h.want(r, Update, ProblemNone, "<@UB> wins!", "It's 1–1 in the match, first to 2.")
	r = h.agree("UA", "UB", r, "Next round")
	r = h.drops(r, 6, 1, 6, 2, 6) // UA wins round 3 and the match
	h.want(r, Update, ProblemNone, "<@UA> wins the match 2–1")
	if r.Buttons[len(r.Buttons)-1].Label != "Rematch" {
		t.Error("no Rematch after the match")
	}
	a, _ := h.store.Stats(t.Context(), h.key, "UA")
	b, _ := h.store.Stats(t.Context(), h.key, "UB")
	if a.Wins != 2 || a.Losses != 1 || b.Wins != 1 || b.Losses != 2 {
		t.Errorf("stats UA %+v UB %+v, want 2-1 and 1-2 (every round counts)", a, b)
	}
}

func flowLeaderboardAndStats(t *testing.T, h *harness) {
	h.want(h.say("UA", "leaderboard"), Public, ProblemNone, "No games have finished")
	win := func(winner, loser string) {
		r := h.start(winner, loser)
		h.drops(r, 1, 2, 1, 2, 1, 2, 1)
	}
	win("UA", "UB")
	win("UA", "UC")
	win("UB", "UC")
	win("UA", "UB")
	r := h.say("UZ", "leaderboard")
	h.want(r, Public, ProblemNone, "🥇 ua ", "· 3-0-0", "🥈 ub ", "· 1-2-0", "🥉 uc ", "· 0-2-0")
	if strings.Index(r.Text, "<@UA>") > strings.Index(r.Text, "<@UB>") {
		t.Errorf("order wrong:\n%s", r.Text)
	}
	h.want(h.say("UZ", "stats <@UB>"), Ephemeral, ProblemNone, "<@UB> in this channel: rating ", "1 win, 2 losses, 0 draws — 33% of 3 games won", "lost the last game", "Last 3 ratings: ")
	h.want(h.say("UZ", "stats"), Ephemeral, ProblemNone, "<@UZ> hasn't finished a game")
}

func flowBoardRepost(t *testing.T, h *harness) {
	c := h.say("UA", "<@UB>")
	h.want(h.say("UB", "board"), Public, ProblemNone, "challenges <@UB>")
	// A spectator is told which games are running, pinging nobody.
	h.want(h.say("UC", "board"), Ephemeral, ProblemNone, "Games here: @ua has challenged @UB")
	r := h.drops(h.click("UB", c, "Accept"), 4, 4)
	b := h.say("UB", "board")
	h.want(b, Public, ProblemNone, "The game between <@UA> and <@UB>")
	if b.Game.Moves() != 2 || len(b.Buttons) != 8 { // 7 columns, Offer draw
		t.Fatalf("re-posted board: %d moves, %d buttons", b.Game.Moves(), len(b.Buttons))
	}
	// Both messages carry live buttons for the same move.
	h.drops(b, 5)
	h.want(h.click("UA", r, "5"), Ephemeral, ProblemStale)
}

func flowAIGame(t *testing.T, h *harness) {
	r := h.say("UA", "ai hard")
	h.want(r, Public, ProblemNone, "takes on the AI (hard)")
	if r.Red.ID != "UA" || r.Yellow.ID != "UBOT" {
		t.Fatalf("red %s yellow %s, want the human red and the bot yellow", r.Red.ID, r.Yellow.ID)
	}
	// The AI (leftmost legal column) answers in the same reply.
	r = h.click("UA", r, "4")
	h.want(r, Update, ProblemNone, "<@UA> dropped a disc in column 4.", "<@UBOT> dropped a disc in column 1.")
	if r.Game.Moves() != 2 || r.Game.Turn() != engine.Red {
		t.Fatalf("moves %d turn %v, want the human to move after the AI", r.Game.Moves(), r.Game.Turn())
	}
	r = h.drops(r, 4, 4, 4)
	h.want(r, Update, ProblemNone, "<@UA> wins!")
	// Rematch: the AI is red and moves at once.
	r = h.click("UA", r, "Rematch")
	h.want(r, Update, ProblemNone, "Rematch!", "<@UBOT> dropped a disc in column 1.")
	if r.Red.ID != "UBOT" || r.Game.Moves() != 1 || r.Game.Turn() != engine.Yellow {
		t.Fatalf("AI rematch: red %s moves %d", r.Red.ID, r.Game.Moves())
	}
	// Games against the AI stay off the leaderboard.
	if top, _ := h.store.Leaderboard(t.Context(), h.key, 10); len(top) != 0 {
		t.Errorf("leaderboard %v, want AI games left out", top)
	}
	h.want(h.say("UA", "resign"), Public, ProblemNone, "<@UA> resigned")
	// Challenging this bot's own user starts an AI game at once.
	h.want(h.say("UB", "<@UBOT>"), Public, ProblemNone, "takes on the AI (medium)")
}

// failing is a store whose every call fails with err.
type failing struct {
	Store
	err error
}

func (f failing) Create(context.Context, *match.Record) error { return f.err }
func (f failing) Load(context.Context, match.Key, string) (*match.Record, error) {
	return nil, f.err
}
func (f failing) Update(context.Context, match.Key, string, func(*match.Record) (match.Tally, error)) (*match.Record, error) {
	return nil, f.err
}
func (f failing) Active(context.Context, match.Key) ([]*match.Record, error) { return nil, f.err }
func (f failing) Settings(context.Context, match.Key) (match.Settings, error) {
	return match.Settings{}, f.err
}
func (f failing) PlayerGame(context.Context, match.Key, string) (*match.Record, error) {
	return nil, f.err
}
func (f failing) Leaderboard(context.Context, match.Key, int) ([]match.Standing, error) {
	return nil, f.err
}
func (f failing) Ratings(context.Context, match.Key, int) ([]match.Standing, error) {
	return nil, f.err
}

func TestStoreFailures(t *testing.T) {
	tests := []struct {
		err  error
		want Problem
	}{
		{fmt.Errorf("sessions: load: %w: dial tcp: connection refused", match.ErrUnavailable), ProblemUnavailable},
		{fmt.Errorf("sessions: update: %w", match.ErrConflict), ProblemConflict},
		{&match.CorruptError{Key: match.Key{Platform: "test", Workspace: "T", Channel: "C"}, Err: errors.New("bad json")}, ProblemCorrupt},
		{&match.CorruptError{Key: match.Key{Platform: "test", Workspace: "T", Channel: "C"}, Err: fmt.Errorf("%w: schema version 9", match.ErrNewerSchema)}, ProblemNewerVersion},
		{errors.New("redis: unexpected reply"), ProblemInternal},
	}
	for _, tt := range tests {
		var logs strings.Builder
		svc := New(failing{err: tt.err}, Options{Logger: slogTo(&logs)})
		for _, text := range []string{"<@UB>", "board", "leaderboard", "resign"} {
			r := svc.HandleText(t.Context(), Command{Key: match.Key{Platform: "test", Workspace: "T", Channel: "C"}, User: player("UA")}, text)
			if r.Visibility != Ephemeral || r.Problem != tt.want {
				t.Errorf("%v on %q: %v/%v %q, want ephemeral %v", tt.err, text, r.Visibility, r.Problem, r.Text, tt.want)
			}
			if strings.Contains(r.Text, "redis") || strings.Contains(r.Text, "dial") {
				t.Errorf("internal error text leaked to chat: %q", r.Text)
			}
		}
		if tt.want == ProblemInternal && !strings.Contains(logs.String(), "level=ERROR") {
			t.Errorf("unexpected error not logged at Error: %q", logs.String())
		}
	}
}

// TestRacingClicks: many clicks at once on one board land exactly one move.
func flowRacingClicks(t *testing.T, h *harness) {
	r := h.start("UA", "UB")
	var wg sync.WaitGroup
	replies := make([]Reply, 40)
	for i := range replies {
		wg.Add(1)
		go func() {
			defer wg.Done()
			user := []string{"UA", "UB", "UC"}[i%3]
			replies[i] = h.click(user, r, fmt.Sprint(1+i%7))
		}()
	}
	wg.Wait()
	landed := 0
	for _, rep := range replies {
		if rep.Problem == ProblemNone {
			landed++
		}
	}
	g := h.record(r).Game
	if landed != 1 || g.Moves() != 1 {
		t.Fatalf("%d clicks landed, %d moves stored; want exactly 1", landed, g.Moves())
	}
}

// newerRepair is a store whose channel holds a record written by a newer
// version: Repair keeps it and says so.
type newerRepair struct{ failing }

func (newerRepair) Repair(context.Context, match.Key) (match.Repair, error) {
	return match.Repair{Record: match.RecordNewer}, nil
}

// TestResetNewerRecord: /connect4 reset in a channel whose game a newer
// version wrote says so, rather than "the saved game here is fine" to players
// who cannot play it.
func TestResetNewerRecord(t *testing.T) {
	svc := New(newerRepair{failing{err: errors.New("unused")}}, Options{})
	r := svc.HandleText(t.Context(), Command{Key: match.Key{Platform: "test", Workspace: "T", Channel: "C"}, User: player("UA")}, "reset")
	if r.Visibility != Ephemeral || r.Problem != ProblemNewerVersion || !strings.Contains(r.Text, "newer version") {
		t.Errorf("reset with a newer record: %v/%v %q, want ephemeral %v naming a newer version", r.Visibility, r.Problem, r.Text, ProblemNewerVersion)
	}
}
