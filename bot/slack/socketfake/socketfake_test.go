package socketfake

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"log"
	"slices"
	"sync"
	"syscall"
	"testing"
	"time"

	slackapi "github.com/slack-go/slack"
	"github.com/slack-go/slack/socketmode"
)

func newFake(t *testing.T, opts ...Option) *Server {
	t.Helper()
	f, err := New(opts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(f.Close)
	return f
}

// client runs a socketmode.Client against the fake and records its events.
type client struct {
	api  *slackapi.Client
	sm   *socketmode.Client
	errc chan error // RunContext's result

	mu  sync.Mutex
	evs []socketmode.Event
	ch  chan socketmode.Event
}

// run starts RunContext; it is stopped after the test.
func run(t *testing.T, f *Server, opts ...socketmode.Option) *client {
	t.Helper()
	api := slackapi.New("xoxb-bot", slackapi.OptionAppLevelToken("xapp-app"), slackapi.OptionAPIURL(f.APIURL()))
	opts = append([]socketmode.Option{socketmode.OptionLog(log.New(io.Discard, "", 0))}, opts...)
	c := &client{api: api, sm: socketmode.New(api, opts...), errc: make(chan error, 1), ch: make(chan socketmode.Event, 1000)}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		for {
			select {
			case e := <-c.sm.Events:
				c.mu.Lock()
				c.evs = append(c.evs, e)
				c.mu.Unlock()
				c.ch <- e
			case <-done:
				return
			}
		}
	}()
	go func() { c.errc <- c.sm.RunContext(ctx) }()
	t.Cleanup(func() {
		cancel()
		select {
		case <-c.errc:
		case <-time.After(3 * time.Second):
			t.Error("RunContext did not return after its context was cancelled")
		}
		close(done)
	})
	return c
}

// next returns the next event of type typ, skipping others.
func (c *client) next(t *testing.T, typ socketmode.EventType, d time.Duration) socketmode.Event {
	t.Helper()
	timeout := time.After(d)
	for {
		select {
		case e := <-c.ch:
			if e.Type == typ {
				return e
			}
		case <-timeout:
			t.Fatalf("no %s event within %v; events so far: %v", typ, d, c.types())
			return socketmode.Event{}
		}
	}
}

func (c *client) types() []socketmode.EventType {
	c.mu.Lock()
	defer c.mu.Unlock()
	var ts []socketmode.EventType
	for _, e := range c.evs {
		ts = append(ts, e.Type)
	}
	return ts
}

func ctxTimeout(t *testing.T, d time.Duration) context.Context {
	ctx, cancel := context.WithTimeout(t.Context(), d)
	t.Cleanup(cancel)
	return ctx
}

func waitConnected(t *testing.T, f *Server) {
	t.Helper()
	if err := f.WaitConnected(ctxTimeout(t, 3*time.Second)); err != nil {
		t.Fatalf("WaitConnected = %v", err)
	}
}

// slashRoundTrip sends a slash command, checks the event and acks it with a
// payload that the fake must record.
func slashRoundTrip(t *testing.T, f *Server, c *client, text string) {
	t.Helper()
	id, err := f.SendSlashCommand(slackapi.SlashCommand{Command: "/connect4", Text: text, ChannelID: "C1", UserID: "U1"})
	if err != nil {
		t.Fatalf("SendSlashCommand = %v", err)
	}
	e := c.next(t, socketmode.EventTypeSlashCommand, 3*time.Second)
	sc, ok := e.Data.(slackapi.SlashCommand)
	want := slackapi.SlashCommand{Command: "/connect4", Text: text, ChannelID: "C1", UserID: "U1", TeamID: TeamID,
		APIAppID: AppID, TriggerID: "trigger-" + id, ResponseURL: f.ResponseURL(id)}
	if !ok || sc != want || e.Request == nil || e.Request.EnvelopeID != id {
		t.Fatalf("event %+v (request %+v), want slash command %+v in envelope %s", e.Data, e.Request, want, id)
	}
	if err := c.sm.Ack(*e.Request, map[string]string{"text": "ack " + text}); err != nil {
		t.Fatalf("Ack = %v", err)
	}
	a, err := f.WaitAck(ctxTimeout(t, 3*time.Second), id)
	if err != nil {
		t.Fatalf("WaitAck(%s) = %v", id, err)
	}
	var p struct{ Text string }
	if err := json.Unmarshal(a.Payload, &p); err != nil || p.Text != "ack "+text {
		t.Fatalf("ack payload %s (%v), want text %q", a.Payload, err, "ack "+text)
	}
}

