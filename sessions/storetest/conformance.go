package storetest

import (
	"context"
	"reflect"
	"testing"
	"time"

	"github.com/connect4/connect4/bot/match"

	"github.com/connect4/connect4/engine"
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
