package terminal

import (
	"context"

	"github.com/connect4/connect4/bot"
	"github.com/connect4/connect4/bot/match"
)

// The terminal is a bot.Notifier too: `connect4 play` runs the schedule's
// worker (in memory, like its store), whose expiries, reminders, Claim
// buttons and abandoned-game notices show up between the lines typed, as
// a channel would show them; a Claim button shown so can be typed.

var _ bot.Notifier = (*Adapter)(nil)

// Edit shows r as the message ref, edited.
func (a *Adapter) Edit(_ context.Context, _ match.Key, _ match.MessageRef, r bot.Reply) error {
	r.Visibility = bot.Update
	a.show(r)
	return nil
}

// Post shows r as a new message in the channel.
func (a *Adapter) Post(_ context.Context, _ match.Key, _ match.MessageRef, r bot.Reply) error {
	if r.Visibility != bot.Ephemeral {
		r.Visibility = bot.Public
	}
	a.show(r)
	return nil
}
