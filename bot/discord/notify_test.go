package discord

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	discordgo "github.com/bwmarrin/discordgo"

	"github.com/connect4/connect4/bot"
	"github.com/connect4/connect4/bot/match"
	"github.com/connect4/connect4/sessions"
	"github.com/connect4/connect4/sessions/storetest"
)

// TestNotifyErrors: the bot's own edits go to the channel message with the
// bot token; a 429 comes back with its retry_after (discordgo does not
// sleep in the call), a 404 is undeliverable, and without a token nothing
// is sent.
func TestNotifyErrors(t *testing.T) {
	var answer func(w http.ResponseWriter)
	var paths []string
	api := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		paths = append(paths, r.Method+" "+r.URL.Path)
		if got := r.Header.Get("Authorization"); got != "Bot tok" {
			t.Errorf("%s with Authorization %q, want the bot token", r.URL.Path, got)
		}
		w.Header().Set("Content-Type", "application/json")
		answer(w)
	}))
	defer api.Close()
	svc := bot.New(storetest.NewMemory(t, sessions.Options{}), bot.Options{})
	a, err := New(svc, Config{BotToken: "tok", ApplicationID: "1", APIURL: api.URL}, nil)
	if err != nil {
		t.Fatal(err)
	}
	k := match.Key{Platform: Platform, Workspace: "G1", Channel: "C1"}
	ref := match.MessageRef{Channel: "C1", MessageID: "M1"}
	r := bot.Reply{Visibility: bot.Update, Text: "The challenge expired."}
	for _, tc := range []struct {
		name   string
		answer func(w http.ResponseWriter)
		check  func(err error) bool
	}{
		{"ok", func(w http.ResponseWriter) { fmt.Fprint(w, `{"id":"M1","channel_id":"C1"}`) }, func(err error) bool { return err == nil }},
		{"429", func(w http.ResponseWriter) {
			w.WriteHeader(http.StatusTooManyRequests)
			fmt.Fprint(w, `{"message":"You are being rate limited.","retry_after":1.5,"global":false}`)
		}, func(err error) bool {
			var rl *bot.RateLimitError
			return errors.As(err, &rl) && rl.After == 1500*time.Millisecond
		}},
		{"gone", func(w http.ResponseWriter) {
			w.WriteHeader(http.StatusNotFound)
			fmt.Fprint(w, `{"message":"Unknown Message","code":10008}`)
		}, func(err error) bool { return errors.Is(err, bot.ErrUndeliverable) }},
	} {
		answer = tc.answer
		paths = nil
		start := time.Now()
		if err := a.Edit(t.Context(), k, ref, r); !tc.check(err) {
			t.Errorf("%s, edit: err = %v", tc.name, err)
		}
		if err := a.Post(t.Context(), k, ref, r); !tc.check(err) {
			t.Errorf("%s, post: err = %v", tc.name, err)
		}
		if want := "PATCH /api/v9/channels/C1/messages/M1,POST /api/v9/channels/C1/messages"; strings.Join(paths, ",") != want {
			t.Errorf("%s: requests %q, want %q", tc.name, paths, want)
		}
		if tc.name == "429" && time.Since(start) > time.Second {
			t.Errorf("a 429 took %v: discordgo slept in the call instead of handing back the retry-after", time.Since(start))
		}
	}
	noToken, err := New(svc, Config{PublicKey: strings.Repeat("ab", 32), APIURL: api.URL}, nil)
	if err != nil {
		t.Fatal(err)
	}
	paths = nil
	if err := noToken.Edit(t.Context(), k, ref, r); !errors.Is(err, bot.ErrUndeliverable) || noToken.CanNotify() || len(paths) != 0 {
		t.Errorf("Edit without a token = %v (CanNotify %v, %d requests), want ErrUndeliverable and no request", err, noToken.CanNotify(), len(paths))
	}
}

