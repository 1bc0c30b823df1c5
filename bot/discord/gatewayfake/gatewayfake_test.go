package gatewayfake

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"syscall"
	"testing"
	"time"

	discordgo "github.com/bwmarrin/discordgo"
	"github.com/gorilla/websocket"
)

// newFake starts a fake with a short heartbeat and closes it after the test.
func newFake(t *testing.T) *Server {
	t.Helper()
	f, err := New(WithHeartbeatInterval(200 * time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(f.Close)
	return f
}

// client is a discordgo session on the fake with the events a test waits for.
type client struct {
	s            *discordgo.Session
	interactions chan *discordgo.InteractionCreate
	connects     chan struct{}
	disconnects  chan struct{}
}

func newClient(t *testing.T, f *Server, token string) *client {
	t.Helper()
	s, err := f.Session(token)
	if err != nil {
		t.Fatal(err)
	}
	c := &client{s: s, interactions: make(chan *discordgo.InteractionCreate, 10),
		connects: make(chan struct{}, 10), disconnects: make(chan struct{}, 10)}
	s.AddHandler(func(_ *discordgo.Session, ic *discordgo.InteractionCreate) { c.interactions <- ic })
	s.AddHandler(func(_ *discordgo.Session, _ *discordgo.Connect) { c.connects <- struct{}{} })
	s.AddHandler(func(_ *discordgo.Session, _ *discordgo.Disconnect) { c.disconnects <- struct{}{} })
	return c
}

// open opens the session and closes it after the test.
func (c *client) open(t *testing.T) {
	t.Helper()
	if err := c.s.Open(); err != nil {
		t.Fatalf("Open = %v, want nil", err)
	}
	t.Cleanup(func() { _ = c.s.Close() })
}

func waitFor[T any](t *testing.T, ch <-chan T, what string, d time.Duration) T {
	t.Helper()
	select {
	case v := <-ch:
		return v
	case <-time.After(d):
		var zero T
		t.Fatalf("no %s within %v", what, d)
		return zero
	}
}

// drain empties ch without blocking.
func drain[T any](ch <-chan T) {
	for {
		select {
		case <-ch:
		default:
			return
		}
	}
}

func ctxTimeout(t *testing.T, d time.Duration) context.Context {
	ctx, cancel := context.WithTimeout(t.Context(), d)
	t.Cleanup(cancel)
	return ctx
}

// interactionJSON is a /connect4 application command as the Gateway sends it.
func interactionJSON(id string) json.RawMessage {
	return json.RawMessage(fmt.Sprintf(`{"id":%q,"application_id":%q,"type":2,"token":"itok-%s",
		"channel_id":"300","guild_id":"400","member":{"user":{"id":"500","username":"alice"}},
		"data":{"id":"600","name":"connect4","type":1}}`, id, DefaultApplicationID, id))
}

// sendAndReceive dispatches an interaction and checks that the session's
// handler gets it.
func sendAndReceive(t *testing.T, f *Server, c *client, id string) *discordgo.InteractionCreate {
	t.Helper()
	if err := f.SendInteraction(interactionJSON(id)); err != nil {
		t.Fatalf("SendInteraction(%s) = %v", id, err)
	}
	var ic *discordgo.InteractionCreate
	select {
	case ic = <-c.interactions:
	case <-time.After(3 * time.Second):
		t.Fatalf("no INTERACTION_CREATE %s within 3s (Connected %v, Connections %d, Identifies %d, Resumes %d)",
			id, f.Connected(), f.Connections(), f.Identifies(), f.Resumes())
	}
	if ic.ID != id || ic.Type != discordgo.InteractionApplicationCommand || ic.ApplicationCommandData().Name != "connect4" ||
		ic.Member == nil || ic.Member.User.ID != "500" {
		t.Fatalf("interaction %+v, want id %s, a /connect4 command from user 500", ic.Interaction, id)
	}
	return ic
}

func TestOpenIdentifiesAndReceivesInteractions(t *testing.T) {
	t.Parallel()
	f := newFake(t)
	c := newClient(t, f, "secret")
	c.open(t)
	if err := f.WaitConnected(ctxTimeout(t, 3*time.Second)); err != nil {
		t.Fatalf("WaitConnected = %v", err)
	}
	if got, want := f.Tokens(), []string{"Bot secret"}; !slices.Equal(got, want) {
		t.Errorf("Tokens() = %q, want %q", got, want)
	}
	if f.Identifies() != 1 || f.Connections() != 1 || f.Resumes() != 0 {
		t.Errorf("Identifies, Connections, Resumes = %d, %d, %d, want 1, 1, 0", f.Identifies(), f.Connections(), f.Resumes())
	}
	if u := c.s.State.User; u == nil || u.ID != DefaultUserID || u.Username != DefaultUsername {
		t.Errorf("State.User = %+v, want the READY user %s", u, DefaultUserID)
	}
	ic := sendAndReceive(t, f, c, "1001")
	sendAndReceive(t, f, c, "1002")

	// The answer goes over REST to the fake.
	resp := &discordgo.InteractionResponse{Type: discordgo.InteractionResponseChannelMessageWithSource,
		Data: &discordgo.InteractionResponseData{Content: "board"}}
	if err := c.s.InteractionRespond(ic.Interaction, resp); err != nil {
		t.Fatalf("InteractionRespond = %v", err)
	}
	if _, err := c.s.FollowupMessageCreate(ic.Interaction, true, &discordgo.WebhookParams{Content: "later"}); err != nil {
		t.Fatalf("FollowupMessageCreate = %v", err)
	}
	var paths []string
	for _, r := range f.Requests() {
		paths = append(paths, r.Method+" "+r.Path)
	}
	want := []string{
		"GET /api/v9/gateway",
		"POST /api/v9/interactions/1001/itok-1001/callback",
		"POST /api/v9/webhooks/" + DefaultApplicationID + "/itok-1001",
	}
	if !slices.Equal(paths, want) {
		t.Fatalf("REST requests %q, want %q", paths, want)
	}
	var body struct {
		Type int `json:"type"`
		Data struct {
			Content string `json:"content"`
		} `json:"data"`
	}
	if err := json.Unmarshal(f.Requests()[1].Body, &body); err != nil || body.Type != 4 || body.Data.Content != "board" {
		t.Fatalf("callback body %s (%v), want type 4 with content \"board\"", f.Requests()[1].Body, err)
	}
}

func TestHeartbeatsAreAcked(t *testing.T) {
	t.Parallel()
	f, err := New(WithHeartbeatInterval(100 * time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(f.Close)
	c := newClient(t, f, "secret")
	c.open(t)
	// Five heartbeat intervals without an ack make discordgo reconnect; a
	// fake that does not answer op 1 fails here.
	time.Sleep(700 * time.Millisecond)
	// (Session.HeartbeatLatency is not read here: discordgo writes its
	// fields without a lock, which the race detector reports.)
	if f.Connections() != 1 || f.Heartbeats() < 6 {
		t.Fatalf("after 0.7 s of 100 ms heartbeats: Connections() = %d, Heartbeats() = %d, want 1 and at least 6",
			f.Connections(), f.Heartbeats())
	}
	sendAndReceive(t, f, c, "7")
}

func TestDropIsHealedByResume(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		drop func(*Server)
	}{
		{"abnormal", (*Server).Drop},
		{"close 4000", func(f *Server) { f.DropWithCode(CloseUnknownError, "Unknown error") }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			f := newFake(t)
			c := newClient(t, f, "secret")
			c.open(t)
			waitFor(t, c.connects, "Connect", time.Second)
			sendAndReceive(t, f, c, "1")
			tt.drop(f)
			if f.Connected() {
				t.Fatal("Connected() after Drop = true, want false")
			}
			if err := f.SendInteraction(interactionJSON("lost")); !errors.Is(err, ErrNotConnected) {
				t.Fatalf("SendInteraction while dropped = %v, want ErrNotConnected", err)
			}
			waitFor(t, c.disconnects, "Disconnect", 3*time.Second)
			if err := f.WaitConnected(ctxTimeout(t, 5*time.Second)); err != nil {
				t.Fatalf("no reconnect after Drop: %v", err)
			}
			waitFor(t, c.connects, "Connect after Drop", time.Second)
			if f.Connections() != 2 || f.Identifies() != 1 || f.Resumes() != 1 {
				t.Fatalf("Connections, Identifies, Resumes = %d, %d, %d, want 2, 1, 1", f.Connections(), f.Identifies(), f.Resumes())
			}
			sendAndReceive(t, f, c, "2")
		})
	}
}

func TestOutageIsHealedAfterConnect(t *testing.T) {
	t.Parallel()
	f := newFake(t)
	c := newClient(t, f, "secret")
	c.open(t)
	if err := f.SetDown(true); err != nil {
		t.Fatal(err)
	}
	waitFor(t, c.disconnects, "Disconnect", 3*time.Second)
	// discordgo spends 1 s in Close before Disconnect, then dials at once:
	// that dial is refused, and it tries again (through REST) a second later.
	time.Sleep(300 * time.Millisecond)
	if f.Connected() {
		t.Fatal("Connected() while down = true")
	}
	if err := f.SetDown(false); err != nil {
		t.Fatal(err)
	}
	if err := f.WaitConnected(ctxTimeout(t, 5*time.Second)); err != nil {
		t.Fatalf("no reconnect after the outage: %v", err)
	}
	sendAndReceive(t, f, c, "after-outage")
}

func TestRefusedTokenDuringReconnectIsRetriedForever(t *testing.T) {
	t.Parallel()
	f := newFake(t)
	c := newClient(t, f, "secret")
	c.open(t)
	f.RefuseToken(true)
	f.Drop()
	// Resume at about 1 s is refused with 4004; discordgo tries again after
	// 1 s, and would go on forever.
	deadline := time.Now().Add(4 * time.Second)
	for f.Resumes() < 2 && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
	}
	if f.Resumes() < 2 || f.Connected() {
		t.Fatalf("Resumes() = %d, Connected() = %v after a refused resume, want at least 2 attempts and no connection",
			f.Resumes(), f.Connected())
	}
}

// TestOwnReconnectLoop is how an application that must stop on a refused
// token supervises the connection: without discordgo's own loop, a drop
// leaves the session closed, and Open again resumes, or reports 4004.
func TestOwnReconnectLoop(t *testing.T) {
	t.Parallel()
	f := newFake(t)
	c := newClient(t, f, "secret")
	c.s.ShouldReconnectOnError = false
	c.open(t)
	f.Drop()
	waitFor(t, c.disconnects, "Disconnect", 3*time.Second)
	time.Sleep(200 * time.Millisecond)
	if f.Connections() != 1 || f.Connected() {
		t.Fatalf("Connections() = %d, Connected() = %v, want discordgo to stay away", f.Connections(), f.Connected())
	}
	if err := c.s.Open(); err != nil {
		t.Fatalf("Open after a drop = %v", err)
	}
	if f.Resumes() != 1 || f.Identifies() != 1 {
		t.Fatalf("Resumes, Identifies = %d, %d, want 1, 1", f.Resumes(), f.Identifies())
	}
	sendAndReceive(t, f, c, "resumed")

	// A drop can emit Disconnect twice (the reader and the heartbeat both
	// notice it and call Close): forget the first drop's events.
	drain(c.disconnects)
	f.RefuseToken(true)
	f.Drop()
	waitFor(t, c.disconnects, "Disconnect", 3*time.Second)
	time.Sleep(100 * time.Millisecond)
	var ce *websocket.CloseError
	if err := c.s.Open(); !errors.As(err, &ce) || ce.Code != CloseAuthenticationFailed {
		t.Fatalf("Open with a refused token after a drop = %v, want close code 4004", err)
	}
}

func TestOpenFails(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		setup func(*Server) error
		check func(error) bool
		want  string
	}{
		{
			name:  "down",
			setup: func(f *Server) error { return f.SetDown(true) },
			check: func(err error) bool { return errors.Is(err, syscall.ECONNREFUSED) },
			want:  "an error wrapping ECONNREFUSED",
		},
		{
			name:  "refused token",
			setup: func(f *Server) error { f.RefuseToken(true); return nil },
			check: func(err error) bool {
				var ce *websocket.CloseError
				return errors.As(err, &ce) && ce.Code == CloseAuthenticationFailed && ce.Text == "Authentication failed"
			},
			want: "a *websocket.CloseError with code 4004",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			f := newFake(t)
			if err := tt.setup(f); err != nil {
				t.Fatal(err)
			}
			c := newClient(t, f, "secret")
			err := c.s.Open()
			if err == nil {
				_ = c.s.Close()
				t.Fatalf("Open = nil, want %s", tt.want)
			}
			if !tt.check(err) {
				t.Fatalf("Open = %T %v, want %s", err, err, tt.want)
			}
			if f.Connected() {
				t.Fatal("Connected() = true after a failed Open")
			}
			// The fake heals: the same session opens once the fault is gone.
			if err := f.SetDown(false); err != nil {
				t.Fatal(err)
			}
			f.RefuseToken(false)
			c.open(t)
			if err := f.WaitConnected(ctxTimeout(t, 3*time.Second)); err != nil {
				t.Fatalf("WaitConnected after the fault = %v", err)
			}
			sendAndReceive(t, f, c, "1")
		})
	}
}

