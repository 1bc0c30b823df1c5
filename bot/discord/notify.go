package discord

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"net/http"
	"time"

	discordgo "github.com/bwmarrin/discordgo"

	"github.com/connect4/connect4/bot"
	"github.com/connect4/connect4/bot/match"
)

// The bot's own edits and posts (bot.Notifier) go through the REST API with
// the bot token: an interaction's token lasts 15 minutes, too short for a
// game. The message id comes from the clicked message on a click, and from
// GET /webhooks/{app}/{token}/messages/@original after a command (attach).

// attachBudget bounds learning a command's message id and attaching it.
const attachBudget = 5 * time.Second

var errNoToken = fmt.Errorf("%w: discord: no DISCORD_BOT_TOKEN", bot.ErrUndeliverable)

// CanNotify reports whether the adapter can change messages on its own
// (it has a bot token); without one, expiries, timeouts and reminders are
// not shown on Discord and the rest works.
func (a *Adapter) CanNotify() bool { return a.cfg.BotToken != "" }

// notifyError maps a REST error to what the schedule's worker does with
// it: wait for a rate limit, drop what cannot be delivered (the message or
// channel is gone, the bot may not see it), retry the rest.
func notifyError(op string, err error) error {
	var rl *discordgo.RateLimitError
	if errors.As(err, &rl) && rl.RateLimit != nil && rl.TooManyRequests != nil {
		return &bot.RateLimitError{After: rl.RetryAfter, Err: fmt.Errorf("discord: %s: %w", op, err)}
	}
	var re *discordgo.RESTError
	if errors.As(err, &re) && re.Response != nil {
		switch re.Response.StatusCode {
		case http.StatusNotFound, http.StatusForbidden, http.StatusUnauthorized, http.StatusBadRequest:
			return fmt.Errorf("%w: discord: %s: HTTP %d", bot.ErrUndeliverable, op, re.Response.StatusCode)
		}
	}
	return fmt.Errorf("discord: %s: %w", op, err)
}

// restOptions are the options of the bot's own REST calls: a 429 comes
// back as an error (the worker waits its retry-after) instead of
// discordgo sleeping in the call.
func restOptions(ctx context.Context) []discordgo.RequestOption {
	return []discordgo.RequestOption{discordgo.WithContext(ctx), discordgo.WithRetryOnRatelimit(false), discordgo.WithRestRetries(0)}
}

// Edit implements bot.Notifier: PATCH /channels/{channel}/messages/{id}.
func (a *Adapter) Edit(ctx context.Context, k match.Key, ref match.MessageRef, r bot.Reply) error {
	if !a.CanNotify() {
		return errNoToken
	}
	if ref.MessageID == "" {
		return fmt.Errorf("%w: discord: no message id", bot.ErrUndeliverable)
	}
	ch := cmp.Or(ref.Channel, k.Channel)
	content, comps := layoutIn(r, a.palettes(r)...)
	_, err := a.rest.ChannelMessageEditComplex(&discordgo.MessageEdit{Channel: ch, ID: ref.MessageID,
		Content: &content, Components: &comps, AllowedMentions: allowed(r)}, restOptions(ctx)...)
	if statusOf(err) == http.StatusBadRequest {
		// A game shown as a picture is a Components V2 message, which
		// takes no content: the same edit in its shape, with the emoji
		// board (the picture is of the last move; this edit changes the
		// status and the buttons).
		msg := v2Message{Flags: discordgo.MessageFlagsIsComponentsV2, Components: v2Layout(r, false, "", a.palettes(r)...),
			Attachments: []v2Attachment{}, AllowedMentions: allowed(r)}
		_, err = a.rest.RequestWithBucketID(http.MethodPatch, discordgo.EndpointChannelMessage(ch, ref.MessageID), msg,
			discordgo.EndpointChannelMessage(ch, ""), restOptions(ctx)...)
	}
	if err != nil {
		return notifyError("edit message", err)
	}
	return nil
}

// statusOf is the HTTP status of a REST error, or 0.
func statusOf(err error) int {
	var re *discordgo.RESTError
	if errors.As(err, &re) && re.Response != nil {
		return re.Response.StatusCode
	}
	return 0
}

// Post implements bot.Notifier: POST /channels/{channel}/messages, its
// mentions limited to the reply's Notify. A message with a game's (or a
// tournament's) buttons is attached to it, so that the bot edits it later.
func (a *Adapter) Post(ctx context.Context, k match.Key, _ match.MessageRef, r bot.Reply) error {
	if !a.CanNotify() {
		return errNoToken
	}
	content, comps := layoutIn(r, a.palettes(r)...)
	m, err := a.rest.ChannelMessageSendComplex(k.Channel, &discordgo.MessageSend{Content: content, Components: comps,
		AllowedMentions: allowed(r)}, restOptions(ctx)...)
	if err != nil {
		return notifyError("send message", err)
	}
	if id := r.ButtonGame(); id != "" && m != nil && m.ID != "" && len(m.ID) <= maxRefLen {
		if err := a.svc.Attach(ctx, k, id, match.MessageRef{Channel: k.Channel, MessageID: m.ID}); err != nil {
			a.log.Warn("discord: posted message not attached to its game", "channel", k.Channel, "err", err)
		}
	}
	return nil
}

var _ bot.Notifier = (*Adapter)(nil)

// attach learns the id of the message a command's public reply became
// (the interaction's original response) and attaches it to the reply's
// game, in the background, so that the bot can edit it on its own later.
// A first 404 (Discord has not yet made the message) is retried once.
func (a *Adapter) attach(s restAPI, in *interaction, k match.Key, gameID string) {
	if gameID == "" || !a.CanNotify() || s == nil || Guest(k) {
		return
	}
	a.work.Go(func(ctx context.Context) {
		ctx, cancel := context.WithTimeout(ctx, attachBudget)
		defer cancel()
		var m *discordgo.Message
		var err error
		for try := 0; try < 2; try++ {
			if m, err = s.InteractionResponse(in.ref(), discordgo.WithContext(ctx)); err == nil {
				break
			}
			var re *discordgo.RESTError
			if !errors.As(err, &re) || re.Response == nil || re.Response.StatusCode != http.StatusNotFound {
				break
			}
			select {
			case <-time.After(unknownRetry):
			case <-ctx.Done():
			}
		}
		if err != nil || m == nil || m.ID == "" || len(m.ID) > maxRefLen {
			a.log.Warn("discord: the id of a command's message is unknown: the bot cannot edit it on time", "channel", in.ChannelID, "err", err)
			return
		}
		if err := a.svc.Attach(ctx, k, gameID, match.MessageRef{Channel: in.ChannelID, MessageID: m.ID}); err != nil {
			a.log.Warn("discord: message not attached to its game", "channel", in.ChannelID, "err", err)
		}
	})
}
