package storetest

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"reflect"
	"sync"
	"testing"
	"time"

	"github.com/connect4/connect4/bot/clock"
	"github.com/connect4/connect4/bot/match"
	"github.com/connect4/connect4/bot/pairing"
	"github.com/connect4/connect4/bot/tournament"
	"github.com/connect4/connect4/engine"
)

// TournamentStore is what a store of tournaments offers: sessions.Redis
// and sessions.MemoryTournaments.
type TournamentStore interface {
	CreateTournament(ctx context.Context, t *tournament.Tournament) error
	Tournament(ctx context.Context, k match.Key) (*tournament.Tournament, error)
	UpdateTournament(ctx context.Context, k match.Key, id string, fn func(*tournament.Tournament) error) (*tournament.Tournament, error)
	AdvanceTournament(ctx context.Context, k match.Key, id string, round int) (*tournament.Tournament, bool, error)
}

// Tournaments runs the one suite every TournamentStore must pass. newStore
// is called once per subtest and must return an empty store (for Redis: a
// fresh Prefix) built with Options{Now: now} and otherwise the defaults.
func Tournaments(t *testing.T, newStore func(t *testing.T, now func() time.Time) TournamentStore) {
	for _, tc := range []struct {
		name string
		run  func(t *testing.T, s TournamentStore, clk *Clock)
	}{
		{"CreateLoad", testTournamentCreateLoad},
		{"Update", testTournamentUpdate},
		{"RaceJoins", testTournamentRaceJoins},
		{"RaceStart", testTournamentRaceStart},
		{"RaceSwiss", testTournamentRaceSwiss},
	} {
		t.Run(tc.name, func(t *testing.T) {
			clk := NewClock(time.Now().UTC().Truncate(time.Millisecond))
			tc.run(t, newStore(t, clk.Now), clk)
		})
	}
}

var tournamentKey = match.Key{Platform: "slack", Workspace: "T1", Channel: "CT"}

// newTournament returns a Swiss of rounds rounds with n players joined.
func newTournament(t testing.TB, id string, n, rounds int, now time.Time) *tournament.Tournament {
	t.Helper()
	c, _ := clock.NewLive(5, 3)
	tr, err := tournament.New(id, tournamentKey, match.Player{ID: "U0", Name: "Olga"},
		tournament.Options{Format: tournament.Swiss, Rounds: rounds, Clock: c, Board: engine.DefaultConfig()}, now)
	if err != nil {
		t.Fatal(err)
	}
	for i := 1; i <= n; i++ {
		if err := tr.Join(match.Player{ID: fmt.Sprintf("U%d", i), Name: fmt.Sprintf("Player %d", i)}); err != nil {
			t.Fatal(err)
		}
	}
	return tr
}

func testTournamentCreateLoad(t *testing.T, s TournamentStore, clk *Clock) {
	ctx := t.Context()
	if _, err := s.Tournament(ctx, tournamentKey); !errors.Is(err, tournament.ErrNotFound) {
		t.Fatalf("Tournament of an empty channel = %v, want ErrNotFound", err)
	}
	tr := newTournament(t, "t1", 5, 3, clk.Now())
	if err := s.CreateTournament(ctx, tr); err != nil {
		t.Fatal(err)
	}
	got, err := s.Tournament(ctx, tournamentKey)
	if err != nil || !reflect.DeepEqual(got, tr) {
		t.Fatalf("Tournament = %+v, %v\nwant %+v", got, err, tr)
	}
	if err := s.CreateTournament(ctx, newTournament(t, "t2", 3, 1, clk.Now())); !errors.Is(err, tournament.ErrExists) {
		t.Errorf("a second tournament while one takes players: %v, want ErrExists", err)
	}
	bad := newTournament(t, "t3", 3, 1, clk.Now())
	bad.Status = 0
	if err := s.CreateTournament(ctx, bad); !errors.Is(err, match.ErrInvalid) {
		t.Errorf("an invalid tournament: %v, want ErrInvalid", err)
	}
	if _, err := s.UpdateTournament(ctx, tournamentKey, "t1", func(tr *tournament.Tournament) error { return tr.Cancel("U0", clk.Now()) }); err != nil {
		t.Fatal(err)
	}
	next := newTournament(t, "t2", 3, 1, clk.Now())
	if err := s.CreateTournament(ctx, next); err != nil {
		t.Fatalf("a new tournament over a cancelled one: %v", err)
	}
	if got, err := s.Tournament(ctx, tournamentKey); err != nil || got.ID != "t2" {
		t.Errorf("after replacing: %+v, %v", got, err)
	}
	// Full round trip of a started one: rounds, withdrawals, results, clock.
	if _, err := s.UpdateTournament(ctx, tournamentKey, "t2", func(tr *tournament.Tournament) error { return tr.Cancel("U0", clk.Now()) }); err != nil {
		t.Fatal(err)
	}
	big := newTournament(t, "t4", 9, 4, clk.Now())
	if err := big.Start("U0", nil, clk.Now()); err != nil {
		t.Fatal(err)
	}
	big.Rounds[0].Games[0].Result = pairing.Draw
	big.Players[3].Withdrawn = true
	if err := s.CreateTournament(ctx, big); err != nil {
		t.Fatal(err)
	}
	if got, err := s.Tournament(ctx, tournamentKey); err != nil || !reflect.DeepEqual(got, big) {
		t.Errorf("round trip of a running tournament = %+v, %v\nwant %+v", got, err, big)
	}
	if _, err := s.Tournament(ctx, match.Key{Platform: "slack"}); err == nil {
		t.Error("an invalid key was accepted")
	}
}

