package bot

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/connect4/connect4/bot/lang"
	"github.com/connect4/connect4/bot/match"
	"github.com/connect4/connect4/bot/pairing"
	"github.com/connect4/connect4/bot/tournament"
	"github.com/connect4/connect4/engine"
)

// postingNotifier is a Notifier that remembers what it edited and posted
// and, like the adapters, attaches a posted message with a game's (or a
// tournament's) buttons to it. Edits of a message in gone fail as a
// deleted message's do.
type postingNotifier struct {
	svc *Service
	mu  sync.Mutex
	// edited are the messages edited, in order, and what with.
	edited []Edit
	posted []Reply
	gone   map[match.MessageRef]bool
}

func (n *postingNotifier) Edit(_ context.Context, _ match.Key, ref match.MessageRef, r Reply) error {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.gone[ref] {
		return fmt.Errorf("%w: message deleted", ErrUndeliverable)
	}
	n.edited = append(n.edited, Edit{Message: ref, Reply: r})
	return nil
}

func (n *postingNotifier) Post(ctx context.Context, k match.Key, _ match.MessageRef, r Reply) error {
	n.mu.Lock()
	n.posted = append(n.posted, r)
	ref := match.MessageRef{Channel: k.Channel, MessageID: fmt.Sprintf("P%d", len(n.posted))}
	n.mu.Unlock()
	if id := r.ButtonGame(); id != "" {
		return n.svc.Attach(ctx, k, id, ref)
	}
	return nil
}

// take returns what was edited and posted since the last call.
func (n *postingNotifier) take() ([]Edit, []Reply) {
	n.mu.Lock()
	defer n.mu.Unlock()
	e, p := n.edited, n.posted
	n.edited, n.posted = nil, nil
	return e, p
}

