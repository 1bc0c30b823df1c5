package main

import (
	"context"
	"io"
	"net"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"
)

// TestPlayWeb: `connect4 play -web addr` serves the game pages on addr,
// and a finished game's reply prints the link to its page, which answers.
func TestPlayWeb(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	r, w := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	p := &playSession{in: w, out: &syncBuffer{}, err: &syncBuffer{}, done: make(chan error, 1), cancel: cancel}
	go func() { p.done <- run(ctx, []string{"play", "-web", addr}, env(), r, p.out, p.err) }()
	t.Cleanup(func() {
		cancel()
		w.Close()
		select {
		case <-p.done:
		case <-time.After(5 * time.Second):
			t.Error("play did not stop")
		}
	})
	p.command(t, "/connect4 @bob", "challenges", 2*time.Second)
	p.command(t, "as bob", "bob", 2*time.Second)
	p.command(t, "Accept", "accepted", 2*time.Second)
	for i, c := range []string{"1", "2", "1", "2", "1", "2"} {
		who := "as alice"
		if i%2 == 1 {
			who = "as bob"
		}
		p.command(t, who, "", time.Second)
		p.command(t, c, "column "+c, 2*time.Second)
	}
	p.command(t, "as alice", "", time.Second)
	p.command(t, "1", "Game page: http://"+addr+"/pages/", 2*time.Second)
	link := regexp.MustCompile(`Game page: (http://\S+)`).FindStringSubmatch(p.out.String())
	if link == nil {
		t.Fatalf("no link in:\n%s", p.out.String())
	}
	resp, err := http.Get(link[1])
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.Contains(string(body), "<svg id=\"board\"") {
		t.Errorf("GET %s: %d, %d bytes", link[1], resp.StatusCode, len(body))
	}
	p.command(t, "/connect4 leaderboard", "Channel page: http://"+addr+"/pages/", 2*time.Second)
}

// TestServePages: with CONNECT4_PUBLIC_URL and a platform secret, serve
// mounts the pages (a bad link answers the pages' own 404 page); without
// the public URL it does not. Slack's events endpoint is there in both (it
// also hears of an uninstall) and refuses an unsigned request.
func TestServePages(t *testing.T) {
	for _, tt := range []struct {
		name         string
		vars         []string
		pages, event int
	}{
		{"with a public URL", []string{"CONNECT4_PUBLIC_URL", "https://c4.example.com", "SLACK_SIGNING_SECRET", "s", "SLACK_BOT_TOKEN", "xoxb-1"}, 404, 401},
		{"without", []string{"SLACK_SIGNING_SECRET", "s"}, 404, 401},
	} {
		t.Run(tt.name, func(t *testing.T) {
			addr := freeAddr(t)
			base, stop := startServe(t, env(append([]string{"CONNECT4_ADDR", addr}, tt.vars...)...))
			defer stop()
			resp, err := http.Get(base + "/pages/not.a-token")
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != tt.pages {
				t.Errorf("GET /pages/…: %d, want %d", resp.StatusCode, tt.pages)
			}
			if own := strings.Contains(string(body), "<html lang="); own != (tt.name == "with a public URL") {
				t.Errorf("GET /pages/… answered by the pages: %v", own)
			}
			resp, err = http.Post(base+"/slack/events", "application/json", strings.NewReader(`{}`))
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if resp.StatusCode != tt.event && !(tt.event == 404 && resp.StatusCode == 405) {
				t.Errorf("POST /slack/events unsigned: %d, want %d", resp.StatusCode, tt.event)
			}
		})
	}
}
