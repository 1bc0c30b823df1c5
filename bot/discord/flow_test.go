package discord

import (
	"context"
	"encoding/json"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/connect4/connect4/bot"
	"github.com/connect4/connect4/bot/match"
	"github.com/connect4/connect4/engine/solver"

	"github.com/connect4/connect4/sessions"
)

// Response types and the ephemeral flag, as Discord reads them.
const (
	typeMessage      = 4
	typeDeferMessage = 5
	typeDeferUpdate  = 6
	typeUpdate       = 7
	flagEphemeral    = 64
	stylePrimary     = 1
	styleSecondary   = 2
	styleDanger      = 4
	componentRow     = 1
	componentButton  = 2
	columnsOnDefault = 7
	rowsOnDefault    = 6
)

// drawSequence fills a 6x7 board without a winner, in 0-based columns, Red
// first.
var drawSequence = []int{0, 1, 5, 5, 0, 4, 4, 1, 4, 6, 0, 6, 1, 3, 5, 5, 6, 0, 5, 1, 4, 3, 2, 4, 4, 3, 3, 3, 0, 0, 5, 3, 2, 6, 2, 2, 1, 2, 6, 2, 1, 6}

// checkColumns fails unless m has the column buttons 1..7 in rows of 4 and
// 3 (plus any other row), each disabled exactly when disabled says.
func checkColumns(t testing.TB, m gotResponse, disabled func(col int) bool) {
	t.Helper()
	sizes := rowSizes(m)
	if len(sizes) < 2 || sizes[0] != 4 || sizes[1] != 3 || len(sizes) > 3 {
		t.Fatalf("rows %v, want [4 3] of columns and at most one more", sizes)
	}
	for c := 0; c < columnsOnDefault; c++ {
		b := m.button(t, strconv.Itoa(c+1))
		if b.Type != componentButton || b.Style != styleSecondary || len(b.CustomID) > 100 {
			t.Fatalf("column %d button %+v, want a secondary button with a custom_id of at most 100", c+1, b)
		}
		if b.Disabled != disabled(c) {
			t.Fatalf("column %d disabled = %v, want %v (content %q)", c+1, b.Disabled, disabled(c), m.content())
		}
	}
	for _, row := range m.Data.Components {
		if row.Type != componentRow || len(row.Components) > 5 {
			t.Fatalf("row %+v, want an action row of at most 5", row)
		}
	}
}

func never(int) bool  { return false }
func always(int) bool { return true }

// play clicks columns (0-based) alternately by red and yellow from message
// m, checking after every move that exactly the full columns are disabled
// while the game goes on, and returns the last message.
func (f *fixture) play(m gotResponse, red, yellow string, cols ...int) gotResponse {
	f.t.Helper()
	heights := make([]int, columnsOnDefault)
	players := [2]string{red, yellow}
	for i, c := range cols {
		m = f.click(players[i%2], m, strconv.Itoa(c+1))
		want(f.t, m, typeUpdate, 0, "dropped a disc in column "+strconv.Itoa(c+1))
		heights[c]++
		if i < len(cols)-1 {
			checkColumns(f.t, m, func(col int) bool { return heights[col] == rowsOnDefault })
		}
	}
	return m
}