func TestWaitConnectedHonoursContext(t *testing.T) {
	t.Parallel()
	f := newFake(t)
	ctx, cancel := context.WithTimeout(t.Context(), 50*time.Millisecond)
	defer cancel()
	if err := f.WaitConnected(ctx); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("WaitConnected without a client = %v, want DeadlineExceeded", err)
	}
	if err := f.Dispatch("X", json.RawMessage("{")); err == nil {
		t.Fatal("Dispatch of invalid JSON = nil, want an error")
	}
}

func TestRESTRoutes(t *testing.T) {
	t.Parallel()
	f := newFake(t)
	s, err := f.Session("secret")
	if err != nil {
		t.Fatal(err)
	}
	gb, err := s.GatewayBot()
	if err != nil || gb.URL != f.GatewayURL() || gb.Shards != 1 {
		t.Fatalf("GatewayBot = %+v, %v, want %s with 1 shard", gb, err, f.GatewayURL())
	}
	m, err := s.ChannelMessageEdit("300", "700", "edited")
	if err != nil || m.ID != "700" || m.ChannelID != "300" || m.Content != "edited" {
		t.Fatalf("ChannelMessageEdit = %+v, %v, want message 700 in 300 with the new content", m, err)
	}
	cmds, err := s.ApplicationCommandBulkOverwrite(DefaultApplicationID, "400", []*discordgo.ApplicationCommand{{Name: "connect4", Description: "play"}})
	if err != nil || len(cmds) != 1 || cmds[0].Name != "connect4" {
		t.Fatalf("ApplicationCommandBulkOverwrite = %+v, %v, want the command echoed", cmds, err)
	}
	if _, err := s.User("@me"); err == nil {
		t.Fatal("GET /users/@me = nil error, want 404 from an unfaked route")
	}
	f.RefuseToken(true)
	var re *discordgo.RESTError
	if _, err := s.GatewayBot(); !errors.As(err, &re) || re.Response.StatusCode != 401 {
		t.Fatalf("GatewayBot with a refused token = %v, want a 401 RESTError", err)
	}
	for _, r := range f.Requests() {
		if r.Authorization != "Bot secret" {
			t.Fatalf("request %s %s has Authorization %q, want \"Bot secret\"", r.Method, r.Path, r.Authorization)
		}
	}
}

