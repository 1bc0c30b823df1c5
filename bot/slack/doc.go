// Package slack connects the Connect Four bot to Slack: it verifies and
// parses slash commands and button clicks (over HTTP or Socket Mode), hands
// them to bot.Service, and turns the replies into Block Kit messages sent in
// the HTTP response, in a Socket Mode ack, or to the click's response_url.
//
// Both transports run through the same functions: command turns a slash
// command into the message to answer with, and interact turns a click into
// background work that posts to the response_url.
//
// The package knows Slack and nothing of the game rules or the store: it
// sees only bot.Service. It must not know about Discord or the command line
// wiring; configuration comes in through Config, never from the
// environment.
package slack
