package match

import (
	"fmt"
	"time"

	"github.com/connect4/connect4/bot/clock"
)

// Timed reports whether r's game is played under a time control (a clock
// or days per move) rather than the usual claim after a day.
func (r *Record) Timed() bool { return r.Clock.Control.Kind != clock.None }

// validDrawOffer reports what is wrong with r.DrawOffer: it must name a
// player of a two-player game.
func (r *Record) validDrawOffer() error {
	if r.DrawOffer == "" {
		return nil
	}
	if r.Multi() || (r.DrawOffer != r.Challenger.ID && r.DrawOffer != r.Opponent.ID) {
		return fmt.Errorf("draw offer from %.20q, not a player of a two-player game", r.DrawOffer)
	}
	return nil
}

// validClock reports the first thing wrong with r.Clock: a valid control;
// before the game starts no clock running (Players 0, nothing left);
// once started, as many clocks as players, the running one a player's,
// times left within a day more than the control could ever give, and a
// start time in range.
func (r *Record) validClock() error {
	k := r.Clock
	if err := k.Control.Validate(); err != nil {
		return fmt.Errorf("time control: %w", err)
	}
	if k.Control.Kind == clock.None || k.Players == 0 {
		if k.Players != 0 || k.Turn != 0 || !k.Since.IsZero() || k.Left != ([len(k.Left)]time.Duration{}) {
			return fmt.Errorf("clock %v without players", k.Control)
		}
		if k.Control.Kind != clock.None && r.Started() && r.Status == StatusPlaying {
			return fmt.Errorf("game being played under %v with no clock running", k.Control)
		}
		return nil
	}
	if k.Players != r.NumPlayers() {
		return fmt.Errorf("%d clocks for %d players", k.Players, r.NumPlayers())
	}
	if k.Turn < 0 || k.Turn >= k.Players {
		return fmt.Errorf("clock turn %d of %d", k.Turn, k.Players)
	}
	limit := k.Control.PerMove + k.Control.Base + time.Duration(MaxAnalysisMoves)*k.Control.Increment
	for i := range k.Left {
		if l := k.Left[i]; l < -limit || l > limit || (i >= k.Players && l != 0) {
			return fmt.Errorf("clock %d: %v left out of range", i, l)
		}
	}
	if y := k.Since.Year(); y < 1970 || y > 9999 {
		return fmt.Errorf("clock since %v out of range", k.Since)
	}
	return nil
}
