package slack

import (
	"context"
	"errors"

	"github.com/connect4/connect4/bot/match"

	slackapi "github.com/slack-go/slack"

	"github.com/connect4/connect4/bot"
)

// errBadRequest marks a request that lacks what every request from Slack
// carries: it is answered 400 (or acked without a reply in Socket Mode).
var errBadRequest = errors.New("slack: malformed request")

// command runs a slash command and returns the message to answer with, in
// the HTTP response body or the Socket Mode ack: in_channel for public
// replies, ephemeral for the rest. nonce identifies the request (see
// bot.Command.Nonce). It returns nil and errBadRequest for a command
// without a team, channel or user. It fills in rep.
func (a *Adapter) command(ctx context.Context, sc slackapi.SlashCommand, nonce string, rep *report) (*slackapi.WebhookMessage, error) {
	rep.Channel = sc.ChannelID
	cmd, err := slashCommand(sc, nonce)
	if err != nil {
		rep.Outcome, rep.Reason = bot.OutcomeBadRequest, "command without a valid team, channel or user"
		return nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, commandBudget)
	defer cancel()
	if ctx, err = a.inWorkspace(ctx, cmd.Key, sc.EnterpriseID, cmd.User.ID); err != nil {
		rep.Outcome, rep.Reason = bot.OutcomeRefused, "not installed"
		return a.notInstalled(err), nil
	}
	cmd.Self = a.selfPlayer(ctx)
	cmd.Key = a.homeKey(cmd.Key)
	cmd.Names = a.names.seen(cmd.Key, sc.UserName)
	var reply bot.Reply
	req, err := bot.ParseText(sc.Text)
	// A typed move waits on no look-up; anything else may wait for one.
	cmd.Locale = a.userLocale(ctx, cmd.User.ID, err != nil || req.Kind != bot.KindDrop)
	if err != nil {
		if req.Kind != bot.KindNone {
			rep.Kind = req.Kind.String()
		}
		reply = a.svc.HandleText(ctx, cmd, sc.Text) // the refusal, with the help
	} else {
		rep.Kind = req.Kind.String()
		if req.Kind == bot.KindChallenge && req.Opponent.ID != cmd.Self.ID && req.Opponent.ID != cmd.User.ID {
			req.OpponentIsBot = a.isBot(ctx, req.Opponent.ID)
		}
		for i, p := range req.Others {
			if req.Kind == bot.KindChallenge && p.ID != "" && p.ID != cmd.Self.ID && p.ID != cmd.User.ID {
				req.OtherIsBot[i] = a.isBot(ctx, p.ID)
			}
		}
		if req.Kind == bot.KindNewSeason || req.Kind == bot.KindTournamentNew || (req.Kind == bot.KindSettings && req.Settings.Board != match.BoardDefault) {
			cmd.CanManage = a.isAdmin(ctx, cmd.User.ID)
		}
		cmd.Request = req
		reply = a.svc.Handle(ctx, cmd)
	}
	rep.Outcome = reply.Outcome()
	if reply.Aside() {
		// A typed cancel or decline: the challenge's message loses its
		// buttons, after the reply; a tournament's table and its new
		// round's games. A message that was a command's response has no
		// ts (Slack gives none for response_url messages) until someone
		// clicks it, so it cannot be edited: the reply says its buttons
		// no longer do anything (a tournament's table is posted anew
		// instead: Repost).
		if unedited(reply) {
			reply.Text += "\n" + reply.Lang.Say("onSlack.buttonsStay", nil)
		}
		a.goFrom(ctx, func(wctx context.Context) { bot.ApplyEdits(wctx, a, cmd.Key, reply, a.log) })
	}
	if reply.Visibility == bot.VisibilityNone || a.postReply(ctx, cmd.Key, reply) {
		return nil, nil
	}
	responseType := ephemeral
	if reply.Visibility == bot.Public || reply.Visibility == bot.Update {
		responseType = inChannel
	}
	if a.pictured(cmd.Key, reply) && webURL(sc.ResponseURL) {
		// A picture takes an upload, or Slack's fetch of the bot's URL,
		// and Slack may refuse it: the command is acknowledged with an
		// empty 200 and its reply posted to the response_url, falling back
		// to the emoji board. The reply's ts is not known: a replay goes in
		// the channel.
		if a.goFrom(ctx, func(wctx context.Context) {
			a.deliver(wctx, cmd.Key, reply, sc.ResponseURL, "", func(m *slackapi.WebhookMessage) { m.ResponseType = responseType })
		}) {
			return nil, nil
		}
	}
	msg := message(reply)
	msg.ResponseType = responseType
	return msg, nil
}

// unedited reports whether one of r's edits is of a message with no ts,
// which chat.update cannot reach.
func unedited(r bot.Reply) bool {
	for _, e := range r.Edits {
		if e.Message.Timestamp == "" && !e.Repost {
			return true
		}
	}
	return false
}

// slashCommand is the command of sc, without its request or Self, with
// nonce as its Nonce; errBadRequest for a command without a valid team,
// channel or user.
func slashCommand(sc slackapi.SlashCommand, nonce string) (bot.Command, error) {
	key := match.Key{Platform: Platform, Workspace: sc.TeamID, Channel: sc.ChannelID}
	if key.Validate() != nil || sc.UserID == "" {
		return bot.Command{}, errBadRequest
	}
	return bot.Command{Key: key, User: match.Player{ID: sc.UserID, Name: sc.UserName}, Nonce: nonce}, nil
}

// isAdmin reports whether users.info says the user is a workspace admin or
// owner, who may start a new season and choose the channel's board style.
// Without a bot token, or when the lookup fails (logged), nobody is.
func (a *Adapter) isAdmin(ctx context.Context, id string) bool {
	u := a.userInfo(ctx, id, "the user may not manage seasons or the board style")
	return u != nil && (u.IsAdmin || u.IsOwner || u.IsPrimaryOwner)
}
