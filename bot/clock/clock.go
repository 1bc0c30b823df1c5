package clock

import (
	"fmt"
	"time"

	"github.com/connect4/connect4/engine"
)

// Clock is the players' time in one game under a Control, as of the last
// move: each player's time left then, whose clock runs and since when. It
// is a value: Move returns the next one, so a record can keep it and
// replicas can recompute it from the same times. The zero value is no
// clock (Control None).
//
// Players are numbered from 0 in turn order (0 is Red, who moves first).
// A live game starts every clock at Base; after a move the mover's time
// loses the time the move took and gains Increment. A correspondence game
// gives each move PerMove, whatever the last one took. A flag falls when
// the running clock reaches zero: at Since plus the mover's time left.
type Clock struct {
	Control Control
	// Left is each player's time left as of Since; only the first
	// Players entries are used.
	Left    [engine.MaxPlayers]time.Duration
	Players int
	// Turn is the player whose clock runs, from 0.
	Turn int
	// Since is when Turn's clock started: the game's start or the last
	// move.
	Since time.Time
}

// Start returns the clocks of a game of players players (2 to 4) under c
// starting at, the first player's running. With c None it returns the
// zero Clock.
func Start(c Control, players int, at time.Time) Clock {
	if c.Kind == None {
		return Clock{}
	}
	k := Clock{Control: c, Players: min(max(players, engine.MinPlayers), engine.MaxPlayers), Since: at}
	for i := range k.Players {
		k.Left[i] = c.Base
		if c.Kind == Correspondence {
			k.Left[i] = c.PerMove
		}
	}
	return k
}

// FlagError is the error of a move made after the mover's flag fell: the
// move does not count, the game is decided on time (see FlagVerdict).
type FlagError struct {
	Player int       // who ran out, from 0
	At     time.Time // when the flag fell
}

func (e *FlagError) Error() string {
	return fmt.Sprintf("clock: player %d's flag fell at %s", e.Player, e.At.UTC().Format(time.RFC3339))
}

// Running reports whether k is a clock at all (its Control is not None).
func (k Clock) Running() bool { return k.Control.Kind != None }

// FlagAt returns when the flag of the player to move falls if they do not
// move: Since plus their time left. It is the zero time without a clock.
func (k Clock) FlagAt() time.Time {
	if !k.Running() {
		return time.Time{}
	}
	return k.Since.Add(k.Left[k.Turn])
}

// Fallen reports whether the flag of the player to move has fallen at:
// their time is up at FlagAt exactly.
func (k Clock) Fallen(at time.Time) bool { return k.Running() && !at.Before(k.FlagAt()) }

// Remaining returns player's time left at at: their time as of the last
// move, less the time since for the player to move, never below zero. A
// time before Since (a replica's clock behind another's) counts as Since.
func (k Clock) Remaining(player int, at time.Time) time.Duration {
	if !k.Running() || player < 0 || player >= k.Players {
		return 0
	}
	left := k.Left[player]
	if player == k.Turn && at.After(k.Since) {
		left -= at.Sub(k.Since)
	}
	return max(left, 0)
}

// Move records a move by the player to move, made at at, after which next
// (from 0) is to move, and returns the clocks after it. A live clock
// charges the mover the time since Since and adds Increment; a
// correspondence clock gives next a fresh PerMove. A move at or after
// FlagAt returns a *FlagError and k unchanged: the flag fell first. A time
// before Since counts as Since. Without a clock it returns k.
func (k Clock) Move(at time.Time, next int) (Clock, error) {
	if !k.Running() {
		return k, nil
	}
	if k.Fallen(at) {
		return k, &FlagError{Player: k.Turn, At: k.FlagAt()}
	}
	if next < 0 || next >= k.Players {
		return k, fmt.Errorf("clock: next player %d of %d", next, k.Players)
	}
	if at.Before(k.Since) {
		at = k.Since
	}
	switch k.Control.Kind {
	case Live:
		k.Left[k.Turn] -= at.Sub(k.Since)
		k.Left[k.Turn] += k.Control.Increment
	case Correspondence:
		k.Left[k.Turn] = k.Control.PerMove
		k.Left[next] = k.Control.PerMove
	}
	k.Turn, k.Since = next, at
	return k, nil
}
