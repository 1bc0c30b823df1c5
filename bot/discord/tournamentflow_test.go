package discord

import (
	"context"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/connect4/connect4/bot"
	"github.com/connect4/connect4/bot/match"
	"github.com/connect4/connect4/bot/tournament"
	"github.com/connect4/connect4/sessions"
	"github.com/connect4/connect4/sessions/storetest"
)

// tournamentCalls gathers the fake's calls as a test waits for them.
type tournamentCalls struct {
	f   *fixture
	mu  sync.Mutex
	all []fakeCall
}

// waitFor waits until a call matches ok, and returns it; every call seen
// stays for later waits.
func (c *tournamentCalls) waitFor(t *testing.T, what string, ok func(fakeCall) bool) fakeCall {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		c.mu.Lock()
		c.all = append(c.all, c.f.fake.take()...)
		for i, call := range c.all {
			if ok(call) {
				c.all = append(c.all[:i:i], c.all[i+1:]...)
				c.mu.Unlock()
				return call
			}
		}
		c.mu.Unlock()
		if time.Now().After(deadline) {
			t.Fatalf("no %s among the calls", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// TestTournamentDiscordEndToEnd: through signed interactions and the
// schedule's worker against the local fake of Discord's API, a round
// robin of 3 with a one-minute clock: join by button and by action; the
// start posts the pairings and each game's own message with its board
// and buttons; round 1 ends in a draw offered and accepted by button;
// round 2's game refuses an abort and is lost on time by the worker; round
// 3 ends by resignation and the final table; the table's message is
// edited in place at every step; the history shows the final table.
func TestTournamentDiscordEndToEnd(t *testing.T) {
	clk := storetest.NewClock(time.Now())
	st := storetest.NewMemory(t, sessions.Options{Now: clk.Now})
	f := newFixtureOpts(t, st, bot.Options{AI: testAI(0), Now: clk.Now}, func(c *Config) { c.BotToken = "bot-token" })
	k := match.Key{Platform: Platform, Workspace: guildID, Channel: chanID}
	calls := &tournamentCalls{f: f}
	clickID := func(user, customID, message string) gotResponse {
		in := f.clickIn(user, customID)
		in["message"] = map[string]any{"id": message, "channel_id": chanID}
		return f.send(in)
	}
	tour := func(user string, manage bool, opts ...map[string]any) gotResponse {
		in := f.slashIn(user, "tournament", opts)
		if manage {
			in["member"].(map[string]any)["permissions"] = "16" // Manage Channels
		}
		return f.send(in)
	}
	m := tour("UO", true, opt("action", 3, "new"), opt("format", 3, "round-robin"), opt("clock", 3, "1+0"))
	want(t, m, typeMessage, 0, "<@UO> opens a tournament: round robin")
	// The adapter learns the message's id in the background (@original)
	// and attaches it to the tournament: the table's message.
	var tr *tournament.Tournament
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(5 * time.Millisecond) {
		var err error
		if tr, err = st.Tournament(t.Context(), k); err == nil && !tr.Message.IsZero() {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the tournament's message was never attached (%v)", err)
		}
	}
	want(t, clickID("UA", m.button(t, "Join the tournament").CustomID, tr.Message.MessageID), typeUpdate, 0, "<@UA> joins the tournament")
	want(t, tour("UA", false, opt("action", 3, "join")), typeMessage, flagEphemeral, "You have already joined")
	want(t, tour("UB", false, opt("action", 3, "join")), typeMessage, 0, "2 players have joined")
	want(t, tour("UC", false, opt("action", 3, "join")), typeMessage, 0, "3 players have joined")
	want(t, tour("UB", false, opt("action", 3, "start")), typeMessage, flagEphemeral, "Only the organiser")
	table := "/channels/" + chanID + "/messages/" + tr.Message.MessageID
	tableEdit := func(says string) {
		t.Helper()
		c := calls.waitFor(t, "edit of the table saying "+says, func(c fakeCall) bool {
			return c.Method == http.MethodPatch && strings.Contains(c.Path, "/channels/") && strings.Contains(string(c.Body), says)
		})
		if !strings.HasSuffix(c.Path, table) {
			t.Fatalf("the table was edited at %s, want in place at %s", c.Path, table)
		}
	}
	// The start: the pairings, the game's own message, the table edited.
	want(t, tour("UO", false, opt("action", 3, "start")), typeMessage, 0, "Round 1 of 3 begins", "Board 1:")
	tableEdit("Round 1 of 3, standings:")
	game := func(round int) *match.Record {
		t.Helper()
		tr, err := st.Tournament(t.Context(), k)
		if err != nil || tr.Round() != round {
			t.Fatalf("tournament at round %d (%v), want %d", tr.Round(), err, round)
		}
		id := tr.Rounds[round-1].Games[0].GameID
		post := calls.waitFor(t, "post of game "+id, func(c fakeCall) bool {
			return c.Method == http.MethodPost && strings.Contains(c.Path, "/channels/") && strings.Contains(string(c.Body), "c4:move:"+id)
		})
		if !strings.Contains(string(post.Body), "Offer draw") {
			t.Errorf("game %s's message %s, want an Offer draw button", id, post.Body)
		}
		deadline := time.Now().Add(5 * time.Second)
		for {
			rec, err := st.Load(t.Context(), k, id)
			if err == nil && !rec.Message.IsZero() {
				return rec
			}
			if time.Now().After(deadline) {
				t.Fatalf("game %s's posted message not attached (%v)", id, err)
			}
			time.Sleep(5 * time.Millisecond)
		}
	}
	// Round 1: a draw offered and accepted by button.
	g := game(1)
	offer := clickID(g.Challenger.ID, bot.Action{Kind: bot.KindDraw, GameID: g.ID}.String(), g.Message.MessageID)
	want(t, offer, typeUpdate, 0, "offers a draw")
	accept := f.click(g.Opponent.ID, offer, "Accept draw")
	want(t, accept, typeUpdate, 0, "accepted the draw", "Round 2 of 3 begins")
	tableEdit("Round 2 of 3, standings:")
	// Round 2: no abort; the mover's flag falls by the worker.
	g = game(2)
	want(t, f.slash(g.Challenger.ID, "abort", nil), typeMessage, flagEphemeral, "A tournament game cannot be aborted")
	clk.Advance(2 * time.Minute)
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan struct{})
	go func() {
		defer close(done)
		f.a.svc.RunSchedule(ctx, st, map[string]bot.Notifier{Platform: f.a}, bot.WorkerOptions{Poll: 5 * time.Millisecond})
	}()
	calls.waitFor(t, "the flag's edit of the game", func(c fakeCall) bool {
		return c.Method == http.MethodPatch && strings.HasSuffix(c.Path, "/messages/"+g.Message.MessageID) && strings.Contains(string(c.Body), "ran out of time")
	})
	calls.waitFor(t, "the flag's post of round 3", func(c fakeCall) bool {
		return c.Method == http.MethodPost && strings.Contains(string(c.Body), "Round 3 of 3 begins")
	})
	tableEdit("Round 3 of 3, standings:")
	g = game(3) // posted by the worker too, after the table
	cancel()
	<-done
	// Round 3: a resignation, and the final table in place.
	want(t, f.slash(g.Challenger.ID, "resign", nil), typeMessage, 0, "Final standings:")
	tableEdit("Final standings:")
	if tr, err := st.Tournament(t.Context(), k); err != nil || tr.Status != tournament.Finished {
		t.Fatalf("at the end: %v (%v), want finished", tr.Status, err)
	}
	want(t, tour("UB", false, opt("action", 3, "history")), typeMessage, flagEphemeral, "Finished tournaments here", "Final standings:", "Buchholz")
}
