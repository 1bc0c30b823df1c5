package slack

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"github.com/connect4/connect4/bot/match"

	slackapi "github.com/slack-go/slack"

	"github.com/connect4/connect4/bot"
	"github.com/connect4/connect4/bot/lang"
)

// errForeign marks a click on a button the bot did not draw: it is answered
// with an ephemeral note.
var errForeign = errors.New("slack: not one of our buttons")

// click is a parsed button click.
type click struct {
	cmd         bot.Command // Self is filled in later
	responseURL string
}

// clickPayload is the part of a block_actions payload the bot reads.
// Decoding only these fields costs a fraction of slack-go's
// InteractionCallback, which decodes the whole clicked message.
type clickPayload struct {
	Type string `json:"type"`
	Team struct {
		ID string `json:"id"`
	} `json:"team"`
	User struct {
		ID   string `json:"id"`
		Name string `json:"name"`
	} `json:"user"`
	Channel struct {
		ID string `json:"id"`
	} `json:"channel"`
	Container struct {
		ChannelID string `json:"channel_id"`
		MessageTs string `json:"message_ts"`
	} `json:"container"`
	ResponseURL string        `json:"response_url"`
	Actions     []clickAction `json:"actions"`
}

// clickAction is the part of a clicked button the bot reads. BlockID is
// nil for an action without one: a legacy attachment's, not a block's.
type clickAction struct {
	BlockID  *string `json:"block_id"`
	ActionID string  `json:"action_id"`
	Value    string  `json:"value"`
}

// blockAction returns the first action of p that belongs to a block.
func (p clickPayload) blockAction() (clickAction, bool) {
	for _, act := range p.Actions {
		if act.BlockID != nil {
			return act, true
		}
	}
	return clickAction{}, false
}

// readClick decodes the payload form field of an interaction request.
func readClick(r *http.Request) (clickPayload, error) {
	var p clickPayload
	if err := r.ParseForm(); err != nil {
		return p, err
	}
	payload := r.PostForm.Get("payload")
	if payload == "" {
		return p, errors.New("slack: empty payload")
	}
	err := json.Unmarshal([]byte(payload), &p)
	return p, err
}

// fromCallback is the clickPayload of ic, a callback Socket Mode decoded.
func fromCallback(ic slackapi.InteractionCallback) clickPayload {
	var p clickPayload
	p.Type = string(ic.Type)
	p.Team.ID = ic.Team.ID
	p.User.ID, p.User.Name = ic.User.ID, ic.User.Name
	p.Channel.ID = ic.Channel.ID
	p.Container.ChannelID, p.Container.MessageTs = ic.Container.ChannelID, ic.Container.MessageTs
	p.ResponseURL = ic.ResponseURL
	for _, act := range ic.ActionCallback.BlockActions {
		if act != nil {
			p.Actions = append(p.Actions, clickAction{BlockID: &act.BlockID, ActionID: act.ActionID, Value: act.Value})
		}
	}
	return p
}

// parseClick checks a block_actions callback and returns the click, with
// nonce as its command's Nonce.
// Callbacks that lack a team, channel, user, action or usable response_url
// (or are of another type) return an error wrapping errBadRequest; clicks
// on buttons the bot did not draw return the click (without a request)
// and an error wrapping errForeign.
func parseClick(ic clickPayload, nonce string) (click, error) {
	if ic.Type != string(slackapi.InteractionTypeBlockActions) {
		return click{}, fmt.Errorf("%w: interaction type %q", errBadRequest, ic.Type)
	}
	channel := ic.Container.ChannelID
	if channel == "" {
		channel = ic.Channel.ID
	}
	c := click{cmd: bot.Command{
		Key:     match.Key{Platform: Platform, Workspace: ic.Team.ID, Channel: channel},
		User:    match.Player{ID: ic.User.ID, Name: ic.User.Name},
		Message: match.MessageRef{Channel: channel, Timestamp: ic.Container.MessageTs},
		Nonce:   nonce,
	}, responseURL: ic.ResponseURL}
	switch {
	case c.cmd.Key.Validate() != nil:
		return click{}, fmt.Errorf("%w: no valid team or channel", errBadRequest)
	case c.cmd.User.ID == "":
		return click{}, fmt.Errorf("%w: no user", errBadRequest)
	case !webURL(ic.ResponseURL):
		return click{}, fmt.Errorf("%w: no usable response_url", errBadRequest)
	}
	act, ok := ic.blockAction()
	if !ok {
		return click{}, fmt.Errorf("%w: no action", errBadRequest)
	}
	if !strings.HasPrefix(act.ActionID, actionPrefix) {
		return c, fmt.Errorf("%w: action id %q", errForeign, act.ActionID)
	}
	req, err := bot.ParseAction(act.Value)
	if err != nil {
		return c, fmt.Errorf("%w: %w", errForeign, err)
	}
	c.cmd.Request = req
	return c, nil
}