func TestGameOverHTTP(t *testing.T) {
	forEachStore(t, func(t *testing.T, st bot.Store) {
		f := newFixture(t, st, 0)

		c := f.challenge("UA", "UB")
		want(t, c, typeMessage, 0, "<@UA> challenges <@UB> to Connect Four")
		if got := rowSizes(c); !slices.Equal(got, []int{3}) {
			t.Fatalf("challenge rows %v, want one row of Accept, Decline, Cancel", got)
		}
		for label, style := range map[string]int{"Accept": stylePrimary, "Decline": styleDanger, "Cancel": styleSecondary} {
			if b := c.button(t, label); b.Style != style || b.Disabled {
				t.Errorf("%s button %+v, want style %d, enabled", label, b, style)
			}
		}

		// A second challenge in the busy channel, and a spectator's click.
		want(t, f.challenge("UC", "UA"), typeMessage, flagEphemeral, "<@UA> has challenged <@UB>", "already")
		want(t, f.click("UC", c, "Accept"), typeMessage, flagEphemeral, "only they can answer")

		m := f.click("UB", c, "Accept")
		want(t, m, typeUpdate, 0, "<@UB> accepted! <@UA> is red and goes first", "⚪", "<@UA>, it's your turn (move 1)")
		checkColumns(t, m, never)

		// Wrong player and spectator: only they see the answer.
		want(t, f.click("UB", m, "4"), typeMessage, flagEphemeral, "not your turn")
		want(t, f.click("UC", m, "4"), typeMessage, flagEphemeral, "not playing in this game")

		old := m
		m = f.play(m, "UA", "UB", 0, 1)
		before := f.record(guildID)
		// A stale click (the board has moved on) and forged ones change nothing.
		want(t, f.click("UA", old, "3"), typeMessage, flagEphemeral, "out of date")
		want(t, f.send(f.clickIn("UA", "c4:drop:nosuchgame:2:2")), typeMessage, flagEphemeral, "out of date")
		want(t, f.send(f.clickIn("UA", "garbage")), typeMessage, flagEphemeral, "isn't one of mine")
		want(t, f.send(f.clickIn("UA", strings.Repeat("c4:", 40))), typeMessage, flagEphemeral, "isn't one of mine")
		if after := f.record(guildID); !slices.Equal(before.Game.History(), after.Game.History()) || before.Status != after.Status {
			t.Fatalf("stale or forged clicks changed the game")
		}

		m = f.play(m, "UA", "UB", 0, 1, 0, 1, 0)
		want(t, m, typeUpdate, 0, "<@UA> wins!", "🟥")
		checkColumns(t, m, always)
		if b := m.button(t, "Rematch"); b.Style != stylePrimary || b.Disabled {
			t.Fatalf("Rematch button %+v, want primary and enabled", b)
		}
		if got := rowSizes(m); !slices.Equal(got, []int{4, 3, 2}) { // Analysis and Rematch
			t.Fatalf("rows after the win %v, want [4 3 2]", got)
		}
		want(t, f.click("UB", m, "5"), typeMessage, flagEphemeral, "That game is over")

		// Rematch: UB is red now, and the next game ends in a draw.
		m = f.click("UB", m, "Rematch")
		want(t, m, typeUpdate, 0, "<@UB> offers a rematch")
		m = f.click("UA", m, "Accept")
		want(t, m, typeUpdate, 0, "Rematch! <@UB> is red")
		checkColumns(t, m, never)
		m = f.play(m, "UB", "UA", drawSequence...)
		want(t, m, typeUpdate, 0, "It's a draw!")
		checkColumns(t, m, always)
		m.button(t, "Rematch")

		lb := f.slash("UC", "leaderboard", nil)
		want(t, lb, typeMessage, 0, "leaderboard", "🥇", "· 1-0-1", "· 0-1-1")
		if strings.Contains(lb.Data.Content, "<@") {
			t.Errorf("the leaderboard mentions players (it must ping nobody): %q", lb.Data.Content)
		}
		want(t, f.slash("UC", "stats", []map[string]any{opt("player", 6, "UA")}, userJSON("UA")), typeMessage, flagEphemeral, "<@UA> in this channel: rating 15", "1 win, 0 losses, 1 draw")
		if got := f.observations(); !slices.Contains(got, "drop/ok") || !slices.Contains(got, "challenge/refused") || !slices.Contains(got, "unknown/refused") {
			t.Errorf("observed %v, want drop/ok, challenge/refused and unknown/refused among them", got)
		}
	})
}

