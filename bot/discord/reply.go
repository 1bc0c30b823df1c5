package discord

import (
	"slices"
	"strconv"

	discordgo "github.com/bwmarrin/discordgo"

	"github.com/connect4/connect4/bot"
	"github.com/connect4/connect4/bot/internal/clip"
	"github.com/connect4/connect4/bot/jsonw"
	"github.com/connect4/connect4/render"
)

// replyResponse is a reply to be answered as response(r, fromButton,
// ps...) does, kept as the reply: the HTTP endpoint writes its JSON
// straight from it (appendReply) without making discordgo's response,
// data, allowed mentions, rows and buttons first, which were nine
// allocations and 1.4 KB of a move's 9.1 (BenchmarkInteractionMove).
type replyResponse struct {
	r          bot.Reply
	fromButton bool
	ps         []render.Palette
}

// response is the discordgo form of x, as the Gateway's callback takes it.
func (x *replyResponse) response() *discordgo.InteractionResponse {
	return response(x.r, x.fromButton, x.ps...)
}

// appendReply appends the JSON of x's response to b, the bytes
// appendResponse writes for it (TestAppendReply), reporting false for a
// reply with a link button, which it leaves to them.
func appendReply(b []byte, x *replyResponse) ([]byte, bool) {
	r := &x.r
	for _, bt := range r.Buttons {
		if bt.URL != "" {
			return b, false
		}
	}
	typ, flags := discordgo.InteractionResponseChannelMessageWithSource, discordgo.MessageFlags(0)
	switch r.Visibility {
	case bot.Public:
	case bot.Update:
		if x.fromButton {
			typ = discordgo.InteractionResponseUpdateMessage
		}
	case bot.Ephemeral:
		flags = discordgo.MessageFlagsEphemeral
	default:
		if x.fromButton {
			return append(b, `{"type":`+strconv.Itoa(int(discordgo.InteractionResponseDeferredMessageUpdate))+`}`...), true
		}
		flags = discordgo.MessageFlagsEphemeral
	}
	var content string
	if r.Visibility == bot.Ephemeral {
		content = clip.Runes(r.Text, maxContent)
	} else {
		var ok bool
		if _, content, ok = fit(*r, maxContent, x.ps); !ok {
			content = clip.Runes(r.Fallback(), maxContent)
		}
	}
	b = slices.Grow(b, responseSize+len(content))
	b = append(b, `{"type":`...)
	b = strconv.AppendInt(b, int64(typ), 10)
	b = append(b, `,"data":{"tts":false,"content":`...)
	b = jsonw.AppendString(b, content)
	b = append(b, `,"components":[`...)
	if r.Visibility != bot.Ephemeral {
		b = appendButtonRows(b, r.Buttons)
	}
	b = append(b, `],"embeds":null`...)
	if flags != 0 {
		b = append(b, `,"flags":`...)
		b = strconv.AppendInt(b, int64(flags), 10)
	}
	b = append(b, `,"allowed_mentions":`...)
	b, _ = appendAllowed(b, allowed(*r)) // true: the bot's mentions are users only
	return append(b, "}}"...), true
}

// appendButtonRows appends the action rows components makes of buttons,
// none of them a link, without the brackets of their array.
func appendButtonRows(b []byte, buttons []bot.Button) []byte {
	ncols := 0
	for _, bt := range buttons {
		if shownButton(bt) && bt.Column > 0 {
			ncols++
		}
	}
	rows := 0
	b, rows = appendRowsOf(b, buttons, true, columnsPerRow(ncols), rows)
	b, _ = appendRowsOf(b, buttons, false, maxButtonsPerRow, rows)
	return b
}

// shownButton reports whether components shows bt, a button that is no
// link: one with a custom id of Discord's length.
func shownButton(bt bot.Button) bool { return bt.Value != "" && len(bt.Value) <= maxCustomID }

// appendRowsOf appends the rows of per buttons each that components makes
// of the column buttons (or of the others), after rows rows, as long as
// there are fewer than maxRows; it returns the rows there are then.
func appendRowsOf(b []byte, buttons []bot.Button, columns bool, per, rows int) ([]byte, int) {
	inRow := 0
	for _, bt := range buttons {
		if !shownButton(bt) || (bt.Column > 0) != columns {
			continue
		}
		if inRow == 0 {
			if rows == maxRows {
				break
			}
			if rows > 0 {
				b = append(b, ',')
			}
			b = append(b, `{"type":1,"components":[`...)
		} else {
			b = append(b, ',')
		}
		b = appendButtonFields(b, clip.Runes(bt.Label, maxLabel), buttonStyle(bt.Style), bt.Disabled, bt.Value)
		if inRow++; inRow == per {
			b = append(b, "]}"...)
			rows, inRow = rows+1, 0
		}
	}
	if inRow > 0 {
		b = append(b, "]}"...)
		rows++
	}
	return b, rows
}
