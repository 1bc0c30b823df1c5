package storetest

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/connect4/connect4/bot/match"

	"github.com/connect4/connect4/engine"
	"github.com/connect4/connect4/engine/solver"
	"github.com/connect4/connect4/sessions"
)

// Players and a channel used throughout the suite.
var (
	Alice   = match.Player{ID: "UALICE", Name: "Alice"}
	Bob     = match.Player{ID: "UBOB", Name: "Bob"}
	Channel = match.Key{Platform: "slack", Workspace: "T1", Channel: "C1"}
)

// ttler is implemented by stores that can tell the remaining lives of a
// channel's keys (both of ours do).
type ttler interface {
	TTL(ctx context.Context, k match.Key, gameID string) (game, leaderboard time.Duration, err error)
}

// Store is what the suite tests: the methods the bot's store interface asks
// for, with the semantics package sessions documents for Redis and Memory.
type Store interface {
	Create(ctx context.Context, rec *match.Record) error
	Load(ctx context.Context, k match.Key, gameID string) (*match.Record, error)
	Update(ctx context.Context, k match.Key, gameID string, fn func(r *match.Record) (match.Tally, error)) (*match.Record, error)
	Active(ctx context.Context, k match.Key) ([]*match.Record, error)
	PlayerGame(ctx context.Context, k match.Key, userID string) (*match.Record, error)
	LastFinished(ctx context.Context, k match.Key, userID string) (*match.Record, error)
	Delete(ctx context.Context, k match.Key, gameID string) error
	Leaderboard(ctx context.Context, k match.Key, n int) ([]match.Standing, error)
	Stats(ctx context.Context, k match.Key, userID string) (match.Standing, error)
}

// Conformance runs the one suite every Store must pass. newStore is
// called once per subtest and must return an empty store (for Redis: a fresh
// Prefix) built with Options{Now: now} and otherwise default TTLs and
// MaxRetries, since the suite checks them.
func Conformance(t *testing.T, newStore func(t *testing.T, now func() time.Time) Store) {
	env := func(t *testing.T) (Store, *Clock) {
		clk := NewClock(time.Now().UTC().Truncate(time.Millisecond))
		return newStore(t, clk.Now), clk
	}
	for _, tc := range []struct {
		name string
		run  func(t *testing.T, s Store, clk *Clock)
	}{
		{"CreateLoad", testCreateLoad},
		{"CreateBusy", testCreateBusy},
		{"CreateOverFinished", testCreateOverFinished},
		{"LastFinished", testLastFinished},
		{"CreateOverExpired", testCreateOverExpired},
		{"CreateInvalid", testCreateInvalid},
		{"LoadMissing", testLoadMissing},
		{"Update", testUpdate},
		{"UpdateFnError", testUpdateFnError},
		{"UpdateNoChange", testUpdateNoChange},
		{"UpdateMissing", testUpdateMissing},
		{"UpdateInvalid", testUpdateInvalid},
		{"UpdateConflict", testUpdateConflict},
		{"Deadline", testDeadline},
		{"Delete", testDelete},
		{"Leaderboard", testLeaderboard},
		{"TallyOnceAcrossRetries", testTallyOnceAcrossRetries},
		{"TTL", testTTL},
		{"ExpiryByClock", testExpiryByClock},
		{"InvalidKey", testInvalidKey},
		{"RaceMoves", testRaceMoves},
		{"RaceChallenges", testRaceChallenges},
		{"RaceFinish", testRaceFinish},
		{"ABA", testABA},
		{"Replay", testReplay},
		{"Active", testActive},
		{"PlayerLimit", testPlayerLimit},
		{"ChannelLimit", testChannelLimit},
		{"RaceAccepts", testRaceAccepts},
		{"ManyGames", testManyGames},
		{"MultiPlayers", testMultiPlayers},
		{"Ratings", func(t *testing.T, s Store, clk *Clock) {
			rs, ok := s.(RatingStore)
			if !ok {
				t.Fatalf("%T has no ratings", s)
			}
			testRatings(t, rs, clk)
		}},
		{"Settings", testSettings},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, clk := env(t)
			tc.run(t, s, clk)
		})
	}
}

// Challenge returns a pending classic challenge from Alice to Bob in k.
func Challenge(k match.Key) *match.Record {
	return &match.Record{
		Key: k, Status: match.StatusPending, Challenger: Alice, Opponent: Bob,
		Game: newGame(engine.DefaultConfig()), FirstTo: 1,
		Message: match.MessageRef{Channel: "C1", Timestamp: "1712345678.000100"},
	}
}

