package discord

import (
	"bytes"
	"errors"
	"io"
	"mime"
	"mime/multipart"
	"net/textproto"
	"testing"

	discordgo "github.com/bwmarrin/discordgo"

	"github.com/connect4/connect4/bot"
	"github.com/connect4/connect4/bot/match"
	"github.com/connect4/connect4/engine"
)

// v2Messages are the Components V2 messages the adapter sends, and shapes
// the direct encoder leaves to encoding/json.
func v2Messages(t testing.TB) map[string]v2Message {
	t.Helper()
	g, err := engine.New(engine.DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []int{3, 3, 4, 2} {
		if err := g.Play(g.Turn(), c); err != nil {
			t.Fatal(err)
		}
	}
	var bs []bot.Button
	for c := 1; c <= 7; c++ {
		bs = append(bs, bot.Button{Label: string(rune('0' + c)), Value: bot.Action{Kind: bot.KindDrop, GameID: "g1", Move: 4, Column: c - 1, Human: true}.String(), Column: c, Disabled: c == 5})
	}
	bs = append(bs, bot.Button{Label: "Resign", Value: "c4:resign:g1:4:0", Style: bot.StyleDanger})
	r := bot.Reply{Visibility: bot.Update, Text: "<@1> dropped a disc & \"won\" <b>\u2028", Game: g,
		Red: match.Player{ID: "1", Name: "alice"}, Yellow: match.Player{ID: "2", Name: "bob ✓"}, Buttons: bs, Notify: []string{"2"}}
	alt := r.AltText()
	content := "old"
	accent := 0xff0000
	return map[string]v2Message{
		"picture": {Flags: discordgo.MessageFlagsIsComponentsV2, Components: v2Layout(r, true, alt),
			Attachments: []v2Attachment{{ID: 0, Filename: boardFile, Description: alt}}, AllowedMentions: allowed(r)},
		"emoji": {Flags: discordgo.MessageFlagsIsComponentsV2, Components: v2Layout(r, false, ""),
			Attachments: []v2Attachment{}, AllowedMentions: allowed(r)},
		"nil lists":     {Flags: discordgo.MessageFlagsIsComponentsV2},
		"content":       {Content: &content, Components: []discordgo.MessageComponent{discordgo.ActionsRow{}}},
		"no gallery":    {Components: []discordgo.MessageComponent{discordgo.MediaGallery{}}},
		"default style": {Components: []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{discordgo.Button{Label: "x", CustomID: "y"}}}}},
		"accent":        {Components: []discordgo.MessageComponent{discordgo.Container{AccentColor: &accent}}},
		"emoji button": {Components: []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{
			discordgo.Button{Label: "x", CustomID: "y", Emoji: &discordgo.ComponentEmoji{Name: "🔴"}}}}}},
		"embeds":   {Embeds: []*discordgo.MessageEmbed{{Title: "t"}}},
		"roles":    {AllowedMentions: &discordgo.MessageAllowedMentions{Roles: []string{"9"}}},
		"section":  {Components: []discordgo.MessageComponent{discordgo.Section{Components: []discordgo.MessageComponent{discordgo.TextDisplay{Content: "a"}}}}},
		"no parse": {AllowedMentions: &discordgo.MessageAllowedMentions{Users: []string{"1"}}},
	}
}

// TestAppendV2Message: the direct encoder writes the same JSON as
// encoding/json for every message, those it leaves to encoding/json
// included.
func TestAppendV2Message(t *testing.T) {
	for name, m := range v2Messages(t) {
		fast, err := appendV2Message([]byte("prefix"), m)
		if err != nil {
			t.Fatalf("%s: appendV2Message: %v", name, err)
		}
		if !bytes.HasPrefix(fast, []byte("prefix")) {
			t.Fatalf("%s: appendV2Message lost what b held: %q", name, fast)
		}
		sameJSON(t, name, "appendV2Message", fast[len("prefix"):], m)
	}
}

