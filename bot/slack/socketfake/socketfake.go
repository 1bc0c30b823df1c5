// Package socketfake is a local fake of Slack's Socket Mode and of the Web
// API methods a Socket Mode bot calls, for tests that run the real slack-go
// client (github.com/slack-go/slack v0.35.0, package socketmode) against it.
//
// # What it speaks
//
// Web API, under APIURL() (POST, form or JSON, token as a Bearer header or a
// token field):
//   - apps.connections.open with the app-level token answers
//     {"ok":true,"url":"ws://127.0.0.1:PORT/link/?ticket=N"}, or
//     {"ok":false,"error":"invalid_auth"} while RefuseToken(true) and
//     {"ok":false,"error":"not_authed"} without a token;
//   - auth.test answers ok with BotUserID, users.info answers a user named
//     after its id, chat.postMessage answers ok with a new ts
//     (1700000000.00000N), chat.update answers ok with the ts it was sent;
//     any other method answers {"ok":false,"error":"unknown_method"}.
//     Every call is recorded (Calls).
//
// Response URLs: ResponseURL(id) is a URL on the fake that records what is
// posted to it (Responses) and answers {"ok":true}; SendSlashCommand and the
// interactions a test builds can use it as response_url.
//
// Websocket, at /link/: {"type":"hello",...} first, then the envelopes the
// test sends ({"envelope_id","type":"slash_commands"|"interactive","payload",
// "accepts_response_payload":true}, or a "disconnect"), and a websocket ping
// every ping interval (socketmode reconnects when pings stop). Acks
// ({"envelope_id","payload"}) are recorded (Acks, WaitAck).
//
// # How socketmode v0.35.0 behaves against it
//
// Marked [test] where this package's tests check it, [src] where it was read
// in socketmode/socket_mode_managed_conn.go.
//
//   - While apps.connections.open cannot be reached (SetDown(true): connection
//     refused) RunContext does not return: it emits EventTypeConnecting, then
//     EventTypeConnectionError whose Data is *slack.ConnectionErrorEvent
//     (ErrorObj wraps syscall.ECONNREFUSED; Attempt 1, 2, 3, ...; Backoff
//     100 ms, 200 ms, 400 ms, ...) and tries again after Backoff, for as long
//     as ctx lasts. [test] The backoff is capped at 5 min and has no jitter.
//     [src] Once the fake is up it connects: EventTypeConnected, then
//     EventTypeHello. [test] The same holds after an outage that cut a live
//     connection. [test]
//   - With {"ok":false,"error":"invalid_auth"} it emits no EventTypeInvalidAuth
//     and no EventTypeConnectionError, and RunContext returns at once with a
//     slack.SlackErrorResponse (a value, not a pointer) whose Err is
//     "invalid_auth": errors.As(err, &slack.SlackErrorResponse{}) and
//     err.Error() == "invalid_auth". This holds on a reconnect too. [test]
//     account_inactive, not_authed and token_revoked are treated the same;
//     EventTypeInvalidAuth is sent only when apps.connections.open answers
//     HTTP 404, and RunContext then returns a slack.StatusCodeError. [src]
//   - A dropped connection (Drop, or an outage) emits no error event: the
//     next event is EventTypeConnecting with ConnectionCount one higher,
//     then EventTypeConnected after a new apps.connections.open. An
//     application that tracks "connected" must treat EventTypeConnecting as
//     "down". [test] A disconnect message (SendDisconnect) reconnects the
//     same way, sometimes with an EventTypeIncomingError first (the reader
//     of the socket socketmode closed itself). [test]
//   - When no websocket ping comes for OptionPingInterval (default 30 s) it
//     reconnects; the fake pings every second by default. [test]
//
// The package must not know about the bot: it is a platform fake.
package socketfake

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/gorilla/websocket"

	"github.com/connect4/connect4/bot/internal/fakews"
	slackapi "github.com/slack-go/slack"

	"github.com/connect4/connect4/bot/internal/outage"
)

