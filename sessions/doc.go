// Package sessions keeps channel-scoped Connect Four games and channel
// leaderboards: the Store interface, its Redis implementation (Redis) and its
// in-memory twin (Memory), which share one set of semantics and one
// conformance suite (package storetest).
//
// A channel (Key) holds several records, each a pending challenge or a game
// addressed by its id, and an index of the active ones. Create enforces,
// atomically, that a player is in at most one active game or open challenge
// per channel and that a channel holds at most Options.MaxGames active
// games. Records change only through Store.Update, an optimistic
// compare-and-set on the record's id and Version that re-runs the caller's
// function on conflict; the leaderboard tally of a finished game, and the
// record's entry in the index, change in the same atomic step as the write,
// so a result counts exactly once and a finished game frees its players.
//
// The package knows the engine's encoding of a game, but nothing of chat
// platforms, users' wording or how a move is chosen: the bot decides what a
// change means, this package only makes it durable, atomic and validated.
package sessions
