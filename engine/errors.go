package engine

import (
	"fmt"
	"strconv"
)

// Reason says why a move was rejected. The zero value ReasonNone is never
// the reason of a returned error.
type Reason uint8

// The reasons a move or a resignation can be rejected. New reasons are only
// ever appended.
const (
	ReasonNone Reason = iota
	// ReasonOutOfRange: the column is not on the board.
	ReasonOutOfRange
	// ReasonColumnFull: the column has no empty cell left.
	ReasonColumnFull
	// ReasonNotYourTurn: another player is to move.
	ReasonNotYourTurn
	// ReasonGameOver: the game was won, drawn or resigned.
	ReasonGameOver
	// ReasonNoSuchPlayer: the player is not one of the game's players
	// (NoPlayer, or Green or Blue in a game with fewer players).
	ReasonNoSuchPlayer
	// ReasonLeft: the player has left the game (resigned in a game of 3 or
	// 4 players that goes on without them).
	ReasonLeft
)

// String returns the reason in a few lower-case words.
func (r Reason) String() string {
	switch r {
	case ReasonOutOfRange:
		return "column out of range"
	case ReasonColumnFull:
		return "column full"
	case ReasonNotYourTurn:
		return "not your turn"
	case ReasonGameOver:
		return "game over"
	case ReasonNoSuchPlayer:
		return "no such player"
	case ReasonLeft:
		return "player has left"
	}
	return "no reason"
}

// MoveError is the error returned for a rejected move or resignation. Read it
// with errors.As and switch on Reason; never match its text.
type MoveError struct {
	Reason Reason
	Player Player
	Column int // the column asked for; -1 for a resignation
}

func (e *MoveError) Error() string {
	switch e.Reason {
	case ReasonOutOfRange:
		return "engine: column " + strconv.Itoa(e.Column) + " out of range"
	case ReasonColumnFull:
		return "engine: column " + strconv.Itoa(e.Column) + " is full"
	case ReasonNotYourTurn:
		return "engine: not " + e.Player.String() + "'s turn"
	case ReasonGameOver:
		return "engine: the game is over"
	case ReasonNoSuchPlayer:
		return "engine: " + e.Player.String() + " is not a player"
	case ReasonLeft:
		return "engine: " + e.Player.String() + " has left the game"
	}
	return "engine: move rejected"
}

// ConfigError is returned by New and Decode for a board size, line length or
// number of players outside the supported range. Field is "rows", "cols",
// "connect", "players" or "cells" (rows × cols), and Value lies outside
// Min..Max. Rule is empty for a plain range and otherwise says in words the
// rule that set the range, such as the wider boards that 3 or 4 players need.
type ConfigError struct {
	Field    string
	Value    int
	Min, Max int
	Rule     string
}

func (e *ConfigError) Error() string {
	s := fmt.Sprintf("engine: %s %d out of range %d..%d", e.Field, e.Value, e.Min, e.Max)
	if e.Rule != "" {
		s += ": " + e.Rule
	}
	return s
}

// DecodeError is returned by Decode for input that is not a valid encoded
// game.
type DecodeError struct {
	Msg string
	Err error // the underlying config or move error, if any
}

func (e *DecodeError) Error() string {
	if e.Err != nil {
		return "engine: decode: " + e.Msg + ": " + e.Err.Error()
	}
	return "engine: decode: " + e.Msg
}

func (e *DecodeError) Unwrap() error { return e.Err }
