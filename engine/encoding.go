package engine

import "strconv"

// Encoding, all single bytes. Two-player games use version 1, written the
// same way since the first release; games of 3 or 4 players use version 2,
// which adds the number of players and the resignations of players who left.
//
// Version 1 (two players):
//
//	0: version (1)
//	1: rows  2: cols  3: connect
//	4: outcome: state in the low nibble, winner in the high nibble
//	5: number of moves n
//	6...: the n columns, two per byte, first move in the low nibble; an odd
//	      count leaves the last high nibble zero
//
// A resignation is recorded by its outcome (state Resigned, winner = the
// player who did not resign) after the moves.
//
// Version 2 (3 or 4 players):
//
//	0: version (2)
//	1: rows  2: cols  3: connect  4: players (3 or 4)
//	5: outcome: state in the low nibble, winner in the high nibble
//	6: number of moves n
//	7: number of leaves k, 0 to players-1
//	8...: k leaves of two bytes, in the order they happened: the number of
//	      moves played before the player left (never decreasing, at most n),
//	      then the player
//	then: the n columns as in version 1
//
// Decode replays the moves and leaves through Play and Resign, so a decoded
// game is always one that could have been played, and it encodes back to the
// same bytes.
const (
	encodingV1  = 1
	encodingV2  = 2
	headerLenV1 = 6
	headerLenV2 = 8
	// MaxEncodedLen (64) is the longest valid encoding of any version; Decode
	// refuses longer input before looking at it.
	MaxEncodedLen = headerLenV2 + 2*(MaxPlayers-1) + (MaxSize*MaxSize+1)/2
)

// MarshalBinary returns the compact encoding of g: version 1 for a
// two-player game, byte for byte as before games of 3 or 4 players existed,
// and version 2 otherwise. It never fails.
func (g *Game) MarshalBinary() ([]byte, error) {
	if g.players == 2 {
		b := make([]byte, headerLenV1+(g.moves+1)/2)
		b[0] = encodingV1
		b[1], b[2], b[3] = g.board.rows, g.board.cols, g.connect
		b[4] = byte(g.state) | byte(g.winner)<<4
		b[5] = byte(g.moves)
		g.packMoves(b[headerLenV1:])
		return b, nil
	}
	k := int(g.nleaves)
	b := make([]byte, headerLenV2+2*k+(g.moves+1)/2)
	b[0] = encodingV2
	b[1], b[2], b[3], b[4] = g.board.rows, g.board.cols, g.connect, g.players
	b[5] = byte(g.state) | byte(g.winner)<<4
	b[6] = byte(g.moves)
	b[7] = byte(k)
	for i, l := range g.leaves[:k] {
		b[headerLenV2+2*i], b[headerLenV2+2*i+1] = l.moves, byte(l.player)
	}
	g.packMoves(b[headerLenV2+2*k:])
	return b, nil
}

// packMoves writes the columns played into b, two per byte.
func (g *Game) packMoves(b []byte) {
	for i := 0; i < g.moves; i++ {
		b[i/2] |= g.history[i] << (4 * uint(i%2))
	}
}

// Decode returns the game encoded in b by MarshalBinary, of either version.
// Corrupt or hostile input (an unknown version, a bad size or number of
// players, a move into a full column, moves or leaves after the end, leaves
// out of order or by a player not in the game, an outcome the moves do not
// lead to, trailing bytes) returns a *DecodeError and never a partial game.
func Decode(b []byte) (*Game, error) {
	if len(b) > MaxEncodedLen {
		return nil, &DecodeError{Msg: strconv.Itoa(len(b)) + " bytes is longer than any game"}
	}
	if len(b) == 0 {
		return nil, &DecodeError{Msg: "truncated header"}
	}
	switch b[0] {
	case encodingV1:
		return decodeV1(b)
	case encodingV2:
		return decodeV2(b)
	}
	return nil, &DecodeError{Msg: "unknown version " + strconv.Itoa(int(b[0]))}
}

