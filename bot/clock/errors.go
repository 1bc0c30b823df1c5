package clock

import (
	"fmt"
	"strconv"
)

// Reason says why a time control was refused.
type Reason uint8

// The reasons of an *Error. Append only.
const (
	ReasonNone Reason = iota
	// ReasonSyntax: not "M+S" (whole minutes and seconds) or "N" days.
	ReasonSyntax
	// ReasonZero: "0+0", a game without any time.
	ReasonZero
	// ReasonMinutes: minutes beyond MaxMinutes.
	ReasonMinutes
	// ReasonSeconds: seconds beyond MaxIncrement.
	ReasonSeconds
	// ReasonDays: days outside MinDays..MaxDays.
	ReasonDays
	// ReasonKind: a control of an unknown kind.
	ReasonKind
)

var reasonNames = [...]string{"no reason", "not a time control", "no time at all", "too many minutes", "too many seconds", "days out of range", "unknown kind"}

// String returns the reason in a few lower-case words.
func (r Reason) String() string {
	if int(r) < len(reasonNames) {
		return reasonNames[r]
	}
	return "reason(" + strconv.Itoa(int(r)) + ")"
}

// Error is a refused time control: read it with errors.As and switch on
// Reason (the bot words each reason). Input is what was given, cut to 40
// bytes; Min and Max bound the number that was out of range.
type Error struct {
	Reason   Reason
	Input    string
	Min, Max int
}

func (e *Error) Error() string {
	switch e.Reason {
	case ReasonMinutes, ReasonSeconds, ReasonDays:
		return fmt.Sprintf("clock: %s in %q: want %d to %d", e.Reason, e.Input, e.Min, e.Max)
	}
	return fmt.Sprintf("clock: %s: %q", e.Reason, e.Input)
}

// refuse returns an *Error for input, cut to 40 bytes.
func refuse(r Reason, input string, lo, hi int) *Error {
	if len(input) > 40 {
		input = input[:40]
	}
	return &Error{Reason: r, Input: input, Min: lo, Max: hi}
}
