package slack

import (
	"bytes"
	"encoding/json"
	"fmt"
	"image/gif"
	"image/png"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	slackapi "github.com/slack-go/slack"

	"github.com/connect4/connect4/bot/internal/adaptertest"
	"github.com/connect4/connect4/bot/internal/gallery"
	"github.com/connect4/connect4/bot/match"
	"github.com/connect4/connect4/engine"
	"github.com/connect4/connect4/render"
	"github.com/connect4/connect4/sessions"
	"github.com/connect4/connect4/sessions/storetest"
)

// fakeFiles is a local stand-in for Slack's Web API with the two-step
// upload: files.getUploadURLExternal hands out an upload URL on the same
// server, a POST there stores the bytes, files.completeUploadExternal
// finishes the file (shared in a channel and thread when asked). It also
// answers auth.test and users.info.
type fakeFiles struct {
	srv *httptest.Server

	mu       sync.Mutex
	n        int
	pending  map[string][]byte // file id → bytes uploaded, not yet completed
	done     map[string]upload // completed files
	order    []string          // completed ids, in order
	refuse   string            // an error every getUploadURLExternal answers, "" for none
	hang     bool              // the upload URL never answers
	getCalls int
}

// upload is a completed file.
type upload struct {
	name, alt       string
	data            []byte
	channel, thread string
	comment         string
}

func newFakeFiles(t *testing.T) *fakeFiles {
	f := &fakeFiles{pending: map[string][]byte{}, done: map[string]upload{}}
	names := map[string]string{}
	alts := map[string]string{}
	f.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		f.mu.Lock()
		defer f.mu.Unlock()
		switch {
		case r.URL.Path == "/auth.test":
			fmt.Fprintf(w, `{"ok":true,"user_id":%q,"user":"connect4","team_id":%q}`, botUserID, testTeam)
		case r.URL.Path == "/users.info":
			fmt.Fprintf(w, `{"ok":true,"user":{"id":%q,"name":"x"}}`, r.FormValue("user"))
		case r.URL.Path == "/files.getUploadURLExternal":
			f.getCalls++
			if f.refuse != "" {
				fmt.Fprintf(w, `{"ok":false,"error":%q}`, f.refuse)
				return
			}
			if r.FormValue("token") != testToken || r.FormValue("filename") == "" || r.FormValue("length") == "" {
				fmt.Fprint(w, `{"ok":false,"error":"invalid_arguments"}`)
				return
			}
			f.n++
			id := fmt.Sprintf("F%04d", f.n)
			names[id], alts[id] = r.FormValue("filename"), r.FormValue("alt_txt")
			f.pending[id] = nil
			fmt.Fprintf(w, `{"ok":true,"upload_url":%q,"file_id":%q}`, f.srv.URL+"/upload/"+id, id)
		case strings.HasPrefix(r.URL.Path, "/upload/"):
			if f.hang {
				f.mu.Unlock()
				io.Copy(io.Discard, r.Body) // then the server sees the client go
				<-r.Context().Done()
				f.mu.Lock()
				return
			}
			id := strings.TrimPrefix(r.URL.Path, "/upload/")
			file, _, err := r.FormFile("file")
			if _, ok := f.pending[id]; !ok || err != nil {
				http.Error(w, "bad upload", http.StatusBadRequest)
				return
			}
			f.pending[id], _ = io.ReadAll(file)
			w.Write([]byte("OK"))
		case r.URL.Path == "/files.completeUploadExternal":
			var files []slackapi.FileSummary
			if err := jsonUnmarshal(r.FormValue("files"), &files); err != nil || len(files) != 1 {
				fmt.Fprint(w, `{"ok":false,"error":"invalid_arguments"}`)
				return
			}
			id := files[0].ID
			data, ok := f.pending[id]
			if !ok || data == nil {
				fmt.Fprint(w, `{"ok":false,"error":"file_not_found"}`)
				return
			}
			delete(f.pending, id)
			f.done[id] = upload{name: names[id], alt: alts[id], data: data, channel: r.FormValue("channel_id"),
				thread: r.FormValue("thread_ts"), comment: r.FormValue("initial_comment")}
			f.order = append(f.order, id)
			fmt.Fprintf(w, `{"ok":true,"files":[{"id":%q}]}`, id)
		default:
			fmt.Fprint(w, `{"ok":false,"error":"unknown_method"}`)
		}
	}))
	t.Cleanup(f.srv.Close)
	return f
}

// imageBlock returns m's image block, or nil.
func imageBlock(m posted) *slackapi.ImageBlock {
	for _, b := range m.Blocks.BlockSet {
		if ib, ok := b.(*slackapi.ImageBlock); ok {
			return ib
		}
	}
	return nil
}