// decodeV1 decodes a two-player record.
func decodeV1(b []byte) (*Game, error) {
	if len(b) < headerLenV1 {
		return nil, &DecodeError{Msg: "truncated header"}
	}
	g, err := New(Config{Rows: int(b[1]), Cols: int(b[2]), Connect: int(b[3])})
	if err != nil {
		return nil, &DecodeError{Msg: "bad size", Err: err}
	}
	state, winner := State(b[4]&0x0f), Player(b[4]>>4)
	n := int(b[5])
	if err := g.checkMoves(b, n, headerLenV1); err != nil {
		return nil, err
	}
	if err := g.replay(b[headerLenV1:], n, nil); err != nil {
		return nil, err
	}
	if state == Resigned && (winner == Red || winner == Yellow) {
		if err := g.Resign(winner.Other()); err != nil {
			return nil, &DecodeError{Msg: "resignation", Err: err}
		}
	}
	if err := g.checkOutcome(state, winner); err != nil {
		return nil, err
	}
	return g, nil
}

// decodeV2 decodes a record of 3 or 4 players.
func decodeV2(b []byte) (*Game, error) {
	if len(b) < headerLenV2 {
		return nil, &DecodeError{Msg: "truncated header"}
	}
	if b[4] == 0 || b[4] == 2 {
		return nil, &DecodeError{Msg: "version 2 with two players (two-player games are version 1)"}
	}
	g, err := New(Config{Rows: int(b[1]), Cols: int(b[2]), Connect: int(b[3]), Players: int(b[4])})
	if err != nil {
		return nil, &DecodeError{Msg: "bad size or players", Err: err}
	}
	state, winner := State(b[5]&0x0f), Player(b[5]>>4)
	n, k := int(b[6]), int(b[7])
	if k > int(g.players)-1 {
		return nil, &DecodeError{Msg: strconv.Itoa(k) + " leaves in a game of " + strconv.Itoa(int(g.players))}
	}
	if len(b) < headerLenV2+2*k {
		return nil, &DecodeError{Msg: "truncated leaves"}
	}
	leaves := b[headerLenV2 : headerLenV2+2*k]
	for i := 0; i < k; i++ {
		switch m := int(leaves[2*i]); {
		case m > n:
			return nil, &DecodeError{Msg: "leave " + strconv.Itoa(i+1) + " after move " + strconv.Itoa(m) + " of " + strconv.Itoa(n)}
		case i > 0 && m < int(leaves[2*i-2]):
			return nil, &DecodeError{Msg: "leave " + strconv.Itoa(i+1) + " after move " + strconv.Itoa(m) + " is out of order"}
		}
	}
	off := headerLenV2 + 2*k
	if err := g.checkMoves(b, n, off); err != nil {
		return nil, err
	}
	if err := g.replay(b[off:], n, leaves); err != nil {
		return nil, err
	}
	if err := g.checkOutcome(state, winner); err != nil {
		return nil, err
	}
	return g, nil
}

// checkMoves checks that b holds exactly n moves packed from offset off, for
// the board of g.
func (g *Game) checkMoves(b []byte, n, off int) error {
	if n > int(g.cells) {
		return &DecodeError{Msg: strconv.Itoa(n) + " moves do not fit the board"}
	}
	if len(b) != off+(n+1)/2 {
		return &DecodeError{Msg: "length does not match " + strconv.Itoa(n) + " moves"}
	}
	if n%2 == 1 && b[len(b)-1]>>4 != 0 {
		return &DecodeError{Msg: "padding is not zero"}
	}
	return nil
}

// replay plays the n columns packed in moves, each by the player to move,
// with the leaves (pairs of moves-before and player, in order) between them.
func (g *Game) replay(moves []byte, n int, leaves []byte) error {
	for i := 0; ; i++ {
		for len(leaves) > 0 && int(leaves[0]) == i {
			if err := g.Resign(Player(leaves[1])); err != nil {
				return &DecodeError{Msg: "leave after move " + strconv.Itoa(i), Err: err}
			}
			leaves = leaves[2:]
		}
		if i == n {
			return nil
		}
		col := int(moves[i/2]>>(4*uint(i%2))) & 0x0f
		if err := g.Play(g.toMove(), col); err != nil {
			return &DecodeError{Msg: "move " + strconv.Itoa(i+1), Err: err}
		}
	}
}

// checkOutcome returns a *DecodeError unless the replayed game ended as the
// record says.
func (g *Game) checkOutcome(state State, winner Player) error {
	if g.state != state || g.winner != winner {
		return &DecodeError{Msg: "outcome " + state.String() + "/" + winner.String() +
			" does not follow from the moves (" + g.state.String() + "/" + g.winner.String() + ")"}
	}
	return nil
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
