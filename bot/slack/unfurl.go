package slack

import (
	"context"
	"strings"
	"time"

	slackapi "github.com/slack-go/slack"
	"github.com/slack-go/slack/slackevents"

	"github.com/connect4/connect4/bot"
	"github.com/connect4/connect4/bot/internal/clip"
)

// Link previews of the web pages (bot/web): Slack sends a link_shared
// event (Events API, scope links:read, the domain under the manifest's
// unfurl_domains) when someone posts a link to one, and the bot answers
// with chat.unfurl (scope links:write): the page's title, a line and, for
// a game, its board picture. Links the pages do not recognise (tampered,
// expired, another server's) get no preview.

// unfurlBudget bounds the previews and the chat.unfurl call of one event.
const unfurlBudget = 5 * time.Second

// maxUnfurls bounds the links of one event the bot previews.
const maxUnfurls = 5

// unfurlAPI is the part of the Web API client that answers link_shared.
type unfurlAPI interface {
	UnfurlMessageContext(ctx context.Context, channelID, timestamp string, unfurls map[string]slackapi.Attachment, options ...slackapi.MsgOption) (string, string, string, error)
	UnfurlMessageByIDContext(ctx context.Context, unfurlID, source string, unfurls map[string]slackapi.Attachment, options ...slackapi.MsgOption) (string, string, string, error)
}

var _ unfurlAPI = (*slackapi.Client)(nil)

// linkShared is the part of a link_shared event the bot reads.
type linkShared struct {
	Type      string `json:"type"`
	Channel   string `json:"channel"`
	MessageTS string `json:"message_ts"`
	UnfurlID  string `json:"unfurl_id"`
	Source    string `json:"source"`
	Links     []struct {
		URL string `json:"url"`
	} `json:"links"`
}

// unfurl answers ev with the previews of the links in it that are pages of
// this server, through chat.unfurl with the bot token. Nothing to preview
// (or no bot token) sends nothing. A failure is logged and returned.
func (a *Adapter) unfurl(ctx context.Context, ev linkShared) error {
	if a.cfg.Previews == nil {
		return nil
	}
	ctx, cancel := context.WithTimeout(ctx, unfurlBudget)
	defer cancel()
	unfurls := map[string]slackapi.Attachment{}
	for i, l := range ev.Links {
		if i == maxUnfurls {
			break
		}
		p, ok := a.cfg.Previews.Preview(ctx, l.URL)
		if !ok {
			continue
		}
		unfurls[l.URL] = slackapi.Attachment{Title: clip.Runes(p.Title, maxText), TitleLink: l.URL,
			Text: clip.Runes(p.Text, maxText), ImageURL: p.ImageURL, Fallback: clip.Runes(p.Title, maxText)}
	}
	if len(unfurls) == 0 {
		return nil
	}
	api, ok := a.api.(unfurlAPI) // the workspace's token, from ctx, with many workspaces
	if !ok {
		api = a.client()
	}
	var err error
	if ev.UnfurlID != "" && ev.Source != "" && (ev.Channel == "" || ev.MessageTS == "") {
		_, _, _, err = api.UnfurlMessageByIDContext(ctx, ev.UnfurlID, ev.Source, unfurls)
	} else {
		_, _, _, err = api.UnfurlMessageContext(ctx, ev.Channel, ev.MessageTS, unfurls)
	}
	if err != nil {
		a.log.Warn("slack: chat.unfurl failed", "channel", ev.Channel, "err", quiet(err))
	}
	return err
}

// isLinkButton reports whether a click is on one of the link buttons the
// bot draws (action id linkPrefix…): Slack reports those clicks too, and
// they need nothing but the acknowledgement.
func isLinkButton(ic clickPayload) bool {
	act, ok := ic.blockAction()
	return ok && strings.HasPrefix(act.ActionID, linkPrefix)
}

// linkPrefix starts the action_id of the link buttons (not actionPrefix:
// a link button carries no action).
const linkPrefix = "c4link_"

// maxButtonURL is the longest url of a Block Kit button.
const maxButtonURL = 3000

// socketEvent handles an Events API event that came over Socket Mode (it
// was acknowledged): link_shared is answered like over HTTP; anything
// else is ignored.
func (a *Adapter) socketEvent(data any) {
	ev, ok := data.(slackevents.EventsAPIEvent)
	if !ok || ev.Type != slackevents.CallbackEvent {
		return
	}
	ls, ok := ev.InnerEvent.Data.(*slackevents.LinkSharedEvent)
	if !ok {
		return
	}
	in := linkShared{Type: ls.Type, Channel: ls.Channel, MessageTS: ls.MessageTimeStamp}
	for _, l := range ls.Links {
		in.Links = append(in.Links, struct {
			URL string `json:"url"`
		}{URL: l.URL})
	}
	rep := newReport("socket", "event")
	rep.Channel = ls.Channel
	if !a.work.Go(func(ctx context.Context) {
		defer a.done(rep)
		if err := a.unfurl(ctx, in); err != nil {
			rep.Outcome = bot.OutcomeError
		}
	}) {
		rep.Outcome, rep.Reason = bot.OutcomeError, "shutting down"
		a.done(rep)
	}
}
