// Package sessions keeps channel-scoped Connect Four games and channel
// leaderboards: the two implementations of the store the bot declares
// (bot.Store), one on Redis (Redis) and its in-memory twin (Memory), which
// share one set of semantics and one conformance suite (package storetest).
//
// The Redis store is split by concern: redis.go (the type, its keys and
// errors), redis_records.go (records and their indexes),
// redis_leaderboard.go (leaderboards and ratings), redis_ttl.go,
// redis_repair.go (what /connect4 reset mends), schedule.go (timers) and
// settings.go; the Lua scripts they run are in scripts.go and
// schedule_scripts.go, the stored form in codec.go.
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
