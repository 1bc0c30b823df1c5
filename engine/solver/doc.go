// Package solver plays Connect Four well: it computes the exact game value and a
// best move of any position on the standard 7-column, 6-row board, and picks
// moves for the computer player at the easy, medium and hard levels on every
// board size the game allows.
//
// The exact solver follows the ideas Pascal Pons published in "Solving Connect 4":
// a bitboard position, negamax with alpha-beta pruning and a transposition table,
// move ordering by the number of winning spots a move creates, pruning of moves
// that lose at once, and null-window searches that narrow the value's interval.
// Other board sizes get a time-bounded iterative-deepening alpha-beta search with
// a heuristic evaluation, which is sound but not perfect.
//
// The package knows nothing of chat platforms, Redis or rendering: positions in,
// scores and columns out. It uses the standard library and the engine only: board
// sizes are the engine's engine.Config and its limits, and the computer player
// (AI) chooses a move in an *engine.Game.
package solver
