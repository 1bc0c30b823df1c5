package tournament

import (
	"errors"
	"strconv"
	"time"

	"github.com/connect4/connect4/bot/clock"
	"github.com/connect4/connect4/engine"
)

// Format is how a tournament pairs its players. The zero value NoFormat
// is never a valid tournament's.
type Format uint8

// The formats. Their numbers are stored: append only.
const (
	NoFormat   Format = iota
	RoundRobin        // every pair once (twice when Double), by the Berger tables
	Swiss             // by score, the Dutch system's rules (package pairing)
)

var formatNames = [...]string{"none", "round-robin", "swiss"}

// String returns "round-robin", "swiss" or "none", or "format(N)".
func (f Format) String() string {
	if int(f) < len(formatNames) {
		return formatNames[f]
	}
	return "format(" + strconv.Itoa(int(f)) + ")"
}

// The bounds of a tournament.
const (
	MinPlayers = 3  // the fewest players to start
	MaxPlayers = 32 // the most who may join: a channel's table, not a federation's
	MaxRounds  = 15 // the most rounds of a Swiss
)

// Options are what the organiser chooses: the format, the rounds of a
// Swiss, the time control and the board of every game.
type Options struct {
	Format Format
	// Double makes a round robin meet every pair twice, colours swapped.
	Double bool
	// Rounds is a Swiss's number of rounds; 0 lets Start choose
	// (DefaultRounds). A round robin's follow from its players: 0.
	Rounds int
	Clock  clock.Control
	// Board is every game's board: a two-player engine.Config.
	Board engine.Config
	// RoundLimit is how long a round may last, 0 for no limit: when it
	// passes, the round's unfinished games are adjudicated (MinRoundLimit
	// to MaxRoundLimit).
	RoundLimit time.Duration
	// StartAt is when the tournament starts on its own with the players
	// who joined, zero for when the organiser says (at most MaxStartAhead
	// after it opens).
	StartAt time.Time
}

// The bounds of a round's time limit and of a start time.
const (
	MinRoundLimit = time.Minute
	MaxRoundLimit = 14 * 24 * time.Hour
	MaxStartAhead = 14 * 24 * time.Hour
)

// Validate returns an *Error for the first option out of range, or nil:
// ReasonFormat, ReasonRounds (Rounds beyond MaxRounds, or given for a
// round robin), ReasonRoundLimit, ReasonStartTime (a time out of range),
// ReasonClock, ReasonBoard. Whether a Swiss has fewer rounds
// than players is checked by Start, when the players are known.
func (o Options) Validate() error {
	switch {
	case o.Format != RoundRobin && o.Format != Swiss, o.Double && o.Format != RoundRobin:
		return refuse(ReasonFormat)
	case o.Rounds < 0 || o.Rounds > MaxRounds:
		return &Error{Reason: ReasonRounds, Limit: MaxRounds}
	case o.Rounds != 0 && o.Format == RoundRobin:
		return &Error{Reason: ReasonRounds, Err: errors.New("a round robin's rounds follow from its players")}
	}
	if o.RoundLimit != 0 && (o.RoundLimit < MinRoundLimit || o.RoundLimit > MaxRoundLimit) {
		return refuse(ReasonRoundLimit)
	}
	if y := o.StartAt.Year(); !o.StartAt.IsZero() && (y < 1 || y > 9999) {
		return refuse(ReasonStartTime)
	}
	if err := o.Clock.Validate(); err != nil {
		return &Error{Reason: ReasonClock, Err: err}
	}
	if err := o.Board.Validate(); err != nil {
		return &Error{Reason: ReasonBoard, Err: err}
	}
	if o.Board.NumPlayers() != 2 {
		return &Error{Reason: ReasonBoard, Err: errors.New("tournament games are for two players")}
	}
	return nil
}

// ParseRounds parses the argument of "rounds N": ASCII digits, 1 to
// MaxRounds. It returns an *Error of ReasonRounds (Limit MaxRounds) for
// anything else, "0" included.
func ParseRounds(s string) (int, error) {
	n := 0
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return 0, &Error{Reason: ReasonRounds, Limit: MaxRounds}
		}
		n = min(n*10+int(s[i]-'0'), MaxRounds+1)
	}
	if s == "" || n < 1 || n > MaxRounds {
		return 0, &Error{Reason: ReasonRounds, Limit: MaxRounds}
	}
	return n, nil
}

// DefaultRounds returns a Swiss's rounds when the organiser chose none for
// n players: enough for one winner to stand out (the rounds of a knockout,
// plus one), fewer than the players.
func DefaultRounds(n int) int {
	r := 1
	for 1<<uint(r-1) < n {
		r++
	}
	return max(min(r, n-1, MaxRounds), 1)
}