func TestSlashCommandAndInteractionAreDeliveredAndAcked(t *testing.T) {
	t.Parallel()
	f := newFake(t)
	c := run(t, f)
	waitConnected(t, f)
	c.next(t, socketmode.EventTypeHello, 3*time.Second)
	if got, want := c.types()[:3], []socketmode.EventType{socketmode.EventTypeConnecting, socketmode.EventTypeConnected, socketmode.EventTypeHello}; !slices.Equal(got, want) {
		t.Fatalf("first events %v, want %v", got, want)
	}
	slashRoundTrip(t, f, c, "challenge <@U2>")

	id, err := f.SendInteraction(json.RawMessage(`{"type":"block_actions","team":{"id":"T0FAKE"},"user":{"id":"U2"},
		"channel":{"id":"C1"},"response_url":"` + f.ResponseURL("click") + `","actions":[{"block_id":"board","action_id":"drop_3","value":"3","type":"button"}]}`))
	if err != nil {
		t.Fatalf("SendInteraction = %v", err)
	}
	e := c.next(t, socketmode.EventTypeInteractive, 3*time.Second)
	ic, ok := e.Data.(slackapi.InteractionCallback)
	if !ok || ic.Type != slackapi.InteractionTypeBlockActions || len(ic.ActionCallback.BlockActions) != 1 ||
		ic.ActionCallback.BlockActions[0].ActionID != "drop_3" || ic.User.ID != "U2" {
		t.Fatalf("interactive event %+v, want a block_actions click on drop_3 by U2", e.Data)
	}
	if err := c.sm.Ack(*e.Request); err != nil {
		t.Fatalf("Ack = %v", err)
	}
	a, err := f.WaitAck(ctxTimeout(t, 3*time.Second), id)
	if err != nil || a.Payload != nil {
		t.Fatalf("WaitAck = %+v, %v, want an ack without payload", a, err)
	}
	if len(f.Acks()) != 2 {
		t.Fatalf("Acks() = %+v, want 2", f.Acks())
	}
	calls := f.Calls()
	if len(calls) != 1 || calls[0].Method != "apps.connections.open" || calls[0].Token != "xapp-app" {
		t.Fatalf("Calls() = %+v, want one apps.connections.open with the app token", calls)
	}
}

func TestReconnects(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		cut  func(*Server) error
		// mayReportRead: socketmode closes the socket itself on a
		// disconnect message, and its reader may or may not get to send
		// an incoming_error (use of closed network connection) first.
		mayReportRead bool
	}{
		{"drop", func(f *Server) error { f.Drop(); return nil }, false},
		{"disconnect message", func(f *Server) error { return f.SendDisconnect("refresh_requested") }, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			f := newFake(t)
			c := run(t, f)
			waitConnected(t, f)
			c.next(t, socketmode.EventTypeConnected, 3*time.Second)
			slashRoundTrip(t, f, c, "one")
			if err := tt.cut(f); err != nil {
				t.Fatal(err)
			}
			// No error event: the sign of the drop is a new Connecting.
			e := c.next(t, socketmode.EventTypeConnecting, 3*time.Second)
			if ce, ok := e.Data.(*slackapi.ConnectingEvent); !ok || ce.ConnectionCount != 1 {
				t.Fatalf("Connecting after the cut = %+v, want ConnectionCount 1", e.Data)
			}
			e = c.next(t, socketmode.EventTypeConnected, 3*time.Second)
			if ce, ok := e.Data.(*socketmode.ConnectedEvent); !ok || ce.ConnectionCount != 1 {
				t.Fatalf("Connected after the cut = %+v, want ConnectionCount 1", e.Data)
			}
			waitConnected(t, f)
			if f.Connections() != 2 || f.Opens() != 2 {
				t.Fatalf("Connections, Opens = %d, %d, want 2, 2", f.Connections(), f.Opens())
			}
			for _, ty := range c.types() {
				if ty == socketmode.EventTypeConnectionError || (ty == socketmode.EventTypeIncomingError && !tt.mayReportRead) {
					t.Fatalf("events %v, want no error event for a cut connection", c.types())
				}
			}
			slashRoundTrip(t, f, c, "two")
		})
	}
}