// Identity the fake reports in auth.test and in the envelopes it builds.
const (
	TeamID    = "T0FAKE"
	AppID     = "A0FAKE"
	BotUserID = "U0BOT"
	BotID     = "B0BOT"
)

// ErrNotConnected is returned by the Send methods when no Socket Mode
// connection is open.
var ErrNotConnected = errors.New("socketfake: no socket mode connection")

// Ack is one acknowledgement the fake received.
type Ack struct {
	EnvelopeID string
	// Payload is the ack's payload as sent, or nil when it had none.
	Payload json.RawMessage
}

// Call is one Web API call the fake received.
type Call struct {
	// Method is the Web API method, for example "auth.test".
	Method string
	// Token is the token sent (Bearer header or token field).
	Token string
	// Args are the form fields, or the top-level fields of a JSON body.
	Args url.Values
	// At is when the fake received it.
	At time.Time
}

// Response is one post to a response URL of the fake.
type Response struct {
	// ID is the id given to ResponseURL.
	ID   string
	Body []byte
}

// Option changes a Server built by New.
type Option func(*Server)

// WithPingInterval sets how often the fake sends a websocket ping (default
// 1 s); 0 sends none. socketmode reconnects when no ping came within its
// OptionPingInterval (default 30 s).
func WithPingInterval(d time.Duration) Option {
	return func(s *Server) { s.ping = d }
}

// Server is a fake of Slack's Socket Mode and Web API. Its methods are safe
// for concurrent use. Close it when done.
type Server struct {
	out      *outage.Server
	upgrader websocket.Upgrader
	ping     time.Duration

	mu        sync.Mutex
	refuse    bool
	live      *conn
	conns     int
	opens     int
	envelopes int
	posts     int // the ts handed out by chat.postMessage
	calls     []Call
	acks      []Ack
	responses []Response
	closed    bool
	changed   fakews.Signal // wakes the waiters on every state change
	wg        sync.WaitGroup
}

// conn is one websocket connection.
type conn struct {
	fakews.Conn
	done chan struct{}
}

// New starts a fake on a free loopback port. It returns an error when no
// port can be opened.
func New(opts ...Option) (*Server, error) {
	s := &Server{ping: time.Second, upgrader: fakews.Upgrader()}
	for _, o := range opts {
		o(s)
	}
	out, err := outage.New(s.routes())
	if err != nil {
		return nil, fmt.Errorf("socketfake: %w", err)
	}
	s.out = out
	return s, nil
}

// routes is the fake's mux: Socket Mode, the Web API, response URLs.
func (s *Server) routes() *http.ServeMux {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /link/", s.serveWS)
	mux.HandleFunc("POST /api/{method}", s.serveAPI)
	mux.HandleFunc("POST /response/{id}", s.serveResponse)
	return mux
}

// APIURL returns the Web API base URL, ending in "/", for
// slack.OptionAPIURL (and the bot's SLACK_API_URL).
func (s *Server) APIURL() string { return s.out.URL() + "/api/" }

// ResponseURL returns a response_url on the fake whose posts are recorded
// under id.
func (s *Server) ResponseURL(id string) string {
	return s.out.URL() + "/response/" + url.PathEscape(id)
}

// SetDown switches the fake off or on. While down the port is closed
// (apps.connections.open and websocket dials fail with connection refused)
// and going down cuts the live connection without a close frame. It returns
// an error when the port cannot be opened again.
func (s *Server) SetDown(down bool) error {
	if err := s.out.SetDown(down); err != nil {
		return fmt.Errorf("socketfake: %w", err)
	}
	if down {
		s.Drop()
	}
	return nil
}

// RefuseToken makes apps.connections.open answer invalid_auth while refuse
// is true. The live connection is not affected.
func (s *Server) RefuseToken(refuse bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.refuse = refuse
}

// Drop cuts the live connection without a close frame, as a network
// failure would; socketmode opens a new one.
func (s *Server) Drop() {
	s.mu.Lock()
	c := s.live
	s.live = nil
	s.changed.NotifyLocked()
	s.mu.Unlock()
	if c != nil {
		_ = c.WS.Close()
	}
}

