package discord

import (
	"bytes"
	"context"
	"encoding/json"
	"image/gif"
	"image/png"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/connect4/connect4/bot"
	"github.com/connect4/connect4/bot/internal/adaptertest"
	"github.com/connect4/connect4/bot/match"
	"github.com/connect4/connect4/render"
	"github.com/connect4/connect4/sessions"
	"github.com/connect4/connect4/sessions/storetest"
)

// pngSignature opens every PNG file.
var pngSignature = []byte("\x89PNG\r\n\x1a\n")

// sendRaw posts the interaction in, signed, and returns the HTTP answer
// as it came.
func (f *fixture) sendRaw(in map[string]any) *httptest.ResponseRecorder {
	f.t.Helper()
	body, err := json.Marshal(in)
	if err != nil {
		f.t.Fatal(err)
	}
	w := f.do(body, sign(f.priv, strconv.FormatInt(time.Now().Unix(), 10), body))
	if w.Code != http.StatusOK {
		f.t.Fatalf("POST %s = %d %q, want 200", body, w.Code, w.Body.String())
	}
	return w
}

// pictureAnswer decodes an HTTP answer that carries a picture: a multipart
// body whose payload_json is {"type":..., "data": message}. It returns the
// response type and the message with its files.
func pictureAnswer(t *testing.T, w *httptest.ResponseRecorder) (int, v2Got) {
	t.Helper()
	return pictureResponseOf(t, fakeCall{Method: "answer", Path: InteractionsPath, ContentType: w.Header().Get("Content-Type"), Body: w.Body.Bytes()})
}

// pictureResponseOf is pictureAnswer for a response sent as c, the answer
// to an HTTP interaction or a call to the interaction callback.
func pictureResponseOf(t *testing.T, c fakeCall) (int, v2Got) {
	t.Helper()
	outer := parseV2(t, c)
	if outer.files == nil {
		t.Fatalf("response of Content-Type %q is not multipart: %.300s", c.ContentType, c.Body)
	}
	var env struct {
		Type int             `json:"type"`
		Data json.RawMessage `json:"data"`
	}
	if err := json.Unmarshal(outer.raw, &env); err != nil || env.Data == nil {
		t.Fatalf("payload_json %s: want {\"type\":...,\"data\":...} (%v)", outer.raw, err)
	}
	got := parseV2(t, fakeCall{Method: "answer", Path: InteractionsPath, ContentType: "application/json", Body: env.Data})
	got.files, got.fileNames = outer.files, outer.fileNames
	return env.Type, got
}

// clickV2In is a click on label of the Components V2 message m as userID.
func (f *fixture) clickV2In(userID string, m gotResponse, label string) map[string]any {
	in := f.clickIn(userID, m.button(f.t, label).CustomID)
	in["message"] = map[string]any{"id": "600000000000000001", "channel_id": chanID, "flags": flagV2}
	return in
}

