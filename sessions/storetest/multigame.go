package storetest

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/connect4/connect4/bot/match"
	"github.com/connect4/connect4/engine"
	"github.com/connect4/connect4/sessions"
)

var errStranger = errors.New("not a player of this game")

// pair returns a classic game in k between a (Red) and b, after moves.
func pair(t testing.TB, k match.Key, a, b match.Player, moves ...int) *match.Record {
	t.Helper()
	r := Playing(t, k, moves...)
	r.Challenger, r.Opponent, r.RedID = a, b, a.ID
	return r
}

// someone returns player n of a test, "U<prefix><n>".
func someone(prefix string, n int) match.Player {
	return match.Player{ID: fmt.Sprintf("U%s%d", prefix, n), Name: fmt.Sprintf("%s %d", prefix, n)}
}

// testActive: Active lists a channel's active games oldest first, and
// PlayerGame finds each player's; finished games and lapsed challenges
// leave both, and free their players.
func testActive(t *testing.T, s Store, clk *Clock) {
	if recs, err := s.Active(t.Context(), Channel); err != nil || len(recs) != 0 {
		t.Fatalf("Active of an empty channel = %v, %v; want none", recs, err)
	}
	carol, dave, erin, frank := someone("C", 1), someone("D", 1), someone("E", 1), someone("F", 1)
	g1, c2, ai, ai2 := createActive(t, s, clk, carol, dave, erin, frank)

	ids := func() []string {
		t.Helper()
		recs, err := s.Active(t.Context(), Channel)
		if err != nil {
			t.Fatalf("Active: %v", err)
		}
		var out []string
		for _, r := range recs {
			out = append(out, r.ID)
		}
		return out
	}
	if got, want := ids(), []string{g1.ID, c2.ID, ai.ID, ai2.ID}; !slices.Equal(got, want) {
		t.Errorf("Active = %v, want %v (oldest first)", got, want)
	}
	for _, tc := range []struct {
		who  match.Player
		want *match.Record
	}{{Alice, g1}, {Bob, g1}, {carol, c2}, {dave, c2}, {erin, ai}, {frank, ai2}} {
		got, err := s.PlayerGame(t.Context(), Channel, tc.who.ID)
		if err != nil || got.ID != tc.want.ID {
			t.Errorf("PlayerGame(%s) = %v, %v; want %s", tc.who.ID, got, err, tc.want.ID)
			continue
		}
		sameRecord(t, "PlayerGame("+tc.who.ID+")", got, tc.want)
	}
	for _, id := range []string{"UNOBODY", "UBOT", ""} {
		if r, err := s.PlayerGame(t.Context(), Channel, id); !errors.Is(err, match.ErrNoGame) {
			t.Errorf("PlayerGame(%q) = %v, %v; want ErrNoGame", id, r, err)
		}
	}
	// A game that finishes leaves the index and frees its players.
	if _, err := s.Update(t.Context(), Channel, g1.ID, func(r *match.Record) (match.Tally, error) {
		return finish(r, match.FinishResign, Bob, Alice), nil
	}); err != nil {
		t.Fatal(err)
	}
	if r, err := s.PlayerGame(t.Context(), Channel, Alice.ID); !errors.Is(err, match.ErrNoGame) {
		t.Errorf("PlayerGame(Alice) after her game finished = %v, %v; want ErrNoGame", r, err)
	}
	if got, want := ids(), []string{c2.ID, ai.ID, ai2.ID}; !slices.Equal(got, want) {
		t.Errorf("Active after a finish = %v, want %v", got, want)
	}
	mustCreate(t, s, pair(t, Channel, Bob, Alice)) // both are free again
	// A challenge that lapses frees its players, with no write at all.
	clk.Advance(time.Minute + time.Millisecond)
	if r, err := s.PlayerGame(t.Context(), Channel, dave.ID); !errors.Is(err, match.ErrNoGame) {
		t.Errorf("PlayerGame(Dave) after the challenge lapsed = %v, %v; want ErrNoGame", r, err)
	}
	if slices.Contains(ids(), c2.ID) {
		t.Errorf("Active still lists the lapsed challenge %s", c2.ID)
	}
	mustCreate(t, s, pair(t, Channel, dave, carol))
	// The lapsed challenge is still readable by id (a late click is told it expired).
	if r := mustLoad(t, s, Channel, c2.ID); r.Status != match.StatusPending {
		t.Errorf("the lapsed challenge reads back %v, want pending", r.Status)
	}
}

