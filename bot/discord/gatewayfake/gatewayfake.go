// Package gatewayfake is a local fake of the Discord Gateway and of the few
// REST routes a Gateway bot calls, for tests that run the real discordgo
// client (github.com/bwmarrin/discordgo v0.29.0) against it.
//
// # What it speaks
//
// REST, under /api/v9 (discordgo's APIVersion):
//   - GET /gateway and GET /gateway/bot answer the websocket URL of the fake
//     (ws://127.0.0.1:PORT/gateway/); /gateway/bot answers 401 while the
//     token is refused.
//   - POST /interactions/{id}/{token}/callback answers 204 (the interaction
//     response); POST /webhooks/{app}/{token} (follow-up) and PATCH
//     /webhooks/{app}/{token}/messages/{id} (edit) answer a message; DELETE
//     of a webhook message answers 204; POST /channels/{c}/messages (a
//     new message, with a new id) and PATCH /channels/{c}/messages/{m}
//     answer a message; PUT /applications/{app}[/guilds/{g}]/commands echoes
//     the commands. Every REST request is recorded (Requests).
//   - Anything else answers 404 with Discord's error body.
//
// Websocket, at /gateway/: Hello (op 10, heartbeat_interval), then Identify
// (op 2: the token is recorded; READY with a user and a session_id follows,
// or close code 4004 "Authentication failed" while RefuseToken(true)),
// Resume (op 6: for the session it knows, the dispatches after the resume's
// sequence number are sent again, as Discord replays missed events, then
// RESUMED; Invalid Session op 9 otherwise), Heartbeat (op 1, answered with op 11) and dispatches sent by
// the test (SendInteraction, Dispatch) with increasing sequence numbers.
//
// # Pointing discordgo at it
//
// discordgo builds every REST URL from package variables computed at init
// (https://discord.com/api/v9/...), so the fake does not touch them: the
// session's http.Client gets a transport that sends discord.com requests to
// the fake instead (HTTPClient; Session builds a whole session that way).
// With no cached gateway URL Session.Open asks GET /api/v9/gateway, which
// answers the fake's websocket URL; discordgo's websocket Dialer is not the
// http.Client, and needs nothing. The connect4 binary gets the same effect
// from DISCORD_API_URL=URL().
//
// # How discordgo v0.29.0 behaves against it
//
// Marked [test] where this package's tests check it, [src] where it was read
// in wsapi.go.
//
//   - Open while the fake is down fails at once with the REST error of GET
//     /gateway, an error from net/http that wraps syscall.ECONNREFUSED
//     (errors.Is) and reads `Get "https://discord.com/api/v9/gateway": dial
//     tcp 127.0.0.1:PORT: connect: connection refused`. Open itself never
//     retries; the application must call it again. [test]
//   - Open with a refused token returns the *websocket.CloseError of
//     github.com/gorilla/websocket, not wrapped, with Code 4004 and Text
//     "Authentication failed": errors.As(err, &ce) && ce.Code == 4004.
//     [test]
//   - Once Open has succeeded, a dropped connection (Drop, DropWithCode,
//     SetDown) is healed by discordgo itself while ShouldReconnectOnError is
//     true (the default): it emits *discordgo.Disconnect after spending 1 s in
//     Close, dials the cached websocket URL again and sends Resume, then
//     emits *discordgo.Connect. [test] While that fails it waits 1 s, 2 s,
//     4 s, ... capped at 600 s, without jitter, and asks REST for the URL again
//     after a failed dial. [src] Close codes are not looked at: a 4004 on the
//     live connection is reconnected like any other. [src]
//   - That loop never gives up: a token refused during a reconnect (close
//     4004) is logged and retried forever, and nothing tells the application.
//     [test] With ShouldReconnectOnError = false a drop only emits
//     Disconnect and leaves the session closed; calling Open again resumes
//     the session, or returns the 4004 CloseError when the token is refused.
//     That is the way to run an own loop with backoff that stops on 4004.
//     [test] One drop can emit Disconnect twice (the reader and the heartbeat
//     goroutine both notice it and call Close), so such a loop must treat
//     Open's ErrWSAlreadyOpen as "connected" and not count Disconnect events
//     as drops. [test]
//   - Session.HeartbeatLatency and LastHeartbeatAck are written without a
//     lock by discordgo's goroutines: reading them while connected is a data
//     race under -race. [test]
//
// The package must not know about the bot: it is a platform fake.
package gatewayfake

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	discordgo "github.com/bwmarrin/discordgo"
	"github.com/gorilla/websocket"

	"github.com/connect4/connect4/bot/internal/fakews"

	"github.com/connect4/connect4/bot/internal/outage"
)

