// Package slack connects the Connect Four bot to Slack: it verifies and
// parses slash commands and button clicks (over HTTP or Socket Mode), hands
// them to bot.Service, and turns the replies into Block Kit messages sent in
// the HTTP response, in a Socket Mode ack, or to the click's response_url.
//
// Both transports run through the same functions: command turns a slash
// command into the message to answer with, and interact turns a click into
// background work that posts to the response_url, with a context of its
// own so that a command that ran out of time (a hung store) still says so.
//
// Requests are checked in order of cost: the signature headers and the
// timestamp's 5-minute window before the body is read, then the body in
// one of a bounded number of slots (at most 256 KiB), then the HMAC. Each
// command carries a nonce naming its signed request, for replay
// protection. Background work runs under one context that Close cancels
// and waits for, the same shape as the Discord adapter's.
//
// The package knows Slack and nothing of the game rules or the store: it
// sees only bot.Service. It must not know about Discord or the command line
// wiring; configuration comes in through Config, never from the
// environment.
package slack