func TestDownAtStartIsRetried(t *testing.T) {
	t.Parallel()
	f := newFake(t)
	if err := f.SetDown(true); err != nil {
		t.Fatal(err)
	}
	c := run(t, f)
	for i := range 3 {
		e := c.next(t, socketmode.EventTypeConnectionError, 3*time.Second)
		ce, ok := e.Data.(*slackapi.ConnectionErrorEvent)
		if !ok || !errors.Is(ce.ErrorObj, syscall.ECONNREFUSED) {
			t.Fatalf("connection error %d = %+v, want one wrapping ECONNREFUSED", i, e.Data)
		}
		if want := 100 * time.Millisecond << i; ce.Backoff != want || ce.Attempt != i+1 {
			t.Fatalf("connection error %d: attempt %d, backoff %v, want %d, %v", i, ce.Attempt, ce.Backoff, i+1, want)
		}
	}
	select {
	case err := <-c.errc:
		t.Fatalf("RunContext returned %v while the fake was down, want it to keep retrying", err)
	default:
	}
	if err := f.SetDown(false); err != nil {
		t.Fatal(err)
	}
	waitConnected(t, f)
	c.next(t, socketmode.EventTypeConnected, 3*time.Second)
	slashRoundTrip(t, f, c, "late")
}

func TestOutageWhileConnectedIsRetried(t *testing.T) {
	t.Parallel()
	f := newFake(t)
	c := run(t, f)
	waitConnected(t, f)
	if err := f.SetDown(true); err != nil {
		t.Fatal(err)
	}
	c.next(t, socketmode.EventTypeConnectionError, 3*time.Second)
	if err := f.SetDown(false); err != nil {
		t.Fatal(err)
	}
	waitConnected(t, f)
	c.next(t, socketmode.EventTypeConnected, 3*time.Second)
	slashRoundTrip(t, f, c, "after outage")
}

func TestInvalidAuthEndsRunContext(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name          string
		afterConnect  bool
		wantConnected int
	}{
		{"at start", false, 0},
		{"on reconnect", true, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			f := newFake(t)
			if !tt.afterConnect {
				f.RefuseToken(true)
			}
			c := run(t, f)
			if tt.afterConnect {
				// The fake sees the connection before the client has read
				// its hello: wait for the client's Connected, or the drop
				// may come first and leave none.
				waitConnected(t, f)
				c.next(t, socketmode.EventTypeConnected, 3*time.Second)
				f.RefuseToken(true)
				f.Drop()
			}
			var err error
			select {
			case err = <-c.errc:
				c.errc <- err // for the cleanup
			case <-time.After(3 * time.Second):
				t.Fatalf("RunContext still running after invalid_auth; events %v", c.types())
			}
			var se slackapi.SlackErrorResponse
			if !errors.As(err, &se) || se.Err != "invalid_auth" || err.Error() != "invalid_auth" {
				t.Fatalf("RunContext = %T %v, want slack.SlackErrorResponse invalid_auth", err, err)
			}
			connected := 0
			for _, ty := range c.types() {
				switch ty {
				case socketmode.EventTypeInvalidAuth, socketmode.EventTypeConnectionError:
					t.Fatalf("events %v, want no %s for invalid_auth", c.types(), ty)
				case socketmode.EventTypeConnected:
					connected++
				}
			}
			if connected != tt.wantConnected {
				t.Fatalf("events %v, want %d Connected", c.types(), tt.wantConnected)
			}
		})
	}
}

func TestMissingPingsMakeSocketModeReconnect(t *testing.T) {
	t.Parallel()
	f := newFake(t, WithPingInterval(0))
	c := run(t, f, socketmode.OptionPingInterval(300*time.Millisecond))
	waitConnected(t, f)
	c.next(t, socketmode.EventTypeConnected, 3*time.Second)
	e := c.next(t, socketmode.EventTypeConnecting, 3*time.Second)
	if ce, ok := e.Data.(*slackapi.ConnectingEvent); !ok || ce.ConnectionCount != 1 {
		t.Fatalf("Connecting = %+v, want a reconnect (ConnectionCount 1) after the ping timeout", e.Data)
	}

	// With pings, the same client stays on its first connection.
	g := newFake(t, WithPingInterval(100*time.Millisecond))
	run(t, g, socketmode.OptionPingInterval(300*time.Millisecond))
	waitConnected(t, g)
	time.Sleep(time.Second)
	if g.Connections() != 1 {
		t.Fatalf("Connections() with pings = %d, want 1", g.Connections())
	}
}

