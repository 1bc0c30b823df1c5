// Package discord connects the Connect Four bot to Discord: it verifies and
// parses interactions (over the HTTP interactions endpoint or the Gateway),
// turns them into bot.Commands, and answers with interaction responses whose
// content is the board in Unicode emoji and whose buttons are message
// components. It registers the /connect4 application command.
//
// Every interaction is answered within Discord's three seconds: commands
// that may run the AI are acknowledged with a deferred response when they
// have not finished quickly, and the reply is delivered later by editing
// the original response through the interaction's webhook. A deferred
// command runs within its own deadline and its reply is delivered with a
// context of its own, so a slow or hung store still gets its "try again"
// sentence to the person.
//
// Requests are checked in order of cost: the signature headers and the
// timestamp's 5-minute window before the body is read, then the body in
// one of a bounded number of slots (at most 256 KiB), then the Ed25519
// signature; only then is the body decoded, into the few fields the bot
// reads. Background work runs under one context that Close cancels and
// waits for, the same shape as the Slack adapter's.
//
// The package knows nothing of the game rules or of how games are stored:
// it sees only package bot. It does not read the environment; cmd/connect4
// fills in a Config.
package discord
