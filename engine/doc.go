// Package engine holds the rules of Connect Four and its Connect-N variants:
// a game on a board of 4 to 10 rows and columns where Red moves first and the
// first player to line up Connect discs (horizontally, vertically or
// diagonally) wins, and a full board is a draw. Two players by default (Red
// and Yellow); three or four (with Green and Blue, moving in that fixed
// order) on a board of at least 7 columns and players × (connect + 2)
// cells. In a game of three or four a player who resigns leaves: their discs
// stay, their turns are skipped, and when one player is left they win.
//
// The engine is pure: it imports the standard library only and must never
// know about chat platforms, Redis, rendering, logging or contexts. Every
// other package of the bot (the store, the use cases, the renderer and the
// AI) runs moves through it, so a rejected move never changes anything and
// every error carries a Reason that callers read with errors.As.
//
// Positions are kept as bitboards, one per player: bit col*(rows+1)+row is
// set for a disc of the player, with one empty guard row on top of every
// column so that lines never wrap from one column into the next. A win check
// after a move looks only at the mover's bitboard and costs a handful of
// word operations whatever the board size or the number of players.
package engine