func TestResignAndBoard(t *testing.T) {
	f := newFixture(t, sessionsMemory(), 0)
	want(t, f.slash("UA", "board", nil), typeMessage, flagEphemeral, "no game in this channel")
	m := f.click("UB", f.challenge("UA", "UB"), "Accept")
	b := f.slash("UA", "board", nil)
	want(t, b, typeMessage, 0, "The game between <@UA> and <@UB>")
	checkColumns(t, b, never)
	want(t, f.slash("UC", "resign", nil), typeMessage, flagEphemeral, "You have no game in this channel")
	r := f.slash("UB", "resign", nil)
	want(t, r, typeMessage, 0, "<@UB> resigned. <@UA> wins!")
	checkColumns(t, r, always)
	want(t, f.click("UA", m, "1"), typeMessage, flagEphemeral, "over")
	want(t, f.slash("UA", "claim", nil), typeMessage, flagEphemeral)
}

// sessionsMemory returns a fresh in-memory store; its zero options are valid.
func sessionsMemory() bot.Store {
	st, err := sessions.NewMemory(sessions.Options{})
	if err != nil {
		panic(err)
	}
	return st
}

func TestChallengeOptionsAndBots(t *testing.T) {
	f := newFixture(t, sessionsMemory(), 0)
	bad := f.challenge("UA", "UB", opt("rows", 4, 11))
	want(t, bad, typeMessage, flagEphemeral, "rows 11 is not allowed")
	if f.record(guildID) != nil {
		t.Fatal("a refused challenge was stored")
	}

	other := map[string]any{"id": "910000000000000001", "username": "otherbot", "bot": true}
	r := f.slash("UA", "challenge", []map[string]any{opt("opponent", 6, other["id"])}, other)
	want(t, r, typeMessage, flagEphemeral, "is a bot and can't play")

	big := f.challenge("UA", "UB", opt("rows", 4, 8), opt("cols", 4, 10), opt("connect", 4, 5), opt("first_to", 4, 3))
	want(t, big, typeMessage, 0, "on a board of 10 columns × 8 rows, connect 5, first to 3 wins")
	m := f.click("UB", big, "Accept")
	if got := rowSizes(m); !slices.Equal(got, []int{5, 5}) {
		t.Fatalf("rows on a 10-column board %v, want [5 5]", got)
	}
}

func TestOwnBotStartsAIGame(t *testing.T) {
	f := newFixture(t, sessionsMemory(), 0)
	self := map[string]any{"id": appID, "username": "connect4", "bot": true}
	r := f.slash("UA", "challenge", []map[string]any{opt("opponent", 6, appID)}, self)
	want(t, r, typeMessage, 0, "<@UA> takes on the AI (medium)")
	if rec := f.record(guildID); rec == nil || rec.Opponent.ID != appID || rec.AILevel != solver.Medium {
		t.Fatalf("record %+v, want an AI game against the bot user %s", rec, appID)
	}
}