// Connections returns how many websocket connections the fake has accepted.
func (s *Server) Connections() int { return fakews.Read(&s.mu, &s.conns) }

// Opens returns how many apps.connections.open calls the fake has answered,
// refused ones included.
func (s *Server) Opens() int { return fakews.Read(&s.mu, &s.opens) }

// Connected reports whether a Socket Mode connection is open.
func (s *Server) Connected() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.live != nil
}

// WaitConnected blocks until a Socket Mode connection is open (hello sent),
// or ctx is done; it returns ctx.Err() then. After Drop it waits for the
// next connection.
func (s *Server) WaitConnected(ctx context.Context) error {
	return s.wait(ctx, func() bool { return s.live != nil })
}

// wait blocks until ok (called with s.mu held) is true or ctx is done.
func (s *Server) wait(ctx context.Context, ok func() bool) error {
	return s.changed.Wait(ctx, &s.mu, ok)
}

// SendSlashCommand sends cmd in a slash_commands envelope, as Slack does,
// and returns its envelope id. Empty TeamID, APIAppID, TriggerID and
// ResponseURL are filled in (the response URL is ResponseURL(envelope id)).
// It returns ErrNotConnected when no connection is open, or the write error.
func (s *Server) SendSlashCommand(cmd slackapi.SlashCommand) (string, error) {
	return s.send("slash_commands", func(id string) (json.RawMessage, error) {
		if cmd.TeamID == "" {
			cmd.TeamID = TeamID
		}
		if cmd.APIAppID == "" {
			cmd.APIAppID = AppID
		}
		if cmd.TriggerID == "" {
			cmd.TriggerID = "trigger-" + id
		}
		if cmd.ResponseURL == "" {
			cmd.ResponseURL = s.ResponseURL(id)
		}
		return json.Marshal(cmd)
	})
}

// SendInteraction sends payload (the JSON of an interaction, for example a
// block_actions callback) in an interactive envelope and returns its
// envelope id. It returns ErrNotConnected when no connection is open, an
// error when payload is not JSON, or the write error.
func (s *Server) SendInteraction(payload json.RawMessage) (string, error) {
	return s.send("interactive", func(string) (json.RawMessage, error) {
		if !json.Valid(payload) {
			return nil, errors.New("payload is not JSON")
		}
		return payload, nil
	})
}

// SendDisconnect sends a disconnect message with reason (Slack uses
// "warning", "refresh_requested", "link_disabled"); socketmode answers by
// opening a new connection. It returns ErrNotConnected or the write error.
func (s *Server) SendDisconnect(reason string) error {
	s.mu.Lock()
	c := s.live
	s.mu.Unlock()
	if c == nil {
		return ErrNotConnected
	}
	msg := map[string]any{"type": "disconnect", "reason": reason, "debug_info": map[string]any{"host": "socketfake"}}
	if err := c.WriteJSON(msg); err != nil {
		return fmt.Errorf("socketfake: send disconnect: %w", err)
	}
	return nil
}

// envelope is a Socket Mode message carrying a request.
type envelope struct {
	EnvelopeID             string          `json:"envelope_id"`
	Type                   string          `json:"type"`
	Payload                json.RawMessage `json:"payload"`
	AcceptsResponsePayload bool            `json:"accepts_response_payload"`
}

func (s *Server) send(typ string, build func(id string) (json.RawMessage, error)) (string, error) {
	s.mu.Lock()
	c := s.live
	s.envelopes++
	id := fmt.Sprintf("env-%d", s.envelopes)
	s.mu.Unlock()
	if c == nil {
		return "", ErrNotConnected
	}
	p, err := build(id)
	if err != nil {
		return "", fmt.Errorf("socketfake: send %s: %w", typ, err)
	}
	if err := c.WriteJSON(envelope{EnvelopeID: id, Type: typ, Payload: p, AcceptsResponsePayload: true}); err != nil {
		return "", fmt.Errorf("socketfake: send %s: %w", typ, err)
	}
	return id, nil
}

