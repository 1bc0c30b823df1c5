package discord

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"image/png"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/connect4/connect4/bot"
	"github.com/connect4/connect4/bot/lang"
	"github.com/connect4/connect4/bot/match"
	"github.com/connect4/connect4/engine"
	"github.com/connect4/connect4/render"
)

// emojiFake is a local Discord holding an application's emojis: list,
// create and delete, as /applications/{id}/emojis answers them, and the
// commands' PUT. It records every request.
type emojiFake struct {
	srv    *httptest.Server
	mu     sync.Mutex
	emojis []appEmoji
	next   int
	calls  []fakeCall
}

func newEmojiFake(t *testing.T, emojis ...appEmoji) *emojiFake {
	f := &emojiFake{emojis: emojis, next: 1}
	f.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		f.mu.Lock()
		defer f.mu.Unlock()
		f.calls = append(f.calls, fakeCall{Method: r.Method, Path: r.URL.Path, ContentType: r.Header.Get("Content-Type"), Body: body})
		w.Header().Set("Content-Type", "application/json")
		const list = "/api/v9/applications/" + appID + "/emojis"
		switch {
		case r.Header.Get("Authorization") != "Bot tok":
			w.WriteHeader(http.StatusUnauthorized)
			io.WriteString(w, `{"message":"401: Unauthorized","code":0}`)
		case r.Method == http.MethodGet && r.URL.Path == list:
			items := []map[string]any{}
			for _, e := range f.emojis {
				items = append(items, map[string]any{"id": e.ID, "name": e.Name, "roles": []any{}, "require_colons": true,
					"managed": false, "animated": false, "available": true})
			}
			json.NewEncoder(w).Encode(map[string]any{"items": items})
		case r.Method == http.MethodPost && r.URL.Path == list:
			var in struct{ Name string }
			json.Unmarshal(body, &in)
			e := appEmoji{ID: fmt.Sprintf("40000000000000%04d", f.next), Name: in.Name}
			f.next++
			f.emojis = append(f.emojis, e)
			json.NewEncoder(w).Encode(map[string]any{"id": e.ID, "name": e.Name})
		case r.Method == http.MethodDelete && strings.HasPrefix(r.URL.Path, list+"/"):
			id := strings.TrimPrefix(r.URL.Path, list+"/")
			f.emojis = slices.DeleteFunc(f.emojis, func(e appEmoji) bool { return e.ID == id })
			w.WriteHeader(http.StatusNoContent)
		case r.Method == http.MethodPut && strings.HasSuffix(r.URL.Path, "/commands"):
			w.Write(body)
		default:
			w.WriteHeader(http.StatusNotFound)
			io.WriteString(w, `{"message":"Unknown route","code":0}`)
		}
	}))
	t.Cleanup(f.srv.Close)
	return f
}

func (f *emojiFake) take() []fakeCall {
	f.mu.Lock()
	defer f.mu.Unlock()
	c := f.calls
	f.calls = nil
	return c
}

// TestRegisterEmoji: the first run uploads every disc emoji of both
// palettes, each body valid against Discord's OpenAPI spec with a PNG of
// the picture render draws; a second run uploads nothing; an older picture
// of one emoji is replaced (deleted, then uploaded), and the app's other
// emojis are left alone.
func TestRegisterEmoji(t *testing.T) {
	spec := loadOpenAPI(t)
	schema := spec.requestSchema(t, "POST", "/applications/{application_id}/emojis")
	other := appEmoji{ID: "499999999999999999", Name: "party"}
	stale := appEmoji{ID: "499999999999999998", Name: "c4_red_000000"}
	f := newEmojiFake(t, other, stale)
	want := 2 * len(render.Emojis())

	rep, err := RegisterEmoji(t.Context(), nil, f.srv.URL, "tok", appID)
	if err != nil {
		t.Fatal(err)
	}
	if rep != (EmojiReport{Uploaded: want, Replaced: 1}) {
		t.Fatalf("first run: %+v, want %d uploaded and the stale one replaced", rep, want)
	}
	posts := 0
	for _, c := range f.take() {
		switch c.Method {
		case http.MethodPost:
			posts++
			var v any
			if err := json.Unmarshal(c.Body, &v); err != nil {
				t.Fatal(err)
			}
			for _, e := range spec.validate(schema, v, "body") {
				t.Error(e)
			}
			var in struct{ Name, Image string }
			json.Unmarshal(c.Body, &in)
			b64, ok := strings.CutPrefix(in.Image, "data:image/png;base64,")
			raw, err := base64.StdEncoding.DecodeString(b64)
			if !ok || err != nil {
				t.Fatalf("%s: image is not a base64 PNG data URI", in.Name)
			}
			if _, err := png.Decode(bytes.NewReader(raw)); err != nil || len(raw) > 256<<10 {
				t.Fatalf("%s: %d bytes, %v; want a PNG under 256 KiB", in.Name, len(raw), err)
			}
		case http.MethodDelete:
			if !strings.HasSuffix(c.Path, "/"+stale.ID) {
				t.Fatalf("deleted %s, want only the stale emoji", c.Path)
			}
		}
	}
	if posts != want {
		t.Fatalf("%d uploads, want %d", posts, want)
	}

	rep, err = RegisterEmoji(t.Context(), nil, f.srv.URL, "tok", appID)
	if err != nil {
		t.Fatal(err)
	}
	if rep != (EmojiReport{Kept: want}) {
		t.Fatalf("second run: %+v, want all %d kept", rep, want)
	}
	for _, c := range f.take() {
		if c.Method != http.MethodGet {
			t.Fatalf("second run sent %s %s; want only the list", c.Method, c.Path)
		}
	}
	f.mu.Lock()
	kept := slices.Contains(f.emojis, other)
	f.mu.Unlock()
	if !kept {
		t.Fatal("the app's own other emoji was removed")
	}

	if _, err := RegisterEmoji(t.Context(), nil, f.srv.URL, "bad", appID); err == nil || !strings.Contains(err.Error(), "HTTP 401") {
		t.Fatalf("refused token: %v, want the 401", err)
	}
}

