package bot

import (
	"math/rand/v2"
	"strings"

	"github.com/connect4/connect4/bot/match"
)

// Who starts: "first me", "first them" or "first random" in a challenge,
// an open challenge (them is whoever accepts) or against the AI; without
// it, today's rule (the challenger, and against the AI the player, is red
// and moves first). Rematches and next rounds swap colours as before.
// Games of 3 or 4 keep the rule: the order of play is the order named.

// Starter is who moves first in a game of two. The zero value is the rule.
type Starter uint8

const (
	StarterDefault Starter = iota // the challenger (the player, against the AI)
	StarterMe                     // the one who asks
	StarterThem                   // their opponent (the AI)
	StarterRandom                 // either, drawn when the game is set up
)

// parseStarter reads the word after "first": me, them (also you, opponent,
// ai), random.
func parseStarter(w string) (Starter, bool) {
	switch strings.ToLower(w) {
	case "me", "i":
		return StarterMe, true
	case "them", "you", "opponent", "ai", "bot":
		return StarterThem, true
	case "random", "either", "any":
		return StarterRandom, true
	}
	return StarterDefault, false
}

// red returns who of me and them is red (moves first) under s; random
// draws with coin (nil: rand.IntN).
func (s Starter) red(me, them match.Player, coin func(int) int) match.Player {
	switch s {
	case StarterThem:
		return them
	case StarterRandom:
		if coin == nil {
			coin = rand.IntN
		}
		if coin(2) == 1 {
			return them
		}
	}
	return me
}

// starterForTwo refuses a choice of starter where it does not apply: a
// game of 3 or 4.
func starterForTwo(v Variant, players int) error {
	if v.First != StarterDefault && players > 2 {
		return &UserError{Problem: ProblemUsage, ID: "problem.firstMulti"}
	}
	return nil
}

// accepterFirst reports whether an open challenge of v lets whoever
// accepts it move first: first them, or first random drawn so with coin
// (nil: rand.IntN).
func accepterFirst(v Variant, coin func(int) int) bool {
	switch v.First {
	case StarterThem:
		return true
	case StarterRandom:
		if coin == nil {
			coin = rand.IntN
		}
		return coin(2) == 1
	}
	return false
}

// starterWord reports whether w names a starter after "first".
func starterWord(w string) bool {
	_, ok := parseStarter(w)
	return ok
}

// firstRed is the red player a challenge of v sets up, or "" for the rule
// (the challenger, once accepted).
func firstRed(v Variant, me, them match.Player) string {
	if v.First == StarterDefault {
		return ""
	}
	return v.First.red(me, them, nil).ID
}