func testTournamentUpdate(t *testing.T, s TournamentStore, clk *Clock) {
	ctx := t.Context()
	tr := newTournament(t, "t1", 4, 3, clk.Now())
	if err := s.CreateTournament(ctx, tr); err != nil {
		t.Fatal(err)
	}
	join := func(id string) func(*tournament.Tournament) error {
		return func(tr *tournament.Tournament) error { return tr.Join(match.Player{ID: id, Name: id}) }
	}
	got, err := s.UpdateTournament(ctx, tournamentKey, "t1", join("U9"))
	if err != nil || len(got.Players) != 5 {
		t.Fatalf("join = %v, %v", got, err)
	}
	// A refusal is returned as it is and writes nothing.
	_, err = s.UpdateTournament(ctx, tournamentKey, "t1", join("U9"))
	if tournament.ReasonOf(err) != tournament.ReasonJoined {
		t.Errorf("joining twice: %v, want ReasonJoined", err)
	}
	// An invalid change is refused and writes nothing.
	_, err = s.UpdateTournament(ctx, tournamentKey, "t1", func(tr *tournament.Tournament) error { tr.Status = 9; return nil })
	if !errors.Is(err, match.ErrInvalid) {
		t.Errorf("an invalid change: %v, want ErrInvalid", err)
	}
	// No change: the tournament as it is.
	same, err := s.UpdateTournament(ctx, tournamentKey, "t1", func(*tournament.Tournament) error { return match.ErrNoChange })
	if err != nil || len(same.Players) != 5 {
		t.Errorf("no change = %v, %v", same, err)
	}
	if _, err := s.UpdateTournament(ctx, tournamentKey, "t0", join("U8")); !errors.Is(err, tournament.ErrNotFound) {
		t.Errorf("update of another id: %v, want ErrNotFound", err)
	}
	if _, err := s.UpdateTournament(ctx, match.Key{Platform: "slack", Workspace: "T1", Channel: "none"}, "t1", join("U8")); !errors.Is(err, tournament.ErrNotFound) {
		t.Errorf("update in an empty channel: %v, want ErrNotFound", err)
	}
	if got, err := s.Tournament(ctx, tournamentKey); err != nil || len(got.Players) != 5 || got.Status != tournament.Joining {
		t.Errorf("after refusals: %+v, %v", got, err)
	}
	// Advancing a tournament still taking players is refused.
	if _, ok, err := s.AdvanceTournament(ctx, tournamentKey, "t1", 0); ok || tournament.ReasonOf(err) != tournament.ReasonNotStarted {
		t.Errorf("advance before the start = %v, %v, want ReasonNotStarted", ok, err)
	}
}

