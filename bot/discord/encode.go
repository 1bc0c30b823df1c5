package discord

import (
	"encoding/json"
	"strconv"
	"unicode/utf8"

	discordgo "github.com/bwmarrin/discordgo"
)

// encodeResponse returns the JSON of resp. The responses the bot sends are
// built from discordgo's types, whose components marshal through custom
// MarshalJSON methods that encoding/json then validates and compacts again:
// the largest cost of a click after the signature check. For the shape
// every reply of the bot has (content, flags, allowed mentions, and rows of
// buttons) this writes the same JSON directly; anything else goes through
// json.Marshal. TestEncodeResponse checks the two agree on every layout.
func encodeResponse(resp *discordgo.InteractionResponse) ([]byte, error) {
	d := resp.Data
	if d == nil {
		return json.Marshal(resp)
	}
	if d.TTS || d.Embeds != nil || d.Files != nil || d.Choices != nil || d.CustomID != "" || d.Title != "" ||
		d.Attachments != nil || d.Poll != nil {
		return json.Marshal(resp)
	}
	b := make([]byte, 0, 1024)
	b = append(b, `{"type":`...)
	b = strconv.AppendInt(b, int64(resp.Type), 10)
	b = append(b, `,"data":{"tts":false,"content":`...)
	b = appendString(b, d.Content)
	b = append(b, `,"components":[`...)
	for i, c := range d.Components {
		row, ok := c.(discordgo.ActionsRow)
		if !ok {
			return json.Marshal(resp)
		}
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"type":1,"components":[`...)
		for j, c := range row.Components {
			btn, ok := c.(discordgo.Button)
			if !ok || btn.Emoji != nil || btn.URL != "" || btn.SKUID != "" || btn.ID != 0 {
				return json.Marshal(resp)
			}
			if j > 0 {
				b = append(b, ',')
			}
			b = append(b, `{"type":2,"label":`...)
			b = appendString(b, btn.Label)
			b = append(b, `,"style":`...)
			b = strconv.AppendInt(b, int64(btn.Style), 10)
			b = append(b, `,"disabled":`...)
			b = strconv.AppendBool(b, btn.Disabled)
			b = append(b, `,"custom_id":`...)
			b = appendString(b, btn.CustomID)
			b = append(b, '}')
		}
		b = append(b, "]}"...)
	}
	b = append(b, `],"embeds":null`...)
	if d.Flags != 0 {
		b = append(b, `,"flags":`...)
		b = strconv.AppendInt(b, int64(d.Flags), 10)
	}
	if am := d.AllowedMentions; am != nil {
		if len(am.Roles) > 0 || am.RepliedUser {
			return json.Marshal(resp)
		}
		b = append(b, `,"allowed_mentions":{"parse":[`...)
		for i, p := range am.Parse {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendString(b, string(p))
		}
		b = append(b, ']')
		if len(am.Users) > 0 {
			b = append(b, `,"users":[`...)
			for i, u := range am.Users {
				if i > 0 {
					b = append(b, ',')
				}
				b = appendString(b, u)
			}
			b = append(b, ']')
		}
		b = append(b, `,"replied_user":false}`...)
	}
	return append(b, "}}"...), nil
}

// appendString appends s as a JSON string, escaped as encoding/json does:
// quotes, backslashes and control characters; <, > and & (HTML-safe); the
// line and paragraph separators; invalid UTF-8 as U+FFFD.
func appendString(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' && c != '<' && c != '>' && c != '&' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			default:
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
		case r == '\u2028' || r == '\u2029':
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hex[r&0xf])
		default:
			i += size
			continue
		}
		i += size
		start = i
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}