// createActive creates testActive's games, a millisecond apart: Alice
// against Bob, c's challenge of d (lapsing in a minute), and e's and f's
// games against the AI, which plays any number at once; and a game in
// another channel, which is independent.
func createActive(t *testing.T, s Store, clk *Clock, c, d, e, f match.Player) (g1, c2, ai, ai2 *match.Record) {
	g1 = mustCreate(t, s, pair(t, Channel, Alice, Bob))
	clk.Advance(time.Millisecond)
	c2 = Challenge(Channel)
	c2.Challenger, c2.Opponent, c2.ExpiresAt = c, d, clk.Now().Add(time.Minute)
	mustCreate(t, s, c2)
	clk.Advance(time.Millisecond)
	ai = pair(t, Channel, e, match.Player{ID: "UBOT", Name: "the bot"})
	ai.AILevel = 2
	mustCreate(t, s, ai)
	clk.Advance(time.Millisecond)
	ai2 = pair(t, Channel, f, match.Player{ID: "UBOT", Name: "the bot"})
	ai2.AILevel = 2
	mustCreate(t, s, ai2)
	other := Channel
	other.Channel = "C2"
	mustCreate(t, s, pair(t, other, Alice, Bob))
	return g1, c2, ai, ai2
}

// testPlayerLimit: 50 racing creates that all include Alice: exactly one
// lands, and every refusal names it and Alice.
func testPlayerLimit(t *testing.T, s Store, clk *Clock) {
	const workers = 50
	recs := make([]*match.Record, workers)
	errs := make([]error, workers)
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i := range workers {
		r := Challenge(Channel)
		if i%2 == 0 {
			r.Challenger, r.Opponent = Alice, someone("X", i) // Alice challenges
		} else {
			r.Challenger, r.Opponent = someone("X", i), Alice // Alice is challenged
		}
		recs[i] = r
		wg.Go(func() {
			<-start
			errs[i] = s.Create(t.Context(), r)
		})
	}
	close(start)
	wg.Wait()
	won := onlyOne(t, "create with Alice in it", errs)
	for i, err := range errs {
		var busy *match.BusyError
		if i != won && (!errors.As(err, &busy) || busy.Existing.ID != recs[won].ID || busy.Player != Alice.ID) {
			t.Errorf("create %d: err = %v, want a *BusyError naming game %s and Alice", i, err, recs[won].ID)
		}
	}
	if recs, _ := s.Active(t.Context(), Channel); len(recs) != 1 {
		t.Errorf("%d active games, want 1", len(recs))
	}
}

// testChannelLimit: 50 racing creates between distinct pairs in a channel
// that holds 10 games: exactly 10 land, the rest hear the channel is full;
// a finished game makes room for one more.
func testChannelLimit(t *testing.T, s Store, clk *Clock) {
	const workers = 50
	errs := make([]error, workers)
	recs := make([]*match.Record, workers)
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i := range workers {
		r := pair(t, Channel, someone("A", i), someone("B", i))
		recs[i] = r
		wg.Go(func() {
			<-start
			errs[i] = s.Create(t.Context(), r)
		})
	}
	close(start)
	wg.Wait()
	var landed []*match.Record
	for i, err := range errs {
		var full *match.FullError
		switch {
		case err == nil:
			landed = append(landed, recs[i])
		case errors.As(err, &full) && errors.Is(err, match.ErrFull) && full.Max == sessions.DefaultMaxGames:
		default:
			t.Errorf("create %d: err = %v, want nil or a *FullError with Max %d", i, err, sessions.DefaultMaxGames)
		}
	}
	if len(landed) != sessions.DefaultMaxGames {
		t.Fatalf("%d creates landed, want %d", len(landed), sessions.DefaultMaxGames)
	}
	if recs, _ := s.Active(t.Context(), Channel); len(recs) != sessions.DefaultMaxGames {
		t.Errorf("%d active games, want %d", len(recs), sessions.DefaultMaxGames)
	}
	late := pair(t, Channel, someone("L", 1), someone("L", 2))
	if err := s.Create(t.Context(), late); !errors.Is(err, match.ErrFull) {
		t.Errorf("create in a full channel: err = %v, want ErrFull", err)
	}
	if _, err := s.Update(t.Context(), Channel, landed[0].ID, func(r *match.Record) (match.Tally, error) {
		return finish(r, match.FinishResign, r.Opponent, r.Challenger), nil
	}); err != nil {
		t.Fatal(err)
	}
	if err := s.Create(t.Context(), late); err != nil {
		t.Errorf("create after a game finished: %v", err)
	}
}

