package match

import (
	"fmt"
	"time"
)

// TimerKind is a timed event of a record: what the bot does, on its own,
// when the time comes. The zero value means none.
type TimerKind uint8

// The kinds of timer. Their numbers are stored: append only.
const (
	TimerNone    TimerKind = iota
	TimerExpire            // a pending challenge, rematch or next-round offer, or takeback request lapses
	TimerRemind            // the player to move is reminded, once per turn
	TimerTimeout           // the waiting player may claim the game
	TimerAbandon           // an idle game is closed before its record expires
	TimerFlag              // the flag of the player to move falls under a time control
	// The kinds of a channel's tournament, never carried by a record: the
	// entry's id is the tournament's.
	TimerRoundLimit      // the current round's time limit passes: its unfinished games are adjudicated
	TimerTournamentStart // a tournament opened with a start time starts
	// LastTimerKind is the last kind: a schedule entry of a later one is
	// not this program's.
	LastTimerKind = TimerTournamentStart
)

var timerNames = [...]string{"none", "expire", "remind", "timeout", "abandon", "flag", "round", "start"}

// String returns the kind as a lower-case word, or "timer(N)" when unknown.
func (k TimerKind) String() string {
	if int(k) < len(timerNames) {
		return timerNames[k]
	}
	return fmt.Sprintf("timer(%d)", uint8(k))
}

// OfTournament reports whether k is a kind of a channel's tournament,
// whose entry no record carries.
func (k TimerKind) OfTournament() bool {
	return k == TimerRoundLimit || k == TimerTournamentStart
}

// ParseTimerKind returns the kind named s (as String writes it), or
// TimerNone.
func ParseTimerKind(s string) TimerKind {
	for i, n := range timerNames {
		if i > 0 && n == s {
			return TimerKind(i)
		}
	}
	return TimerNone
}

// Timer is one timed event of a record. A store keeps a schedule entry for
// every timer that has not fired, written in the same atomic step as the
// record, and removes it when the record stops carrying it.
type Timer struct {
	Kind TimerKind
	Due  time.Time
	// Fired is set by the write that carried the timer out. The record
	// keeps a fired timer (a reminder already sent this turn, the time a
	// claim became possible) until the next turn replaces it; the store
	// keeps no schedule entry for it.
	Fired bool
}

// MaxTimers bounds Record.Timers: one of each kind.
const MaxTimers = int(TimerFlag)

// Timer returns the record's timer of kind k.
func (r *Record) Timer(k TimerKind) (Timer, bool) {
	for _, t := range r.Timers {
		if t.Kind == k {
			return t, true
		}
	}
	return Timer{}, false
}

// SetTimer replaces the record's timer of t's kind with t, or adds it.
func (r *Record) SetTimer(t Timer) {
	for i := range r.Timers {
		if r.Timers[i].Kind == t.Kind {
			r.Timers[i] = t
			return
		}
	}
	r.Timers = append(r.Timers, t)
}

// validTimers reports the first thing wrong with r.Timers: at most one of
// each known kind, each with a due time in range.
func (r *Record) validTimers() error {
	if len(r.Timers) > MaxTimers {
		return fmt.Errorf("%d timers, more than %d", len(r.Timers), MaxTimers)
	}
	var seen [MaxTimers + 1]bool
	for _, t := range r.Timers {
		if t.Kind == TimerNone || t.Kind > TimerFlag {
			return fmt.Errorf("unknown timer %v", t.Kind)
		}
		if seen[t.Kind] {
			return fmt.Errorf("two %v timers", t.Kind)
		}
		seen[t.Kind] = true
		if y := t.Due.Year(); t.Due.IsZero() || y < 1970 || y > 9999 {
			return fmt.Errorf("%v timer due %v out of range", t.Kind, t.Due)
		}
	}
	return nil
}

// Due is a schedule entry claimed by a worker: the timer Kind of record
// GameID in channel Key, due at Due. Token is the claim's lease; a store's
// Done removes the entry only while the lease is the claimant's.
type Due struct {
	Key    Key
	GameID string
	Kind   TimerKind
	Due    time.Time
	Token  string
}