func TestWebAPI(t *testing.T) {
	t.Parallel()
	f := newFake(t)
	api := slackapi.New("xoxb-bot", slackapi.OptionAPIURL(f.APIURL()))
	ctx := t.Context()
	at, err := api.AuthTestContext(ctx)
	if err != nil || at.UserID != BotUserID || at.TeamID != TeamID || at.BotID != BotID {
		t.Fatalf("AuthTest = %+v, %v, want user %s in %s", at, err, BotUserID, TeamID)
	}
	u, err := api.GetUserInfoContext(ctx, "U5")
	if err != nil || u.ID != "U5" || u.Name != "user-U5" {
		t.Fatalf("GetUserInfo(U5) = %+v, %v, want user-U5", u, err)
	}
	ch, ts, err := api.PostMessageContext(ctx, "C1", slackapi.MsgOptionText("hi", false))
	if err != nil || ch != "C1" || ts != "1700000000.000001" {
		t.Fatalf("PostMessage = %q, %q, %v, want C1 and the first ts", ch, ts, err)
	}
	if _, ts2, err := api.PostMessageContext(ctx, "C1", slackapi.MsgOptionText("again", false)); err != nil || ts2 != "1700000000.000002" {
		t.Fatalf("second PostMessage = %q, %v, want the next ts", ts2, err)
	}
	if _, uts, _, err := api.UpdateMessageContext(ctx, "C1", ts, slackapi.MsgOptionText("edited", false)); err != nil || uts != ts {
		t.Fatalf("UpdateMessage = %q, %v, want ts %s", uts, err, ts)
	}
	if _, err := api.GetConversationInfoContext(ctx, &slackapi.GetConversationInfoInput{ChannelID: "C1"}); err == nil || err.Error() != "unknown_method" {
		t.Fatalf("conversations.info = %v, want unknown_method", err)
	}
	if err := slackapi.PostWebhookContext(ctx, f.ResponseURL("r1"), &slackapi.WebhookMessage{Text: "board", ReplaceOriginal: true}); err != nil {
		t.Fatalf("PostWebhook = %v", err)
	}
	r, err := f.WaitResponse(ctxTimeout(t, time.Second), "r1")
	var body struct {
		Text            string `json:"text"`
		ReplaceOriginal bool   `json:"replace_original"`
	}
	if err != nil || json.Unmarshal(r.Body, &body) != nil || body.Text != "board" || !body.ReplaceOriginal {
		t.Fatalf("response r1 = %s, %v, want text board replacing the original", r.Body, err)
	}
	want := []string{"auth.test xoxb-bot", "users.info xoxb-bot", "chat.postMessage xoxb-bot", "chat.postMessage xoxb-bot",
		"chat.update xoxb-bot", "conversations.info xoxb-bot"}
	var got []string
	for _, c := range f.Calls() {
		got = append(got, c.Method+" "+c.Token)
	}
	if !slices.Equal(got, want) || f.Calls()[1].Args.Get("user") != "U5" {
		t.Fatalf("Calls() = %+v, want %q with user U5", f.Calls(), want)
	}

	noToken := slackapi.New("", slackapi.OptionAPIURL(f.APIURL()))
	if _, err := noToken.AuthTestContext(ctx); err == nil || err.Error() != "not_authed" {
		t.Fatalf("AuthTest without a token = %v, want not_authed", err)
	}
	if _, err := f.SendSlashCommand(slackapi.SlashCommand{}); !errors.Is(err, ErrNotConnected) {
		t.Fatalf("SendSlashCommand without a connection = %v, want ErrNotConnected", err)
	}
	if err := f.WaitConnected(ctxTimeout(t, 50*time.Millisecond)); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("WaitConnected without a client = %v, want DeadlineExceeded", err)
	}
}
