// Package engine holds the rules of Connect Four and its Connect-N variants:
// a two-player game on a board of 4 to 10 rows and columns where Red moves
// first and the first player to line up Connect discs (horizontally,
// vertically or diagonally) wins.
//
// The engine is pure: it imports the standard library only and must never
// know about chat platforms, Redis, rendering, logging or contexts. Every
// other package of the bot (the store, the use cases, the renderer and the
// AI) runs moves through it, so a rejected move never changes anything and
// every error carries a Reason that callers read with errors.As.
//
// Positions are kept as bitboards: bit col*(rows+1)+row is set for a disc of
// the player, with one empty guard row on top of every column so that lines
// never wrap from one column into the next. A win check after a move costs a
// handful of word operations whatever the board size.
package engine
