package discord

import (
	"encoding/json"
	"slices"
	"strconv"
	"sync"

	discordgo "github.com/bwmarrin/discordgo"

	"github.com/connect4/connect4/bot/jsonw"
)

// encodeResponse returns the JSON of resp. The responses the bot sends are
// built from discordgo's types, whose components marshal through custom
// MarshalJSON methods that encoding/json then validates and compacts again:
// the largest cost of a click after the signature check. For the shape
// every reply of the bot has (content, flags, allowed mentions, and rows of
// buttons or a Components V2 container: see appendComponents) this writes the same JSON directly; anything else goes through
// json.Marshal. TestEncodeResponse checks the two agree on every layout.
func encodeResponse(resp *discordgo.InteractionResponse) ([]byte, error) {
	return appendResponse(nil, resp)
}

// appendResponse is encodeResponse appending to b (whose contents it
// keeps), so that the HTTP endpoint can write every response into a
// buffer of its own (see responseBuffers).
func appendResponse(b []byte, resp *discordgo.InteractionResponse) ([]byte, error) {
	d := resp.Data
	if d == nil {
		return json.Marshal(resp)
	}
	if d.TTS || d.Embeds != nil || d.Files != nil || d.Choices != nil || d.CustomID != "" || d.Title != "" ||
		d.Attachments != nil || d.Poll != nil {
		return json.Marshal(resp)
	}
	b = slices.Grow(b, responseSize+len(d.Content))
	b = append(b, `{"type":`...)
	b = strconv.AppendInt(b, int64(resp.Type), 10)
	b = append(b, `,"data":{"tts":false,"content":`...)
	b = jsonw.AppendString(b, d.Content)
	b = append(b, `,"components":`...)
	b, ok := appendComponents(b, d.Components)
	if !ok {
		return json.Marshal(resp)
	}
	b = append(b, `,"embeds":null`...)
	if d.Flags != 0 {
		b = append(b, `,"flags":`...)
		b = strconv.AppendInt(b, int64(d.Flags), 10)
	}
	if am := d.AllowedMentions; am != nil {
		b = append(b, `,"allowed_mentions":`...)
		if b, ok = appendAllowed(b, am); !ok {
			return json.Marshal(resp)
		}
	}
	return append(b, "}}"...), nil
}

// responseBuffers keeps the buffers the HTTP endpoint encodes its
// responses into, from one response to the next: a response is written
// to the connection and dropped, and a new 2 KB buffer for each was an
// eighth of what a move allocated. A sync.Pool lets the garbage collector
// empty it; it keeps no buffer over maxPooledResponse. It is safe for
// concurrent use.
type responseBuffers struct{ pool sync.Pool }

// maxPooledResponse is the largest buffer responseBuffers keeps: a board's
// response with room to spare, not an outsized help text.
const maxPooledResponse = 4 * responseSize

// get returns an empty buffer, of a response's room when it has one, in
// the box put takes back: putting the box itself costs no allocation, as
// a new pointer to the slice did on every response.
func (r *responseBuffers) get() *[]byte {
	if b, ok := r.pool.Get().(*[]byte); ok {
		*b = (*b)[:0]
		return b
	}
	b := make([]byte, 0, responseSize)
	return &b
}

// put keeps b for another response, unless it is over maxPooledResponse;
// the caller must not use b afterwards.
func (r *responseBuffers) put(b *[]byte) bool {
	if cap(*b) > maxPooledResponse {
		return false
	}
	r.pool.Put(b)
	return true
}

// responseSize is room for a response's JSON besides its content: a
// board's seven column buttons and the others take about 1.2 KB.
const responseSize = 2 << 10

// appendComponents appends cs as a JSON array (null when nil), as
// encoding/json writes it, or reports false when a component is of a kind
// or has a field it does not write: action rows, buttons with a custom id
// and no emoji, containers, text displays and media galleries.
func appendComponents(b []byte, cs []discordgo.MessageComponent) ([]byte, bool) {
	if cs == nil {
		return append(b, "null"...), true
	}
	b = append(b, '[')
	for i, c := range cs {
		if i > 0 {
			b = append(b, ',')
		}
		var ok bool
		if b, ok = appendComponent(b, c); !ok {
			return b, false
		}
	}
	return append(b, ']'), true
}

