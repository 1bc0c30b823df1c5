package match

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/connect4/connect4/engine"
	"github.com/connect4/connect4/engine/solver"
)

var (
	ann = Player{ID: "UA", Name: "Ann"}
	ben = Player{ID: "UB", Name: "Ben"}
	cat = Player{ID: "UC", Name: "Cat"}
	dan = Player{ID: "UD", Name: "Dan"}
)

func game(t *testing.T, players int) *engine.Game {
	t.Helper()
	g, err := engine.New(engine.Config{Rows: 6, Cols: 7, Connect: 4, Players: players})
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// multi returns a valid game of 2 + len(others) players being played, red
// being redID.
func multi(t *testing.T, redID string, others ...Player) *Record {
	t.Helper()
	return &Record{
		Key: Key{Platform: "slack", Workspace: "T1", Channel: "C1"}, ID: "g1", Version: 1,
		Status: StatusPlaying, Challenger: ann, Opponent: ben, Others: others, RedID: redID,
		Game: game(t, 2+len(others)), FirstTo: 1,
	}
}

// TestColoursRotate: the colours go round the players in the order named,
// starting from RedID, for 2, 3 and 4 players, and a two-player record
// keeps the colours it always had.
func TestColoursRotate(t *testing.T) {
	for _, tc := range []struct {
		red    string
		others []Player
		want   []string // by colour, Red first
	}{
		{"UA", nil, []string{"UA", "UB"}},
		{"UB", nil, []string{"UB", "UA"}},
		{"UA", []Player{cat}, []string{"UA", "UB", "UC"}},
		{"UB", []Player{cat}, []string{"UB", "UC", "UA"}},
		{"UC", []Player{cat}, []string{"UC", "UA", "UB"}},
		{"UD", []Player{cat, dan}, []string{"UD", "UA", "UB", "UC"}},
		{"UC", []Player{cat, dan}, []string{"UC", "UD", "UA", "UB"}},
	} {
		r := multi(t, tc.red, tc.others...)
		if err := r.Validate(); err != nil {
			t.Fatalf("red %s, others %v: %v", tc.red, tc.others, err)
		}
		var got []string
		for c := engine.Red; int(c) <= r.NumPlayers(); c++ {
			p := r.PlayerOf(c)
			got = append(got, p.ID)
			if r.ColorOf(p.ID) != c {
				t.Errorf("red %s: ColorOf(%s) = %v, want %v", tc.red, p.ID, r.ColorOf(p.ID), c)
			}
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("red %s, others %v: by colour %v, want %v", tc.red, tc.others, got, tc.want)
		}
		if red, yellow := r.Colors(); red.ID != tc.want[0] || yellow.ID != tc.want[1] {
			t.Errorf("Colors = %s, %s; want %s, %s", red.ID, yellow.ID, tc.want[0], tc.want[1])
		}
		if c := r.ColorOf("UZ"); c != engine.NoPlayer {
			t.Errorf("ColorOf(a stranger) = %v", c)
		}
		if got := r.Bound(); len(got) != r.NumPlayers() {
			t.Errorf("Bound = %v, want all %d players", got, r.NumPlayers())
		}
	}
}

func TestValidateMulti(t *testing.T) {
	for _, tc := range []struct {
		name string
		edit func(r *Record)
		want string // "" for valid
	}{
		{"valid", func(r *Record) {}, ""},
		{"pending with an accept", func(r *Record) { r.Status, r.RedID, r.Accepted = StatusPending, "", []string{"UC"} }, ""},
		{"expired with an accept", func(r *Record) {
			r.Status, r.Finish, r.RedID, r.Accepted = StatusFinished, FinishExpired, "", []string{"UB"}
		}, ""},
		{"accepts while playing", func(r *Record) { r.Accepted = []string{"UC"} }, "accepts on a playing record"},
		{"everyone accepted but pending", func(r *Record) {
			r.Status, r.RedID, r.Accepted = StatusPending, "", []string{"UC", "UB"}
		}, "2 accepts"},
		{"an accept by the challenger", func(r *Record) { r.Status, r.RedID, r.Accepted = StatusPending, "", []string{"UA"} }, "not an invited player"},
		{"an accept twice", func(r *Record) {
			r.Others = []Player{cat, dan}
			r.Game = game(t, 4)
			r.Status, r.RedID, r.Accepted = StatusPending, "", []string{"UC", "UC"}
		}, "not an invited player once"},
		{"a player twice", func(r *Record) { r.Others = []Player{ben} }, "named twice"},
		{"three others", func(r *Record) { r.Others = []Player{cat, dan, {ID: "UE"}} }, "3 other players"},
		{"a nameless other", func(r *Record) { r.Others = []Player{{Name: "x"}} }, "player 3 has no id"},
		{"game for two", func(r *Record) { r.Game = game(t, 2) }, "game for 2 players, record for 3"},
		{"a match", func(r *Record) { r.FirstTo = 3 }, "first-to 3"},
		{"against the AI", func(r *Record) { r.AILevel = solver.Hard }, "against the AI"},
		{"open", func(r *Record) { r.Status, r.RedID, r.Opponent = StatusPending, "", Player{} }, "without an opponent"},
		{"red is a stranger", func(r *Record) { r.RedID = "UZ" }, "neither player"},
		{"winner is the third", func(r *Record) {
			r.Status, r.Finish, r.Rounds = StatusFinished, FinishResign, []RoundResult{{Winner: "UC", Finish: FinishResign}}
		}, ""},
		{"agreed by one", func(r *Record) {
			r.Status, r.Finish, r.Rounds = StatusFinished, FinishWin, []RoundResult{{Winner: "UC", Finish: FinishWin}}
			r.Offer = &Offer{Kind: OfferRematch, From: "UA", Agreed: []string{"UC"}, ExpiresAt: time.Unix(1e9, 0)}
		}, ""},
		{"agreed by the offerer", func(r *Record) {
			r.Status, r.Finish, r.Rounds = StatusFinished, FinishWin, []RoundResult{{Winner: "UC", Finish: FinishWin}}
			r.Offer = &Offer{Kind: OfferRematch, From: "UA", Agreed: []string{"UA"}}
		}, "not another player once"},
		{"agreed by everyone", func(r *Record) {
			r.Status, r.Finish, r.Rounds = StatusFinished, FinishWin, []RoundResult{{Winner: "UC", Finish: FinishWin}}
			r.Offer = &Offer{Kind: OfferRematch, From: "UA", Agreed: []string{"UB", "UC"}}
		}, "agreed by 2 of a 3-player game"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := multi(t, "UA", cat)
			tc.edit(r)
			err := r.Validate()
			switch {
			case tc.want == "" && err != nil:
				t.Errorf("Validate = %v, want nil", err)
			case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
				t.Errorf("Validate = %v, want an error saying %q", err, tc.want)
			}
		})
	}
	// Accepts on a two-player record are never valid.
	r := multi(t, "")
	r.Status, r.Accepted = StatusPending, []string{"UB"}
	if err := r.Validate(); err == nil {
		t.Error("Validate accepted an accept on a two-player challenge")
	}
}

