// Package bot is the game flow of the Connect Four bot, written once for
// every chat platform: challenge, accept, decline, cancel, drop, resign,
// claim a timed-out turn, rematch, next round, takebacks, games against
// the AI, puzzles, analysis, the board, the leaderboard, stats, seasons,
// settings and help.
//
// A platform adapter turns a chat request into a Command and hands it to
// Service.Handle, which runs it through the store and the engine and
// returns a platform-neutral Reply: a new public message, an in-place
// update of the game message, or an ephemeral note for the person who
// acted. Mentions in reply text are written <@id>, the form both Slack and
// Discord understand; the adapter draws the board in its own palette with
// Reply.Format.
//
// Where things are, by file:
//
//   - command.go: Kind, Request, Command, Variant, what an adapter hands in;
//     grammar.go: ParseText, the words typed after /connect4;
//     action.go: Action, the wire form of a button (ParseAction).
//   - service.go: Service, New, Options, Handle and the dispatch to the use
//     cases, one file each: challenge.go, play.go, offers.go, ai.go,
//     puzzle.go, analysis.go, standings.go, settings.go, games.go, multi.go;
//     view.go draws a record as a Reply.
//   - reply.go: Reply and all its methods (Format, Fallback, Picture, ...);
//     outcome.go: Outcome, how a request ended for logs and metrics;
//     wording.go: Problem, why a request was refused, its sentences, and
//     the help text.
//   - timers.go plans each record's timers as the use cases write it;
//     fire.go says what a due timer does (Fire, Notice, Attach);
//     worker.go runs the schedule (RunSchedule, Notifier, Schedule);
//     settle.go leaves the timers of channels a Notifier cannot reach
//     (Reacher) to the next interaction (Settle).
//   - store.go: Store, what the bot needs of its storage.
//
// Concepts that stand alone have packages of their own: bot/match (the
// records, players and keys the store keeps), bot/glicko (ratings),
// bot/slots (the bound on AI searches running at once) and bot/ttlcache
// (the channels' settings read lately).
//
// A channel runs several games at once, each its own record: a button acts
// on the game it was drawn for (its id and move number), a typed command on
// the caller's own game or open challenge.
//
// The package must know nothing of Slack, Discord, HTTP or Redis: it sees
// the store only through its own Store interface, which package sessions
// implements on Redis and in memory.
package bot