// testRaceAccepts: open challenges (no opponent named) raced by accepters,
// each of whom tries two of them, and by Bob, who is already playing:
// every accepter lands exactly one, every challenge is accepted at most
// once, and Bob none, each refusal naming the game in the way.
func testRaceAccepts(t *testing.T, s Store, clk *Clock) {
	const challenges, accepters, workers = 8, 4, 50
	g := mustCreate(t, s, pair(t, Channel, Alice, Bob))
	open := make([]*match.Record, challenges)
	for i := range open {
		r := Challenge(Channel)
		r.Challenger, r.Opponent = someone("O", i), match.Player{}
		open[i] = mustCreate(t, s, r)
	}
	errTaken := errors.New("already accepted")
	type result struct {
		who, game string
		err       error
	}
	results := make([]result, workers)
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i := range workers {
		who := someone("ACC", i%accepters)
		c := open[(i%accepters)+accepters*(i/accepters%2)] // accepter j tries challenges j and j+4
		if i%10 == 9 {
			who = Bob
		}
		wg.Go(func() {
			<-start
			_, err := s.Update(t.Context(), Channel, c.ID, func(r *match.Record) (match.Tally, error) {
				if r.Status != match.StatusPending {
					return match.Tally{}, errTaken
				}
				r.Opponent, r.Status, r.RedID = who, match.StatusPlaying, r.Challenger.ID
				return match.Tally{}, nil
			})
			results[i] = result{who.ID, c.ID, err}
		})
	}
	close(start)
	wg.Wait()
	perPlayer, perGame := map[string][]string{}, map[string]int{}
	for _, res := range results {
		var busy *match.BusyError
		switch {
		case res.err == nil:
			perPlayer[res.who] = append(perPlayer[res.who], res.game)
			perGame[res.game]++
		case errors.Is(res.err, errTaken), errors.Is(res.err, match.ErrConflict):
		case errors.As(res.err, &busy):
			mine, err := s.PlayerGame(t.Context(), Channel, res.who)
			if err != nil || busy.Existing.ID != mine.ID || busy.Player != res.who {
				t.Errorf("%s refused with %v, want a *BusyError naming their game %v", res.who, res.err, mine)
			}
		default:
			t.Errorf("accept by %s: %v", res.who, res.err)
		}
	}
	for j := range accepters {
		id := someone("ACC", j).ID
		if n := len(perPlayer[id]); n != 1 {
			t.Errorf("%s accepted %d challenges (%v), want exactly 1", id, n, perPlayer[id])
		}
	}
	if len(perPlayer[Bob.ID]) != 0 {
		t.Errorf("Bob, playing game %s, accepted %v", g.ID, perPlayer[Bob.ID])
	}
	for id, n := range perGame {
		if n != 1 {
			t.Errorf("challenge %s accepted %d times", id, n)
		}
	}
	if bobs, err := s.PlayerGame(t.Context(), Channel, Bob.ID); err != nil || bobs.ID != g.ID {
		t.Errorf("Bob's game after the race = %v, %v; want %s", bobs, err, g.ID)
	}
}