// TestPictureUpload plays a game on Slack with uploads: each board is an
// image block naming (slack_file) a file uploaded through the two-step
// upload, whose PNG shows the stored game, with alt text; the winning
// move's replay GIF is shared in the game's thread; and when Slack refuses
// the upload for the token's scopes the board is emoji again.
func TestPictureUpload(t *testing.T) {
	files := newFakeFiles(t)
	st := storetest.NewMemory(t, sessions.Options{})
	e := newEnv(t, st, Config{APIURL: files.srv.URL + "/", Pictures: true})
	key := match.Key{Platform: Platform, Workspace: testTeam, Channel: testChan}

	c := e.slash("UA", "<@UB>")
	m := e.click("UB", c, "Accept")
	check := func(m posted) {
		t.Helper()
		ib := imageBlock(m)
		if ib == nil || ib.SlackFile == nil || ib.ImageURL != "" {
			t.Fatalf("message %q has no image block with a slack_file (blocks %+v)", m.Text, m.Blocks.BlockSet)
		}
		if strings.Contains(sectionText(m), "⚪") || strings.Contains(sectionText(m), ":white_circle:") {
			t.Fatalf("the emoji board is still shown beside the picture: %q", sectionText(m))
		}
		files.mu.Lock()
		up, ok := files.done[ib.SlackFile.ID]
		files.mu.Unlock()
		if !ok || up.name != "board.png" || up.channel != "" {
			t.Fatalf("file %q: %+v, completed %v; want a completed board.png shared nowhere", ib.SlackFile.ID, up, ok)
		}
		if ib.AltText == "" || up.alt != ib.AltText {
			t.Fatalf("alt text %q, uploaded with %q", ib.AltText, up.alt)
		}
		img, err := png.Decode(bytes.NewReader(up.data))
		if err != nil {
			t.Fatalf("uploaded file is not a PNG: %v", err)
		}
		recs, _ := st.Active(t.Context(), key)
		if len(recs) == 0 {
			return // finished
		}
		wantImg, _ := render.Image(recs[0].Game, render.ImageOptions{})
		if !adaptertest.SamePixels(img, wantImg) {
			t.Fatal("the uploaded PNG does not show the stored game")
		}
	}
	check(m)
	// Red 1 2 1 2 1 2 1: red wins in column 1.
	players := []string{"UA", "UB"}
	for i, col := range []string{"1", "2", "1", "2", "1", "2", "1"} {
		m = e.click(players[i%2], m, col)
		check(m)
	}
	if !strings.Contains(m.Text, "wins") {
		t.Fatalf("last message %q, want the win", m.Text)
	}
	files.mu.Lock()
	last := files.done[files.order[len(files.order)-1]]
	files.mu.Unlock()
	if last.name != "replay.gif" || last.channel != testChan || last.thread == "" || !strings.Contains(last.comment, "wins") {
		t.Fatalf("last upload %q to channel %q thread %q comment %q; want the replay in the game's thread with the result", last.name, last.channel, last.thread, last.comment)
	}
	if strings.Contains(last.comment, "<@") {
		t.Fatalf("replay comment %q mentions someone: it would ping", last.comment)
	}
	anim, err := gif.DecodeAll(bytes.NewReader(last.data))
	if err != nil || len(anim.Image) != 8 {
		t.Fatalf("replay: %v, %d frames; want a GIF of 8 frames", err, len(anim.Image))
	}

	// A slash command that shows a board: acknowledged with an empty 200,
	// the board's picture posted to the command's response_url.
	c = e.slash("UC", "<@UD>")
	m = e.click("UD", c, "Accept")
	m = e.click("UC", m, "4")
	got := e.slashLater(t, "UC", "board")
	if len(got) != 1 || got[0].ResponseType != inChannel || imageBlock(got[0]) == nil || imageBlock(got[0]).SlackFile == nil {
		t.Fatalf("/connect4 board posted %+v, want one in-channel message with the picture", got)
	}

	// Slack refuses the picture (it could not use the file): the same
	// message with the emoji board, and no picture tried for a while.
	e.mu.Lock()
	e.refuseImages = true
	e.mu.Unlock()
	status, all := e.clickRaw(e.clickPayload("UD", button(m, "3").ActionID, button(m, "3").Value))
	if status != http.StatusOK || len(all) != 2 || imageBlock(all[0]) == nil || imageBlock(all[1]) != nil ||
		!strings.Contains(sectionText(all[1]), ":white_circle:") || !all[1].ReplaceOriginal {
		t.Fatalf("refused picture: status %d, posts %+v; want the picture, then the emoji board replacing the message", status, all)
	}
	m = all[1]
	files.mu.Lock()
	calls := files.getCalls
	files.mu.Unlock()
	m = e.click("UC", m, "3")
	if imageBlock(m) != nil {
		t.Fatal("a picture was tried again right after Slack refused one")
	}
	files.mu.Lock()
	if files.getCalls != calls {
		t.Errorf("uploads tried again right after a refused picture (%d calls, want %d)", files.getCalls, calls)
	}
	files.mu.Unlock()
	e.a.pics.off.clear()
	e.mu.Lock()
	e.refuseImages = false
	e.mu.Unlock()

	// No files:write: the emoji board, and no upload tried for a while.
	files.mu.Lock()
	files.refuse = "missing_scope"
	files.mu.Unlock()
	m = e.click("UD", m, "5")
	if imageBlock(m) != nil || !strings.Contains(sectionText(m), ":white_circle:") {
		t.Fatalf("after missing_scope: image %v, sections %q; want the emoji board", imageBlock(m), sectionText(m))
	}
	files.mu.Lock()
	calls = files.getCalls
	files.mu.Unlock()
	e.click("UC", m, "5")
	files.mu.Lock()
	defer files.mu.Unlock()
	if files.getCalls != calls {
		t.Fatalf("uploads tried again right after missing_scope (%d calls, want %d)", files.getCalls, calls)
	}
}

