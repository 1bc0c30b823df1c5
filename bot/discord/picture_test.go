package discord

import (
	"bytes"
	"encoding/json"
	"image/gif"
	"image/png"
	"io"
	"mime"
	"mime/multipart"
	"strconv"
	"strings"
	"testing"
	"time"

	discordgo "github.com/bwmarrin/discordgo"

	"github.com/connect4/connect4/bot"
	"github.com/connect4/connect4/bot/internal/adaptertest"
	"github.com/connect4/connect4/bot/match"
	"github.com/connect4/connect4/engine"
	"github.com/connect4/connect4/render"
	"github.com/connect4/connect4/sessions"
	"github.com/connect4/connect4/sessions/storetest"
)

const flagV2 = 1 << 15

// v2Got is a Components V2 message as the fake reads it: the payload_json
// of a multipart body (or a JSON body), and its files by form name.
type v2Got struct {
	Flags       int               `json:"flags"`
	Components  []json.RawMessage `json:"components"`
	Attachments []struct {
		ID       int    `json:"id"`
		Filename string `json:"filename"`
	} `json:"attachments"`
	AllowedMentions *gotMentions `json:"allowed_mentions"`
	files           map[string][]byte
	fileNames       map[string]string
	raw             []byte
}

// parseV2 decodes a webhook call: multipart (payload_json and files[n]) or
// JSON.
func parseV2(t *testing.T, c fakeCall) v2Got {
	t.Helper()
	var got v2Got
	payload := c.Body
	mt, params, err := mime.ParseMediaType(c.ContentType)
	if err != nil {
		t.Fatalf("%s %s: Content-Type %q: %v", c.Method, c.Path, c.ContentType, err)
	}
	if mt == "multipart/form-data" {
		got.files, got.fileNames = map[string][]byte{}, map[string]string{}
		mr := multipart.NewReader(bytes.NewReader(c.Body), params["boundary"])
		for {
			p, err := mr.NextPart()
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatalf("multipart body of %s %s: %v", c.Method, c.Path, err)
			}
			b, _ := io.ReadAll(p)
			if p.FormName() == "payload_json" {
				payload = b
				continue
			}
			got.files[p.FormName()], got.fileNames[p.FormName()] = b, p.FileName()
		}
	}
	got.raw = payload
	if err := json.Unmarshal(payload, &got); err != nil {
		t.Fatalf("payload of %s %s %q: %v", c.Method, c.Path, payload, err)
	}
	return got
}

// asResponse is got's components as a message to click on.
func (g v2Got) asResponse(t *testing.T) gotResponse {
	t.Helper()
	var d gotData
	if err := json.Unmarshal(g.raw, &d); err != nil {
		t.Fatal(err)
	}
	return gotResponse{Type: typeUpdate, Data: &d}
}

// texts returns the text displays and media URLs in the container.
func (g v2Got) container(t *testing.T) (texts, media []string) {
	t.Helper()
	var c struct {
		Type       int `json:"type"`
		Components []struct {
			Type    int    `json:"type"`
			Content string `json:"content"`
			Items   []struct {
				Media struct {
					URL string `json:"url"`
				} `json:"media"`
				Description string `json:"description"`
			} `json:"items"`
		} `json:"components"`
	}
	if len(g.Components) == 0 || json.Unmarshal(g.Components[0], &c) != nil || c.Type != 17 {
		t.Fatalf("first component is not a container: %s", g.raw)
	}
	for _, x := range c.Components {
		switch x.Type {
		case 10:
			texts = append(texts, x.Content)
		case 12:
			for _, it := range x.Items {
				if it.Description == "" {
					t.Errorf("media item %s has no description (alt text)", it.Media.URL)
				}
				media = append(media, it.Media.URL)
			}
		}
	}
	return texts, media
}

// webhookCall waits for the next webhook call of the fake and returns it.
func (f *fixture) webhookCall(t *testing.T) fakeCall {
	t.Helper()
	var got []fakeCall
	adaptertest.WaitFor(t, "a webhook call", func() bool {
		got = append(got, f.take()...)
		for _, c := range got {
			if strings.Contains(c.Path, "/webhooks/") {
				return true
			}
		}
		return false
	})
	for i, c := range got {
		if strings.Contains(c.Path, "/webhooks/") {
			// The calls after it (a replay's follow-up that came with
			// the edit) are for the next take.
			f.unread = append(f.unread, got[i+1:]...)
			return c
		}
	}
	return fakeCall{}
}