// Playing returns a classic game in k between Alice (Red) and Bob after the
// given moves (0-based columns, Red first).
func Playing(t testing.TB, k match.Key, moves ...int) *match.Record {
	t.Helper()
	r := Challenge(k)
	r.Status = match.StatusPlaying
	r.RedID = Alice.ID
	g, err := engine.New(engine.DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	for _, col := range moves {
		if err := g.Play(g.Turn(), col); err != nil {
			t.Fatalf("set up moves %v: %v", moves, err)
		}
	}
	r.Game = g
	return r
}

// newGame returns an empty game of cfg, which must be valid.
func newGame(cfg engine.Config) *engine.Game {
	g, err := engine.New(cfg)
	if err != nil {
		panic(err)
	}
	return g
}

func mustCreate(t *testing.T, s Store, r *match.Record) *match.Record {
	t.Helper()
	if err := s.Create(t.Context(), r); err != nil {
		t.Fatalf("Create: %v", err)
	}
	return r
}

func mustLoad(t *testing.T, s Store, k match.Key, id string) *match.Record {
	t.Helper()
	r, err := s.Load(t.Context(), k, id)
	if err != nil {
		t.Fatalf("Load(%v, %s): %v", k, id, err)
	}
	return r
}

func sameRecord(t *testing.T, what string, got, want *match.Record) {
	t.Helper()
	if !reflect.DeepEqual(got, want) {
		t.Errorf("%s:\n got %+v\nwant %+v", what, got, want)
	}
}

func testCreateLoad(t *testing.T, s Store, clk *Clock) {
	r := Challenge(Channel)
	r.ExpiresAt = clk.Now().Add(10 * time.Minute)
	r.AILevel, r.Rematches = solver.LevelNone, 2
	mustCreate(t, s, r)
	if len(r.ID) < 12 || strings.Trim(r.ID, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_") != "" {
		t.Errorf("ID = %q, want 12+ URL-safe characters", r.ID)
	}
	if r.Version != 1 {
		t.Errorf("Version = %d, want 1", r.Version)
	}
	if now := clk.Now(); !r.Created.Equal(now) || !r.Updated.Equal(now) {
		t.Errorf("Created, Updated = %v, %v, want both %v", r.Created, r.Updated, now)
	}
	sameRecord(t, "Load after Create", mustLoad(t, s, Channel, r.ID), r)

	// A second channel is independent, and so is a record with a game.
	other := Channel
	other.Channel = "C2"
	p := mustCreate(t, s, Playing(t, other, 3, 3, 4))
	if p.ID == r.ID {
		t.Errorf("two creates gave the same ID %q", p.ID)
	}
	got := mustLoad(t, s, other, p.ID)
	sameRecord(t, "Load of the second channel", got, p)
	if h := got.Game.History(); !slices.Equal(h, []int{3, 3, 4}) {
		t.Errorf("History() = %v, want [3 3 4]", h)
	}
}

func testCreateBusy(t *testing.T, s Store, clk *Clock) {
	first := mustCreate(t, s, Playing(t, Channel))
	second := Challenge(Channel)
	second.Challenger = match.Player{ID: "UCAROL", Name: "Carol"}
	err := s.Create(t.Context(), second)
	var busy *match.BusyError
	if !errors.As(err, &busy) || !errors.Is(err, match.ErrBusy) {
		t.Fatalf("Create on a busy channel: err = %v, want a *BusyError matching ErrBusy", err)
	}
	sameRecord(t, "BusyError.Existing", busy.Existing, first)
	for _, name := range []string{"Alice", "Bob"} {
		if !strings.Contains(err.Error(), name) {
			t.Errorf("error %q does not name %s", err, name)
		}
	}
	if second.ID != "" || second.Version != 0 {
		t.Errorf("failed Create changed the record: ID %q, Version %d", second.ID, second.Version)
	}
	sameRecord(t, "Load after a refused Create", mustLoad(t, s, Channel, first.ID), first)

	// A pending challenge without expiry blocks too.
	k := Channel
	k.Channel = "C2"
	mustCreate(t, s, Challenge(k))
	if err := s.Create(t.Context(), Challenge(k)); !errors.Is(err, match.ErrBusy) {
		t.Errorf("Create over a pending challenge: err = %v, want ErrBusy", err)
	}
}

// finish marks r finished as a win for winner, returning the tally.
func finish(r *match.Record, how match.Finish, winner, loser match.Player) match.Tally {
	r.Status, r.Finish = match.StatusFinished, how
	r.Rounds = append(r.Rounds, match.RoundResult{Winner: winner.ID, Finish: how})
	return match.Tally{Winner: winner, Loser: loser, Rated: true}
}

func testCreateOverFinished(t *testing.T, s Store, clk *Clock) {
	first := mustCreate(t, s, Playing(t, Channel))
	if _, err := s.Update(t.Context(), Channel, first.ID, func(r *match.Record) (match.Tally, error) {
		return finish(r, match.FinishResign, Bob, Alice), nil
	}); err != nil {
		t.Fatalf("Update to finished: %v", err)
	}
	second := mustCreate(t, s, Challenge(Channel))
	if second.ID == first.ID || second.Version != 1 {
		t.Errorf("Create over a finished game: ID %q (old %q), Version %d; want a new ID and version 1", second.ID, first.ID, second.Version)
	}
	sameRecord(t, "Load after Create over a finished game", mustLoad(t, s, Channel, second.ID), second)

	// A declined challenge is finished too.
	if _, err := s.Update(t.Context(), Channel, second.ID, func(r *match.Record) (match.Tally, error) {
		r.Status, r.Finish = match.StatusFinished, match.FinishDeclined
		return match.Tally{}, nil
	}); err != nil {
		t.Fatalf("decline: %v", err)
	}
	mustCreate(t, s, Challenge(Channel))
}

func testLastFinished(t *testing.T, s Store, clk *Clock) {
	if _, err := s.LastFinished(t.Context(), Channel, Alice.ID); !errors.Is(err, match.ErrNoGame) {
		t.Fatalf("LastFinished before any game: %v, want match.ErrNoGame", err)
	}
	first := mustCreate(t, s, Playing(t, Channel, 3, 3))
	if _, err := s.LastFinished(t.Context(), Channel, Alice.ID); !errors.Is(err, match.ErrNoGame) {
		t.Fatalf("LastFinished while playing: %v, want match.ErrNoGame", err)
	}
	done, err := s.Update(t.Context(), Channel, first.ID, func(r *match.Record) (match.Tally, error) {
		return finish(r, match.FinishResign, Bob, Alice), nil
	})
	if err != nil {
		t.Fatalf("Update to finished: %v", err)
	}
	for _, p := range []match.Player{Alice, Bob} {
		got, err := s.LastFinished(t.Context(), Channel, p.ID)
		if err != nil {
			t.Fatalf("LastFinished(%s): %v", p.ID, err)
		}
		sameRecord(t, "LastFinished("+p.ID+")", got, done)
	}
	if _, err := s.LastFinished(t.Context(), Channel, "U-nobody"); !errors.Is(err, match.ErrNoGame) {
		t.Errorf("LastFinished of a stranger: %v, want match.ErrNoGame", err)
	}
	other := Channel
	other.Channel = "C2"
	if _, err := s.LastFinished(t.Context(), other, Alice.ID); !errors.Is(err, match.ErrNoGame) {
		t.Errorf("LastFinished in another channel: %v, want match.ErrNoGame", err)
	}
	// A declined challenge is finished but was never played: it is not
	// anyone's last game. A second game played to its end is.
	declined := mustCreate(t, s, Challenge(Channel))
	if _, err := s.Update(t.Context(), Channel, declined.ID, func(r *match.Record) (match.Tally, error) {
		r.Status, r.Finish = match.StatusFinished, match.FinishDeclined
		return match.Tally{}, nil
	}); err != nil {
		t.Fatalf("decline: %v", err)
	}
	if got, err := s.LastFinished(t.Context(), Channel, Alice.ID); err != nil || got.ID != first.ID {
		t.Errorf("LastFinished after a declined challenge: %v, %v; want game %s", got, err, first.ID)
	}
	second := mustCreate(t, s, Playing(t, Channel, 0))
	if _, err := s.Update(t.Context(), Channel, second.ID, func(r *match.Record) (match.Tally, error) {
		return finish(r, match.FinishResign, Alice, Bob), nil
	}); err != nil {
		t.Fatalf("finish the second game: %v", err)
	}
	if got, err := s.LastFinished(t.Context(), Channel, Bob.ID); err != nil || got.ID != second.ID {
		t.Errorf("LastFinished after a second game: %v, %v; want game %s", got, err, second.ID)
	}
}

func testCreateOverExpired(t *testing.T, s Store, clk *Clock) {
	r := Challenge(Channel)
	r.ExpiresAt = clk.Now().Add(time.Minute)
	mustCreate(t, s, r)
	clk.Advance(time.Minute) // ExpiresAt == now: still active
	if err := s.Create(t.Context(), Challenge(Channel)); !errors.Is(err, match.ErrBusy) {
		t.Fatalf("Create at the expiry instant: err = %v, want ErrBusy", err)
	}
	clk.Advance(time.Millisecond)
	n := mustCreate(t, s, Challenge(Channel))
	sameRecord(t, "Load after Create over an expired challenge", mustLoad(t, s, Channel, n.ID), n)
}

func testCreateInvalid(t *testing.T, s Store, clk *Clock) {
	for _, tc := range []struct {
		name   string
		modify func(r *match.Record)
	}{
		{"finished", func(r *match.Record) { r.Status, r.Finish = match.StatusFinished, match.FinishDraw }},
		{"no status", func(r *match.Record) { r.Status = match.StatusNone }},
		{"no game", func(r *match.Record) { r.Game = nil }},
		{"first-to 0", func(r *match.Record) { r.FirstTo = 0 }},
		{"no challenger", func(r *match.Record) { r.Challenger = match.Player{} }},
		{"self challenge", func(r *match.Record) { r.Opponent = r.Challenger }},
		{"pending with moves played", func(r *match.Record) { r.Game = Playing(t, Channel, 3).Game }},
		{"unknown AI level", func(r *match.Record) { r.AILevel = 9 }},
		{"red is a stranger", func(r *match.Record) { r.RedID = "UCAROL" }},
		{"long name", func(r *match.Record) { r.Challenger.Name = strings.Repeat("x", 1000) }},
	} {
		r := Challenge(Channel)
		tc.modify(r)
		if err := s.Create(t.Context(), r); !errors.Is(err, match.ErrInvalid) {
			t.Errorf("Create(%s): err = %v, want ErrInvalid", tc.name, err)
		}
	}
	if recs, err := s.Active(t.Context(), Channel); err != nil || len(recs) != 0 {
		t.Errorf("Active after invalid creates = %v, %v; want none", recs, err)
	}
}

func testLoadMissing(t *testing.T, s Store, clk *Clock) {
	if r, err := s.Load(t.Context(), Channel, "nosuchgame"); !errors.Is(err, match.ErrNoGame) {
		t.Errorf("Load of an empty channel = %v, %v; want ErrNoGame", r, err)
	}
}

// play returns an Update function that plays col for the player with id, on
// the condition that the game has exactly moveNo moves (the move number the
// button was drawn for), finishing the record and tallying on a win or draw.
func play(id string, moveNo, col int) func(r *match.Record) (match.Tally, error) {
	return func(r *match.Record) (match.Tally, error) {
		if r.Status != match.StatusPlaying {
			return match.Tally{}, errOver
		}
		g := r.Game
		if g.Moves() != moveNo {
			return match.Tally{}, errStale
		}
		me := engine.Yellow
		if id == r.RedID {
			me = engine.Red
		}
		if err := g.Play(me, col); err != nil {
			return match.Tally{}, err
		}
		p, _ := r.PlayerByID(id)
		other := r.Opponent
		if id == r.Opponent.ID {
			other = r.Challenger
		}
		switch g.State() {
		case engine.Won:
			return finish(r, match.FinishWin, p, other), nil
		case engine.Draw:
			r.Status, r.Finish = match.StatusFinished, match.FinishDraw
			r.Rounds = append(r.Rounds, match.RoundResult{Finish: match.FinishDraw})
			return match.Tally{Winner: p, Loser: other, Draw: true}, nil
		}
		return match.Tally{}, nil
	}
}

var (
	errStale = errors.New("stale click")
	errOver  = errors.New("game over")
)

func testUpdate(t *testing.T, s Store, clk *Clock) {
	created := mustCreate(t, s, Playing(t, Channel))
	clk.Advance(time.Second)
	calls := 0
	got, err := s.Update(t.Context(), Channel, created.ID, func(r *match.Record) (match.Tally, error) {
		calls++
		sameRecord(t, "fn's record", r, created)
		// Changes to the identity are ignored.
		r.Key.Channel, r.ID, r.Version, r.Created = "C9", "other", 99, time.Time{}
		return play(Alice.ID, 0, 3)(r)
	})
	if err != nil {
		t.Fatalf("Update: %v", err)
	}
	if calls != 1 {
		t.Errorf("fn called %d times, want 1", calls)
	}
	if got.Version != 2 || got.ID != created.ID || got.Key != Channel || !got.Created.Equal(created.Created) {
		t.Errorf("after Update: Version %d ID %q Key %v Created %v; want 2, %q, %v, %v",
			got.Version, got.ID, got.Key, got.Created, created.ID, Channel, created.Created)
	}
	if !got.Updated.Equal(clk.Now()) {
		t.Errorf("Updated = %v, want %v", got.Updated, clk.Now())
	}
	sameRecord(t, "Load after Update", mustLoad(t, s, Channel, created.ID), got)
	got, err = s.Update(t.Context(), Channel, created.ID, play(Bob.ID, 1, 3))
	if err != nil {
		t.Fatalf("second Update: %v", err)
	}
	g := got.Game
	if got.Version != 3 || !slices.Equal(g.History(), []int{3, 3}) {
		t.Errorf("after two moves: Version %d History %v, want 3, [3 3]", got.Version, g.History())
	}
}

func testUpdateFnError(t *testing.T, s Store, clk *Clock) {
	created := mustCreate(t, s, Playing(t, Channel))
	_, err := s.Update(t.Context(), Channel, created.ID, func(r *match.Record) (match.Tally, error) {
		r.Rematches = 5 // must not be written
		return finish(r, match.FinishWin, Alice, Bob), fmt.Errorf("wrapped: %w", errStale)
	})
	if !errors.Is(err, errStale) {
		t.Fatalf("Update with a failing fn: err = %v, want errStale", err)
	}
	_, err = s.Update(t.Context(), Channel, created.ID, play(Bob.ID, 0, 3)) // not Bob's turn
	var me *engine.MoveError
	if !errors.As(err, &me) {
		t.Fatalf("Update with a wrong-turn move: err = %v, want an *engine.MoveError", err)
	}
	sameRecord(t, "Load after failed updates", mustLoad(t, s, Channel, created.ID), created)
	if lb, err := s.Leaderboard(t.Context(), Channel, 0); err != nil || len(lb) != 0 {
		t.Errorf("Leaderboard after a failed update = %v, %v; want empty", lb, err)
	}
}

func testUpdateNoChange(t *testing.T, s Store, clk *Clock) {
	created := mustCreate(t, s, Playing(t, Channel))
	clk.Advance(time.Second)
	got, err := s.Update(t.Context(), Channel, created.ID, func(r *match.Record) (match.Tally, error) {
		r.Rematches = 5
		return match.Tally{Winner: Alice, Loser: Bob}, fmt.Errorf("nothing to do: %w", match.ErrNoChange)
	})
	if err != nil {
		t.Fatalf("Update returning ErrNoChange: err = %v, want nil", err)
	}
	sameRecord(t, "Update's record on ErrNoChange", got, created)
	sameRecord(t, "Load after ErrNoChange", mustLoad(t, s, Channel, created.ID), created)
	if st, _ := s.Stats(t.Context(), Channel, Alice.ID); st.Games() != 0 {
		t.Errorf("ErrNoChange applied its tally: %+v", st)
	}
}

func testUpdateMissing(t *testing.T, s Store, clk *Clock) {
	called := false
	_, err := s.Update(t.Context(), Channel, "nosuchgame", func(r *match.Record) (match.Tally, error) {
		called = true
		return match.Tally{}, nil
	})
	if !errors.Is(err, match.ErrNoGame) || called {
		t.Errorf("Update of an empty channel: err = %v, fn called %v; want ErrNoGame, false", err, called)
	}
}

func testUpdateInvalid(t *testing.T, s Store, clk *Clock) {
	created := mustCreate(t, s, Playing(t, Channel))
	for _, tc := range []struct {
		name string
		fn   func(r *match.Record) (match.Tally, error)
	}{
		{"unknown status", func(r *match.Record) (match.Tally, error) { r.Status = 42; return match.Tally{}, nil }},
		{"finished without finish", func(r *match.Record) (match.Tally, error) {
			r.Status = match.StatusFinished
			return match.Tally{}, nil
		}},
		{"no game", func(r *match.Record) (match.Tally, error) { r.Game = nil; return match.Tally{}, nil }},
		{"back to pending with moves", func(r *match.Record) (match.Tally, error) {
			r.Status = match.StatusPending
			return match.Tally{}, r.Game.Play(engine.Red, 3)
		}},
		{"round won by a stranger", func(r *match.Record) (match.Tally, error) {
			r.Rounds = []match.RoundResult{{Winner: "UCAROL", Finish: match.FinishWin}}
			return match.Tally{}, nil
		}},
		{"self tally", func(r *match.Record) (match.Tally, error) {
			return match.Tally{Winner: Alice, Loser: Alice}, nil
		}},
		{"tally without loser", func(r *match.Record) (match.Tally, error) {
			return match.Tally{Winner: Alice}, nil
		}},
	} {
		if _, err := s.Update(t.Context(), Channel, created.ID, tc.fn); !errors.Is(err, match.ErrInvalid) {
			t.Errorf("Update(%s): err = %v, want ErrInvalid", tc.name, err)
		}
	}
	sameRecord(t, "Load after invalid updates", mustLoad(t, s, Channel, created.ID), created)
	if lb, _ := s.Leaderboard(t.Context(), Channel, 0); len(lb) != 0 {
		t.Errorf("Leaderboard after invalid updates = %+v, want empty", lb)
	}
}

func testUpdateConflict(t *testing.T, s Store, clk *Clock) {
	g := mustCreate(t, s, Playing(t, Channel))
	calls := 0
	_, err := s.Update(t.Context(), Channel, g.ID, func(r *match.Record) (match.Tally, error) {
		calls++
		// Someone else writes between our read and our write, every time.
		if _, err := s.Update(t.Context(), Channel, g.ID, func(r *match.Record) (match.Tally, error) {
			r.Rematches++
			return match.Tally{}, nil
		}); err != nil {
			t.Errorf("nested Update: %v", err)
		}
		return finish(r, match.FinishWin, Alice, Bob), nil
	})
	if !errors.Is(err, match.ErrConflict) {
		t.Fatalf("Update that always conflicts: err = %v, want ErrConflict", err)
	}
	if want := sessions.DefaultMaxRetries + 1; calls != want {
		t.Errorf("fn called %d times, want %d", calls, want)
	}
	got := mustLoad(t, s, Channel, g.ID)
	if got.Status != match.StatusPlaying || got.Rematches != calls || got.Version != int64(1+calls) {
		t.Errorf("after conflicts: Status %v Rematches %d Version %d; want playing, %d, %d", got.Status, got.Rematches, got.Version, calls, 1+calls)
	}
	if st, _ := s.Stats(t.Context(), Channel, Alice.ID); st.Games() != 0 {
		t.Errorf("a conflicting update was tallied: %+v", st)
	}
}

func testDeadline(t *testing.T, s Store, clk *Clock) {
	g := mustCreate(t, s, Playing(t, Channel))
	check := func(what string, err error) {
		t.Helper()
		if !errors.Is(err, context.DeadlineExceeded) || !errors.Is(err, match.ErrUnavailable) {
			t.Errorf("%s past the deadline: err = %v, want DeadlineExceeded and ErrUnavailable", what, err)
		}
	}
	ctx, cancel := context.WithDeadline(t.Context(), time.Now().Add(-time.Second))
	defer cancel()
	_, err := s.Load(ctx, Channel, g.ID)
	check("Load", err)
	_, err = s.Update(ctx, Channel, g.ID, play(Alice.ID, 0, 0))
	check("Update", err)
	k := Channel
	k.Channel = "C2"
	check("Create", s.Create(ctx, Challenge(k)))

	// A deadline that hits while Update is retrying.
	ctx, cancel = context.WithTimeout(t.Context(), 20*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err = s.Update(ctx, Channel, g.ID, func(r *match.Record) (match.Tally, error) {
		s.Update(t.Context(), Channel, g.ID, func(r *match.Record) (match.Tally, error) {
			r.Rematches++
			return match.Tally{}, nil
		})
		time.Sleep(2 * time.Millisecond)
		return match.Tally{}, nil
	})
	if !errors.Is(err, match.ErrConflict) { // retries may run out first on a slow machine
		check("Update while retrying", err)
	}
	if d := time.Since(start); d > time.Second {
		t.Errorf("Update with a 20ms deadline took %v", d)
	}
	if recs, err := s.Active(t.Context(), k); err != nil || len(recs) != 0 {
		t.Errorf("Load of the channel a late Create was for: err = %v, want ErrNoGame", err)
	}
}

func testDelete(t *testing.T, s Store, clk *Clock) {
	g := mustCreate(t, s, Playing(t, Channel, 0, 0, 1, 1, 2, 2))
	if _, err := s.Update(t.Context(), Channel, g.ID, play(Alice.ID, 6, 3)); err != nil {
		t.Fatalf("winning move: %v", err)
	}
	if err := s.Delete(t.Context(), Channel, g.ID); err != nil {
		t.Fatalf("Delete: %v", err)
	}
	if _, err := s.Load(t.Context(), Channel, g.ID); !errors.Is(err, match.ErrNoGame) {
		t.Errorf("Load after Delete: err = %v, want ErrNoGame", err)
	}
	if err := s.Delete(t.Context(), Channel, g.ID); err != nil {
		t.Errorf("Delete of nothing: %v", err)
	}
	if st, err := s.Stats(t.Context(), Channel, Alice.ID); err != nil || st.Wins != 1 {
		t.Errorf("Stats after Delete = %+v, %v; want the leaderboard kept (1 win)", st, err)
	}
	mustCreate(t, s, Challenge(Channel))
}

func testLeaderboard(t *testing.T, s Store, clk *Clock) {
	if lb, err := s.Leaderboard(t.Context(), Channel, 10); err != nil || len(lb) != 0 {
		t.Errorf("empty Leaderboard = %+v, %v", lb, err)
	}
	p := func(n int) match.Player {
		return match.Player{ID: fmt.Sprintf("U%d", n), Name: fmt.Sprintf("P%d", n)}
	}
	d := match.Player{ID: "UD", Name: "Dummy"}
	win := func(w, l match.Player) match.Tally { return match.Tally{Winner: w, Loser: l} }
	draw := func(a, b match.Player) match.Tally { return match.Tally{Winner: a, Loser: b, Draw: true} }
	p1old := match.Player{ID: "U1", Name: "Old name"}
	tallies := []match.Tally{
		win(p(6), d), win(d, p(6)), // U6 1-1: ties U5 on everything but the id
		win(p1old, d), win(p(1), d), win(d, p(1)), win(p(1), d), // U1 3-1, renamed
		win(p(2), d), win(p(2), d), draw(d, p(2)), // U2 2-0-1
		win(p(3), d), win(p(3), d), // U3 2-0-0: fewer games than U2
		win(p(4), d), win(p(4), d), win(d, p(4)), // U4 2-1
		win(p(5), d), win(d, p(5)), // U5 1-1
	}
	g := mustCreate(t, s, Playing(t, Channel))
	for _, tl := range tallies {
		if _, err := s.Update(t.Context(), Channel, g.ID, func(r *match.Record) (match.Tally, error) {
			r.Rematches++
			return tl, nil
		}); err != nil {
			t.Fatalf("Update with tally %+v: %v", tl, err)
		}
	}
	want := []match.Standing{
		{Player: d, Wins: 4, Losses: 11, Draws: 1},
		{Player: p(1), Wins: 3, Losses: 1},
		{Player: p(2), Wins: 2, Draws: 1},
		{Player: p(3), Wins: 2},
		{Player: p(4), Wins: 2, Losses: 1},
		{Player: p(5), Wins: 1, Losses: 1},
		{Player: p(6), Wins: 1, Losses: 1},
	}
	for _, n := range []int{0, 3, 7, 100} {
		got, err := s.Leaderboard(t.Context(), Channel, n)
		w := want
		if n > 0 && n < len(w) {
			w = w[:n]
		}
		if err != nil || !reflect.DeepEqual(got, w) {
			t.Errorf("Leaderboard(%d) = %+v, %v\nwant %+v", n, got, err, w)
		}
	}
	if st, err := s.Stats(t.Context(), Channel, "U2"); err != nil || !reflect.DeepEqual(st, want[2]) {
		t.Errorf("Stats(U2) = %+v, %v; want %+v", st, err, want[2])
	}
	if st, err := s.Stats(t.Context(), Channel, "UNOBODY"); err != nil || !reflect.DeepEqual(st, match.Standing{Player: match.Player{ID: "UNOBODY"}}) {
		t.Errorf("Stats(UNOBODY) = %+v, %v; want a zero standing with the id", st, err)
	}
	if got := want[1].WinRate(); got != 0.75 {
		t.Errorf("WinRate of 3-1 = %v, want 0.75", got)
	}
	other := Channel
	other.Channel = "C2"
	if lb, err := s.Leaderboard(t.Context(), other, 0); err != nil || len(lb) != 0 {
		t.Errorf("another channel's Leaderboard = %+v, %v; want empty", lb, err)
	}
}

func testTallyOnceAcrossRetries(t *testing.T, s Store, clk *Clock) {
	g := mustCreate(t, s, Playing(t, Channel))
	calls := 0
	got, err := s.Update(t.Context(), Channel, g.ID, func(r *match.Record) (match.Tally, error) {
		calls++
		if calls == 1 { // force one conflict
			if _, err := s.Update(t.Context(), Channel, g.ID, func(r *match.Record) (match.Tally, error) {
				r.Rematches++
				return match.Tally{}, nil
			}); err != nil {
				t.Errorf("nested Update: %v", err)
			}
		}
		return finish(r, match.FinishTimeout, Bob, Alice), nil
	})
	if err != nil || calls != 2 {
		t.Fatalf("Update = %v after %d calls; want nil after 2", err, calls)
	}
	if got.Rematches != 1 || len(got.Rounds) != 1 {
		t.Errorf("record after a retried finish: Rematches %d Rounds %v; want 1 and one round", got.Rematches, got.Rounds)
	}
	lb, err := s.Leaderboard(t.Context(), Channel, 0)
	want := []match.Standing{{Player: Bob, Wins: 1}, {Player: Alice, Losses: 1}}
	if err != nil || !reflect.DeepEqual(lb, want) {
		t.Errorf("Leaderboard = %+v, %v; want %+v", lb, err, want)
	}
}

func testTTL(t *testing.T, s Store, clk *Clock) {
	tt, ok := s.(ttler)
	if !ok {
		t.Skipf("%T has no TTL method", s)
	}
	near := func(what string, got, want time.Duration) {
		t.Helper()
		if got > want || got < want-10*time.Second {
			t.Errorf("%s TTL = %v, want %v (less at most 10s)", what, got, want)
		}
	}
	var rec *match.Record
	ttls := func() (time.Duration, time.Duration) {
		t.Helper()
		g, l, err := tt.TTL(t.Context(), Channel, rec.ID)
		if err != nil {
			t.Fatalf("TTL: %v", err)
		}
		return g, l
	}
	rec = mustCreate(t, s, Playing(t, Channel))
	g, l := ttls()
	near("new game", g, sessions.DefaultIdleTTL)
	if l != 0 {
		t.Errorf("leaderboard TTL before any result = %v, want 0 (no key)", l)
	}
	clk.Advance(time.Hour)
	if _, err := s.Update(t.Context(), Channel, rec.ID, play(Alice.ID, 0, 0)); err != nil {
		t.Fatal(err)
	}
	g, _ = ttls()
	near("game after a move an hour later", g, sessions.DefaultIdleTTL)
	if _, err := s.Update(t.Context(), Channel, rec.ID, func(r *match.Record) (match.Tally, error) {
		return finish(r, match.FinishResign, Bob, Alice), nil
	}); err != nil {
		t.Fatal(err)
	}
	g, l = ttls()
	near("finished game", g, sessions.DefaultFinishedTTL)
	near("leaderboard", l, sessions.DefaultLeaderboardTTL)
}

func testExpiryByClock(t *testing.T, s Store, clk *Clock) {
	tt, ok := s.(ttler)
	if !ok {
		t.Skipf("%T has no TTL method", s)
	}
	g := mustCreate(t, s, Playing(t, Channel))
	before, _, _ := tt.TTL(t.Context(), Channel, g.ID)
	clk.Advance(time.Hour)
	after, _, _ := tt.TTL(t.Context(), Channel, g.ID)
	if before-after < time.Hour {
		t.Skipf("%T expires keys by its own clock, not Options.Now: its own tests check expiry", s)
	}
	clk.Advance(sessions.DefaultIdleTTL - time.Hour - time.Millisecond)
	mustLoad(t, s, Channel, g.ID)
	clk.Advance(time.Millisecond)
	if _, err := s.Load(t.Context(), Channel, g.ID); !errors.Is(err, match.ErrNoGame) {
		t.Fatalf("Load of a game idle for IdleTTL: err = %v, want ErrNoGame", err)
	}
	g = mustCreate(t, s, Playing(t, Channel, 0, 0, 1, 1, 2, 2))
	if _, err := s.Update(t.Context(), Channel, g.ID, play(Alice.ID, 6, 3)); err != nil {
		t.Fatal(err)
	}
	clk.Advance(sessions.DefaultFinishedTTL - time.Millisecond)
	mustLoad(t, s, Channel, g.ID)
	clk.Advance(time.Millisecond)
	if _, err := s.Load(t.Context(), Channel, g.ID); !errors.Is(err, match.ErrNoGame) {
		t.Fatalf("Load of a game finished FinishedTTL ago: err = %v, want ErrNoGame", err)
	}
	if st, _ := s.Stats(t.Context(), Channel, Alice.ID); st.Wins != 1 {
		t.Errorf("Stats after the game expired = %+v, want 1 win", st)
	}
	clk.Advance(sessions.DefaultLeaderboardTTL)
	if lb, _ := s.Leaderboard(t.Context(), Channel, 0); len(lb) != 0 {
		t.Errorf("Leaderboard after LeaderboardTTL = %+v, want empty", lb)
	}
}

func testInvalidKey(t *testing.T, s Store, clk *Clock) {
	for _, k := range []match.Key{
		{},
		{Platform: "slack", Workspace: "T1"},
		{Platform: "slack", Workspace: "T{1}", Channel: "C1"},
		{Platform: "slack", Workspace: "T1", Channel: "C:1"},
		{Platform: "slack", Workspace: "T 1", Channel: "C1"},
		{Platform: "slack", Workspace: "T1", Channel: "C\n1"},
		{Platform: "slack", Workspace: "T1", Channel: "C\x001"},
		{Platform: "slack", Workspace: "T1", Channel: strings.Repeat("C", 129)},
		{Platform: "slack", Workspace: "T1", Channel: "\xff"},
	} {
		if k.Validate() == nil {
			t.Errorf("%q.Validate() = nil, want an error", k)
		}
		r := Challenge(k)
		errs := map[string]error{"Create": s.Create(t.Context(), r), "Delete": s.Delete(t.Context(), k, "g1")}
		_, errs["Load"] = s.Load(t.Context(), k, "g1")
		_, errs["Update"] = s.Update(t.Context(), k, "g1", func(*match.Record) (match.Tally, error) { return match.Tally{}, nil })
		_, errs["Leaderboard"] = s.Leaderboard(t.Context(), k, 1)
		_, errs["Stats"] = s.Stats(t.Context(), k, Alice.ID)
		_, errs["Active"] = s.Active(t.Context(), k)
		_, errs["PlayerGame"] = s.PlayerGame(t.Context(), k, Alice.ID)
		for op, err := range errs {
			if err == nil || errors.Is(err, match.ErrNoGame) || !strings.Contains(err.Error(), "invalid key") {
				t.Errorf("%s(%q) = %v, want a key error", op, k, err)
			}
		}
	}
	for _, k := range []match.Key{Channel, {Platform: "discord", Workspace: "123456789012345678", Channel: strings.Repeat("9", 128)}} {
		if err := k.Validate(); err != nil {
			t.Errorf("%q.Validate() = %v, want nil", k, err)
		}
	}
	if got := Channel.String(); got != "slack:T1:C1" {
		t.Errorf("String() = %q, want slack:T1:C1", got)
	}
}

// testRaceMoves races many clients clicking in one game: right and wrong
// players, stale and current move numbers, same and different columns.
func testRaceMoves(t *testing.T, s Store, clk *Clock) {
	const workers, maxMoves = 60, 24
	game := mustCreate(t, s, Playing(t, Channel))
	type move struct {
		no, col int
		id      string
	}
	var (
		mu       sync.Mutex
		accepted []move
		rejected atomic.Int64
	)
	deadline := time.Now().Add(30 * time.Second)
	start := make(chan struct{})
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rng := rand.New(rand.NewPCG(uint64(w), 42))
			<-start
			for time.Now().Before(deadline) {
				cur, err := s.Load(t.Context(), Channel, game.ID)
				if err != nil {
					t.Errorf("Load: %v", err)
					return
				}
				g := cur.Game
				if cur.Status != match.StatusPlaying || g.Moves() >= maxMoves {
					return
				}
				m := move{no: g.Moves(), col: rng.IntN(4) + 1, id: Alice.ID}
				if rng.IntN(4) == 0 && m.no > 0 {
					m.no-- // a click on an old board
				}
				if right := rng.IntN(3) != 0; (g.Turn() == engine.Red) != right { // the right player two times in three
					m.id = Bob.ID
				}
				_, err = s.Update(t.Context(), Channel, game.ID, func(r *match.Record) (match.Tally, error) {
					runtime.Gosched() // widen the window between read and write
					return play(m.id, m.no, m.col)(r)
				})
				var me *engine.MoveError
				switch {
				case err == nil:
					mu.Lock()
					accepted = append(accepted, m)
					mu.Unlock()
				case errors.Is(err, errStale), errors.As(err, &me), errors.Is(err, match.ErrConflict), errors.Is(err, errOver):
					rejected.Add(1)
				default:
					t.Errorf("Update(%+v): %v", m, err)
					return
				}
			}
		}()
	}
	close(start)
	wg.Wait()
	if time.Now().After(deadline) {
		t.Fatal("the game did not finish in 30s")
	}
	slices.SortFunc(accepted, func(a, b move) int { return a.no - b.no })
	final := mustLoad(t, s, Channel, game.ID)
	if final.Version != int64(1+len(accepted)) {
		t.Errorf("Version %d after %d accepted moves, want %d", final.Version, len(accepted), 1+len(accepted))
	}
	g, err := engine.New(engine.DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	for i, m := range accepted {
		if m.no != i {
			t.Fatalf("accepted move numbers %v: want 0, 1, 2, ... each once", accepted)
		}
		want := engine.Yellow
		if m.id == Alice.ID {
			want = engine.Red
		}
		if err := g.Play(want, m.col); err != nil {
			t.Fatalf("replaying accepted move %+v: %v", m, err)
		}
	}
	if !slices.Equal(final.Game.History(), g.History()) {
		t.Errorf("stored game %v differs from the replay of accepted moves %v", final.Game.History(), g.History())
	}
	lb, _ := s.Leaderboard(t.Context(), Channel, 0)
	games := 0
	for _, st := range lb {
		games += st.Games()
	}
	if wantGames := map[bool]int{true: 2, false: 0}[final.Status == match.StatusFinished]; games != wantGames {
		t.Errorf("leaderboard counts %d player-games (%+v), want %d", games, lb, wantGames)
	}
	t.Logf("%d workers: %d moves accepted, %d clicks rejected, final status %v", workers, len(accepted), rejected.Load(), final.Status)
	if len(accepted) < 7 {
		t.Errorf("only %d moves accepted", len(accepted))
	}
}

func testRaceChallenges(t *testing.T, s Store, clk *Clock) {
	const workers = 50
	errs := make([]error, workers)
	recs := make([]*match.Record, workers)
	start := make(chan struct{})
	var wg sync.WaitGroup
	for i := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := Challenge(Channel)
			r.Challenger = match.Player{ID: fmt.Sprintf("U%02d", i), Name: fmt.Sprintf("Player %d", i)}
			recs[i] = r
			<-start
			errs[i] = s.Create(t.Context(), r)
		}()
	}
	close(start)
	wg.Wait()
	winner := -1
	for i, err := range errs {
		if err == nil {
			if winner >= 0 {
				t.Fatalf("two challenges won: %d and %d", winner, i)
			}
			winner = i
		}
	}
	if winner < 0 {
		t.Fatalf("no challenge won: %v", errs[0])
	}
	for i, err := range errs {
		var busy *match.BusyError
		if i != winner && (!errors.As(err, &busy) || busy.Existing.ID != recs[winner].ID) {
			t.Errorf("challenge %d: err = %v, want a BusyError naming challenge %d", i, err, winner)
		}
	}
	sameRecord(t, "Load after racing challenges", mustLoad(t, s, Channel, recs[winner].ID), recs[winner])
}

