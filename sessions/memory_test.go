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
		return storetest.NewMemory(t, sessions.Options{Now: now})
	})
}

// TestInvalidOptions: both constructors refuse invalid options with the
// problem Validate reports, so no later call has to check them again.
func TestInvalidOptions(t *testing.T) {
	for _, opt := range []sessions.Options{
		{Prefix: "c4{x}:"}, {IdleTTL: -time.Second}, {FinishedTTL: time.Microsecond}, {MaxRetries: -1}, {MaxGames: -1},
	} {
		want := opt.Validate()
		if want == nil {
			t.Errorf("%+v.Validate() = nil, want an error", opt)
			continue
		}
		if s, err := sessions.NewMemory(opt); s != nil || err == nil || err.Error() != want.Error() {
			t.Errorf("NewMemory(%+v) = %v, %v; want nil, %v", opt, s, err, want)
		}
		if s, err := sessions.NewRedis(nil, opt); s != nil || err == nil || err.Error() != want.Error() {
			t.Errorf("NewRedis(nil, %+v) = %v, %v; want nil, %v", opt, s, err, want)
		}
	}
	if err := (sessions.Options{}).Validate(); err != nil {
		t.Errorf("zero Options.Validate() = %v", err)
	}
}

func TestMemoryHooks(t *testing.T) {
	var conflicts, retries int
	s := storetest.NewMemory(t, sessions.Options{MaxRetries: 2, Hooks: sessions.Hooks{
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
