package solver

import (
	"fmt"
	"strings"
)

// Level is how well the computer plays. The zero value, LevelNone, means no
// level was chosen.
type Level int

// The levels, weakest first.
const (
	LevelNone Level = iota
	Easy            // mostly random; takes a win or blocks a loss only half the time
	Medium          // a shallow search that now and then plays a random move
	Hard            // perfect on the standard board when the solver finishes in time, a deep search otherwise
)

var levelNames = [...]string{LevelNone: "none", Easy: "easy", Medium: "medium", Hard: "hard"}

// String returns the level's name as ParseLevel reads it: "easy", "medium" or
// "hard" ("none" for LevelNone).
func (l Level) String() string {
	if l < 0 || int(l) >= len(levelNames) {
		return fmt.Sprintf("level(%d)", int(l))
	}
	return levelNames[l]
}

// ParseLevel returns the level named s ("easy", "medium" or "hard", in any
// case). It returns an *Error with ReasonBadLevel for anything else, including
// the empty string.
func ParseLevel(s string) (Level, error) {
	for l := Easy; l <= Hard; l++ {
		if strings.EqualFold(s, levelNames[l]) {
			return l, nil
		}
	}
	return LevelNone, &Error{Reason: ReasonBadLevel, Detail: fmt.Sprintf("%q, want easy, medium or hard", s)}
}
