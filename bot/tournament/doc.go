// Package tournament holds a channel's tournament as a domain value: who
// organises it, its format (round robin or Swiss), rounds, time control
// and board, the players who join and withdraw, each round's pairings and
// results, the standings, and where it stands (joining, running, finished,
// cancelled). Every change is a method that checks its input first and
// returns an *Error with a Reason, changing nothing, when it refuses.
//
// It is pure: the pairing rules come from package pairing, time controls
// from package clock, board sizes from the engine, identities from
// package match. It knows nothing of stores, chat platforms, wording or
// the wall clock: times come in from the caller. Making it durable, and
// starting each round exactly once across replicas, is the store's work.
package tournament