func TestCloneMulti(t *testing.T) {
	r := multi(t, "UA", cat, dan)
	r.Status, r.Finish, r.Rounds = StatusFinished, FinishWin, []RoundResult{{Winner: "UC", Finish: FinishWin}}
	r.Offer = &Offer{Kind: OfferRematch, From: "UA", Agreed: []string{"UD"}}
	c := r.Clone()
	c.Others[0].Name, c.Offer.Agreed[0] = "changed", "UB"
	if r.Others[0].Name != "Cat" || r.Offer.Agreed[0] != "UD" {
		t.Errorf("Clone shares Others or Agreed with the original: %v %v", r.Others, r.Offer.Agreed)
	}
}

// TestCloneGameAndTimers: a clone's game and timers, kept in the clone's
// own allocation up to cloneTimers timers and apart beyond, are its own:
// changing or appending to them leaves the original as it was, and a
// clone of a clone is as deep.
func TestCloneGameAndTimers(t *testing.T) {
	due := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	for n := range cloneTimers + 2 {
		r := &Record{Key: Key{Platform: "discord", Workspace: "G", Channel: "C"}, ID: "g", Challenger: ann, Opponent: ben, Game: game(t, 2)}
		for i := range n {
			r.Timers = append(r.Timers, Timer{Kind: TimerKind(i + 1), Due: due})
		}
		wantTimers := slices.Clone(r.Timers)
		for _, c := range []*Record{r.Clone(), r.Clone().Clone()} {
			if c.Game == r.Game || c.Game.Moves() != 0 {
				t.Fatalf("%d timers: clone's game %p (%d moves), original's %p", n, c.Game, c.Game.Moves(), r.Game)
			}
			if !slices.Equal(c.Timers, wantTimers) {
				t.Fatalf("%d timers: clone's timers %v, want %v", n, c.Timers, wantTimers)
			}
			if err := c.Game.Play(engine.Red, 3); err != nil {
				t.Fatal(err)
			}
			for i := range c.Timers {
				c.Timers[i].Fired = true
			}
			c.Timers = append(c.Timers, Timer{Kind: TimerExpire, Due: due.Add(time.Hour)})
			if r.Game.Moves() != 0 || !slices.Equal(r.Timers, wantTimers) {
				t.Errorf("%d timers: changing the clone changed the original: %d moves, timers %v", n, r.Game.Moves(), r.Timers)
			}
		}
	}
}