func TestAIGameDeferred(t *testing.T) {
	forEachStore(t, func(t *testing.T, st bot.Store) {
		f := newFixture(t, st, 100*time.Millisecond)
		start := f.slash("UA", "ai", []map[string]any{opt("level", 3, "easy")})
		want(t, start, typeMessage, 0, "<@UA> takes on the AI (easy)")
		checkColumns(t, start, never)

		// The AI takes longer than deferAfter: the click is acknowledged
		// (type 6) and the message edited through the webhook.
		f.a.deferAfter = time.Millisecond
		ack := f.click("UA", start, "4")
		if ack.Type != typeDeferUpdate || ack.Data != nil {
			t.Fatalf("AI click answered %+v, want a bare type 6", ack)
		}
		f.a.work.Wait(t.Context())
		calls := f.fake.take()
		if len(calls) != 1 || calls[0].Method != "PATCH" || calls[0].Path != "/api/v9/webhooks/"+appID+"/tok-2/messages/@original" {
			t.Fatalf("REST calls %+v, want one PATCH of the original message", calls)
		}
		edit := gotResponse{Data: new(gotData)}
		if err := json.Unmarshal(calls[0].Body, edit.Data); err != nil {
			t.Fatal(err)
		}
		want(t, edit, 0, 0, "<@UA> dropped a disc in column 4.", "<@"+appID+"> dropped a disc in column 1.", "<@UA>, it's your turn (move 3)")
		checkColumns(t, edit, never)

		// The edited message's buttons play on.
		f.a.deferAfter = 5 * time.Second
		want(t, f.click("UC", edit, "2"), typeMessage, flagEphemeral, "not playing")
		next := f.click("UA", edit, "2")
		want(t, next, typeUpdate, 0, "<@UA> dropped a disc in column 2.", "<@"+appID+"> dropped a disc in column 1.", "(move 5)")
		if calls := f.fake.take(); len(calls) != 0 {
			t.Fatalf("REST calls %+v for a reply in the response", calls)
		}
		f.a.Close(t.Context())
		if got := f.observations(); !slices.Contains(got, "drop/ok") || !slices.Contains(got, "ai/ok") {
			t.Errorf("observed %v, want ai/ok and drop/ok", got)
		}
	})
}

func TestSlowCommandDeferred(t *testing.T) {
	f := newFixture(t, slowStore{sessionsMemory(), 100 * time.Millisecond}, 0)
	f.a.deferAfter = time.Millisecond

	// A slow command is acknowledged with type 5, then its message is
	// written over the "thinking" one.
	ack := f.slash("UA", "ai", nil)
	if ack.Type != typeDeferMessage || ack.Data != nil {
		t.Fatalf("slow /connect4 ai answered %+v, want a bare type 5", ack)
	}
	f.a.work.Wait(t.Context())
	calls := f.fake.take()
	if len(calls) != 1 || calls[0].Method != "PATCH" || calls[0].Path != "/api/v9/webhooks/"+appID+"/tok-1/messages/@original" {
		t.Fatalf("REST calls %+v, want one PATCH of the original response", calls)
	}
	edit := gotResponse{Data: new(gotData)}
	if err := json.Unmarshal(calls[0].Body, edit.Data); err != nil {
		t.Fatal(err)
	}
	want(t, edit, 0, 0, "<@UA> takes on the AI (medium)")
	checkColumns(t, edit, never)

	// A refusal replaces the public "thinking" message by a note only the
	// invoker sees.
	ack = f.slash("UA", "ai", nil)
	if ack.Type != typeDeferMessage {
		t.Fatalf("slow /connect4 ai answered type %d, want 5", ack.Type)
	}
	f.a.Close(t.Context())
	calls = f.fake.take()
	if len(calls) != 2 || calls[0].Method != "DELETE" || calls[0].Path != "/api/v9/webhooks/"+appID+"/tok-2/messages/@original" ||
		calls[1].Method != "POST" || calls[1].Path != "/api/v9/webhooks/"+appID+"/tok-2" {
		t.Fatalf("REST calls %+v, want DELETE of the original and a follow-up", calls)
	}
	var note gotData
	if err := json.Unmarshal(calls[1].Body, &note); err != nil {
		t.Fatal(err)
	}
	if note.Flags != flagEphemeral || !strings.Contains(note.Content, "already") || len(note.Components) != 0 {
		t.Fatalf("follow-up %+v, want an ephemeral note that the channel is busy", note)
	}
	if got, wantObs := f.observations(), []string{"ai/ok", "ai/refused"}; !slices.Equal(got, wantObs) {
		t.Errorf("observed %v, want %v", got, wantObs)
	}
}

// slowStore delays creating records, to make a command slow.
type slowStore struct {
	bot.Store
	delay time.Duration
}

func (s slowStore) Create(ctx context.Context, rec *match.Record) error {
	time.Sleep(s.delay)
	return s.Store.Create(ctx, rec)
}
