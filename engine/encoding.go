package engine

import "strconv"

// Encoding, version 1, all single bytes:
//
//	0: version (1)
//	1: rows  2: cols  3: connect
//	4: outcome: state in the low nibble, winner in the high nibble
//	5: number of moves n
//	6...: the n columns, two per byte, first move in the low nibble; an odd
//	      count leaves the last high nibble zero
//
// A resignation is recorded by its outcome (state Resigned, winner = the
// player who did not resign) after the moves. Decode replays the moves
// through Play, so a decoded game is always one that could have been played.
const (
	encodingVersion = 1
	headerLen       = 6
	// MaxEncodedLen is the longest valid encoding; Decode refuses longer
	// input before looking at it.
	MaxEncodedLen = headerLen + (MaxSize*MaxSize+1)/2
)

// MarshalBinary returns the compact encoding of g. It never fails.
func (g *Game) MarshalBinary() ([]byte, error) {
	b := make([]byte, headerLen+(g.moves+1)/2)
	b[0] = encodingVersion
	b[1], b[2], b[3] = byte(g.cfg.Rows), byte(g.cfg.Cols), byte(g.cfg.Connect)
	b[4] = byte(g.state) | byte(g.winner)<<4
	b[5] = byte(g.moves)
	for i := 0; i < g.moves; i++ {
		b[headerLen+i/2] |= g.history[i] << (4 * uint(i%2))
	}
	return b, nil
}

// Decode returns the game encoded in b by MarshalBinary. Corrupt or hostile
// input (another version, a bad size, a move into a full column, moves after
// the end, an outcome the moves do not lead to, trailing bytes) returns a
// *DecodeError and never a partial game.
func Decode(b []byte) (*Game, error) {
	if len(b) > MaxEncodedLen {
		return nil, &DecodeError{Msg: strconv.Itoa(len(b)) + " bytes is longer than any game"}
	}
	if len(b) < headerLen {
		return nil, &DecodeError{Msg: "truncated header"}
	}
	if b[0] != encodingVersion {
		return nil, &DecodeError{Msg: "unknown version " + strconv.Itoa(int(b[0]))}
	}
	g, err := New(Config{Rows: int(b[1]), Cols: int(b[2]), Connect: int(b[3])})
	if err != nil {
		return nil, &DecodeError{Msg: "bad size", Err: err}
	}
	state, winner := State(b[4]&0x0f), Player(b[4]>>4)
	n := int(b[5])
	if n > g.cfg.Cells() {
		return nil, &DecodeError{Msg: strconv.Itoa(n) + " moves do not fit the board"}
	}
	if len(b) != headerLen+(n+1)/2 {
		return nil, &DecodeError{Msg: "length does not match " + strconv.Itoa(n) + " moves"}
	}
	if n%2 == 1 && b[len(b)-1]>>4 != 0 {
		return nil, &DecodeError{Msg: "padding is not zero"}
	}
	for i := 0; i < n; i++ {
		col := int(b[headerLen+i/2]>>(4*uint(i%2))) & 0x0f
		if err := g.Play(g.toMove(), col); err != nil {
			return nil, &DecodeError{Msg: "move " + strconv.Itoa(i+1), Err: err}
		}
	}
	if state == Resigned && winner.Valid() {
		if err := g.Resign(winner.Other()); err != nil {
			return nil, &DecodeError{Msg: "resignation", Err: err}
		}
	}
	if g.state != state || g.winner != winner {
		return nil, &DecodeError{Msg: "outcome " + state.String() + "/" + winner.String() +
			" does not follow from the moves (" + g.state.String() + "/" + g.winner.String() + ")"}
	}
	return g, nil
}

// UnmarshalBinary replaces g with the game encoded in b; on error g is left
// unchanged. See Decode.
func (g *Game) UnmarshalBinary(b []byte) error {
	d, err := Decode(b)
	if err != nil {
		return err
	}
	*g = *d
	return nil
}