func TestTallyMulti(t *testing.T) {
	for _, tc := range []struct {
		t    Tally
		zero bool
		want string
	}{
		{Tally{}, true, ""},
		{Tally{Winner: ann, Loser: ben, Others: []Player{cat, dan}}, false, ""},
		{Tally{Winner: ann, Loser: ben, Others: []Player{cat}, Draw: true}, false, ""},
		{Tally{Winner: ann, Loser: ben, Others: []Player{cat}, Rated: true}, false, "never rated"},
		{Tally{Winner: ann, Loser: ben, Others: []Player{ann}}, false, "twice"},
		{Tally{Winner: ann, Loser: ben, Others: []Player{cat, dan, {ID: "UE"}}}, false, "at most 2"},
		{Tally{Winner: ann, Loser: ben, Others: []Player{{}}}, false, "no id"},
	} {
		err := tc.t.Validate()
		if tc.t.IsZero() != tc.zero || (tc.want == "") != (err == nil) || err != nil && !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: IsZero %v, Validate %v; want %v, %q", tc.t, tc.t.IsZero(), err, tc.zero, tc.want)
		}
	}
}

// TestStarted: a challenge that chose who starts has RedID set while it
// waits, and its decline, expiry or cancel never started a game; a game
// accepted, moved in, or finished after a round did.
func TestStarted(t *testing.T) {
	moved := game(t, 2)
	if err := moved.Play(engine.Red, 3); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name   string
		status Status
		finish Finish
		red    string
		g      *engine.Game
		rounds int
		want   bool
	}{
		{"pending, first me", StatusPending, FinishNone, "UA", game(t, 2), 0, false},
		{"pending, no choice", StatusPending, FinishNone, "", game(t, 2), 0, false},
		{"declined, first me", StatusFinished, FinishDeclined, "UA", game(t, 2), 0, false},
		{"expired, first them", StatusFinished, FinishExpired, "UB", game(t, 2), 0, false},
		{"cancelled challenge", StatusFinished, FinishCancelled, "UA", game(t, 2), 0, false},
		{"accepted, no move yet", StatusPlaying, FinishNone, "UA", game(t, 2), 0, true},
		{"playing", StatusPlaying, FinishNone, "UA", moved, 0, true},
		{"resigned at once", StatusFinished, FinishResign, "UA", game(t, 2), 0, true},
		{"next round declined", StatusFinished, FinishDeclined, "UA", game(t, 2), 1, true},
		{"idle close after a move", StatusFinished, FinishCancelled, "UA", moved, 0, true},
	} {
		r := &Record{Status: c.status, Finish: c.finish, RedID: c.red, Game: c.g, Rounds: make([]RoundResult, c.rounds)}
		if got := r.Started(); got != c.want {
			t.Errorf("%s: Started() = %v, want %v", c.name, got, c.want)
		}
	}
}

// TestTimerKindOfTournament: the round's limit and the tournament's start
// are a tournament's kinds, and no record's kind is.
func TestTimerKindOfTournament(t *testing.T) {
	for k := TimerNone; k <= LastTimerKind; k++ {
		want := k == TimerRoundLimit || k == TimerTournamentStart
		if got := k.OfTournament(); got != want {
			t.Errorf("%v.OfTournament() = %v, want %v", k, got, want)
		}
	}
}