// TestTournamentTableInPlace: the tournament's own message (the one it
// was opened with) shows the table, edited in place by each round's
// start and by the final standings; a round's games each get a message
// of their own, with a board and buttons, attached to their records; and
// when the table's message is gone, the next round posts it anew and
// edits that one from then on.
func TestTournamentTableInPlace(t *testing.T) {
	forEachStore(t, func(t *testing.T, h *harness) {
		ctx := t.Context()
		nf := &postingNotifier{svc: h.svc, gone: map[match.MessageRef]bool{}}
		ts := h.store.(TournamentStore)
		r := h.svc.HandleText(ctx, Command{Key: h.key, User: player("UO"), Self: h.self, CanManage: true}, "tournament new swiss rounds 2")
		h.want(r, Public, ProblemNone, "opens a tournament")
		tr, err := ts.Tournament(ctx, h.key)
		if err != nil {
			t.Fatal(err)
		}
		if got := r.ButtonGame(); got != tr.ID {
			t.Fatalf("the tournament's message carries %q, want its id %q to be attached", got, tr.ID)
		}
		table := match.MessageRef{Channel: "C1", Timestamp: "100.1", MessageID: "M1"}
		if err := h.svc.Attach(ctx, h.key, tr.ID, table); err != nil {
			t.Fatalf("attach the table: %v", err)
		}
		for _, u := range []string{"UA", "UB", "UC"} {
			j := h.say(u, "tournament join")
			h.want(j, Public, ProblemNone, "joins the tournament")
			if len(j.Edits) != 1 || j.Edits[0].Message != table || !strings.Contains(j.Edits[0].Reply.Text, "<@"+u+">") {
				t.Fatalf("%s's join edits %+v, want the table's message with them in", u, j.Edits)
			}
		}
		start := h.say("UO", "tournament start")
		h.want(start, Public, ProblemNone, "Round 1 of 2 begins")
		wantTable := func(r Reply, ref match.MessageRef, says string) {
			t.Helper()
			i := slices.IndexFunc(r.Edits, func(e Edit) bool { return e.Repost })
			if i < 0 || r.Edits[i].Message != ref || !strings.Contains(r.Edits[i].Reply.Text, says) {
				t.Fatalf("edits %+v, want the table's message %v edited to say %q", r.Edits, ref, says)
			}
		}
		wantTable(start, table, "Round 1 of 2, standings:")
		if len(start.Posts) != 1 || start.Posts[0].Game == nil || start.Posts[0].ButtonGame() == "" || len(start.Posts[0].Notify) != 2 {
			t.Fatalf("start posts %+v, want one game message with its board, buttons and both players pinged", start.Posts)
		}
		ApplyEdits(ctx, nf, h.key, start, h.svc.log)
		edited, posted := nf.take()
		if len(edited) != 1 || edited[0].Message != table || len(posted) != 1 {
			t.Fatalf("start edited %v and posted %d, want the table edited in place and one game posted", edited, len(posted))
		}
		game := start.Posts[0].ButtonGame()
		rec, err := h.store.Load(ctx, h.key, game)
		if err != nil || rec.Message.IsZero() {
			t.Fatalf("game %s: message %v (%v), want the posted message attached", game, rec.Message, err)
		}
		// Round 1's only game ends: round 2 starts, its table edits the
		// same message.
		end := h.say(rec.Challenger.ID, "resign")
		h.want(end, Public, ProblemNone, "Round 2 of 2 begins")
		wantTable(end, table, "Round 2 of 2, standings:")
		nf.gone[table] = true // someone deleted the table's message
		ApplyEdits(ctx, nf, h.key, end, h.svc.log)
		edited, posted = nf.take()
		if len(edited) != 0 || len(posted) != 2 || posted[0].ButtonGame() != tr.ID {
			t.Fatalf("with the table gone: edited %v, posted %d, want the table posted anew and a game", edited, len(posted))
		}
		tr, err = ts.Tournament(ctx, h.key)
		if err != nil || tr.Message.MessageID != "P1" {
			t.Fatalf("the table's message is now %+v (%v), want the one posted anew", tr.Message, err)
		}
		var next string
		for _, g := range tr.Rounds[1].Games {
			if g.GameID != "" {
				next = g.GameID
			}
		}
		rec, err = h.store.Load(ctx, h.key, next)
		if err != nil {
			t.Fatal(err)
		}
		final := h.say(rec.Opponent.ID, "resign")
		h.want(final, Public, ProblemNone, "Final standings:")
		wantTable(final, tr.Message, "Final standings:")
		if len(final.Posts) != 0 {
			t.Errorf("the final standings post %d games, want none", len(final.Posts))
		}
		ApplyEdits(ctx, nf, h.key, final, h.svc.log)
		if edited, _ := nf.take(); len(edited) != 1 || edited[0].Message != tr.Message || len(edited[0].Reply.Buttons) != 0 {
			t.Errorf("the final table edited %+v, want the new message, without buttons", edited)
		}
		if tr, _ := ts.Tournament(ctx, h.key); tr.Status != tournament.Finished {
			t.Errorf("tournament %v, want finished", tr.Status)
		}
		// A click on a table's refresh makes the clicked message the
		// table's (Slack answers a command without telling its ts).
		rf := h.click("UB", start.Edits[0].Reply, "Refresh the table")
		h.want(rf, Update, ProblemNone, "Final standings:")
		if tr, _ := ts.Tournament(ctx, h.key); tr.Message != (match.MessageRef{Channel: "C1", Timestamp: "1.0"}) {
			t.Errorf("after a refresh click the table's message is %+v, want the clicked one", tr.Message)
		}
	})
}

// TestTableViewHeading: the table's own message invites players to join
// only while the tournament takes them; once it runs, is over or was
// cancelled, its head names it without the Join instruction.
func TestTableViewHeading(t *testing.T) {
	now := time.Date(2026, 12, 6, 12, 0, 0, 0, time.UTC)
	open := func(t *testing.T) *tournament.Tournament { return threeJoined(t, "tview", tournament.RoundRobin, now) }
	tests := []struct {
		name     string
		status   func(*tournament.Tournament) error
		wantJoin bool
	}{
		{"joining", func(*tournament.Tournament) error { return nil }, true},
		{"running", func(tt *tournament.Tournament) error { return tt.Start("UA", nil, now) }, false},
		{"cancelled", func(tt *tournament.Tournament) error { return tt.Cancel("UA", now) }, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tt := open(t)
			if err := tc.status(tt); err != nil {
				t.Fatal(err)
			}
			text := tableView(lang.English, tt).Text
			if got := strings.Contains(text, "Join with the button"); got != tc.wantJoin {
				t.Errorf("tableView(%s) = %q: says to join %v, want %v", tc.name, text, got, tc.wantJoin)
			}
			if !strings.Contains(text, "<@UA>") || !strings.Contains(text, "round robin") {
				t.Errorf("tableView(%s) = %q, want the organiser and the format", tc.name, text)
			}
		})
	}
}

