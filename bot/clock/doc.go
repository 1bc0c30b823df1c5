// Package clock holds a game's time control and its players' clocks:
// "clock M+S" (M minutes for the whole game plus S seconds added after
// each move, a live game) and "days N" (N days for each move, a
// correspondence game); parsing and validating them, each player's time
// left after each move, when the flag of the player to move falls, the
// "2:41" form of a time left, and what a fallen flag means on the board.
//
// It is pure: time comes in as time.Time values from the caller, nothing
// here reads the wall clock, schedules, stores or words a message. It
// knows the engine only to judge a flag fall (FlagVerdict).
package clock