// testRaceFinish races the winning move against resignations by both
// players: one wins, and the leaderboard counts the game once.
func testRaceFinish(t *testing.T, s Store, clk *Clock) {
	for round := range 3 {
		k := Channel
		k.Channel = fmt.Sprintf("C%d", round)
		game := mustCreate(t, s, Playing(t, k, 0, 0, 1, 1, 2, 2))
		resign := func(loser, winner match.Player) func(r *match.Record) (match.Tally, error) {
			return func(r *match.Record) (match.Tally, error) {
				if r.Status != match.StatusPlaying {
					return match.Tally{}, errOver
				}
				return finish(r, match.FinishResign, winner, loser), nil
			}
		}
		fns := []func(r *match.Record) (match.Tally, error){play(Alice.ID, 6, 3), resign(Alice, Bob), resign(Bob, Alice)}
		const workers = 50
		var wins atomic.Int64
		winners := make([]string, workers)
		start := make(chan struct{})
		var wg sync.WaitGroup
		for i := range workers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				<-start
				r, err := s.Update(t.Context(), k, game.ID, fns[i%len(fns)])
				switch {
				case err == nil:
					wins.Add(1)
					winners[i] = r.Rounds[0].Winner
				case errors.Is(err, errOver), errors.Is(err, errStale), errors.Is(err, match.ErrConflict):
				default:
					t.Errorf("Update: %v", err)
				}
			}()
		}
		close(start)
		wg.Wait()
		if wins.Load() != 1 {
			t.Fatalf("%d finishing updates succeeded, want 1", wins.Load())
		}
		final := mustLoad(t, s, k, game.ID)
		w := final.Rounds[0].Winner
		lb, err := s.Leaderboard(t.Context(), k, 0)
		if err != nil || len(lb) != 2 || lb[0].Player.ID != w || lb[0].Wins != 1 || lb[0].Games() != 1 || lb[1].Losses != 1 || lb[1].Games() != 1 {
			t.Errorf("Leaderboard after a raced finish won by %s = %+v, %v; want one win and one loss", w, lb, err)
		}
		if final.Version != 2 {
			t.Errorf("Version %d after one finishing update, want 2", final.Version)
		}
		for _, p := range []match.Player{Alice, Bob} {
			if st, err := s.Stats(t.Context(), k, p.ID); err != nil || st.Rating == nil || st.Rating.Games != 1 {
				t.Errorf("%s after a raced rated finish: %+v, %v; want rated exactly once", p.ID, st, err)
			}
		}
	}
}