// threeJoined is a tournament id of format f, opened by UA in channel CH,
// that UA, UB and UC have joined.
func threeJoined(t *testing.T, id string, f tournament.Format, now time.Time) *tournament.Tournament {
	t.Helper()
	k := match.Key{Platform: "test", Workspace: "T1", Channel: "CH"}
	tt, err := tournament.New(id, k, match.Player{ID: "UA"}, tournament.Options{Format: f,
		Board: engine.Config{Rows: 6, Cols: 7, Connect: 4}}, now)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"UA", "UB", "UC"} {
		if err := tt.Join(match.Player{ID: p}); err != nil {
			t.Fatal(err)
		}
	}
	return tt
}

// TestByeLine: a bye is worth a point in a Swiss and is said so; in a
// round robin it is worth nothing, and the line never says "0 point".
func TestByeLine(t *testing.T) {
	now := time.Date(2026, 12, 6, 12, 0, 0, 0, time.UTC)
	tests := []struct {
		format   tournament.Format
		want     string
		wantNone string
	}{
		{tournament.Swiss, "sits this round out (1 point)", "everyone sits out"},
		{tournament.RoundRobin, "everyone sits out in turn, for no points", "0 point"},
	}
	for _, tc := range tests {
		tt := threeJoined(t, "tbye", tc.format, now)
		if err := tt.Start("UA", nil, now); err != nil {
			t.Fatal(err)
		}
		r := tt.Rounds[0]
		if r.Bye == pairing.NoBye {
			t.Fatalf("%v of 3: round 1 has no bye", tc.format)
		}
		got := byeLine(lang.English, tt, r.Bye)
		if !strings.Contains(got, tc.want) || strings.Contains(got, tc.wantNone) {
			t.Errorf("byeLine(%v) = %q, want %q and not %q", tc.format, got, tc.want, tc.wantNone)
		}
	}
}

// TestTableViewOpening: a new tournament's message names a missing time
// control in words and says that nobody has joined, instead of "time
// control -" and "0 players have joined: " with an empty list.
func TestTableViewOpening(t *testing.T) {
	now := time.Date(2026, 12, 6, 12, 0, 0, 0, time.UTC)
	k := match.Key{Platform: "test", Workspace: "T1", Channel: "CH"}
	tests := []struct {
		name    string
		ctl     string
		players []string
		want    []string
	}{
		{"untimed, empty", "", nil, []string{"time control none.", "Nobody has joined yet."}},
		{"timed, one", "clock 5+3", []string{"UA"}, []string{"time control 5+3.", "1 player has joined: <@UA>"}},
	}
	for _, tc := range tests {
		ctl, err := checkControl(tc.ctl, 0, false)
		if err != nil {
			t.Fatal(err)
		}
		tt, err := tournament.New("topen", k, match.Player{ID: "UO"}, tournament.Options{Format: tournament.Swiss, Clock: ctl,
			Board: engine.Config{Rows: 6, Cols: 7, Connect: 4}}, now)
		if err != nil {
			t.Fatal(err)
		}
		for _, id := range tc.players {
			if err := tt.Join(match.Player{ID: id}); err != nil {
				t.Fatal(err)
			}
		}
		text := tableView(lang.English, tt).Text
		for _, w := range tc.want {
			if !strings.Contains(text, w) {
				t.Errorf("%s: tableView = %q, want %q", tc.name, text, w)
			}
		}
		if strings.Contains(text, "control -") || strings.Contains(text, "joined: \n") || strings.HasSuffix(text, ": ") {
			t.Errorf("%s: tableView = %q: a placeholder for nothing", tc.name, text)
		}
	}
}

// TestQuarters: tiebreaks are written as the scores are, with ¼ ½ ¾
// rather than decimals beside "1½".
func TestQuarters(t *testing.T) {
	for _, c := range []struct {
		f    float64
		want string
	}{
		{0, "0"}, {0.25, "¼"}, {0.5, "½"}, {0.75, "¾"}, {1, "1"}, {2.5, "2½"}, {3.75, "3¾"}, {10.25, "10¼"},
	} {
		if got := quarters(c.f); got != c.want {
			t.Errorf("quarters(%v) = %q, want %q", c.f, got, c.want)
		}
	}
}