// clickV2 clicks label on a Components V2 message m as userID.
func (f *fixture) clickV2(userID string, m gotResponse, label string) gotResponse {
	f.t.Helper()
	in := f.clickIn(userID, m.button(f.t, label).CustomID)
	in["message"] = map[string]any{"id": "600000000000000001", "channel_id": chanID, "flags": flagV2}
	return f.send(in)
}

// TestPictureBoards plays a game with pictures on over HTTP: every move is
// deferred (type 6) and the message edited with a multipart body whose
// PNG shows exactly the stored game, in a Components V2 container with the
// column buttons below; the winning move also posts the replay GIF in a
// follow-up; a failed upload falls back to the emoji board in the same
// layout; and with the channel set to emoji a click on the V2 message is
// answered in place, still as a V2 message.
func TestPictureBoards(t *testing.T) {
	st := storetest.NewMemory(t, sessions.Options{})
	f := newFixtureWith(t, st, 0, func(c *Config) { c.Pictures = true })
	f.a.pictureBudget = 0 // no reply in time for its picture to go in the response: the deferred upload
	key := match.Key{Platform: Platform, Workspace: guildID, Channel: chanID}

	c := f.challenge("UA", "UB")
	want(t, c, typeMessage, 0, "challenges")
	m := f.click("UB", c, "Accept")
	if m.Type != typeDeferUpdate {
		t.Fatalf("accept answered with type %d, want a deferred update (6)", m.Type)
	}

	check := func(t *testing.T, call fakeCall, wantText string) v2Got {
		t.Helper()
		if call.Method != "PATCH" || !strings.HasSuffix(call.Path, "/messages/@original") {
			t.Fatalf("call %s %s, want PATCH of the original message", call.Method, call.Path)
		}
		got := parseV2(t, call)
		if got.Flags != flagV2 {
			t.Fatalf("flags %d, want Components V2 (%d)", got.Flags, flagV2)
		}
		if !bytes.Contains(got.raw, []byte(`"content":null`)) || !bytes.Contains(got.raw, []byte(`"embeds":null`)) {
			t.Fatalf("payload %s does not clear content and embeds, as an upgrade to Components V2 must", got.raw)
		}
		texts, media := got.container(t)
		if len(media) != 1 || media[0] != "attachment://board.png" {
			t.Fatalf("media %v, want attachment://board.png", media)
		}
		if !strings.Contains(strings.Join(texts, "\n"), wantText) {
			t.Fatalf("texts %q do not contain %q", texts, wantText)
		}
		if len(got.Attachments) != 1 || got.Attachments[0].Filename != "board.png" || got.fileNames["files[0]"] != "board.png" {
			t.Fatalf("attachments %+v, files %v; want board.png as files[0]", got.Attachments, got.fileNames)
		}
		img, err := png.Decode(bytes.NewReader(got.files["files[0]"]))
		if err != nil {
			t.Fatalf("files[0] is not a PNG: %v", err)
		}
		recs, err := st.Active(t.Context(), key)
		if err != nil || len(recs) == 0 {
			// The game is over: it is no longer active.
			return got
		}
		wantImg, err := render.Image(recs[0].Game, render.ImageOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if !adaptertest.SamePixels(img, wantImg) {
			t.Fatal("the uploaded PNG does not show the stored game")
		}
		return got
	}
	got := check(t, f.webhookCall(t), "<@UB> accepted!")
	board := got.asResponse(t)
	if n := len(board.Data.Components); n != 4 { // the container, then 4 + 3 column buttons, then Offer draw
		t.Fatalf("%d top-level components, want the container and 3 rows of buttons", n)
	}

	// Red plays column 1, yellow 2, ...; red wins with its fourth disc in column 1.
	players := []string{"UA", "UB"}
	for i, col := range []string{"1", "2", "1", "2", "1", "2"} {
		r := f.clickV2(players[i%2], board, col)
		if r.Type != typeDeferUpdate {
			t.Fatalf("move %d answered with type %d, want 6", i+1, r.Type)
		}
		board = check(t, f.webhookCall(t), "dropped a disc in column "+col).asResponse(t)
	}

	// One upload fails: the same message shows the emoji board instead.
	f.fake.mu.Lock()
	f.fake.failUploads = true
	f.fake.mu.Unlock()
	f.clickV2("UA", board, "3")
	var fallback fakeCall
	adaptertest.WaitFor(t, "the emoji fallback", func() bool {
		f.fake.mu.Lock()
		defer f.fake.mu.Unlock()
		for _, c := range f.fake.calls {
			if strings.HasPrefix(c.ContentType, "application/json") && c.Method == "PATCH" {
				fallback = c
				return true
			}
		}
		return false
	})
	f.fake.take()
	fb := parseV2(t, fallback)
	texts, media := fb.container(t)
	if fb.Flags != flagV2 || len(media) != 0 || !strings.Contains(strings.Join(texts, "\n"), "⚪") || len(fb.Attachments) != 0 {
		t.Fatalf("fallback flags %d media %v attachments %v texts %q; want V2 with the emoji board and no attachment", fb.Flags, media, fb.Attachments, texts)
	}
	f.mu.Lock()
	logged := strings.Contains(f.logs.String(), "board picture not delivered")
	f.mu.Unlock()
	if !logged {
		t.Fatal("the failed upload was not logged")
	}
	f.fake.mu.Lock()
	f.fake.failUploads = false
	f.fake.mu.Unlock()
	board = fb.asResponse(t)

	// Yellow plays 2 (its fourth there: yellow wins).
	f.clickV2("UB", board, "2")
	var calls []fakeCall
	adaptertest.WaitFor(t, "the final edit and the replay", func() bool {
		calls = append(calls, f.fake.take()...)
		return len(calls) >= 2
	})
	last := check(t, calls[0], "<@UB> wins!")
	if calls[1].Method != "POST" || !strings.HasSuffix(calls[1].Path, "/webhooks/"+appID+"/tok-"+lastToken(f)) {
		t.Fatalf("replay call %s %s, want a follow-up POST", calls[1].Method, calls[1].Path)
	}
	replay := parseV2(t, calls[1])
	if replay.fileNames["files[0]"] != "replay.gif" || len(replay.Attachments) != 1 {
		t.Fatalf("replay files %v attachments %+v", replay.fileNames, replay.Attachments)
	}
	if am := replay.AllowedMentions; am == nil || len(am.Parse) != 0 || len(am.Users) != 0 {
		t.Fatalf("replay allowed_mentions %+v, want nobody pinged", am)
	}
	anim, err := gif.DecodeAll(bytes.NewReader(replay.files["files[0]"]))
	if err != nil {
		t.Fatalf("replay is not a GIF: %v", err)
	}
	if moves := 8; len(anim.Image) != moves+1 {
		t.Fatalf("replay has %d frames, want %d (one per move and the empty board)", len(anim.Image), moves+1)
	}

	// A manager switches the channel to emoji: a click on the V2 message is
	// answered in place, as a V2 message with the emoji board.
	in := f.slashIn("UM", "settings", []map[string]any{opt("board", 3, "emoji")})
	in["member"].(map[string]any)["permissions"] = "16"
	want(t, f.send(in), typeMessage, 0, "emoji")
	rematch := f.clickV2("UA", last.asResponse(t), "Rematch")
	if rematch.Type != typeUpdate || rematch.Data.Flags != flagV2 {
		t.Fatalf("click on a V2 message with emoji boards: type %d flags %d, want 7 with the V2 flag", rematch.Type, rematch.Data.Flags)
	}
}

// lastToken is the token of the latest interaction sent.
func lastToken(f *fixture) string { return strconv.Itoa(f.n) }

// TestPictureAIGame checks pictures where the AI plays: /connect4 ai is
// deferred (type 5) and its message then carries the picture, and a move
// whose AI reply outlasts the deferral threshold is delivered after the
// deferral with the picture too.
func TestPictureAIGame(t *testing.T) {
	st := storetest.NewMemory(t, sessions.Options{})
	f := newFixtureWith(t, st, 0, func(c *Config) { c.Pictures = true })
	f.a.pictureBudget = 0 // no reply in time for its picture to go in the response: the deferred upload
	r := f.slash("UA", "ai", nil)
	if r.Type != typeDeferMessage {
		t.Fatalf("/connect4 ai answered with type %d, want a deferred message (5)", r.Type)
	}
	call := f.webhookCall(t)
	got := parseV2(t, call)
	if _, media := got.container(t); call.Method != "PATCH" || len(media) != 1 || got.fileNames["files[0]"] != boardFile {
		t.Fatalf("after /connect4 ai: %s %s with media %v and files %v; want the picture in the original message", call.Method, call.Path, media, got.fileNames)
	}
	board := got.asResponse(t)

	f.a.deferAfter = time.Millisecond // every AI move is now deferred
	r = f.clickV2("UA", board, "4")
	if r.Type != typeDeferUpdate {
		t.Fatalf("a move against the AI answered with type %d, want 6", r.Type)
	}
	got = parseV2(t, f.webhookCall(t))
	texts, media := got.container(t)
	if len(media) != 1 || !strings.Contains(strings.Join(texts, "\n"), "column 4") {
		t.Fatalf("deferred AI move delivered texts %q media %v, want the move and the picture", texts, media)
	}
	img, err := png.Decode(bytes.NewReader(got.files["files[0]"]))
	if err != nil {
		t.Fatal(err)
	}
	recs, _ := st.Active(t.Context(), match.Key{Platform: Platform, Workspace: guildID, Channel: chanID})
	if len(recs) != 1 || recs[0].Game.Moves() != 2 {
		t.Fatalf("stored games %d, want one with the move and the AI's reply", len(recs))
	}
	want, _ := render.Image(recs[0].Game, render.ImageOptions{})
	if !adaptertest.SamePixels(img, want) {
		t.Fatal("the delivered PNG does not show the move and the AI's reply")
	}

	// Three more in column 4 win (the AI fills column 1): the edit, then
	// the replay.
	board = got.asResponse(t)
	for i := range 3 {
		f.clickV2("UA", board, "4")
		var calls []fakeCall
		adaptertest.WaitFor(t, "the edit", func() bool {
			calls = append(calls, f.fake.take()...)
			return len(calls) >= 1
		})
		if i == 2 {
			adaptertest.WaitFor(t, "the replay", func() bool {
				calls = append(calls, f.fake.take()...)
				return len(calls) >= 2
			})
			if calls[1].Method != "POST" || parseV2(t, calls[1]).fileNames["files[0]"] != replayFile {
				t.Fatalf("after the win: %s %s, want the replay follow-up", calls[1].Method, calls[1].Path)
			}
		}
		board = parseV2(t, calls[0]).asResponse(t)
	}

	// Rematch against the AI starts the new game at once on the same
	// message: deferred (6), then the message edited with its picture.
	r = f.clickV2("UA", board, "Rematch")
	if r.Type != typeDeferUpdate {
		t.Fatalf("Rematch answered with type %d, want 6", r.Type)
	}
	call = f.webhookCall(t)
	got = parseV2(t, call)
	if _, media := got.container(t); call.Method != "PATCH" || len(media) != 1 || got.fileNames["files[0]"] != boardFile {
		t.Fatalf("after Rematch: %s %s with media %v, want the message edited with the new game's picture", call.Method, call.Path, media)
	}
}

// TestPictureFollowUp checks a new message from a click (a public reply
// to a button): its picture goes in a follow-up (POST), the clicked
// message staying as it is.
func TestPictureFollowUp(t *testing.T) {
	f := newFixtureWith(t, storetest.NewMemory(t, sessions.Options{}), 0, func(c *Config) { c.Pictures = true })
	f.a.pictureBudget = 0 // no reply in time for its picture to go in the response: the deferred upload
	g, err := engine.New(engine.DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	r := bot.Reply{Visibility: bot.Public, Text: "A new game", Game: g, GameID: "g1",
		Red: match.Player{ID: "UA"}, Yellow: match.Player{ID: "UB"}}
	in := &discordgo.Interaction{AppID: appID, Token: "tok-x", ChannelID: chanID}
	if err := f.a.deliverPicture(t.Context(), f.a.rest, in, r, true); err != nil {
		t.Fatal(err)
	}
	calls := f.fake.take()
	if len(calls) != 1 || calls[0].Method != "POST" || calls[0].Path != "/api/v9/webhooks/"+appID+"/tok-x" {
		t.Fatalf("calls %+v, want one follow-up POST", calls)
	}
	if got := parseV2(t, calls[0]); got.fileNames["files[0]"] != boardFile || got.Flags != flagV2 {
		t.Fatalf("follow-up files %v flags %d", got.fileNames, got.Flags)
	}
}

// TestGatewayPictures checks pictures over the Gateway: the callback is a
// deferred update, then the message is edited with the PNG through the
// same REST route as over HTTP; a move on the Components V2 message
// (its flags come with the clicked message) does the same.
func TestGatewayPictures(t *testing.T) {
	f := newFixtureWith(t, sessionsMemory(), 0, func(c *Config) { c.Pictures = true })
	f.a.pictureBudget = 0 // no reply in time for its picture to go in the response: the deferred upload
	s := gatewaySession(t, f)
	in := f.slashIn("UA", "challenge", []map[string]any{opt("opponent", 6, "UB")}, userJSON("UB"))
	f.a.gatewayInteraction(t.Context(), s, gatewayEvent(t, in))
	c := callback(t, f.fake.take(), in["id"].(string), in["token"].(string))

	in = f.clickIn("UB", c.button(t, "Accept").CustomID)
	f.a.gatewayInteraction(t.Context(), s, gatewayEvent(t, in))
	var calls []fakeCall
	adaptertest.WaitFor(t, "the callback and the edit", func() bool {
		calls = append(calls, f.fake.take()...)
		return len(calls) >= 2
	})
	if r := callback(t, calls, in["id"].(string), in["token"].(string)); r.Type != typeDeferUpdate {
		t.Fatalf("Gateway accept answered with type %d, want 6", r.Type)
	}
	got := parseV2(t, calls[1])
	if calls[1].Method != "PATCH" || !strings.HasSuffix(calls[1].Path, "/webhooks/"+appID+"/"+in["token"].(string)+"/messages/@original") {
		t.Fatalf("second call %s %s, want the edit of the original message", calls[1].Method, calls[1].Path)
	}
	if _, err := png.Decode(bytes.NewReader(got.files["files[0]"])); err != nil || got.Flags != flagV2 {
		t.Fatalf("edit flags %d, files[0] %v", got.Flags, err)
	}

	board := got.asResponse(t)
	in = f.clickIn("UA", board.button(t, "4").CustomID)
	in["message"] = map[string]any{"id": "600000000000000001", "channel_id": chanID, "flags": flagV2}
	f.a.gatewayInteraction(t.Context(), s, gatewayEvent(t, in))
	calls = nil
	adaptertest.WaitFor(t, "the move's callback and edit", func() bool {
		calls = append(calls, f.fake.take()...)
		return len(calls) >= 2
	})
	texts, media := parseV2(t, calls[1]).container(t)
	if len(media) != 1 || !strings.Contains(strings.Join(texts, "\n"), "column 4") {
		t.Fatalf("Gateway move edit texts %q media %v", texts, media)
	}
}

// TestPictureUploadHangs checks a Discord that accepts the upload and
// never answers: the click is answered at once (the deferral), and the
// message is then edited with the emoji board within the delivery budget.
func TestPictureUploadHangs(t *testing.T) {
	t.Parallel() // it waits (its own servers, timers) and shares nothing
	f := newFixtureWith(t, storetest.NewMemory(t, sessions.Options{}), 0, func(c *Config) { c.Pictures = true })
	f.a.pictureBudget = 0 // no reply in time for its picture to go in the response: the deferred upload
	c := f.challenge("UA", "UB")
	f.fake.mu.Lock()
	f.fake.hangUploads = true
	f.fake.mu.Unlock()
	if m := f.click("UB", c, "Accept"); m.Type != typeDeferUpdate {
		t.Fatalf("accept answered with type %d, want 6 at once", m.Type)
	}
	var fallback v2Got
	adaptertest.WaitFor(t, "the emoji edit", func() bool {
		for _, c := range f.fake.take() {
			if c.Method == "PATCH" && strings.HasPrefix(c.ContentType, "application/json") {
				fallback = parseV2(t, c)
				return true
			}
		}
		return false
	})
	texts, media := fallback.container(t)
	if len(media) != 0 || !strings.Contains(strings.Join(texts, "\n"), "accepted") || !strings.Contains(strings.Join(texts, "\n"), "⚪") {
		t.Fatalf("after a hung upload: texts %q media %v, want the emoji board", texts, media)
	}
}

// TestSharedPainter: the adapter draws with the Painter of its Config,
// which keeps the canvas of the first picture it delivers.
func TestSharedPainter(t *testing.T) {
	p := render.NewPainter(0)
	st := storetest.NewMemory(t, sessions.Options{})
	f := newFixtureWith(t, st, 0, func(c *Config) { c.Pictures, c.Painter = true, p })
	f.a.pictureBudget = 0 // no reply in time for its picture to go in the response: the deferred upload
	if n := p.Size(); n != 0 {
		t.Fatalf("a new Painter keeps %d bytes, want 0", n)
	}
	c := f.challenge("UA", "UB")
	f.click("UB", c, "Accept")
	parseV2(t, f.webhookCall(t))
	if p.Size() == 0 {
		t.Fatal("the Painter of the Config keeps nothing after a picture was delivered; want its canvas")
	}
}
