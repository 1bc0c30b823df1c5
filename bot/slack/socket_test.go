package slack

import (
	"context"
	"encoding/json"
	"net/url"
	"slices"
	"sync"
	"testing"
	"time"

	slackapi "github.com/slack-go/slack"
	"github.com/slack-go/slack/socketmode"

	"github.com/connect4/connect4/bot"
	"github.com/connect4/connect4/sessions"
	"github.com/connect4/connect4/sessions/storetest"
)

// fakeAcker records Socket Mode acks.
type fakeAcker struct {
	mu   sync.Mutex
	acks []ack
}

type ack struct {
	envelope string
	payload  any
}

func (f *fakeAcker) AckCtx(_ context.Context, envelope string, payload any) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.acks = append(f.acks, ack{envelope, payload})
	return nil
}

func (f *fakeAcker) all() []ack {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Clone(f.acks)
}

// payloadOf decodes an ack payload as Slack would read it.
func payloadOf(t *testing.T, a ack) posted {
	t.Helper()
	js, err := json.Marshal(a.payload)
	if err != nil {
		t.Fatal(err)
	}
	var p posted
	if err := json.Unmarshal(js, &p); err != nil {
		t.Fatalf("ack payload %s: %v", js, err)
	}
	return p
}

func slashEvent(envelope, user, text string) socketmode.Event {
	return socketmode.Event{
		Type: socketmode.EventTypeSlashCommand,
		Data: slackapi.SlashCommand{TeamID: testTeam, ChannelID: testChan, UserID: user, UserName: user,
			Command: "/connect4", Text: text},
		Request: &socketmode.Request{Type: socketmode.RequestTypeSlashCommands, EnvelopeID: envelope},
	}
}

// clickEvent is the Socket Mode event for the click of e.clickPayload.
func clickEvent(t *testing.T, e *env, envelope, user, actionID, value string) socketmode.Event {
	t.Helper()
	form, err := url.ParseQuery(string(e.clickPayload(user, actionID, value)))
	if err != nil {
		t.Fatal(err)
	}
	var ic slackapi.InteractionCallback
	if err := json.Unmarshal([]byte(form.Get("payload")), &ic); err != nil {
		t.Fatal(err)
	}
	return socketmode.Event{Type: socketmode.EventTypeInteractive, Data: ic,
		Request: &socketmode.Request{Type: socketmode.RequestTypeInteractive, EnvelopeID: envelope}}
}

// TestSocketModeRouting drives the Socket Mode dispatcher with the events
// the socketmode client emits: slash commands are answered in their ack,
// clicks are acked empty and answered on the response_url, exactly as over
// HTTP.
func TestSocketModeRouting(t *testing.T) {
	e := newEnv(t, storetest.NewMemory(t, sessions.Options{}), Config{AppToken: "xapp-1-test"})
	f := &fakeAcker{}
	ctx := t.Context()

	e.a.dispatch(ctx, f, slashEvent("env-1", "UA", "<@UB>"))
	e.wait()
	acks := f.all()
	if len(acks) != 1 || acks[0].envelope != "env-1" {
		t.Fatalf("acks %+v, want one for env-1", acks)
	}
	ch := payloadOf(t, acks[0])
	wantPosted(t, ch, inChannel, false, "challenges <@UB>")
	accept := button(ch, "Accept")
	if accept == nil {
		t.Fatalf("no Accept button in the ack: %v", labels(ch))
	}

	e.a.dispatch(ctx, f, clickEvent(t, e, "env-2", "UB", accept.ActionID, accept.Value))
	e.wait()
	acks = f.all()
	if len(acks) != 2 || acks[1].envelope != "env-2" || acks[1].payload != nil {
		t.Fatalf("acks %+v, want an empty ack for env-2", acks)
	}
	e.mu.Lock()
	got := slices.Clone(e.received)
	e.mu.Unlock()
	if len(got) != 1 {
		t.Fatalf("response_url got %d messages, want 1", len(got))
	}
	wantPosted(t, got[0], "", true, "<@UB> accepted!")

	// Unknown text: the help, ephemeral, in the ack.
	e.a.dispatch(ctx, f, slashEvent("env-3", "UA", "dance"))
	e.wait()
	wantPosted(t, payloadOf(t, f.all()[2]), ephemeral, false, "didn't understand")

	// Events we do not handle are acked without a reply; connection events
	// and events without an envelope are not acked.
	e.a.dispatch(ctx, f, socketmode.Event{Type: socketmode.EventTypeEventsAPI, Request: &socketmode.Request{EnvelopeID: "env-4"}})
	e.a.dispatch(ctx, f, socketmode.Event{Type: socketmode.EventTypeConnected})
	e.a.dispatch(ctx, f, socketmode.Event{Type: socketmode.EventTypeSlashCommand}) // no request
	e.a.dispatch(ctx, f, socketmode.Event{Type: socketmode.EventTypeHello, Request: &socketmode.Request{Type: "hello"}})
	// Data of the wrong type: acked, not answered, no panic.
	e.a.dispatch(ctx, f, socketmode.Event{Type: socketmode.EventTypeSlashCommand, Data: "garbage", Request: &socketmode.Request{EnvelopeID: "env-5"}})
	e.a.dispatch(ctx, f, socketmode.Event{Type: socketmode.EventTypeInteractive, Data: 42, Request: &socketmode.Request{EnvelopeID: "env-6"}})
	// A malformed click: acked, nothing posted.
	bad := clickEvent(t, e, "env-7", "UB", accept.ActionID, accept.Value)
	ic := bad.Data.(slackapi.InteractionCallback)
	ic.ResponseURL = ""
	bad.Data = ic
	e.a.dispatch(ctx, f, bad)
	e.wait()
	var envelopes []string
	for _, a := range f.all()[3:] {
		if a.payload != nil {
			t.Errorf("ack %s carries %v, want none", a.envelope, a.payload)
		}
		envelopes = append(envelopes, a.envelope)
	}
	if want := []string{"env-4", "env-5", "env-6", "env-7"}; !slices.Equal(envelopes, want) {
		t.Fatalf("acked %v, want %v", envelopes, want)
	}
	if n := len(e.received); n != 1 {
		t.Fatalf("response_url got %d messages after the bad events, want still 1", n)
	}
	obs := e.observations()
	want := []observation{{"challenge", bot.OutcomeOK.String()}, {"accept", bot.OutcomeOK.String()}, {kindUnknown, bot.OutcomeRefused.String()},
		{kindUnknown, bot.OutcomeBadRequest.String()}, {kindUnknown, bot.OutcomeBadRequest.String()}, {kindUnknown, bot.OutcomeBadRequest.String()}}
	if !slices.Equal(obs, want) {
		t.Fatalf("observed %v, want %v", obs, want)
	}
}

// TestRunSocketModeNeedsTokens checks the refusal to start without tokens,
// and that RunSocketMode returns when its context ends.
func TestRunSocketModeNeedsTokens(t *testing.T) {
	e := newEnv(t, storetest.NewMemory(t, sessions.Options{}), Config{})
	if err := e.a.RunSocketMode(t.Context()); err == nil {
		t.Fatal("RunSocketMode without an app token: nil error")
	}
	// With tokens, against the fake Web API, which has no real socket: it
	// must stop when told to.
	e2 := newEnv(t, storetest.NewMemory(t, sessions.Options{}), Config{AppToken: "xapp-1-test"})
	ctx, cancel := context.WithTimeout(t.Context(), 300*time.Millisecond)
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- e2.a.RunSocketMode(ctx) }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("RunSocketMode did not return after its context ended")
	}
}