// testTournamentRaceJoins: players joining at once from two workers all
// get in, each exactly once.
func testTournamentRaceJoins(t *testing.T, s TournamentStore, clk *Clock) {
	ctx := t.Context()
	if err := s.CreateTournament(ctx, newTournament(t, "t1", 0, 0, clk.Now())); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	errs := make(chan error, 2*12)
	for w := range 2 {
		wg.Go(func() {
			for i := range 12 {
				id := fmt.Sprintf("W%dP%d", w, i)
				var err error
				// A join that lost the compare-and-set of every attempt
				// the store makes (ErrConflict: the other worker won
				// each race, which a busy machine can bring about) is
				// sent again, as a player clicks again; a join lost or
				// counted twice fails the count below.
				for try := 0; try < 3; try++ {
					_, err = s.UpdateTournament(ctx, tournamentKey, "t1", func(tr *tournament.Tournament) error {
						return tr.Join(match.Player{ID: id, Name: id})
					})
					if !errors.Is(err, match.ErrConflict) {
						break
					}
				}
				errs <- err
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Error(err)
		}
	}
	if got, err := s.Tournament(ctx, tournamentKey); err != nil || len(got.Players) != 24 {
		t.Errorf("after 24 joins from two workers: %d players, %v", len(got.Players), err)
	}
}

// testTournamentRaceStart: the organiser's start, clicked on two
// replicas at once, starts the tournament once.
func testTournamentRaceStart(t *testing.T, s TournamentStore, clk *Clock) {
	ctx := t.Context()
	if err := s.CreateTournament(ctx, newTournament(t, "t1", 7, 3, clk.Now())); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	errs := make([]error, 2)
	for w := range 2 {
		wg.Go(func() {
			_, errs[w] = s.UpdateTournament(ctx, tournamentKey, "t1", func(tr *tournament.Tournament) error {
				return tr.Start("U0", nil, clk.Now())
			})
		})
	}
	wg.Wait()
	ok := 0
	for _, err := range errs {
		switch {
		case err == nil:
			ok++
		case tournament.ReasonOf(err) != tournament.ReasonStarted:
			t.Errorf("a racing start: %v, want nil or ReasonStarted", err)
		}
	}
	got, err := s.Tournament(ctx, tournamentKey)
	if ok != 1 || err != nil || got.Round() != 1 || got.Status != tournament.Running {
		t.Errorf("%d starts succeeded; now %v round %d, %v", ok, got.Status, got.Round(), err)
	}
}

// resultFor is the result every worker records for a game: the same
// whoever records it, so that the standings can be checked.
func resultFor(gameID string) pairing.Result {
	h := fnv.New32a()
	h.Write([]byte(gameID))
	return pairing.Result(1 + h.Sum32()%3)
}

// testTournamentRaceSwiss plays a 6-player Swiss of 3 rounds to the end
// with two workers racing for every step, as two replicas would: each
// records the results of the current round's games and advances the
// tournament once the round is over. Every round must be paired exactly
// once, and the standings must equal those of the same results played
// out on one value.
func testTournamentRaceSwiss(t *testing.T, s TournamentStore, clk *Clock) {
	for i := range 5 { // one after the other: each replaces the finished one
		raceSwiss(t, s, clk, fmt.Sprintf("sw%d", i))
	}
}

func raceSwiss(t *testing.T, s TournamentStore, clk *Clock, id string) {
	ctx := t.Context()
	tr := newTournament(t, id, 6, 3, clk.Now())
	if err := tr.Start("U0", nil, clk.Now()); err != nil {
		t.Fatal(err)
	}
	if err := s.CreateTournament(ctx, tr); err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	advanced := map[int]int{} // round played → successful advances after it
	var wg sync.WaitGroup
	errs := make([]error, 2)
	for w := range 2 {
		wg.Go(func() { errs[w] = raceWorker(ctx, s, rand.New(rand.NewPCG(uint64(w), 9)), &mu, advanced) })
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	if want := map[int]int{1: 1, 2: 1, 3: 1}; !reflect.DeepEqual(advanced, want) {
		t.Errorf("advances after each round: %v, want %v (rounds 2 and 3 paired once, the end once)", advanced, want)
	}
	got, err := s.Tournament(ctx, tournamentKey)
	if err != nil {
		t.Fatal(err)
	}
	// The same tournament played on one value.
	want := tr.Clone()
	for r := 1; r <= 3; r++ {
		for _, g := range want.Rounds[r-1].Games {
			if err := want.Record(g.GameID, resultFor(g.GameID)); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := want.Advance(clk.Now()); err != nil {
			t.Fatal(err)
		}
	}
	if got.Status != tournament.Finished || len(got.Rounds) != 3 {
		t.Fatalf("after the race: %v with %d rounds", got.Status, len(got.Rounds))
	}
	for r := range got.Rounds {
		if !reflect.DeepEqual(got.Rounds[r].Games, want.Rounds[r].Games) || got.Rounds[r].Bye != want.Rounds[r].Bye {
			t.Errorf("round %d: %+v, want %+v", r+1, got.Rounds[r], want.Rounds[r])
		}
	}
	gs, err1 := got.Standings()
	ws, err2 := want.Standings()
	if err1 != nil || err2 != nil || !reflect.DeepEqual(gs, ws) {
		t.Errorf("standings %v (%v), want %v (%v)", gs, err1, ws, err2)
	}
}

// raceWorker is one replica playing the channel's tournament to its end.
func raceWorker(ctx context.Context, s TournamentStore, rng *rand.Rand, mu *sync.Mutex, advanced map[int]int) error {
	for steps := 0; steps < 1000; steps++ {
		tr, err := s.Tournament(ctx, tournamentKey)
		if err != nil {
			return err
		}
		if tr.Status == tournament.Finished {
			return nil
		}
		cur := tr.Rounds[len(tr.Rounds)-1]
		if cur.Over() {
			_, ok, err := s.AdvanceTournament(ctx, tournamentKey, tr.ID, tr.Round())
			if err != nil {
				return fmt.Errorf("advance after round %d: %w", tr.Round(), err)
			}
			if ok {
				mu.Lock()
				advanced[tr.Round()]++
				mu.Unlock()
			}
			continue
		}
		games := cur.Games
		for _, i := range rng.Perm(len(games)) {
			g := games[i]
			if g.Result != pairing.NoResult {
				continue
			}
			_, err := s.UpdateTournament(ctx, tournamentKey, tr.ID, func(t *tournament.Tournament) error {
				err := t.Record(g.GameID, resultFor(g.GameID))
				switch tournament.ReasonOf(err) {
				case tournament.ReasonResultKnown, tournament.ReasonNoGame, tournament.ReasonOver:
					return match.ErrNoChange // the other worker was first, and may have moved on
				}
				return err
			})
			if err != nil {
				return fmt.Errorf("record %s: %w", g.GameID, err)
			}
		}
	}
	return errors.New("the tournament never finished")
}