// TestEditV2Message: a game shown as a picture is a Components V2
// message, which refuses an edit with content (400); the bot's own edit
// is then sent again in the V2 shape: the flag, null content, the
// container, no attachments.
func TestEditV2Message(t *testing.T) {
	var bodies []map[string]any
	api := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var b map[string]any
		if err := json.NewDecoder(r.Body).Decode(&b); err != nil {
			t.Errorf("%s: body: %v", r.URL.Path, err)
		}
		bodies = append(bodies, b)
		w.Header().Set("Content-Type", "application/json")
		if b["content"] != nil {
			w.WriteHeader(http.StatusBadRequest)
			fmt.Fprint(w, `{"message":"Invalid Form Body","code":50035}`)
			return
		}
		fmt.Fprint(w, `{"id":"M1","channel_id":"C1"}`)
	}))
	defer api.Close()
	svc := bot.New(storetest.NewMemory(t, sessions.Options{}), bot.Options{})
	a, err := New(svc, Config{BotToken: "tok", ApplicationID: "1", APIURL: api.URL}, nil)
	if err != nil {
		t.Fatal(err)
	}
	k := match.Key{Platform: Platform, Workspace: "G1", Channel: "C1"}
	r := bot.Reply{Visibility: bot.Update, Text: "This game was abandoned."}
	if err := a.Edit(t.Context(), k, match.MessageRef{Channel: "C1", MessageID: "M1"}, r); err != nil {
		t.Fatalf("Edit of a V2 message: %v", err)
	}
	if len(bodies) != 2 {
		t.Fatalf("%d requests, want the legacy edit and the V2 one", len(bodies))
	}
	v2 := bodies[1]
	comps, _ := v2["components"].([]any)
	if flags, _ := v2["flags"].(float64); int(flags)&int(discordgo.MessageFlagsIsComponentsV2) == 0 || v2["content"] != nil || len(comps) == 0 ||
		!strings.Contains(fmt.Sprint(comps), "abandoned") {
		t.Errorf("V2 edit %v, want the V2 flag, null content and the text in a container", v2)
	}
}

// TestAttachAfterCommand: with a bot token, the id of a command's public
// reply is read back (GET .../messages/@original) once the response is
// sent, and attached to the game for the bot's own edits.
func TestAttachAfterCommand(t *testing.T) {
	st := storetest.NewMemory(t, sessions.Options{})
	f := newFixtureWith(t, st, 0, func(c *Config) { c.BotToken = "tok" })
	f.challenge("200000000000000001", "200000000000000002")
	deadline := time.Now().Add(10 * time.Second)
	for {
		rec := f.record(guildID)
		if rec != nil && rec.Message.MessageID != "" {
			if rec.Message.Channel != chanID {
				t.Fatalf("attached %+v, want channel %s", rec.Message, chanID)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no message attached; calls %+v", f.fake.take())
		}
		time.Sleep(5 * time.Millisecond)
	}
	var got bool
	for _, c := range f.fake.take() {
		got = got || c.Method == http.MethodGet && strings.HasSuffix(c.Path, "/messages/@original")
	}
	if !got {
		t.Error("no GET of @original")
	}
}

// TestTypedCancelEditsChallenge: a typed /connect4 cancel edits the
// challenge's own message (PATCH, without its buttons) so that its Accept
// is not left live (issue 30).
func TestTypedCancelEditsChallenge(t *testing.T) {
	st := storetest.NewMemory(t, sessions.Options{})
	f := newFixtureWith(t, st, 0, func(c *Config) { c.BotToken = "tok" })
	f.challenge("200000000000000001", "200000000000000002")
	var ref match.MessageRef
	deadline := time.Now().Add(10 * time.Second)
	for ref.MessageID == "" {
		if rec := f.record(guildID); rec != nil {
			ref = rec.Message
		}
		if time.Now().After(deadline) {
			t.Fatalf("no message attached; calls %+v", f.fake.take())
		}
		time.Sleep(5 * time.Millisecond)
	}
	f.fake.take()
	want(t, f.slash("200000000000000001", "cancel", nil), typeMessage, 0, "withdrew")
	path := "/channels/" + ref.Channel + "/messages/" + ref.MessageID
	for {
		for _, c := range f.fake.take() {
			if c.Method == http.MethodPatch && strings.HasSuffix(c.Path, path) {
				if !strings.Contains(string(c.Body), "withdrew") || strings.Contains(string(c.Body), "Accept") {
					t.Errorf("edit %s, want the withdrawal without Accept", c.Body)
				}
				return
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("the challenge's message %s was not edited", path)
		}
		time.Sleep(5 * time.Millisecond)
	}
}
