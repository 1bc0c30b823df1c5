package pairing

import (
	"errors"
	"testing"
)

// history decodes fuzz bytes into a field size and rounds: byte 0 the
// number of players, then per round a bye and a count of games, each game
// three bytes (white, black, result), all as they come, so that players
// out of range, repeats and unknown results reach the functions.
func history(b []byte) (int, []Round) {
	if len(b) == 0 {
		return 0, nil
	}
	n, b := int(b[0])%70, b[1:]
	var rs []Round
	for len(b) >= 2 {
		rd := Round{Bye: int(int8(b[0])), Pairs: []Pair{}}
		k := int(b[1]) % 40
		b = b[2:]
		for ; k > 0 && len(b) >= 3; k-- {
			rd.Pairs = append(rd.Pairs, Pair{White: int(int8(b[0])), Black: int(int8(b[1])), Result: Result(b[2] % 5)})
			b = b[3:]
		}
		rs = append(rs, rd)
	}
	return n, rs
}

// FuzzSwiss hands Swiss and Standings histories that stored data might
// hold after damage: they must never panic, must fail only with an *Error,
// and a pairing they return must be a valid round.
func FuzzSwiss(f *testing.F) {
	f.Add([]byte{4, 0xff, 2, 0, 1, 3, 2, 3, 1})
	f.Add([]byte{5, 4, 2, 0, 1, 1, 2, 3, 2})
	f.Add([]byte{3, 0xff, 1, 0, 0, 1})
	f.Fuzz(func(t *testing.T, b []byte) {
		n, rs := history(b)
		var e *Error
		if _, err := Standings(n, rs, SwissByePoints); err != nil && !errors.As(err, &e) {
			t.Fatalf("Standings: %v is not an *Error", err)
		}
		rd, err := Swiss(n, rs, nil)
		if err != nil {
			if !errors.As(err, &e) {
				t.Fatalf("Swiss: %v is not an *Error", err)
			}
			return
		}
		cs, err := cards(n, rs, SwissByePoints, true)
		if err != nil {
			t.Fatalf("Swiss accepted a history cards refuses: %v", err)
		}
		checkRound(t, "fuzz", n, rd, cs, nil)
	})
}