// Close codes the fake sends; CloseAuthenticationFailed is what Discord sends
// for an invalid token.
const (
	CloseAuthenticationFailed = 4004
	CloseUnknownError         = 4000
)

// Identity of the bot user in READY and of the application, unless changed
// with WithUser.
const (
	DefaultUserID        = "100000000000000001"
	DefaultUsername      = "connect4-fake"
	DefaultApplicationID = "100000000000000002"
)

// ErrNotConnected is returned by Dispatch and SendInteraction when no
// connection has completed Identify or Resume.
var ErrNotConnected = errors.New("gatewayfake: no ready gateway connection")

// Request is one REST request the fake received.
type Request struct {
	Method string
	// Path is the URL path, for example
	// /api/v9/interactions/1/tok/callback.
	Path string
	// Authorization is the header as sent ("Bot xyz", or "" for webhook
	// calls).
	Authorization string
	ContentType   string // the Content-Type header as sent
	Body          []byte
	At            time.Time // when the fake received it
}

// Option changes a Server built by New.
type Option func(*Server)

// WithHeartbeatInterval sets the heartbeat_interval sent in Hello (default
// 1 s). discordgo reconnects when no heartbeat ack came for five intervals.
func WithHeartbeatInterval(d time.Duration) Option {
	return func(s *Server) { s.heartbeat = d }
}

// WithUser sets the bot user sent in READY.
func WithUser(id, username string) Option {
	return func(s *Server) { s.userID, s.username = id, username }
}

// Server is a fake Discord Gateway and REST API. Its methods are safe for
// concurrent use. Close it when done.
type Server struct {
	out       *outage.Server
	upgrader  websocket.Upgrader
	heartbeat time.Duration
	userID    string
	username  string

	mu         sync.Mutex
	refuse     bool
	live       *conn // the connection that completed Identify or Resume
	all        map[*conn]struct{}
	conns      int
	identifies int
	resumes    int
	heartbeats int
	tokens     []string
	sessions   int
	seq        int64     // sequence of the current session
	sent       []payload // the session's last dispatches, for a resume to replay
	session    string
	requests   []Request
	messages   int // message ids handed out by REST
	closed     bool
	changed    fakews.Signal // wakes the waiters on every state change
	dmu        sync.Mutex    // serialises dispatches, so that sequence numbers arrive in order
	wg         sync.WaitGroup
}

// maxReplay is how many of a session's dispatches a resume can replay.
const maxReplay = 256

// conn is one websocket connection.
type conn struct {
	fakews.Conn
	dropped bool // set under Server.mu by closeAll: never becomes live again
}

