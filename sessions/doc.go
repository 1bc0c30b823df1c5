// Package sessions keeps channel-scoped Connect Four games and channel
// leaderboards: the Store interface, its Redis implementation (Redis) and its
// in-memory twin (Memory), which share one set of semantics and one
// conformance suite (package storetest).
//
// A channel (Key) holds at most one active record: a pending challenge or a
// game being played. Records change only through Store.Update, an optimistic
// compare-and-set on Record.Version that re-runs the caller's function on
// conflict; the leaderboard tally of a finished game is applied in the same
// atomic step as the write that finishes it, so it counts exactly once.
//
// The package knows the engine's encoding of a game, but nothing of chat
// platforms, users' wording or how a move is chosen: the bot decides what a
// change means, this package only makes it durable, atomic and validated.
package sessions