// checkPicture checks that got is the Components V2 message of a board
// whose picture, files[0], is the PNG of the game stored for the channel
// (when one is still active) and whose texts hold wantText.
func checkPicture(t *testing.T, st bot.Store, got v2Got, wantText string) {
	t.Helper()
	if got.Flags != flagV2 {
		t.Fatalf("flags %d, want Components V2 (%d)", got.Flags, flagV2)
	}
	texts, media := got.container(t)
	if len(media) != 1 || media[0] != "attachment://board.png" {
		t.Fatalf("media %v, want attachment://board.png", media)
	}
	if !strings.Contains(strings.Join(texts, "\n"), wantText) {
		t.Fatalf("texts %q do not contain %q", texts, wantText)
	}
	if len(got.Attachments) != 1 || got.Attachments[0].ID != 0 || got.Attachments[0].Filename != "board.png" ||
		got.fileNames["files[0]"] != "board.png" || len(got.files) != 1 {
		t.Fatalf("attachments %+v, files %v; want board.png as files[0] alone", got.Attachments, got.fileNames)
	}
	pic := got.files["files[0]"]
	if !bytes.HasPrefix(pic, pngSignature) {
		t.Fatalf("files[0] starts % x, want the PNG signature", pic[:min(len(pic), 8)])
	}
	img, err := png.Decode(bytes.NewReader(pic))
	if err != nil {
		t.Fatalf("files[0] is not a PNG: %v", err)
	}
	recs, err := st.Active(t.Context(), match.Key{Platform: Platform, Workspace: guildID, Channel: chanID})
	if err != nil || len(recs) == 0 {
		return // the game is over: it is no longer active
	}
	wantImg, err := render.Image(recs[0].Game, render.ImageOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if !adaptertest.SamePixels(img, wantImg) {
		t.Fatal("the PNG does not show the stored game")
	}
}

// webhookCalls returns the calls of the fake to the interaction webhook
// since the last take.
func webhookCalls(f *fixture) []fakeCall {
	var hooks []fakeCall
	for _, c := range f.fake.take() {
		if strings.Contains(c.Path, "/webhooks/") {
			hooks = append(hooks, c)
		}
	}
	return hooks
}

// TestPictureInPlace plays a game with pictures over HTTP, each reply
// ready in time: the accept and every move are answered in place (type
// 7) with the board's PNG in the multipart answer itself, and no call to
// the interaction webhook follows, except, after the winning move, the
// follow-up with the replay.
func TestPictureInPlace(t *testing.T) {
	st := storetest.NewMemory(t, sessions.Options{})
	f := newFixtureWith(t, st, 0, func(c *Config) { c.Pictures = true })
	f.a.pictureBudget = time.Minute // every reply in time, however slow the machine

	c := f.challenge("UA", "UB")
	typ, got := pictureAnswer(t, f.sendRaw(f.clickIn("UB", c.button(t, "Accept").CustomID)))
	if typ != typeUpdate {
		t.Fatalf("accept answered with type %d, want an update in place (7)", typ)
	}
	if !bytes.Contains(got.raw, []byte(`"content":null`)) {
		t.Fatalf("payload %s does not clear the challenge's content, as an upgrade to Components V2 must", got.raw)
	}
	checkPicture(t, st, got, "<@UB> accepted!")
	board := got.asResponse(t)

	players := []string{"UA", "UB"}
	for i, col := range []string{"1", "2", "1", "2", "1", "2"} {
		typ, got := pictureAnswer(t, f.sendRaw(f.clickV2In(players[i%2], board, col)))
		if typ != typeUpdate {
			t.Fatalf("move %d answered with type %d, want 7", i+1, typ)
		}
		checkPicture(t, st, got, "dropped a disc in column "+col)
		board = got.asResponse(t)
	}
	if err := f.a.work.Wait(t.Context()); err != nil {
		t.Fatal(err)
	}
	if hooks := webhookCalls(f); len(hooks) != 0 {
		t.Fatalf("moves answered in place, yet %d webhook calls followed: %s %s", len(hooks), hooks[0].Method, hooks[0].Path)
	}

	// Red's fourth disc in column 1 wins: answered in place, then the
	// replay comes as a follow-up.
	typ, got = pictureAnswer(t, f.sendRaw(f.clickV2In("UA", board, "1")))
	if typ != typeUpdate {
		t.Fatalf("winning move answered with type %d, want 7", typ)
	}
	checkPicture(t, st, got, "<@UA> wins!")
	var hooks []fakeCall
	adaptertest.WaitFor(t, "the replay", func() bool {
		hooks = append(hooks, webhookCalls(f)...)
		return len(hooks) >= 1
	})
	if len(hooks) != 1 || hooks[0].Method != "POST" || !strings.HasSuffix(hooks[0].Path, "/webhooks/"+appID+"/tok-"+lastToken(f)) {
		t.Fatalf("webhook calls after the winning move %+v, want the replay's follow-up POST alone", hooks)
	}
	replay := parseV2(t, hooks[0])
	anim, err := gif.DecodeAll(bytes.NewReader(replay.files["files[0]"]))
	if err != nil || replay.fileNames["files[0]"] != "replay.gif" {
		t.Fatalf("replay %v: %v", replay.fileNames, err)
	}
	if moves := 7; len(anim.Image) != moves+1 {
		t.Fatalf("replay has %d frames, want %d", len(anim.Image), moves+1)
	}
}

// slowWrites is a store whose every Update takes at least delay.
type slowWrites struct {
	bot.Store
	delay time.Duration
}

func (s slowWrites) Update(ctx context.Context, k match.Key, gameID string, fn func(r *match.Record) (match.Tally, error)) (*match.Record, error) {
	select {
	case <-time.After(s.delay):
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	return s.Store.Update(ctx, k, gameID, fn)
}

// TestPictureSlowStore: when the store's write outlasts the picture's
// budget, a click is answered as before a picture could go in the
// response: a deferred update (type 6) as JSON, then the edit of the
// message with the PNG through the interaction webhook.
func TestPictureSlowStore(t *testing.T) {
	t.Parallel() // it waits on the slow store
	mem := storetest.NewMemory(t, sessions.Options{})
	st := slowWrites{Store: mem, delay: 200 * time.Millisecond}
	f := newFixtureWith(t, st, 0, func(c *Config) { c.Pictures = true })
	f.a.pictureBudget = 50 * time.Millisecond // shorter than every write

	c := f.challenge("UA", "UB")
	if r := f.click("UB", c, "Accept"); r.Type != typeDeferUpdate {
		t.Fatalf("accept with a slow store answered with type %d, want a deferred update (6)", r.Type)
	}
	call := f.webhookCall(t)
	if call.Method != "PATCH" || !strings.HasSuffix(call.Path, "/messages/@original") {
		t.Fatalf("call %s %s, want PATCH of the original message", call.Method, call.Path)
	}
	got := parseV2(t, call)
	checkPicture(t, mem, got, "<@UB> accepted!")

	if r := f.clickV2(("UA"), got.asResponse(t), "4"); r.Type != typeDeferUpdate {
		t.Fatalf("move with a slow store answered with type %d, want 6", r.Type)
	}
	checkPicture(t, mem, parseV2(t, f.webhookCall(t)), "dropped a disc in column 4")
}

// TestGatewayPictureInPlace: over the Gateway, a click whose reply is
// ready in time is answered with the picture in the interaction callback
// itself (a multipart POST of type 7), and nothing follows it.
func TestGatewayPictureInPlace(t *testing.T) {
	st := sessionsMemory()
	f := newFixtureWith(t, st, 0, func(c *Config) { c.Pictures = true })
	f.a.pictureBudget = time.Minute
	s := gatewaySession(t, f)
	in := f.slashIn("UA", "challenge", []map[string]any{opt("opponent", 6, "UB")}, userJSON("UB"))
	f.a.gatewayInteraction(t.Context(), s, gatewayEvent(t, in))
	c := callback(t, f.fake.take(), in["id"].(string), in["token"].(string))

	in = f.clickIn("UB", c.button(t, "Accept").CustomID)
	f.a.gatewayInteraction(t.Context(), s, gatewayEvent(t, in))
	if err := f.a.work.Wait(t.Context()); err != nil {
		t.Fatal(err)
	}
	calls := f.fake.take()
	wantPath := "/api/v9/interactions/" + in["id"].(string) + "/" + in["token"].(string) + "/callback"
	if len(calls) != 1 || calls[0].Method != "POST" || calls[0].Path != wantPath {
		t.Fatalf("REST calls %+v, want the callback POST %s alone", calls, wantPath)
	}
	typ, got := pictureResponseOf(t, calls[0])
	if typ != typeUpdate {
		t.Fatalf("Gateway accept answered with type %d, want 7", typ)
	}
	checkPicture(t, st, got, "<@UB> accepted!")
}