// New starts a fake on a free loopback port. It returns an error when no
// port can be opened.
func New(opts ...Option) (*Server, error) {
	s := &Server{
		heartbeat: time.Second,
		userID:    DefaultUserID,
		username:  DefaultUsername,
		all:       make(map[*conn]struct{}),
		upgrader:  fakews.Upgrader(),
	}
	for _, o := range opts {
		o(s)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /gateway/", s.serveWS)
	mux.HandleFunc("/api/", s.serveREST)
	out, err := outage.New(mux)
	if err != nil {
		return nil, fmt.Errorf("gatewayfake: %w", err)
	}
	s.out = out
	return s, nil
}

// URL returns the base URL of the REST API ("http://127.0.0.1:PORT"), the
// value for the bot's DISCORD_API_URL.
func (s *Server) URL() string { return s.out.URL() }

// GatewayURL returns the websocket URL that GET /api/v9/gateway answers.
func (s *Server) GatewayURL() string { return "ws://" + s.out.Addr() + "/gateway/" }

// HTTPClient returns an http.Client that sends discordgo's requests for
// https://discord.com to the fake and other requests on unchanged.
func (s *Server) HTTPClient() *http.Client {
	base, _ := url.Parse(s.URL()) // URL is always well formed
	return &http.Client{Timeout: 5 * time.Second, Transport: &rewrite{base: base, next: http.DefaultTransport}}
}

// Session returns a discordgo session for the bot token (a "Bot " prefix is
// added unless present) whose REST calls and Gateway connection go to the
// fake, with the Guilds intent. It returns discordgo.New's error.
func (s *Server) Session(token string) (*discordgo.Session, error) {
	ds, err := discordgo.New("Bot " + strings.TrimPrefix(token, "Bot "))
	if err != nil {
		return nil, fmt.Errorf("gatewayfake: new session: %w", err)
	}
	ds.Client = s.HTTPClient()
	ds.Identify.Intents = discordgo.IntentsGuilds
	return ds, nil
}

// rewrite sends requests for discord.com to base.
type rewrite struct {
	base *url.URL
	next http.RoundTripper
}

func (t *rewrite) RoundTrip(r *http.Request) (*http.Response, error) {
	if r.URL.Host != "discord.com" {
		return t.next.RoundTrip(r)
	}
	r = r.Clone(r.Context())
	u := *r.URL
	u.Scheme, u.Host = t.base.Scheme, t.base.Host
	r.URL, r.Host = &u, ""
	return t.next.RoundTrip(r)
}

// SetDown switches the fake off or on. While down the port is closed (REST
// calls and websocket dials fail with connection refused) and going down
// cuts the live connection without a close frame, as a network failure
// would. It returns an error when the port cannot be opened again.
func (s *Server) SetDown(down bool) error {
	if err := s.out.SetDown(down); err != nil {
		return fmt.Errorf("gatewayfake: %w", err)
	}
	if down {
		s.closeAll(0, "")
	}
	return nil
}

// RefuseToken makes every later Identify and Resume fail with close code
// 4004 "Authentication failed" (and GET /gateway/bot with 401) while refuse
// is true. The live connection is not affected.
func (s *Server) RefuseToken(refuse bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.refuse = refuse
}

// Drop cuts every open connection without a close frame (the client sees
// an abnormal closure, 1006), as a network failure would; discordgo
// reconnects and resumes.
func (s *Server) Drop() { s.closeAll(0, "") }

// DropWithCode closes every open connection with a close frame carrying
// code and text (for example 4000 "Unknown error" or 1001 "going away").
func (s *Server) DropWithCode(code int, text string) { s.closeAll(code, text) }

func (s *Server) closeAll(code int, text string) {
	s.mu.Lock()
	cs := make([]*conn, 0, len(s.all))
	for c := range s.all {
		c.dropped = true
		cs = append(cs, c)
	}
	s.live = nil
	s.changed.NotifyLocked()
	s.mu.Unlock()
	for _, c := range cs {
		if code == 0 {
			_ = c.WS.Close()
			continue
		}
		c.CloseWith(code, text)
	}
}

// Connections returns how many websocket connections the fake has accepted.
func (s *Server) Connections() int { return fakews.Read(&s.mu, &s.conns) }

// Identifies returns how many Identify payloads (op 2) the fake has
// received, refused ones included.
func (s *Server) Identifies() int { return fakews.Read(&s.mu, &s.identifies) }

// Resumes returns how many Resume payloads (op 6) the fake has received,
// refused ones included.
func (s *Server) Resumes() int { return fakews.Read(&s.mu, &s.resumes) }

// Heartbeats returns how many Heartbeat payloads (op 1) the fake has
// received and acknowledged with op 11.
func (s *Server) Heartbeats() int { return fakews.Read(&s.mu, &s.heartbeats) }

// Tokens returns the tokens of every Identify and Resume, in order, as sent
// (with discordgo's "Bot " prefix).
func (s *Server) Tokens() []string { return fakews.Copy(&s.mu, &s.tokens) }

// Requests returns a copy of the REST requests received so far, in order.
func (s *Server) Requests() []Request { return fakews.Copy(&s.mu, &s.requests) }

// Connected reports whether a connection has completed Identify or Resume
// and is still open.
func (s *Server) Connected() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.live != nil
}

// WaitConnected blocks until a connection has completed Identify (READY
// sent) or Resume (RESUMED sent) and is still open, or ctx is done; it
// returns ctx.Err() then. After Drop it waits for the next connection.
func (s *Server) WaitConnected(ctx context.Context) error {
	return s.changed.Wait(ctx, &s.mu, func() bool { return s.live != nil })
}

// SendInteraction dispatches an INTERACTION_CREATE whose d is interaction
// (the JSON of a Discord interaction object) to the ready connection. It
// returns ErrNotConnected when there is none, or the write error.
func (s *Server) SendInteraction(interaction json.RawMessage) error {
	return s.Dispatch("INTERACTION_CREATE", interaction)
}

// Dispatch sends a dispatch (op 0) of event type t with data d and the next
// sequence number to the ready connection. It returns ErrNotConnected when
// there is none, or the write error.
func (s *Server) Dispatch(t string, d json.RawMessage) error {
	if !json.Valid(d) {
		return fmt.Errorf("gatewayfake: dispatch %s: data is not JSON", t)
	}
	s.dmu.Lock()
	defer s.dmu.Unlock()
	s.mu.Lock()
	c := s.live
	if c == nil {
		s.mu.Unlock()
		return ErrNotConnected
	}
	s.seq++
	p := payload{Op: 0, T: t, S: s.seq, D: d}
	if len(s.sent) == maxReplay {
		s.sent = append(s.sent[:0], s.sent[1:]...)
	}
	s.sent = append(s.sent, p)
	s.mu.Unlock()
	if err := c.WriteJSON(p); err != nil {
		return fmt.Errorf("gatewayfake: dispatch %s: %w", t, err)
	}
	return nil
}

