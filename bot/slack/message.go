package slack

import (
	"strconv"
	"strings"
	"unicode/utf8"

	slackapi "github.com/slack-go/slack"

	"github.com/connect4/connect4/bot"
	"github.com/connect4/connect4/bot/internal/clip"
	"github.com/connect4/connect4/render"
)

// Block Kit limits (docs.slack.dev/reference/block-kit).
const (
	maxText          = 3000 // characters in a text object
	maxButtonLabel   = 75   // characters in a button's plain_text
	maxActionButtons = 25   // elements in one actions block
)

// Response types of a message sent to Slack.
const (
	inChannel = "in_channel"
	ephemeral = "ephemeral"
)

// actionPrefix starts the action_id of every button the adapter draws.
const actionPrefix = "c4_"

// message lays r out as a Slack message: Block Kit blocks and the plain
// text fallback. The caller sets how it is delivered (response type,
// replace_original).
func message(r bot.Reply) *slackapi.WebhookMessage {
	m := r.Format(render.Slack())
	m.Status = r.FlagStatus(m.Status, slackTime)
	fallback := r.Fallback()
	if r.Visibility == bot.Public {
		// A new message pings everyone it mentions, and Slack has no
		// switch for that: only those the reply is meant to notify stay
		// mentions. (Updates and ephemeral notes notify nobody.)
		m.Header, m.Status, fallback = r.QuietMentions(m.Header), r.QuietMentions(m.Status), r.QuietMentions(fallback)
	}
	text := clip.Runes(fallback, maxText)
	if strings.TrimSpace(text) == "" {
		// The notification text when a reply has none.
		text = r.Lang.Say("onSlack.fallback", nil)
	}
	msg := &slackapi.WebhookMessage{Text: text}
	if bs := blocks(m, r.Buttons); len(bs) > 0 {
		msg.Blocks = &slackapi.Blocks{BlockSet: bs}
	}
	return msg
}

// blocks returns a section with the header and the board, a context block
// with the status, and actions blocks with the buttons that are not
// disabled (Slack has no disabled buttons).
func blocks(m bot.Message, buttons []bot.Button) []slackapi.Block {
	var bs []slackapi.Block
	section := func(s string) {
		if strings.TrimSpace(s) != "" {
			bs = append(bs, slackapi.NewSectionBlock(mrkdwn(clip.Runes(s, maxText)), nil, nil))
		}
	}
	switch body := strings.TrimSpace(m.Header + "\n" + m.Board); {
	case utf8.RuneCountInString(body) <= maxText:
		section(body)
	default: // a long announcement over a big board: one section each
		section(m.Header)
		section(m.Board)
	}
	if strings.TrimSpace(m.Status) != "" {
		bs = append(bs, slackapi.NewContextBlock("c4_status", mrkdwn(clip.Runes(m.Status, maxText))))
	}
	var elems []slackapi.BlockElement
	for i, b := range buttons {
		if b.Disabled {
			continue
		}
		label := slackapi.NewTextBlockObject(slackapi.PlainTextType, clip.Runes(b.Label, maxButtonLabel), true, false)
		if b.URL != "" { // a link button: opens a web page
			if len(b.URL) <= maxButtonURL {
				elems = append(elems, slackapi.NewButtonBlockElement(linkPrefix+strconv.Itoa(i), "", label).WithURL(b.URL))
			}
			continue
		}
		btn := slackapi.NewButtonBlockElement(actionPrefix+strconv.Itoa(i), b.Value, label)
		switch b.Style {
		case bot.StylePrimary:
			btn = btn.WithStyle(slackapi.StylePrimary)
		case bot.StyleDanger:
			btn = btn.WithStyle(slackapi.StyleDanger)
		}
		elems = append(elems, btn)
	}
	for n := 0; len(elems) > 0; n++ {
		k := min(len(elems), maxActionButtons)
		bs = append(bs, slackapi.NewActionBlock("c4_buttons_"+strconv.Itoa(n), elems[:k]...))
		elems = elems[k:]
	}
	return bs
}

func mrkdwn(s string) *slackapi.TextBlockObject {
	return slackapi.NewTextBlockObject(slackapi.MarkdownType, s, false, false)
}
