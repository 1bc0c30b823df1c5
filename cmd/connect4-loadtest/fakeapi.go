package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"strings"
	"sync"

	"github.com/connect4/connect4/bot/discord/discordtest"
)

// fakeAPI is the part of Discord's REST API that connect4 serve calls to
// deliver a picture, served by the load test with -pictures: the
// interaction webhook's edits (PATCH .../webhooks/{app}/{token}/messages/@original)
// and follow-ups (POST .../webhooks/{app}/{token}), multipart with
// payload_json and a file, or JSON alone. It reads each message's game from
// its buttons, checks that a file is a PNG or a GIF, and hands the message
// to the game waiting on its interaction token. Anything else it answers
// with a message id and counts. It is safe for concurrent use.
type fakeAPI struct {
	mu      sync.Mutex
	waiting map[string]chan delivery // by interaction token
	stats   apiStats
}

// delivery is one message the server sent through the webhook.
type delivery struct {
	msg  discordtest.Message
	file string // the uploaded file's name, or ""
}

// apiStats count what the fake API received.
type apiStats struct {
	Edits, FollowUps int   // webhook PATCHes and POSTs
	Pictures, Bytes  int64 // PNGs uploaded, and their bytes
	Replays, GIFs    int64 // GIFs uploaded, and their bytes
	Other            int   // requests of any other kind
	Bad              int   // bodies that did not decode, files that were not the format they claim
}

// minus returns the counts of s since before.
func (s apiStats) minus(before apiStats) apiStats {
	return apiStats{Edits: s.Edits - before.Edits, FollowUps: s.FollowUps - before.FollowUps,
		Pictures: s.Pictures - before.Pictures, Bytes: s.Bytes - before.Bytes,
		Replays: s.Replays - before.Replays, GIFs: s.GIFs - before.GIFs,
		Other: s.Other - before.Other, Bad: s.Bad - before.Bad}
}

func newFakeAPI() *fakeAPI { return &fakeAPI{waiting: map[string]chan delivery{}} }

// expect returns the channel the messages sent for token arrive on, until
// forget.
func (f *fakeAPI) expect(token string) chan delivery {
	ch := make(chan delivery, 4)
	f.mu.Lock()
	f.waiting[token] = ch
	f.mu.Unlock()
	return ch
}

// forget stops handing token's messages to a game.
func (f *fakeAPI) forget(token string) {
	f.mu.Lock()
	delete(f.waiting, token)
	f.mu.Unlock()
}

// answered counts a picture that came in the answer to an interaction
// rather than through the API, of n bytes, or a bad one.
func (f *fakeAPI) answered(n int, bad bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if bad {
		f.stats.Bad++
		return
	}
	f.stats.Pictures++
	f.stats.Bytes += int64(n)
}

// snapshot returns the counts so far.
func (f *fakeAPI) snapshot() apiStats {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.stats
}

// maxUpload is the largest body read: Discord's own limit for a bot
// without boosts.
const maxUpload = 10 << 20

func (f *fakeAPI) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	token, edit, ok := webhookToken(r.URL.Path)
	if !ok || (r.Method != http.MethodPatch && r.Method != http.MethodPost) {
		f.mu.Lock()
		f.stats.Other++
		f.mu.Unlock()
		fmt.Fprint(w, `{"id":"1","channel_id":"1"}`)
		return
	}
	d, pic, err := readDelivery(r)
	f.mu.Lock()
	if edit {
		f.stats.Edits++
	} else {
		f.stats.FollowUps++
	}
	switch {
	case err != nil:
		f.stats.Bad++
	case strings.HasSuffix(d.file, ".png"):
		f.stats.Pictures++
		f.stats.Bytes += int64(len(pic))
	case strings.HasSuffix(d.file, ".gif"):
		f.stats.Replays++
		f.stats.GIFs += int64(len(pic))
	}
	ch := f.waiting[token]
	f.mu.Unlock()
	if err != nil {
		http.Error(w, `{"message":"`+err.Error()+`","code":50035}`, http.StatusBadRequest)
		return
	}
	if ch != nil {
		select {
		case ch <- d:
		default: // nobody reads more than a few messages of one interaction
		}
	}
	fmt.Fprint(w, `{"id":"1","channel_id":"1"}`)
}

// webhookToken returns the interaction token of a webhook path, with or
// without /api/vN before it, and whether it edits the original message.
func webhookToken(path string) (token string, edit, ok bool) {
	_, rest, found := strings.Cut(path, "/webhooks/")
	if !found {
		return "", false, false
	}
	parts := strings.Split(rest, "/")
	switch {
	case len(parts) == 2:
		return parts[1], false, true
	case len(parts) == 4 && parts[2] == "messages":
		return parts[1], true, true
	}
	return "", false, false
}

// readDelivery decodes a webhook body: JSON, or multipart with
// payload_json and at most one file, which must be the PNG or GIF its name
// says.
func readDelivery(r *http.Request) (delivery, []byte, error) {
	var d delivery
	body := io.LimitReader(r.Body, maxUpload)
	mt, params, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if err != nil || mt != "multipart/form-data" {
		err := json.NewDecoder(body).Decode(&d.msg)
		return d, nil, err
	}
	mr := multipart.NewReader(body, params["boundary"])
	var pic []byte
	for {
		p, err := mr.NextPart()
		if err == io.EOF {
			break
		}
		if err != nil {
			return d, nil, fmt.Errorf("multipart: %w", err)
		}
		b, err := io.ReadAll(p)
		if err != nil {
			return d, nil, fmt.Errorf("multipart part %s: %w", p.FormName(), err)
		}
		switch {
		case p.FormName() == "payload_json":
			if err := json.Unmarshal(b, &d.msg); err != nil {
				return d, nil, fmt.Errorf("payload_json: %w", err)
			}
		case p.FileName() != "":
			d.file, pic = p.FileName(), b
		}
	}
	switch {
	case strings.HasSuffix(d.file, ".png") && !bytes.HasPrefix(pic, []byte("\x89PNG\r\n\x1a\n")):
		return d, nil, fmt.Errorf("%s is not a PNG", d.file)
	case strings.HasSuffix(d.file, ".gif") && !bytes.HasPrefix(pic, []byte("GIF89a")):
		return d, nil, fmt.Errorf("%s is not a GIF", d.file)
	}
	return d, pic, nil
}
