package slack

import (
	"cmp"
	"context"
	"errors"
	"fmt"

	slackapi "github.com/slack-go/slack"

	"github.com/connect4/connect4/bot"
	"github.com/connect4/connect4/bot/match"
)

// chatAPI is the part of the Web API the bot's own messages use
// (chat:write): the public reply to a slash command, posted so that its ts
// is known, and the edits and reminders of the schedule.
type chatAPI interface {
	PostMessageContext(ctx context.Context, channelID string, options ...slackapi.MsgOption) (string, string, error)
	UpdateMessageContext(ctx context.Context, channelID, timestamp string, options ...slackapi.MsgOption) (string, string, string, error)
}

var _ chatAPI = (*slackapi.Client)(nil)

// gone are the Web API errors that no retry mends: the message, channel or
// token is not there, or the app lacks the scope.
var gone = map[string]bool{
	"message_not_found": true, "channel_not_found": true, "not_in_channel": true, "is_archived": true,
	"cant_update_message": true, "edit_window_closed": true, "invalid_auth": true, "account_inactive": true,
	"token_revoked": true, "not_authed": true, "missing_scope": true, "restricted_action": true,
}

// notifyError maps a Web API error to what the schedule's worker does
// with it: wait for a rate limit, drop what cannot be delivered, retry
// the rest.
func notifyError(op string, err error) error {
	var rl *slackapi.RateLimitedError
	if errors.As(err, &rl) {
		return &bot.RateLimitError{After: rl.RetryAfter, Err: fmt.Errorf("slack: %s: %w", op, err)}
	}
	var se slackapi.SlackErrorResponse
	if errors.As(err, &se) && gone[se.Err] {
		return fmt.Errorf("%w: slack: %s: %s", bot.ErrUndeliverable, op, se.Err)
	}
	return fmt.Errorf("slack: %s: %w", op, err)
}

var errNoToken = fmt.Errorf("%w: slack: no SLACK_BOT_TOKEN", bot.ErrUndeliverable)

// CanNotify reports whether the adapter can change messages on its own
// (it has a bot token); without one, expiries, timeouts and reminders are
// not shown on Slack and the rest works.
func (a *Adapter) CanNotify() bool { return a.chat != nil }

// msgOptions lays r out as chat.postMessage and chat.update take it.
func msgOptions(r bot.Reply) []slackapi.MsgOption {
	m := message(r)
	opts := []slackapi.MsgOption{slackapi.MsgOptionText(m.Text, false)}
	if m.Blocks != nil {
		opts = append(opts, slackapi.MsgOptionBlocks(m.Blocks.BlockSet...))
	} else {
		opts = append(opts, slackapi.MsgOptionBlocks()) // an edit drops the old blocks and their buttons
	}
	return opts
}

// Edit implements bot.Notifier with chat.update on the message's channel
// and ts.
func (a *Adapter) Edit(ctx context.Context, k match.Key, ref match.MessageRef, r bot.Reply) error {
	if a.chat == nil {
		return errNoToken
	}
	if ref.Timestamp == "" {
		return fmt.Errorf("%w: slack: no ts for the message", bot.ErrUndeliverable)
	}
	ctx, err := a.forKey(ctx, k)
	if err != nil {
		return err
	}
	ch := cmp.Or(ref.Channel, k.Channel)
	if _, _, _, err := a.chat.UpdateMessageContext(ctx, ch, ref.Timestamp, msgOptions(r)...); err != nil {
		return notifyError("chat.update", err)
	}
	return nil
}

// Post implements bot.Notifier with chat.postMessage in k's channel.
func (a *Adapter) Post(ctx context.Context, k match.Key, _ match.MessageRef, r bot.Reply) error {
	if a.chat == nil {
		return errNoToken
	}
	ctx, err := a.forKey(ctx, k)
	if err != nil {
		return err
	}
	ch, ts, err := a.chat.PostMessageContext(ctx, k.Channel, msgOptions(r)...)
	if err != nil {
		return notifyError("chat.postMessage", err)
	}
	if id := r.ButtonGame(); id != "" {
		// A message with a game's (or a tournament's) buttons: the bot
		// edits it later.
		a.attachPosted(ctx, k, id, ch, ts)
	}
	return nil
}

var _ bot.Notifier = (*Adapter)(nil)

// postReply posts a slash command's public reply with the bot token,
// so that its ts is known, and attaches the message to its game; ok false
// means it was not posted (no token, or the Web API refused: the bot is
// not in the channel, for one) and the caller answers in the response
// body as before.
func (a *Adapter) postReply(ctx context.Context, k match.Key, r bot.Reply) bool {
	id := r.ButtonGame()
	if a.chat == nil || !a.cfg.PostReplies || id == "" || r.Visibility != bot.Public {
		return false
	}
	if a.pictured(k, r) {
		// The picture takes an upload, or Slack's fetch of the bot's URL:
		// the command is acknowledged with an empty 200 and the message
		// posted in the background, with the emoji board if the picture
		// fails.
		return a.goFrom(ctx, func(ctx context.Context) { a.postPictured(ctx, k, id, r) })
	}
	ch, ts, err := a.chat.PostMessageContext(ctx, k.Channel, msgOptions(r)...)
	if err != nil {
		a.log.Warn("slack: chat.postMessage of a command's reply failed: answering in the response instead, and this game's message will not change on time",
			"channel", k.Channel, "err", err)
		return false
	}
	a.attachPosted(ctx, k, id, ch, ts)
	return true
}

// postPictured posts r, a command's public reply showing a game, with its
// picture, or else with the emoji board, and attaches the message to game
// id; then, for a finished game, the replay in its thread.
func (a *Adapter) postPictured(ctx context.Context, k match.Key, id string, r bot.Reply) {
	pic := message(r)
	uctx, cancel := context.WithTimeout(ctx, uploadBudget)
	ok := a.picture(uctx, k, r, pic)
	cancel()
	if ok {
		pctx, cancel := context.WithTimeout(ctx, postBudget)
		ch, ts, err := a.chat.PostMessageContext(pctx, k.Channel, slackapi.MsgOptionText(pic.Text, false), slackapi.MsgOptionBlocks(pic.Blocks.BlockSet...))
		cancel()
		if err == nil {
			a.attachPosted(ctx, k, id, ch, ts)
			a.replay(ctx, k, r, ts)
			return
		}
		if !a.pictureRefused(k, err) {
			return
		}
	}
	pctx, cancel := context.WithTimeout(ctx, postBudget)
	defer cancel()
	ch, ts, err := a.chat.PostMessageContext(pctx, k.Channel, msgOptions(r)...)
	if err != nil {
		a.log.Error("slack: chat.postMessage of a command's reply failed", "channel", k.Channel, "err", err)
		return
	}
	a.attachPosted(ctx, k, id, ch, ts)
}

// attachPosted attaches the message ch/ts the adapter posted to game id.
func (a *Adapter) attachPosted(ctx context.Context, k match.Key, id, ch, ts string) {
	if err := a.svc.Attach(ctx, k, id, match.MessageRef{Channel: ch, Timestamp: ts}); err != nil {
		a.log.Warn("slack: message not attached to its game", "channel", k.Channel, "err", err)
	}
}
