// Package pairing holds the rules that decide who plays whom in a
// tournament, and how the players rank: round robin by Berger tables,
// Swiss by the rules of the Dutch system that matter for a chat channel
// (score groups, no repeat pairing while one is possible, balanced colours,
// a one-point bye), and standings with the Buchholz and Sonneborn-Berger
// tiebreaks.
//
// It is pure: players are numbers (their index in seed order, 0 the top
// seed), results are values, and nothing here knows of stores, chat
// platforms, clocks or the engine. "White" is the player who moves first
// (Red in the engine); "Black" moves second.
package pairing