// TestMultipartBody: the body is, byte for byte, what mime/multipart
// writes with the same boundary for the parts discordgo's
// MultipartBodyWithJSON makes (payload_json, then files[0] with its
// name and type), and its Content-Type names that boundary.
func TestMultipartBody(t *testing.T) {
	m := v2Messages(t)["picture"]
	png := []byte("\x89PNG\r\n\x1a\n--not a boundary\r\n\x00\xff")
	file := upload{name: boardFile, contentType: "image/png", size: 1,
		appendTo: func(b []byte) ([]byte, error) { return append(b, png...), nil }}
	ct, body, err := multipartBody(m, file)
	if err != nil {
		t.Fatal(err)
	}
	mt, params, err := mime.ParseMediaType(ct)
	if err != nil || mt != "multipart/form-data" || len(params["boundary"]) != 60 {
		t.Fatalf("Content-Type %q: want multipart/form-data with a 60-character boundary", ct)
	}
	payload, err := appendV2Message(nil, m)
	if err != nil {
		t.Fatal(err)
	}
	var want bytes.Buffer
	w := multipart.NewWriter(&want)
	if err := w.SetBoundary(params["boundary"]); err != nil {
		t.Fatal(err)
	}
	part := func(h textproto.MIMEHeader, data []byte) {
		p, err := w.CreatePart(h)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := p.Write(data); err != nil {
			t.Fatal(err)
		}
	}
	part(textproto.MIMEHeader{"Content-Disposition": {`form-data; name="payload_json"`}, "Content-Type": {"application/json"}}, payload)
	part(textproto.MIMEHeader{"Content-Disposition": {`form-data; name="files[0]"; filename="board.png"`}, "Content-Type": {"image/png"}}, png)
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if ct != w.FormDataContentType() {
		t.Errorf("Content-Type %q, want %q", ct, w.FormDataContentType())
	}
	if !bytes.Equal(body, want.Bytes()) {
		t.Errorf("body:\n%q\nwant\n%q", body, want.Bytes())
	}
	// And it reads back as the parts Discord expects.
	r := multipart.NewReader(bytes.NewReader(body), params["boundary"])
	for _, wp := range []struct {
		form, file string
		data       []byte
	}{{"payload_json", "", payload}, {"files[0]", boardFile, png}} {
		p, err := r.NextPart()
		if err != nil {
			t.Fatalf("part %s: %v", wp.form, err)
		}
		data, _ := io.ReadAll(p)
		if p.FormName() != wp.form || p.FileName() != wp.file || !bytes.Equal(data, wp.data) {
			t.Errorf("part %q %q %q, want %q %q %q", p.FormName(), p.FileName(), data, wp.form, wp.file, wp.data)
		}
	}
	if _, err := r.NextPart(); err != io.EOF {
		t.Errorf("after the file: %v, want io.EOF", err)
	}
	_, again, _ := multipartBody(m, file)
	if bytes.Equal(again, body) {
		t.Error("two bodies share a boundary; want a random one each")
	}
	bad := errors.New("no picture")
	file.appendTo = func(b []byte) ([]byte, error) { return b, bad }
	if _, _, err := multipartBody(m, file); !errors.Is(err, bad) {
		t.Errorf("multipartBody with a file that fails: %v, want %v", err, bad)
	}
}

// BenchmarkMultipartBody compares discordgo's MultipartBodyWithJSON with
// multipartBody for a board's message and a 8 KB picture.
func BenchmarkMultipartBody(b *testing.B) {
	m := v2Messages(b)["picture"]
	png := bytes.Repeat([]byte{0x89, 'P', 'N', 'G'}, 2048)
	b.Run("MultipartBodyWithJSON", func(b *testing.B) {
		for b.Loop() {
			_, _, _ = discordgo.MultipartBodyWithJSON(m, []*discordgo.File{{Name: boardFile, ContentType: "image/png", Reader: bytes.NewReader(png)}})
		}
	})
	b.Run("multipartBody", func(b *testing.B) {
		for b.Loop() {
			_, _, _ = multipartBody(m, upload{name: boardFile, contentType: "image/png", size: len(png),
				appendTo: func(b []byte) ([]byte, error) { return append(b, png...), nil }})
		}
	})
}
