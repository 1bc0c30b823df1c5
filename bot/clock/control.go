package clock

import (
	"strconv"
	"strings"
	"time"
)

// Kind is the sort of time control. The zero value None means the
// channel's usual rule (a claim after a day without a move), no clock.
type Kind uint8

// The kinds of time control. Their numbers may be stored: append only.
const (
	None           Kind = iota
	Live                // minutes for the whole game plus seconds per move
	Correspondence      // days per move
)

var kindNames = [...]string{"none", "live", "correspondence"}

// String returns "none", "live" or "correspondence", or "kind(N)".
func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "kind(" + strconv.Itoa(int(k)) + ")"
}

// The limits of a time control.
const (
	MaxMinutes   = 180 // the longest live game: 3 hours each
	MaxIncrement = 60  // the most seconds added per move
	MinDays      = 1   // the shortest correspondence limit per move
	MaxDays      = 14  // the longest
)

// Control is a game's time control. The zero value is None.
type Control struct {
	Kind Kind
	// Base is a live game's time for each player for the whole game.
	Base time.Duration
	// Increment is added to a live game's player's time after each of
	// their moves.
	Increment time.Duration
	// PerMove is a correspondence game's time for each move.
	PerMove time.Duration
}

// NewLive returns the live control of minutes for the game and seconds
// added per move, or an *Error: ReasonZero for 0+0, ReasonMinutes or
// ReasonSeconds for a number out of range.
func NewLive(minutes, seconds int) (Control, error) {
	in := strconv.Itoa(minutes) + "+" + strconv.Itoa(seconds)
	switch {
	case minutes < 0 || minutes > MaxMinutes:
		return Control{}, refuse(ReasonMinutes, in, 0, MaxMinutes)
	case seconds < 0 || seconds > MaxIncrement:
		return Control{}, refuse(ReasonSeconds, in, 0, MaxIncrement)
	case minutes == 0 && seconds == 0:
		return Control{}, refuse(ReasonZero, in, 0, 0)
	}
	return Control{Kind: Live, Base: time.Duration(minutes) * time.Minute, Increment: time.Duration(seconds) * time.Second}, nil
}

// NewDays returns the correspondence control of n days per move, or an
// *Error (ReasonDays) unless n is MinDays to MaxDays.
func NewDays(n int) (Control, error) {
	if n < MinDays || n > MaxDays {
		return Control{}, refuse(ReasonDays, strconv.Itoa(n), MinDays, MaxDays)
	}
	return Control{Kind: Correspondence, PerMove: time.Duration(n) * 24 * time.Hour}, nil
}

// ParseLive parses the argument of "clock M+S": whole minutes, a plus
// sign and whole seconds, in ASCII digits ("3+2", "0+5", "10+0"). It
// returns an *Error: ReasonSyntax for anything else, and NewLive's
// reasons.
func ParseLive(s string) (Control, error) {
	m, sec, ok := strings.Cut(s, "+")
	mi, ok1 := number(m)
	si, ok2 := number(sec)
	if !ok || !ok1 || !ok2 {
		return Control{}, refuse(ReasonSyntax, s, 0, 0)
	}
	c, err := NewLive(mi, si)
	if err != nil {
		err.(*Error).Input = refuse(ReasonNone, s, 0, 0).Input
	}
	return c, err
}

// ParseDays parses the argument of "days N": whole days in ASCII digits.
// It returns an *Error: ReasonSyntax for anything else, ReasonDays for a
// number outside MinDays..MaxDays.
func ParseDays(s string) (Control, error) {
	n, ok := number(s)
	if !ok {
		return Control{}, refuse(ReasonSyntax, s, 0, 0)
	}
	if n > MaxDays { // report the number as given, not as clamped
		return Control{}, refuse(ReasonDays, s, MinDays, MaxDays)
	}
	return NewDays(n)
}

// number parses 1 to 4 ASCII digits; a longer number is reported as
// 9999, out of every range, rather than overflowing.
func number(s string) (int, bool) {
	if s == "" {
		return 0, false
	}
	n := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		n = min(n*10+int(c-'0'), 9999)
	}
	return n, true
}

// Validate returns an *Error when c is not a control that NewLive or
// NewDays could have made (a stored one that was damaged, say), or nil.
func (c Control) Validate() error {
	switch c.Kind {
	case None:
		if c != (Control{}) {
			return refuse(ReasonKind, c.String(), 0, 0)
		}
		return nil
	case Live:
		if c.Base%time.Minute != 0 || c.Increment%time.Second != 0 || c.PerMove != 0 {
			return refuse(ReasonSyntax, c.String(), 0, 0)
		}
		_, err := NewLive(int(c.Base/time.Minute), int(c.Increment/time.Second))
		return err
	case Correspondence:
		if c.PerMove%(24*time.Hour) != 0 || c.Base != 0 || c.Increment != 0 {
			return refuse(ReasonSyntax, c.String(), 0, 0)
		}
		_, err := NewDays(int(c.PerMove / (24 * time.Hour)))
		return err
	}
	return refuse(ReasonKind, c.Kind.String(), 0, 0)
}

// String returns the control as a player types it, without the command
// word: "3+2" (live), "2" days as "2d" (correspondence), "" for None.
func (c Control) String() string {
	switch c.Kind {
	case Live:
		return strconv.FormatInt(int64(c.Base/time.Minute), 10) + "+" + strconv.FormatInt(int64(c.Increment/time.Second), 10)
	case Correspondence:
		return strconv.FormatInt(int64(c.PerMove/(24*time.Hour)), 10) + "d"
	case None:
		return ""
	}
	return c.Kind.String()
}
