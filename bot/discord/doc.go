// Package discord connects the Connect Four bot to Discord: it verifies and
// parses interactions (over the HTTP interactions endpoint or the Gateway),
// turns them into bot.Commands, and answers with interaction responses whose
// content is the board in Unicode emoji and whose buttons are message
// components. It registers the /connect4 application command.
//
// Every interaction is answered within Discord's three seconds: commands
// that may run the AI are acknowledged with a deferred response when they
// have not finished quickly, and the reply is delivered later by editing
// the original response through the interaction's webhook.
//
// The package knows nothing of the game rules or of how games are stored:
// it sees only package bot. It does not read the environment; cmd/connect4
// fills in a Config.
package discord
