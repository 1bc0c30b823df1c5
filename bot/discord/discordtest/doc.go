// Package discordtest is Discord's side of the interactions endpoint, for
// tests and tools that talk to the bot as Discord does: it builds
// interactions in Discord's JSON, signs them with an Ed25519 key the way
// Discord signs them (X-Signature-Ed25519 over X-Signature-Timestamp and
// the body), posts them, and decodes the responses, reading a game's state
// from the buttons' custom_ids (bot.ParseAction) rather than from the
// message text.
//
// It knows the wire format only: it does not import the adapter, so the
// adapter's tests and the load tester (cmd/connect4-loadtest) can both use
// it, and it checks nothing about what the bot answers.
package discordtest