// testManyGames plays 4 games in one channel to the end at the same time,
// with the clicks of all of them interleaved at random: each ends as its
// own moves say, and a click carrying one game's id never changes another.
func testManyGames(t *testing.T, s Store, clk *Clock) {
	const games = 4
	recs := make([]*match.Record, games)
	for i := range recs {
		recs[i] = mustCreate(t, s, pair(t, Channel, someone("R", i), someone("Y", i)))
	}
	// Game i: Red plays column i, Yellow column i+1 (mod 7), so Red wins
	// at move 7 with a vertical line.
	var wg sync.WaitGroup
	var moves atomic.Int64
	for i, rec := range recs {
		for _, side := range []int{0, 1} {
			wg.Go(func() { playSide(t, s, rec, i, side, &moves) })
		}
	}
	// Meanwhile, clicks that name one game, by a player of another: the
	// game's own rule (membership) refuses them, and the other games are
	// not touched.
	wg.Go(func() {
		for n := range 40 {
			a, b := recs[n%games], recs[(n+1)%games]
			cur, err := s.Load(t.Context(), Channel, a.ID)
			if err != nil {
				t.Errorf("Load: %v", err)
				return
			}
			stranger := b.Opponent.ID
			_, err = s.Update(t.Context(), Channel, a.ID, func(r *match.Record) (match.Tally, error) {
				if _, ok := r.PlayerByID(stranger); !ok {
					return match.Tally{}, errStranger
				}
				return play(stranger, cur.Game.Moves(), n%7)(r)
			})
			if !errors.Is(err, errStranger) {
				t.Errorf("a click for game %s by %s, who plays %s: err = %v, want errStranger", a.ID, stranger, b.ID, err)
			}
		}
	})
	wg.Wait()
	if moves.Load() != games*7 {
		t.Errorf("%d moves landed, want %d", moves.Load(), games*7)
	}
	for i, rec := range recs {
		got := mustLoad(t, s, Channel, rec.ID)
		want := []int{i, (i + 1) % 7, i, (i + 1) % 7, i, (i + 1) % 7, i}
		if got.Status != match.StatusFinished || !slices.Equal(got.Game.History(), want) || got.Rounds[0].Winner != rec.Challenger.ID {
			t.Errorf("game %d: %v, history %v, rounds %v; want finished %v won by %s", i, got.Status, got.Game.History(), got.Rounds, want, rec.Challenger.ID)
		}
		if st, err := s.Stats(t.Context(), Channel, rec.Challenger.ID); err != nil || st.Wins != 1 || st.Games() != 1 {
			t.Errorf("%s: %+v, %v; want exactly 1 win", rec.Challenger.ID, st, err)
		}
	}
	if recs, _ := s.Active(t.Context(), Channel); len(recs) != 0 {
		t.Errorf("%d active games after all finished, want 0", len(recs))
	}
	// An id from another channel names nothing here.
	other := Channel
	other.Channel = "C2"
	if _, err := s.Update(t.Context(), other, recs[0].ID, play(recs[0].Challenger.ID, 7, 0)); !errors.Is(err, match.ErrNoGame) {
		t.Errorf("Update of a game id in another channel: err = %v, want ErrNoGame", err)
	}
}

// playSide plays one side of testManyGames' game i (rec) to its end: Red
// (side 0) column i, Yellow (side 1) column i+1 (mod 7), counting the
// moves that land.
func playSide(t *testing.T, s Store, rec *match.Record, i, side int, moves *atomic.Int64) {
	rng := rand.New(rand.NewPCG(uint64(i), uint64(side)))
	id := rec.Challenger.ID
	col := i
	if side == 1 {
		id, col = rec.Opponent.ID, (i+1)%7
	}
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); {
		cur, err := s.Load(t.Context(), Channel, rec.ID)
		if err != nil {
			t.Errorf("Load: %v", err)
			return
		}
		if cur.Status == match.StatusFinished {
			return
		}
		if (cur.Game.Turn() == engine.Red) != (side == 0) {
			time.Sleep(time.Duration(rng.IntN(300)) * time.Microsecond)
			continue
		}
		_, err = s.Update(t.Context(), Channel, rec.ID, play(id, cur.Game.Moves(), col))
		switch {
		case err == nil:
			moves.Add(1)
		case errors.Is(err, errStale), errors.Is(err, errOver), errors.Is(err, match.ErrConflict):
		default:
			t.Errorf("game %d move: %v", i, err)
			return
		}
	}
}