// TestPictureURL checks boards served by the bot: the image block's URL
// is under CONNECT4_PUBLIC_URL, serves the PNG of the stored game, and is
// refused when tampered with (404) or expired (410); a channel set to
// emoji gets the emoji board.
func TestPictureURL(t *testing.T) {
	st := storetest.NewMemory(t, sessions.Options{})
	e := newEnv(t, st, Config{Pictures: true, PublicURL: "https://c4.example.com/base"})
	now := time.Now()
	var mu sync.Mutex
	e.a.pics.now = func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	mux := http.NewServeMux()
	e.a.Register(mux)

	c := e.slash("UA", "<@UB>")
	m := e.click("UB", c, "Accept")
	m = e.click("UA", m, "4")
	ib := imageBlock(m)
	const prefix = "https://c4.example.com/base/boards/"
	if ib == nil || !strings.HasPrefix(ib.ImageURL, prefix) || !strings.HasSuffix(ib.ImageURL, ".png") || ib.AltText == "" {
		t.Fatalf("image block %+v, want a signed URL under %s with alt text", ib, prefix)
	}
	get := func(path string) *httptest.ResponseRecorder {
		w := httptest.NewRecorder()
		mux.ServeHTTP(w, httptest.NewRequestWithContext(t.Context(), http.MethodGet, path, nil))
		return w
	}
	path := "/boards/" + strings.TrimPrefix(ib.ImageURL, prefix)
	w := get(path)
	if w.Code != http.StatusOK || w.Header().Get("Content-Type") != "image/png" {
		t.Fatalf("GET %s = %d %s", path, w.Code, w.Header().Get("Content-Type"))
	}
	first := bytes.Clone(w.Body.Bytes())
	img, err := png.Decode(bytes.NewReader(first))
	if err != nil {
		t.Fatal(err)
	}
	recs, _ := st.Active(t.Context(), match.Key{Platform: Platform, Workspace: testTeam, Channel: testChan})
	wantImg, _ := render.Image(recs[0].Game, render.ImageOptions{})
	if !adaptertest.SamePixels(img, wantImg) {
		t.Fatal("the served PNG does not show the stored game")
	}
	if w2 := get(path); w2.Code != http.StatusOK || !bytes.Equal(w2.Body.Bytes(), first) {
		t.Fatalf("second GET = %d, or other bytes", w2.Code)
	}

	tok := strings.TrimSuffix(strings.TrimPrefix(path, "/boards/"), ".png")
	parts := strings.Split(tok, ".")
	flip := func(s string) string {
		b := []byte(s)
		if b[len(b)/2] == 'A' {
			b[len(b)/2] = 'B'
		} else {
			b[len(b)/2] = 'A'
		}
		return string(b)
	}
	for name, p := range map[string]string{
		"payload":   "/boards/" + flip(parts[0]) + "." + parts[1] + ".png",
		"signature": "/boards/" + parts[0] + "." + flip(parts[1]) + ".png",
		"kind":      "/boards/" + parts[0] + "." + parts[1] + ".gif",
		"garbage":   "/boards/hello.png",
	} {
		if w := get(p); w.Code != http.StatusNotFound {
			t.Errorf("tampered %s: GET = %d, want 404", name, w.Code)
		}
	}
	other, err := New(e.a.svc, Config{SigningSecret: "another-secret", Pictures: true, PublicURL: "https://c4.example.com/"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	otherMux := http.NewServeMux()
	other.Register(otherMux)
	w = httptest.NewRecorder()
	otherMux.ServeHTTP(w, httptest.NewRequestWithContext(t.Context(), http.MethodGet, path, nil))
	if w.Code != http.StatusNotFound {
		t.Errorf("a URL signed with another secret: GET = %d, want 404", w.Code)
	}

	// The record moves on (as after a takeback and another move): the
	// old URL no longer names what is stored, even at the same move.
	k := match.Key{Platform: Platform, Workspace: testTeam, Channel: testChan}
	if _, err := st.Update(t.Context(), k, recs[0].ID, func(r *match.Record) (match.Tally, error) {
		g, err := engine.New(r.Game.Config())
		if err != nil {
			return match.Tally{}, err
		}
		r.Game = g
		return match.Tally{}, g.Play(g.Turn(), 0)
	}); err != nil {
		t.Fatal(err)
	}
	e.a.pics.gallery = gallery.New(galleryBytes, 1, galleryQueue) // another replica, which has not drawn it
	if w := get(path); w.Code != http.StatusNotFound {
		t.Fatalf("URL of a board the record no longer holds: GET = %d, want 404", w.Code)
	}
	if _, err := st.Update(t.Context(), k, recs[0].ID, func(r *match.Record) (match.Tally, error) {
		r.Game = recs[0].Game
		return match.Tally{}, nil
	}); err != nil {
		t.Fatal(err)
	}

	mu.Lock()
	now = now.Add(DefaultImageTTL + time.Second)
	mu.Unlock()
	if w := get(path); w.Code != http.StatusGone {
		t.Fatalf("expired URL: GET = %d, want 410", w.Code)
	}

	// A channel that chose emoji (a workspace admin may choose).
	wantPosted(t, e.slash("UB", "settings board emoji"), ephemeral, false, "Only people who can manage this channel")
	wantPosted(t, e.slash(adminID, "settings board emoji"), inChannel, false, "changed this channel's boards: emoji")
	m = e.click("UB", m, "3")
	if imageBlock(m) != nil || !strings.Contains(sectionText(m), ":white_circle:") {
		t.Fatalf("emoji channel: image %v, sections %q", imageBlock(m), sectionText(m))
	}
}

func jsonUnmarshal(s string, v any) error { return json.Unmarshal([]byte(s), v) }

// slashLater runs "/connect4 text" as user with a response_url on the
// fake, checks that it is acknowledged with an empty 200, and returns what
// the response_url received once the background work is done.
func (e *env) slashLater(t *testing.T, user, text string) []posted {
	t.Helper()
	form, _ := url.ParseQuery(string(commandBody(user, text)))
	form.Set("response_url", e.hooks.URL+"/commands/1")
	e.mu.Lock()
	before := len(e.received)
	e.mu.Unlock()
	resp := e.post("/slack/commands", []byte(form.Encode()))
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK || len(body) != 0 {
		t.Fatalf("/connect4 %s: status %d body %q, want an empty 200", text, resp.StatusCode, body)
	}
	e.wait()
	e.mu.Lock()
	defer e.mu.Unlock()
	var got []posted
	for _, p := range e.received[before:] {
		if p.Path == "/commands/1" {
			got = append(got, p)
		}
	}
	return got
}

// TestPictureUploadHangs checks an upload URL that never answers: the
// click's reply still reaches the response_url, with the emoji board, once
// the upload's budget is spent.
func TestPictureUploadHangs(t *testing.T) {
	t.Parallel() // it waits on timeouts
	files := newFakeFiles(t)
	e := newEnv(t, storetest.NewMemory(t, sessions.Options{}), Config{APIURL: files.srv.URL + "/", Pictures: true})
	c := e.slash("UA", "<@UB>")
	files.mu.Lock()
	files.hang = true
	files.mu.Unlock()
	m := e.click("UB", c, "Accept")
	if imageBlock(m) != nil || !strings.Contains(sectionText(m), ":white_circle:") || !strings.Contains(m.Text, "accepted") {
		t.Fatalf("after a hung upload: %+v, want the emoji board", m)
	}
	if !strings.Contains(e.logs.String(), "slack board upload failed") {
		t.Fatal("the hung upload was not logged")
	}
}