// TestRegisterUserInstall: the command is registered for both
// installation types and the three interaction contexts, and the body
// validates against Discord's OpenAPI spec.
func TestRegisterUserInstall(t *testing.T) {
	spec := loadOpenAPI(t)
	f := newEmojiFake(t)
	if err := RegisterCommands(t.Context(), nil, f.srv.URL, "tok", appID, ""); err != nil {
		t.Fatal(err)
	}
	calls := f.take()
	if len(calls) != 1 || calls[0].Method != http.MethodPut {
		t.Fatalf("calls %v, want one PUT", calls)
	}
	var v any
	json.Unmarshal(calls[0].Body, &v)
	for _, e := range spec.validate(spec.requestSchema(t, "PUT", "/applications/{application_id}/commands"), v, "body") {
		t.Error(e)
	}
	var cmds []struct {
		IntegrationTypes []int `json:"integration_types"`
		Contexts         []int `json:"contexts"`
	}
	if err := json.Unmarshal(calls[0].Body, &cmds); err != nil || len(cmds) != 1 {
		t.Fatalf("body %s: %v", calls[0].Body, err)
	}
	if !slices.Equal(cmds[0].IntegrationTypes, []int{0, 1}) || !slices.Equal(cmds[0].Contexts, []int{0, 1, 2}) {
		t.Fatalf("integration_types %v contexts %v, want [0 1] and [0 1 2]", cmds[0].IntegrationTypes, cmds[0].Contexts)
	}
}

// TestEmojiBoards: once the server has listed the uploaded emoji, the
// emoji boards draw the discs as <:name:id> in the channel's palette
// (colour-blind included); before, or with one emoji missing, the Unicode
// discs; and a board too long for a message with them falls back to
// Unicode rather than to words.
func TestEmojiBoards(t *testing.T) {
	f := newEmojiFake(t)
	if _, err := RegisterEmoji(t.Context(), nil, f.srv.URL, "tok", appID); err != nil {
		t.Fatal(err)
	}
	svc := bot.New(sessionsMemory(), bot.Options{})
	a, err := New(svc, Config{BotToken: "tok", ApplicationID: appID, APIURL: f.srv.URL}, nil)
	if err != nil {
		t.Fatal(err)
	}
	g, _ := engine.New(engine.DefaultConfig())
	g.Play(engine.Red, 3)
	r := bot.Reply{Visibility: bot.Update, Text: "move", Game: g, GameID: "g1",
		Red: match.Player{ID: "UA"}, Yellow: match.Player{ID: "UB"}, Lang: lang.English}
	if content, _ := layoutIn(r, a.palettes(r)...); !strings.Contains(content, "🔴") || strings.Contains(content, "<:") {
		t.Fatalf("before LoadEmoji: %q, want Unicode discs", content)
	}
	n, err := a.LoadEmoji(t.Context())
	if err != nil || n != 2 {
		t.Fatalf("LoadEmoji: %d, %v; want both palettes", n, err)
	}
	f.mu.Lock()
	ids := map[string]string{}
	for _, e := range f.emojis {
		base, _ := baseOf(e.Name)
		ids[base] = "<:" + e.Name + ":" + e.ID + ">"
	}
	f.mu.Unlock()
	for _, tc := range []struct {
		palette match.Palette
		red     string
	}{{match.PaletteDefault, ids["c4_red"]}, {match.PaletteColourBlind, ids["c4cb_red"]}} {
		r.Look.Palette = tc.palette
		content, _ := layoutIn(r, a.palettes(r)...)
		if tc.red == "" || !strings.Contains(content, tc.red) || strings.Contains(content, "🔴") {
			t.Fatalf("palette %v: %q, want %s", tc.palette, content, tc.red)
		}
	}
	r.Look.Palette = match.PaletteDefault
	big, _ := engine.New(engine.Config{Rows: 10, Cols: 10, Connect: 4})
	wide := r
	wide.Game = big
	if content, _ := layoutIn(wide, a.palettes(wide)...); !strings.Contains(content, "⚪") {
		t.Fatalf("10×10: %q, want the Unicode board", content)
	}

	// One emoji of the standard set missing: that palette is Unicode.
	f.mu.Lock()
	f.emojis = slices.DeleteFunc(f.emojis, func(e appEmoji) bool { return strings.HasPrefix(e.Name, "c4_empty_") })
	f.mu.Unlock()
	if n, err := a.LoadEmoji(t.Context()); err != nil || n != 1 {
		t.Fatalf("LoadEmoji with one missing: %d, %v; want the colour-blind palette only", n, err)
	}
	if content, _ := layoutIn(r, a.palettes(r)...); strings.Contains(content, "<:") {
		t.Fatalf("incomplete set: %q, want Unicode", content)
	}
}
