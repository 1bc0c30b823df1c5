package storetest

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/connect4/connect4/bot/match"

	"github.com/connect4/connect4/engine"
)

// testRaceMoves races many clients clicking in one game: right and wrong
// players, stale and current move numbers, same and different columns.
func testRaceMoves(t *testing.T, s Store, clk *Clock) {
	const workers = 60
	game := mustCreate(t, s, Playing(t, Channel))
	r := &moveRace{s: s, game: game, deadline: time.Now().Add(30 * time.Second)}
	start := make(chan struct{})
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			r.click(t, rand.New(rand.NewPCG(uint64(w), 42)))
		}()
	}
	close(start)
	wg.Wait()
	if time.Now().After(r.deadline) {
		t.Fatal("the game did not finish in 30s")
	}
	final := r.check(t)
	t.Logf("%d workers: %d moves accepted, %d clicks rejected, final status %v", workers, len(r.accepted), r.rejected.Load(), final.Status)
	if len(r.accepted) < 7 {
		t.Errorf("only %d moves accepted", len(r.accepted))
	}
}

// raceMove is one click of testRaceMoves: the move number of the board
// clicked, the column and the player.
type raceMove struct {
	no, col int
	id      string
}

// moveRace is testRaceMoves' game and what its clickers saw.
type moveRace struct {
	s        Store
	game     *match.Record
	deadline time.Time
	mu       sync.Mutex
	accepted []raceMove
	rejected atomic.Int64
}

// raceMaxMoves is how many moves testRaceMoves' clickers play at most.
const raceMaxMoves = 24

// click clicks until the game is over, has raceMaxMoves moves or the
// deadline passes.
func (r *moveRace) click(t *testing.T, rng *rand.Rand) {
	for time.Now().Before(r.deadline) {
		cur, err := r.s.Load(t.Context(), Channel, r.game.ID)
		if err != nil {
			t.Errorf("Load: %v", err)
			return
		}
		g := cur.Game
		if cur.Status != match.StatusPlaying || g.Moves() >= raceMaxMoves {
			return
		}
		m := raceMove{no: g.Moves(), col: rng.IntN(4) + 1, id: Alice.ID}
		if rng.IntN(4) == 0 && m.no > 0 {
			m.no-- // a click on an old board
		}
		if right := rng.IntN(3) != 0; (g.Turn() == engine.Red) != right { // the right player two times in three
			m.id = Bob.ID
		}
		_, err = r.s.Update(t.Context(), Channel, r.game.ID, func(rec *match.Record) (match.Tally, error) {
			runtime.Gosched() // widen the window between read and write
			return play(m.id, m.no, m.col)(rec)
		})
		var me *engine.MoveError
		switch {
		case err == nil:
			r.mu.Lock()
			r.accepted = append(r.accepted, m)
			r.mu.Unlock()
		case errors.Is(err, errStale), errors.As(err, &me), errors.Is(err, match.ErrConflict), errors.Is(err, errOver):
			r.rejected.Add(1)
		default:
			t.Errorf("Update(%+v): %v", m, err)
			return
		}
	}
}

// check compares the stored game with the replay of the accepted moves,
// each move number accepted once, and the leaderboard with its result; it
// returns the stored record.
func (r *moveRace) check(t *testing.T) *match.Record {
	accepted := r.accepted
	slices.SortFunc(accepted, func(a, b raceMove) int { return a.no - b.no })
	final := mustLoad(t, r.s, Channel, r.game.ID)
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
	lb, _ := r.s.Leaderboard(t.Context(), Channel, 0)
	games := 0
	for _, st := range lb {
		games += st.Games()
	}
	if wantGames := map[bool]int{true: 2, false: 0}[final.Status == match.StatusFinished]; games != wantGames {
		t.Errorf("leaderboard counts %d player-games (%+v), want %d", games, lb, wantGames)
	}
	return final
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
	winner := onlyOne(t, "challenge", errs)
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

// onlyOne returns the index of the one racing call of what that
// succeeded, and fails the test unless exactly one did.
func onlyOne(t *testing.T, what string, errs []error) int {
	t.Helper()
	won := -1
	for i, err := range errs {
		if err == nil {
			if won >= 0 {
				t.Fatalf("%s %d and %d both landed", what, won, i)
			}
			won = i
		}
	}
	if won < 0 {
		t.Fatalf("no %s landed: %v", what, errs[0])
	}
	return won
}