// Close stops the fake, closes every connection and waits for its
// goroutines. It is safe to call more than once.
func (s *Server) Close() {
	s.mu.Lock()
	s.closed = true
	s.mu.Unlock()
	s.out.Close()
	s.closeAll(0, "")
	s.wg.Wait()
}

// payload is a Gateway message.
type payload struct {
	Op int             `json:"op"`
	D  json.RawMessage `json:"d"`
	S  int64           `json:"s,omitempty"`
	T  string          `json:"t,omitempty"`
}

func (s *Server) serveWS(w http.ResponseWriter, r *http.Request) {
	ws, err := s.upgrader.Upgrade(w, r, nil)
	if err != nil {
		return // Upgrade has answered with an error status
	}
	c := &conn{Conn: fakews.Conn{WS: ws}}
	s.mu.Lock()
	if s.closed || s.out.Down() {
		s.mu.Unlock()
		_ = ws.Close()
		return
	}
	s.conns++
	s.all[c] = struct{}{}
	s.wg.Add(1)
	s.changed.NotifyLocked()
	s.mu.Unlock()
	defer s.wg.Done()
	defer func() {
		s.mu.Lock()
		delete(s.all, c)
		if s.live == c {
			s.live = nil
			s.changed.NotifyLocked()
		}
		s.mu.Unlock()
		_ = ws.Close()
	}()
	hello := fmt.Sprintf(`{"heartbeat_interval":%d}`, s.heartbeat.Milliseconds())
	if err := c.WriteJSON(payload{Op: 10, D: json.RawMessage(hello)}); err != nil {
		return
	}
	for {
		_, msg, err := ws.ReadMessage()
		if err != nil {
			return
		}
		var p payload
		if err := json.Unmarshal(msg, &p); err != nil {
			c.CloseWith(4002, "Error while decoding payload.")
			return
		}
		if !s.handle(c, p) {
			return
		}
	}
}

// handle answers one client payload; it returns false when the connection
// is closed.
func (s *Server) handle(c *conn, p payload) bool {
	switch p.Op {
	case 1: // Heartbeat
		s.mu.Lock()
		s.heartbeats++
		s.mu.Unlock()
		return c.WriteJSON(payload{Op: 11, D: json.RawMessage("null")}) == nil
	case 2: // Identify
		var id struct {
			Token string `json:"token"`
		}
		_ = json.Unmarshal(p.D, &id)
		s.mu.Lock()
		s.identifies++
		s.tokens = append(s.tokens, id.Token)
		if s.refuse || id.Token == "" {
			s.mu.Unlock()
			c.CloseWith(CloseAuthenticationFailed, "Authentication failed")
			return false
		}
		s.sessions++
		s.session = "fake-session-" + strconv.Itoa(s.sessions)
		s.seq = 1
		s.sent = nil
		ready, _ := json.Marshal(map[string]any{
			"v":                  9,
			"session_id":         s.session,
			"resume_gateway_url": s.GatewayURL(),
			"user":               map[string]any{"id": s.userID, "username": s.username, "discriminator": "0", "bot": true},
			"application":        map[string]any{"id": DefaultApplicationID, "flags": 0},
			"guilds":             []any{},
			"private_channels":   []any{},
		})
		p := payload{Op: 0, T: "READY", S: s.seq, D: ready}
		s.mu.Unlock()
		return s.ready(c, p)
	case 6: // Resume
		var rp struct {
			Token     string `json:"token"`
			SessionID string `json:"session_id"`
			Seq       int64  `json:"seq"`
		}
		_ = json.Unmarshal(p.D, &rp)
		s.mu.Lock()
		s.resumes++
		s.tokens = append(s.tokens, rp.Token)
		if s.refuse || rp.Token == "" {
			s.mu.Unlock()
			c.CloseWith(CloseAuthenticationFailed, "Authentication failed")
			return false
		}
		if rp.SessionID != s.session || s.session == "" {
			s.mu.Unlock()
			// Invalid Session, not resumable: the client identifies again.
			return c.WriteJSON(payload{Op: 9, D: json.RawMessage("false")}) == nil
		}
		var missed []payload
		for _, d := range s.sent {
			if d.S > rp.Seq {
				missed = append(missed, d)
			}
		}
		s.seq++
		p := payload{Op: 0, T: "RESUMED", S: s.seq, D: json.RawMessage("{}")}
		s.mu.Unlock()
		return s.ready(c, append(missed, p)...)
	default:
		return true // presence updates and the like are accepted and ignored
	}
}