// Acks returns a copy of the acks received so far, in order.
func (s *Server) Acks() []Ack { return fakews.Copy(&s.mu, &s.acks) }

// WaitAck blocks until the ack of envelopeID has arrived and returns it, or
// returns ctx.Err() when ctx is done first.
func (s *Server) WaitAck(ctx context.Context, envelopeID string) (Ack, error) {
	var got Ack
	err := s.wait(ctx, func() bool {
		for _, a := range s.acks {
			if a.EnvelopeID == envelopeID {
				got = a
				return true
			}
		}
		return false
	})
	return got, err
}

// Calls returns a copy of the Web API calls received so far, in order.
func (s *Server) Calls() []Call { return fakews.Copy(&s.mu, &s.calls) }

// Responses returns a copy of the posts to response URLs so far, in order.
func (s *Server) Responses() []Response { return fakews.Copy(&s.mu, &s.responses) }

// WaitResponse blocks until a post to ResponseURL(id) has arrived and
// returns the first one, or returns ctx.Err() when ctx is done first.
func (s *Server) WaitResponse(ctx context.Context, id string) (Response, error) {
	var got Response
	err := s.wait(ctx, func() bool {
		for _, r := range s.responses {
			if r.ID == id {
				got = r
				return true
			}
		}
		return false
	})
	return got, err
}

// Close stops the fake, closes its connections and waits for its
// goroutines. It is safe to call more than once.
func (s *Server) Close() {
	s.mu.Lock()
	s.closed = true
	s.mu.Unlock()
	s.out.Close()
	s.Drop()
	s.wg.Wait()
}

func (s *Server) serveWS(w http.ResponseWriter, r *http.Request) {
	ws, err := s.upgrader.Upgrade(w, r, nil)
	if err != nil {
		return // Upgrade has answered with an error status
	}
	c := &conn{Conn: fakews.Conn{WS: ws}, done: make(chan struct{})}
	s.mu.Lock()
	if s.closed || s.out.Down() {
		s.mu.Unlock()
		_ = ws.Close()
		return
	}
	old := s.live
	s.conns++
	s.live = c
	s.wg.Add(1)
	s.changed.NotifyLocked()
	s.mu.Unlock()
	if old != nil {
		// Slack keeps several connections; the fake keeps the newest.
		_ = old.WS.Close()
	}
	defer s.wg.Done()
	defer func() {
		close(c.done)
		s.mu.Lock()
		if s.live == c {
			s.live = nil
			s.changed.NotifyLocked()
		}
		s.mu.Unlock()
		_ = ws.Close()
	}()
	hello := map[string]any{"type": "hello", "num_connections": 1,
		"debug_info":      map[string]any{"host": "socketfake", "approximate_connection_time": 18060},
		"connection_info": map[string]any{"app_id": AppID}}
	if err := c.WriteJSON(hello); err != nil {
		return
	}
	if s.ping > 0 {
		s.wg.Add(1)
		go s.pinger(c)
	}
	for {
		_, msg, err := ws.ReadMessage()
		if err != nil {
			return
		}
		var a struct {
			EnvelopeID string          `json:"envelope_id"`
			Payload    json.RawMessage `json:"payload"`
		}
		if err := json.Unmarshal(msg, &a); err != nil || a.EnvelopeID == "" {
			continue // Slack ignores what is not an ack
		}
		s.mu.Lock()
		s.acks = append(s.acks, Ack{EnvelopeID: a.EnvelopeID, Payload: a.Payload})
		s.changed.NotifyLocked()
		s.mu.Unlock()
	}
}

// pinger pings c every s.ping until c is closed.
func (s *Server) pinger(c *conn) {
	defer s.wg.Done()
	t := time.NewTicker(s.ping)
	defer t.Stop()
	for {
		select {
		case <-c.done:
			return
		case <-t.C:
			if err := c.WS.WriteControl(websocket.PingMessage, []byte("ping"), time.Now().Add(time.Second)); err != nil {
				return
			}
		}
	}
}