// appendComponent appends c as a JSON object, or reports false: see
// appendComponents.
func appendComponent(b []byte, c discordgo.MessageComponent) ([]byte, bool) {
	switch c := c.(type) {
	case *discordgo.Button: // as components makes them
		return appendButton(b, c)
	case discordgo.Button:
		return appendButton(b, &c)
	}
	b = append(b, `{"type":`...)
	b = strconv.AppendInt(b, int64(c.Type()), 10)
	ok := true
	switch c := c.(type) {
	case discordgo.ActionsRow:
		if c.ID != 0 {
			return b, false
		}
		b = append(b, `,"components":`...)
		b, ok = appendComponents(b, c.Components)
	case discordgo.Container:
		if c.ID != 0 || c.AccentColor != nil {
			return b, false
		}
		b = append(b, `,"spoiler":`...)
		b = strconv.AppendBool(b, c.Spoiler)
		b = append(b, `,"components":`...)
		b, ok = appendComponents(b, c.Components)
	case discordgo.TextDisplay:
		b = append(b, `,"content":`...)
		b = jsonw.AppendString(b, c.Content)
	case discordgo.MediaGallery:
		if c.ID != 0 {
			return b, false
		}
		b = appendGallery(b, c.Items)
	default:
		return b, false
	}
	return append(b, '}'), ok
}

// appendButton appends c as a JSON object, or reports false for a
// button with an emoji, a link, a SKU, an id or no custom id.
func appendButton(b []byte, c *discordgo.Button) ([]byte, bool) {
	if c.Emoji != nil || c.URL != "" || c.SKUID != "" || c.ID != 0 || c.CustomID == "" {
		return b, false
	}
	style := c.Style
	if style == 0 {
		style = discordgo.PrimaryButton // as Button's MarshalJSON does
	}
	return appendButtonFields(b, c.Label, style, c.Disabled, c.CustomID), true
}

// appendButtonFields appends the JSON object of a button with a custom id
// and no emoji, as appendButton writes it.
func appendButtonFields(b []byte, label string, style discordgo.ButtonStyle, disabled bool, customID string) []byte {
	b = append(b, `{"type":`...)
	b = strconv.AppendInt(b, int64(discordgo.ButtonComponent), 10)
	b = append(b, `,"label":`...)
	b = jsonw.AppendString(b, label)
	b = append(b, `,"style":`...)
	b = strconv.AppendInt(b, int64(style), 10)
	b = append(b, `,"disabled":`...)
	b = strconv.AppendBool(b, disabled)
	b = append(b, `,"custom_id":`...)
	b = jsonw.AppendString(b, customID)
	return append(b, '}')
}

// appendGallery appends the "items" field of a media gallery.
func appendGallery(b []byte, items []discordgo.MediaGalleryItem) []byte {
	b = append(b, `,"items":`...)
	if items == nil {
		return append(b, "null"...)
	}
	b = append(b, '[')
	for i, it := range items {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"media":{"url":`...)
		b = jsonw.AppendString(b, it.Media.URL)
		b = append(b, '}')
		if it.Description != nil {
			b = append(b, `,"description":`...)
			b = jsonw.AppendString(b, *it.Description)
		}
		b = append(b, `,"spoiler":`...)
		b = strconv.AppendBool(b, it.Spoiler)
		b = append(b, '}')
	}
	return append(b, ']')
}

// appendAllowed appends am as a JSON object, or reports false for roles or
// a replied user, which the bot never sets.
func appendAllowed(b []byte, am *discordgo.MessageAllowedMentions) ([]byte, bool) {
	if len(am.Roles) > 0 || am.RepliedUser {
		return b, false
	}
	b = append(b, `{"parse":`...)
	if am.Parse == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, '[')
		for i, p := range am.Parse {
			if i > 0 {
				b = append(b, ',')
			}
			b = jsonw.AppendString(b, string(p))
		}
		b = append(b, ']')
	}
	if len(am.Users) > 0 {
		b = append(b, `,"users":[`...)
		for i, u := range am.Users {
			if i > 0 {
				b = append(b, ',')
			}
			b = jsonw.AppendString(b, u)
		}
		b = append(b, ']')
	}
	return append(b, `,"replied_user":false}`...), true
}