// TestResumeReplaysMissedDispatches speaks the Gateway protocol itself: a
// resume carrying the last sequence number the client saw gets the
// dispatches after it again, in order, then RESUMED, as Discord replays
// missed events; so an event written to a connection the client was
// closing is not lost to a client that resumes.
func TestResumeReplaysMissedDispatches(t *testing.T) {
	t.Parallel()
	f := newFake(t)
	dial := func() *websocket.Conn {
		ws, _, err := websocket.DefaultDialer.DialContext(t.Context(), f.GatewayURL()+"?v=9&encoding=json", nil)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { ws.Close() })
		var hello payload
		if err := ws.ReadJSON(&hello); err != nil || hello.Op != 10 {
			t.Fatalf("first frame %+v, %v; want Hello (op 10)", hello, err)
		}
		return ws
	}
	read := func(ws *websocket.Conn) payload {
		t.Helper()
		_ = ws.SetReadDeadline(time.Now().Add(3 * time.Second))
		var p payload
		if err := ws.ReadJSON(&p); err != nil {
			t.Fatal(err)
		}
		return p
	}
	ws := dial()
	if err := ws.WriteJSON(map[string]any{"op": 2, "d": map[string]any{"token": "Bot secret", "intents": 0, "properties": map[string]string{}}}); err != nil {
		t.Fatal(err)
	}
	ready := read(ws)
	var session struct {
		ID string `json:"session_id"`
	}
	if err := json.Unmarshal(ready.D, &session); err != nil || ready.T != "READY" || session.ID == "" {
		t.Fatalf("after Identify %+v (%v), want READY with a session_id", ready, err)
	}
	for _, n := range []string{"1", "2", "3"} {
		if err := f.Dispatch("TEST_EVENT", json.RawMessage(`{"n":`+n+`}`)); err != nil {
			t.Fatal(err)
		}
	}
	seen := read(ws) // the client saw the first, not the two after it
	f.Drop()

	ws = dial()
	if err := ws.WriteJSON(map[string]any{"op": 6, "d": map[string]any{"token": "Bot secret", "session_id": session.ID, "seq": seen.S}}); err != nil {
		t.Fatal(err)
	}
	var got []string
	for {
		p := read(ws)
		if p.T == "RESUMED" {
			break
		}
		got = append(got, fmt.Sprintf("%s %d %s", p.T, p.S, p.D))
	}
	want := []string{
		fmt.Sprintf(`TEST_EVENT %d {"n":2}`, seen.S+1),
		fmt.Sprintf(`TEST_EVENT %d {"n":3}`, seen.S+2),
	}
	if !slices.Equal(got, want) {
		t.Errorf("resumed after sequence %d: replayed %q, want %q", seen.S, got, want)
	}
}