// ready makes c the live connection, unless it was dropped meanwhile, and
// sends it ps: READY, or the replayed dispatches and RESUMED. c is live
// before ps are written, so that a client that returns from Open finds the
// fake ready; dmu keeps dispatches behind ps. It returns false when c is
// unusable.
func (s *Server) ready(c *conn, ps ...payload) bool {
	s.dmu.Lock()
	defer s.dmu.Unlock()
	s.mu.Lock()
	if c.dropped {
		s.mu.Unlock()
		return false
	}
	s.live = c
	s.changed.NotifyLocked()
	s.mu.Unlock()
	for _, p := range ps {
		if err := c.WriteJSON(p); err != nil {
			s.mu.Lock()
			if s.live == c {
				s.live = nil
				s.changed.NotifyLocked()
			}
			s.mu.Unlock()
			return false
		}
	}
	return true
}

func (s *Server) serveREST(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(io.LimitReader(r.Body, 8<<20))
	if err != nil {
		http.Error(w, "read body", http.StatusBadRequest)
		return
	}
	s.mu.Lock()
	s.requests = append(s.requests, Request{Method: r.Method, Path: r.URL.Path, Authorization: r.Header.Get("Authorization"), ContentType: r.Header.Get("Content-Type"), Body: body, At: time.Now()})
	refuse := s.refuse
	s.messages++
	msgID := strconv.Itoa(1_000_000 + s.messages)
	s.changed.NotifyLocked()
	s.mu.Unlock()

	path, ok := strings.CutPrefix(r.URL.Path, "/api/v"+discordgo.APIVersion+"/")
	if !ok {
		notFound(w)
		return
	}
	parts := strings.Split(strings.TrimSuffix(path, "/"), "/")
	switch {
	case r.Method == http.MethodGet && path == "gateway":
		writeJSON(w, http.StatusOK, map[string]any{"url": s.GatewayURL()})
	case r.Method == http.MethodGet && path == "gateway/bot":
		if refuse {
			writeJSON(w, http.StatusUnauthorized, map[string]any{"message": "401: Unauthorized", "code": 0})
			return
		}
		writeJSON(w, http.StatusOK, map[string]any{"url": s.GatewayURL(), "shards": 1,
			"session_start_limit": map[string]any{"total": 1000, "remaining": 999, "reset_after": 0, "max_concurrency": 1}})
	case r.Method == http.MethodPost && len(parts) == 4 && parts[0] == "interactions" && parts[3] == "callback":
		w.WriteHeader(http.StatusNoContent)
	case parts[0] == "webhooks" && len(parts) >= 3:
		if r.Method == http.MethodDelete {
			w.WriteHeader(http.StatusNoContent)
			return
		}
		id := msgID
		if len(parts) == 5 && parts[4] != "@original" {
			id = parts[4]
		}
		writeJSON(w, http.StatusOK, message(id, "", s.userID, s.username, body))
	case r.Method == http.MethodPost && len(parts) == 3 && parts[0] == "channels" && parts[2] == "messages":
		writeJSON(w, http.StatusOK, message(msgID, parts[1], s.userID, s.username, body))
	case r.Method == http.MethodPatch && len(parts) == 4 && parts[0] == "channels" && parts[2] == "messages":
		writeJSON(w, http.StatusOK, message(parts[3], parts[1], s.userID, s.username, body))
	case r.Method == http.MethodPut && parts[0] == "applications" && parts[len(parts)-1] == "commands":
		w.Header().Set("Content-Type", "application/json")
		if !json.Valid(body) {
			body = []byte("[]")
		}
		_, _ = w.Write(body)
	default:
		notFound(w)
	}
}

// message returns a Discord message object with id and the fields of the
// request body (content, components, embeds) echoed back.
func message(id, channelID, userID, username string, body []byte) map[string]any {
	m := map[string]any{}
	_ = json.Unmarshal(body, &m) // a multipart or empty body echoes nothing
	m["id"] = id
	if channelID != "" {
		m["channel_id"] = channelID
	}
	m["author"] = map[string]any{"id": userID, "username": username, "bot": true}
	return m
}

func notFound(w http.ResponseWriter) {
	writeJSON(w, http.StatusNotFound, map[string]any{"message": "404: Not Found", "code": 0})
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}
