package sessions_test

import (
	"errors"
	"testing"
	"time"

	"github.com/connect4/connect4/bot/match"

	"github.com/connect4/connect4/sessions"
	"github.com/connect4/connect4/sessions/storetest"
)

func TestMemoryConformance(t *testing.T) {
	storetest.Conformance(t, func(t *testing.T, now func() time.Time) storetest.Store {
		return sessions.NewMemory(sessions.Options{Now: now})
	})
}

func TestMemoryInvalidOptions(t *testing.T) {
	for _, opt := range []sessions.Options{
		{Prefix: "c4{x}:"}, {IdleTTL: -time.Second}, {FinishedTTL: time.Microsecond}, {MaxRetries: -1}, {MaxGames: -1},
	} {
		if opt.Validate() == nil {
			t.Errorf("%+v.Validate() = nil, want an error", opt)
		}
		s := sessions.NewMemory(opt)
		if err := s.Ping(t.Context()); err == nil {
			t.Errorf("Ping with %+v = nil, want the options error", opt)
		}
		if _, err := s.Load(t.Context(), storetest.Channel, "g1"); err == nil || errors.Is(err, match.ErrNoGame) {
			t.Errorf("Load with %+v = %v, want the options error", opt, err)
		}
	}
	if err := (sessions.Options{}).Validate(); err != nil {
		t.Errorf("zero Options.Validate() = %v", err)
	}
}

func TestMemoryHooks(t *testing.T) {
	var conflicts, retries int
	s := sessions.NewMemory(sessions.Options{MaxRetries: 2, Hooks: sessions.Hooks{
		Conflict: func() { conflicts++ }, Retry: func() { retries++ },
	}})
	g := storetest.Playing(t, storetest.Channel)
	if err := s.Create(t.Context(), g); err != nil {
		t.Fatal(err)
	}
	_, err := s.Update(t.Context(), storetest.Channel, g.ID, func(r *match.Record) (match.Tally, error) {
		s.Update(t.Context(), storetest.Channel, g.ID, func(r *match.Record) (match.Tally, error) {
			r.Rematches++
			return match.Tally{}, nil
		})
		return match.Tally{}, nil
	})
	if !errors.Is(err, match.ErrConflict) || conflicts != 3 || retries != 2 {
		t.Errorf("with MaxRetries 2: err %v, %d conflicts, %d retries; want match.ErrConflict, 3, 2", err, conflicts, retries)
	}
}