// webURL reports whether s is an absolute http(s) URL.
func webURL(s string) bool {
	u, err := url.Parse(s)
	return err == nil && (u.Scheme == "https" || u.Scheme == "http") && u.Host != ""
}

// interact handles a button click: it checks the callback and starts the
// background work that runs the command and posts the reply to the click's
// response_url. nonce identifies the request (see bot.Command.Nonce). It
// returns errBadRequest (wrapped) for a malformed callback, which gets no
// reply; the caller has already acknowledged, or will answer 400. It owns
// rep from here on: rep is finished when the work is.
//
// The command runs within the adapter's timeout; the post gets a context
// of its own (postBudget), so that a command that ran out of time (a hung
// store) still delivers the bot's "try again" sentence.
func (a *Adapter) interact(ic clickPayload, nonce string, rep *report) error {
	if isLinkButton(ic) { // the browser opens the page; nothing to do
		rep.Outcome, rep.Kind = bot.OutcomeOK, "link"
		a.done(rep)
		return nil
	}
	c, err := parseClick(ic, nonce)
	rep.Channel = c.cmd.Key.Channel
	if errors.Is(err, errBadRequest) {
		rep.Outcome, rep.Reason = bot.OutcomeBadRequest, err.Error()
		a.done(rep)
		return err
	}
	if err == nil {
		rep.Kind = c.cmd.Kind.String()
	}
	started := a.work.Go(func(wctx context.Context) {
		defer a.done(rep)
		wctx, werr := a.inWorkspace(wctx, c.cmd.Key, "", c.cmd.User.ID)
		if werr != nil {
			rep.Outcome, rep.Reason = bot.OutcomeRefused, "not installed"
			a.post(wctx, c.responseURL, a.notInstalled(werr))
			return
		}
		if err != nil { // a foreign button: say so, privately
			rep.Outcome, rep.Reason = bot.OutcomeRefused, "foreign button"
			l, _ := lang.Parse(a.userLocale(wctx, c.cmd.User.ID, false))
			msg := &slackapi.WebhookMessage{Text: bot.ForeignButtonText(l), ResponseType: ephemeral}
			if perr := a.post(wctx, c.responseURL, msg); perr != nil {
				rep.Outcome = bot.OutcomeError
			}
			return
		}
		reply := a.run(wctx, c.cmd)
		rep.Outcome = reply.Outcome()
		if reply.Visibility == bot.VisibilityNone {
			return
		}
		err := a.deliver(wctx, c.cmd.Key, reply, c.responseURL, c.cmd.Message.Timestamp, func(msg *slackapi.WebhookMessage) {
			switch reply.Visibility {
			case bot.Update:
				msg.ReplaceOriginal = true
			case bot.Public:
				msg.ResponseType = inChannel
			default:
				msg.ResponseType = ephemeral
			}
		})
		if err != nil {
			rep.Outcome = bot.OutcomeError
		}
		if reply.Aside() { // a click that ended a tournament's round: its table and next games
			bot.ApplyEdits(wctx, a, c.cmd.Key, reply, a.log)
		}
	})
	if !started {
		rep.Outcome, rep.Reason = bot.OutcomeError, "shutting down"
		a.done(rep)
	}
	return nil
}

// run runs a click's command within the adapter's timeout.
func (a *Adapter) run(ctx context.Context, cmd bot.Command) bot.Reply {
	ctx, cancel := context.WithTimeout(ctx, a.timeout)
	defer cancel()
	cmd.Self = a.selfPlayer(ctx)
	cmd.Key = a.homeKey(cmd.Key)
	cmd.Locale = a.userLocale(ctx, cmd.User.ID, false)
	return a.svc.Handle(ctx, cmd)
}

// post sends msg to a response_url within postBudget of ctx, the work
// context. Failures are logged (without the URL, which is a credential for
// the message) and returned.
func (a *Adapter) post(ctx context.Context, responseURL string, msg *slackapi.WebhookMessage) error {
	err := a.send(ctx, responseURL, msg)
	if err != nil {
		a.log.Error("slack response_url post failed", "err", err)
	}
	return err
}

// send is post without the log: the error, without the URL.
func (a *Adapter) send(ctx context.Context, responseURL string, msg *slackapi.WebhookMessage) error {
	ctx, cancel := context.WithTimeout(ctx, postBudget)
	defer cancel()
	err := slackapi.PostWebhookCustomHTTPContext(ctx, responseURL, a.httpc, msg)
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err // url.Error's text carries the URL
	}
	return err
}