// args returns the token and the arguments of a Web API call.
func args(r *http.Request) (string, url.Values, error) {
	vals := url.Values{}
	ct, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if ct == "application/json" {
		var m map[string]any
		b, err := io.ReadAll(io.LimitReader(r.Body, 8<<20))
		if err != nil {
			return "", nil, err
		}
		if len(b) > 0 && string(b) != "null" {
			if err := json.Unmarshal(b, &m); err != nil {
				return "", nil, err
			}
		}
		for k, v := range m {
			if str, ok := v.(string); ok {
				vals.Set(k, str)
				continue
			}
			j, _ := json.Marshal(v)
			vals.Set(k, string(j))
		}
	} else {
		if err := r.ParseForm(); err != nil {
			return "", nil, err
		}
		vals = r.PostForm
	}
	token, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	if !ok {
		token = vals.Get("token")
	}
	return token, vals, nil
}

func (s *Server) serveAPI(w http.ResponseWriter, r *http.Request) {
	method := r.PathValue("method")
	token, vals, err := args(r)
	if err != nil {
		writeJSON(w, map[string]any{"ok": false, "error": "invalid_arguments"})
		return
	}
	s.mu.Lock()
	s.calls = append(s.calls, Call{Method: method, Token: token, Args: vals, At: time.Now()})
	refuse := s.refuse
	if method == "apps.connections.open" {
		s.opens++
	}
	ticket := s.opens
	if method == "chat.postMessage" {
		s.posts++
	}
	ts := fmt.Sprintf("1700000000.%06d", s.posts)
	s.changed.NotifyLocked()
	s.mu.Unlock()
	if token == "" {
		writeJSON(w, map[string]any{"ok": false, "error": "not_authed"})
		return
	}
	switch method {
	case "apps.connections.open":
		if refuse {
			writeJSON(w, map[string]any{"ok": false, "error": "invalid_auth"})
			return
		}
		writeJSON(w, map[string]any{"ok": true, "url": "ws://" + s.out.Addr() + "/link/?ticket=" + strconv.Itoa(ticket)})
	case "auth.test":
		writeJSON(w, map[string]any{"ok": true, "url": "https://socketfake.slack.invalid/", "team": "Fake", "user": "connect4",
			"team_id": TeamID, "user_id": BotUserID, "bot_id": BotID})
	case "users.info":
		id := vals.Get("user")
		if id == "" {
			writeJSON(w, map[string]any{"ok": false, "error": "user_not_found"})
			return
		}
		writeJSON(w, map[string]any{"ok": true, "user": map[string]any{"id": id, "team_id": TeamID, "name": "user-" + id,
			"real_name": "User " + id, "profile": map[string]any{"display_name": "user-" + id, "real_name": "User " + id}}})
	case "chat.postMessage":
		writeJSON(w, map[string]any{"ok": true, "channel": vals.Get("channel"), "ts": ts,
			"message": map[string]any{"text": vals.Get("text"), "ts": ts}})
	case "chat.update":
		writeJSON(w, map[string]any{"ok": true, "channel": vals.Get("channel"), "ts": vals.Get("ts"), "text": vals.Get("text")})
	default:
		writeJSON(w, map[string]any{"ok": false, "error": "unknown_method"})
	}
}

func (s *Server) serveResponse(w http.ResponseWriter, r *http.Request) {
	b, err := io.ReadAll(io.LimitReader(r.Body, 8<<20))
	if err != nil {
		http.Error(w, "read body", http.StatusBadRequest)
		return
	}
	s.mu.Lock()
	s.responses = append(s.responses, Response{ID: r.PathValue("id"), Body: b})
	s.changed.NotifyLocked()
	s.mu.Unlock()
	writeJSON(w, map[string]any{"ok": true})
}

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(v)
}
