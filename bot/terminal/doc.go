// Package terminal is the third chat adapter: one chat channel, #general,
// in a terminal, on the same bot code path as Slack and Discord. Lines typed
// are what one would type in chat (/connect4 @bob), the label of a button on
// the latest message ([Accept], 4, Rematch) to click it, `as <name>` to
// become someone else (hot-seat), or quit.
//
// Like the other adapters it is built with New(svc, Config, log) and run
// with Run(ctx); it sees only packages bot, bot/match and render (for its
// palette), and knows nothing of how games are stored. It does not read
// the environment or install signal handlers: cmd/connect4 does, and
// cancels Run's context on Ctrl-C.
package terminal
