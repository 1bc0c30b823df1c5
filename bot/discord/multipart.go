package discord

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strconv"

	discordgo "github.com/bwmarrin/discordgo"

	"github.com/connect4/connect4/bot/jsonw"
)

// The multipart bodies of picture uploads are written here directly, one
// allocation each, rather than by discordgo.MultipartBodyWithJSON, which
// marshals the message through reflection and each component's
// MarshalJSON, then copies the JSON and the file through a
// mime/multipart.Writer into a growing buffer. The bytes are those of a
// multipart.Writer: TestMultipartBody compares them.

// upload is a file sent with a message: files[0] of a multipart body.
type upload struct {
	name, contentType string
	// size is about how many bytes appendTo appends, for the body's
	// first allocation.
	size int
	// appendTo appends the file to b, or returns an error.
	appendTo func(b []byte) ([]byte, error)
}

// pngSize is about a board's PNG at the default size (8 KB for a 7 × 6
// board; a bigger board grows the body once).
const pngSize = 12 << 10

// multipartBody returns the Content-Type and the body of a multipart
// upload of msg (as payload_json) and of file. It returns the error of
// file.appendTo, or an error when msg holds a value encoding/json cannot
// marshal.
func multipartBody(msg v2Message, file upload) (string, []byte, error) {
	return multipartOf(func(b []byte) ([]byte, error) { return appendV2Message(b, msg) }, file)
}

// responseBody is multipartBody for an initial interaction response of
// type typ carrying msg: payload_json is {"type":typ,"data":msg}, as
// Discord's interaction callback takes it.
func responseBody(typ discordgo.InteractionResponseType, msg v2Message, file upload) (string, []byte, error) {
	return multipartOf(func(b []byte) ([]byte, error) {
		b = append(b, `{"type":`...)
		b = strconv.AppendInt(b, int64(typ), 10)
		b = append(b, `,"data":`...)
		b, err := appendV2Message(b, msg)
		if err != nil {
			return nil, err
		}
		return append(b, '}'), nil
	}, file)
}

// multipartOf returns the Content-Type and the body of a multipart upload
// whose payload_json payload appends, and of file.
func multipartOf(payload func(b []byte) ([]byte, error), file upload) (string, []byte, error) {
	var rnd [30]byte // as mime/multipart's random boundary
	if _, err := rand.Read(rnd[:]); err != nil {
		return "", nil, fmt.Errorf("boundary: %w", err)
	}
	boundary := hex.EncodeToString(rnd[:])
	b, err := appendMultipart(make([]byte, 0, file.size+multipartSlack), boundary, payload, file)
	if err != nil {
		return "", nil, err
	}
	return "multipart/form-data; boundary=" + boundary, b, nil
}

// multipartSlack is room for what a body holds besides its file: the
// part headers, the boundaries and the message's JSON (a board's message
// takes about 1.5 KB).
const multipartSlack = 4 << 10

// appendMultipart appends the body of multipartBody with boundary.
func appendMultipart(b []byte, boundary string, payload func(b []byte) ([]byte, error), file upload) ([]byte, error) {
	b = append(b, "--"...)
	b = append(b, boundary...)
	b = append(b, "\r\nContent-Disposition: form-data; name=\"payload_json\"\r\nContent-Type: application/json\r\n\r\n"...)
	var err error
	if b, err = payload(b); err != nil {
		return nil, err
	}
	b = append(b, "\r\n--"...)
	b = append(b, boundary...)
	b = append(b, "\r\nContent-Disposition: form-data; name=\"files[0]\"; filename="...)
	b = append(b, '"')
	for i := 0; i < len(file.name); i++ { // escaped as discordgo does
		if file.name[i] == '"' || file.name[i] == '\\' {
			b = append(b, '\\')
		}
		b = append(b, file.name[i])
	}
	b = append(b, "\"\r\nContent-Type: "...)
	b = append(b, file.contentType...)
	b = append(b, "\r\n\r\n"...)
	if b, err = file.appendTo(b); err != nil {
		return nil, err
	}
	b = append(b, "\r\n--"...)
	b = append(b, boundary...)
	return append(b, "--\r\n"...), nil
}

// appendV2Message appends the JSON of m: written directly for the
// components appendComponents knows, else by encoding/json.
func appendV2Message(b []byte, m v2Message) ([]byte, error) {
	start := len(b)
	b = append(b, `{"content":`...)
	if m.Content == nil {
		b = append(b, "null"...)
	} else {
		b = jsonw.AppendString(b, *m.Content)
	}
	b = append(b, `,"embeds":null,"flags":`...)
	b = strconv.AppendInt(b, int64(m.Flags), 10)
	b = append(b, `,"components":`...)
	b, ok := appendComponents(b, m.Components)
	b = append(b, `,"attachments":`...)
	b = appendAttachments(b, m.Attachments)
	if m.AllowedMentions != nil && ok {
		b = append(b, `,"allowed_mentions":`...)
		b, ok = appendAllowed(b, m.AllowedMentions)
	}
	if ok && m.Embeds == nil {
		return append(b, '}'), nil
	}
	j, err := json.Marshal(m)
	if err != nil {
		return nil, err
	}
	return append(b[:start], j...), nil
}

// appendAttachments appends the "attachments" array of a v2Message.
func appendAttachments(b []byte, as []v2Attachment) []byte {
	if as == nil {
		return append(b, "null"...)
	}
	b = append(b, '[')
	for i, a := range as {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"id":`...)
		b = strconv.AppendInt(b, int64(a.ID), 10)
		b = append(b, `,"filename":`...)
		b = jsonw.AppendString(b, a.Filename)
		if a.Description != "" {
			b = append(b, `,"description":`...)
			b = jsonw.AppendString(b, a.Description)
		}
		b = append(b, '}')
	}
	return append(b, ']')
}
