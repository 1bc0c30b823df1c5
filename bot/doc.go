// Package bot is the game flow of the Connect Four bot, written once for
// every chat platform: challenge, accept, decline, cancel, drop, resign,
// claim a timed-out turn, rematch, next round, games against the AI, the
// board, the leaderboard, stats and help.
//
// A platform adapter turns a chat request into a Command and hands it to
// Service.Handle, which runs it through the sessions store and the engine
// and returns a platform-neutral Reply: a new public message, an in-place
// update of the game message, or an ephemeral note for the person who
// acted. Mentions in reply text are written <@id>, the form both Slack and
// Discord understand; the adapter draws the board in its own palette with
// Reply.Format.
//
// A channel runs several games at once, each its own record: a button acts
// on the game it was drawn for (its id and move number), a typed command on
// the caller's own game or open challenge.
//
// The package must know nothing of Slack, Discord, HTTP or Redis: it sees
// the store only through sessions.Store.
package bot
