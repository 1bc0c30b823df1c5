package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	slackapi "github.com/slack-go/slack"

	"github.com/connect4/connect4/bot/discord/discordtest"
	"github.com/connect4/connect4/bot/discord/gatewayfake"
	"github.com/connect4/connect4/bot/slack/socketfake"
)

// Short timings for the timed-message tests: a challenge lapses and a
// reminder comes a second after, the worker looks every 50 ms.
var timedEnv = []string{"CONNECT4_CHALLENGE_TTL", "1s", "CONNECT4_REMIND_AFTER", "1s",
	"CONNECT4_TURN_TIMEOUT", "1h", "CONNECT4_SCHEDULE_POLL", "50ms"}

// onTime fails the test if at is earlier than after+due (the event was
// created after `after`: it fired early) and logs how long after
// before+due it came (it was created before `before`). How late it may be
// is not asserted: this machine and CI are shared, and a test must not
// fail on a slow scheduler; the figure for the "within a second"
// is read from -v (the context of each test bounds the wait).
func onTime(t *testing.T, what string, at, after, before time.Time, due time.Duration) {
	t.Helper()
	if at.Before(after.Add(due)) {
		t.Errorf("%s at %v: before its due time %v (%v after the request)",
			what, at.Format(time.StampMilli), after.Add(due).Format(time.StampMilli), due)
	}
	t.Logf("%s %v after its due time", what, at.Sub(before.Add(due)).Round(time.Millisecond))
}

// TestServeTimedSlack: against a fake of Slack's Web API and Socket Mode,
// serve posts a challenge made by slash command with chat.postMessage,
// edits it with chat.update (buttons gone) when it expires, and posts a
// reminder naming the player to move a second after a game began.
func TestServeTimedSlack(t *testing.T) {
	t.Parallel()
	fake, err := socketfake.New()
	if err != nil {
		t.Fatal(err)
	}
	defer fake.Close()
	s := serveInProcess(t, env(append([]string{"CONNECT4_ADDR", freeAddr(t), "SLACK_APP_TOKEN", "xapp-1-test",
		"SLACK_BOT_TOKEN", "xoxb-test", "SLACK_API_URL", fake.APIURL()}, timedEnv...)...))
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	if err := fake.WaitConnected(ctx); err != nil {
		t.Fatal(err)
	}
	slash := func(user, text string) {
		t.Helper()
		id, err := fake.SendSlashCommand(slackapi.SlashCommand{ChannelID: "C1", UserID: user, UserName: strings.ToLower(user),
			Command: "/connect4", Text: text})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := fake.WaitAck(ctx, id); err != nil {
			t.Fatalf("no ack for %q: %v", text, err)
		}
	}
	call := func(what, method string, ok func(socketfake.Call) bool) socketfake.Call {
		t.Helper()
		var found socketfake.Call
		s.until(what, func() bool {
			for _, c := range fake.Calls() {
				if c.Method == method && ok(c) {
					found = c
					return true
				}
			}
			return false
		})
		return found
	}
	text := func(sub ...string) func(socketfake.Call) bool {
		return func(c socketfake.Call) bool {
			for _, p := range sub {
				if !strings.Contains(c.Args.Get("text"), p) {
					return false
				}
			}
			return true
		}
	}

	before := time.Now()
	slash("UA", "<@UB>")
	after := time.Now()
	post := call("the challenge's chat.postMessage", "chat.postMessage", text("challenges"))
	if post.Token != "xoxb-test" || post.Args.Get("channel") != "C1" {
		t.Fatalf("challenge posted with token %q in %q, want the bot token in C1", post.Token, post.Args.Get("channel"))
	}
	ts := "1700000000.000001"
	upd := call("the expired challenge's chat.update", "chat.update", func(c socketfake.Call) bool { return c.Args.Get("ts") == ts })
	if got := upd.Args.Get("text"); !strings.Contains(got, "expired") {
		t.Errorf("chat.update text %q, want it to say the challenge expired", got)
	}
	if b := upd.Args.Get("blocks"); strings.Contains(b, `"actions"`) || strings.Contains(b, "c4:accept") {
		t.Errorf("chat.update of the expired challenge keeps buttons: %s", b)
	}
	onTime(t, "slack expiry edit", upd.At, before, after, time.Second)

	// A game between UC and UD: the reminder goes to UC, who moves first.
	slash("UC", "<@UD>")
	ch := call("the second challenge", "chat.postMessage", text("challenges", "<@UD>"))
	accept := buttonValue(t, ch.Args.Get("blocks"), "c4:accept:")
	payload, _ := json.Marshal(map[string]any{
		"type": "block_actions", "team": map[string]any{"id": socketfake.TeamID},
		"user": map[string]any{"id": "UD", "name": "ud", "team_id": socketfake.TeamID}, "channel": map[string]any{"id": "C1"},
		"container":    map[string]any{"type": "message", "message_ts": "1700000000.000002", "channel_id": "C1"},
		"response_url": fake.ResponseURL("accept"),
		"actions":      []map[string]any{{"action_id": "c4_accept", "block_id": "b", "type": "button", "value": accept}},
	})
	before = time.Now()
	if _, err := fake.SendInteraction(payload); err != nil {
		t.Fatal(err)
	}
	if r, err := fake.WaitResponse(ctx, "accept"); err != nil || !strings.Contains(string(r.Body), "accepted") {
		t.Fatalf("accept answered %s, %v; want the game to start", r.Body, err)
	}
	after = time.Now()
	rem := call("the reminder", "chat.postMessage", text("<@UC>", "your move"))
	onTime(t, "slack reminder", rem.At, before, after, time.Second)
	if strings.Contains(rem.Args.Get("text"), "<@UD>") {
		t.Errorf("reminder %q pings the opponent too", rem.Args.Get("text"))
	}
	time.Sleep(time.Second)
	n := 0
	for _, c := range fake.Calls() {
		if c.Method == "chat.postMessage" && strings.Contains(c.Args.Get("text"), "your move") {
			n++
		}
	}
	if n != 1 {
		t.Errorf("%d reminders for one turn, want 1", n)
	}
	if _, body := s.get("/metrics"); !strings.Contains(body, `connect4_schedule_entries_total{event="handled",kind="expire"} 1`) ||
		!strings.Contains(body, `connect4_schedule_entries_total{event="handled",kind="remind"} 1`) {
		t.Errorf("/metrics lacks the handled entries:\n%s", grepLines(body, "connect4_schedule"))
	}
}

// buttonValue returns the value of the button in blocks (Block Kit JSON)
// whose value starts with prefix.
func buttonValue(t *testing.T, blocks, prefix string) string {
	t.Helper()
	i := strings.Index(blocks, `"value":"`+prefix)
	if i < 0 {
		t.Fatalf("no button %s in %s", prefix, blocks)
	}
	v := blocks[i+len(`"value":"`):]
	return v[:strings.IndexByte(v, '"')]
}

func grepLines(s, sub string) string {
	var out []string
	for line := range strings.Lines(s) {
		if strings.Contains(line, sub) {
			out = append(out, strings.TrimSpace(line))
		}
	}
	return strings.Join(out, "\n")
}

// TestServeTimedDiscord: against a fake of Discord's Gateway and REST API,
// serve learns the id of a command's reply (GET .../messages/@original),
// edits that channel message with the bot token when the challenge
// expires, and posts a reminder that pings only the player to move.
func TestServeTimedDiscord(t *testing.T) {
	t.Parallel()
	fake, err := gatewayfake.New()
	if err != nil {
		t.Fatal(err)
	}
	defer fake.Close()
	s := serveInProcess(t, env(append([]string{"CONNECT4_ADDR", freeAddr(t), "DISCORD_BOT_TOKEN", "tok",
		"DISCORD_API_URL", fake.URL(), "DISCORD_APPLICATION_ID", gatewayfake.DefaultApplicationID}, timedEnv...)...))
	s.probeUntil("/readyz", http.StatusOK, "discord gateway: connected")
	const channel = "500000000000000001"
	n := 0
	send := func(u discordtest.User, typ int, data any, msg *discordtest.MessageRef) (discordtest.Response, string) {
		t.Helper()
		n++
		id := fmt.Sprintf("3000000000000000%02d", n)
		in := discordtest.Interaction{ID: id, ApplicationID: gatewayfake.DefaultApplicationID, Type: typ,
			Token: "tok-" + id, Version: 1, GuildID: "400000000000000001", ChannelID: channel,
			Member: &discordtest.Member{User: u}, Data: data, Message: msg}
		b, _ := json.Marshal(in)
		if err := fake.SendInteraction(b); err != nil {
			t.Fatal(err)
		}
		path := "/api/v9/interactions/" + id + "/tok-" + id + "/callback"
		var resp discordtest.Response
		s.until("the callback of interaction "+id, func() bool {
			for _, r := range fake.Requests() {
				if r.Method == http.MethodPost && r.Path == path {
					var err error
					resp, err = discordtest.DecodeResponse(r.ContentType, r.Body)
					return err == nil
				}
			}
			return false
		})
		return resp, "tok-" + id
	}
	request := func(what string, ok func(i int, r gatewayfake.Request) bool) (int, gatewayfake.Request) {
		t.Helper()
		var at int
		var found gatewayfake.Request
		s.until(what, func() bool {
			for i, r := range fake.Requests() {
				if ok(i, r) {
					at, found = i, r
					return true
				}
			}
			return false
		})
		return at, found
	}
	alice := discordtest.User{ID: "200000000000000001", Username: "alice"}
	bob := discordtest.User{ID: "200000000000000002", Username: "bob"}
	carol := discordtest.User{ID: "200000000000000003", Username: "carol"}
	dave := discordtest.User{ID: "200000000000000004", Username: "dave"}

	before := time.Now()
	_, token := send(alice, discordtest.TypeApplicationCommand,
		discordtest.Slash("challenge", []discordtest.Option{discordtest.UserOption("opponent", bob)}, bob), nil)
	after := time.Now()
	orig := "/api/v9/webhooks/" + gatewayfake.DefaultApplicationID + "/" + token + "/messages/@original"
	i, _ := request("GET of the reply's @original", func(_ int, r gatewayfake.Request) bool {
		return r.Method == http.MethodGet && r.Path == orig
	})
	msgID := fmt.Sprint(1_000_000 + i + 1) // the fake numbers messages by request
	_, edit := request("the expired challenge's edit", func(_ int, r gatewayfake.Request) bool {
		return r.Method == http.MethodPatch && r.Path == "/api/v9/channels/"+channel+"/messages/"+msgID
	})
	if edit.Authorization != "Bot tok" {
		t.Errorf("edit authorised with %q, want the bot token", edit.Authorization)
	}
	var body struct {
		Content    string            `json:"content"`
		Components []json.RawMessage `json:"components"`
		Allowed    struct {
			Users []string `json:"users"`
		} `json:"allowed_mentions"`
	}
	if err := json.Unmarshal(edit.Body, &body); err != nil || !strings.Contains(body.Content, "expired") || len(body.Components) != 0 {
		t.Errorf("edit %s: want the challenge expired, without buttons", edit.Body)
	}
	onTime(t, "discord expiry edit", edit.At, before, after, time.Second)

	ch, _ := send(carol, discordtest.TypeApplicationCommand,
		discordtest.Slash("challenge", []discordtest.Option{discordtest.UserOption("opponent", dave)}, dave), nil)
	accept, ok := ch.Button("Accept")
	if !ok {
		t.Fatalf("challenge answered %q, want an Accept button", ch.Content())
	}
	before = time.Now()
	acc, _ := send(dave, discordtest.TypeMessageComponent, discordtest.Click(accept.CustomID),
		&discordtest.MessageRef{ID: "600000000000000001", ChannelID: channel})
	after = time.Now()
	if acc.Type == 6 {
		// Boards are pictures: a deferred update, then a multipart edit.
		request("the edit with the board's picture", func(_ int, r gatewayfake.Request) bool {
			return r.Method == http.MethodPatch && strings.Contains(r.Path, "/webhooks/") && strings.Contains(string(r.Body), "accepted")
		})
	} else if len(acc.Files) > 0 {
		// Boards are pictures, answered in place (type 7, multipart).
		if !strings.Contains(string(acc.Payload), "accepted") {
			t.Fatalf("Accept answered %.300s, want the game to start", acc.Payload)
		}
	} else if !strings.Contains(acc.Content(), "accepted") {
		t.Fatalf("Accept answered %q, want the game to start", acc.Content())
	}
	_, post := request("the reminder", func(_ int, r gatewayfake.Request) bool {
		return r.Method == http.MethodPost && r.Path == "/api/v9/channels/"+channel+"/messages" && strings.Contains(string(r.Body), "your move")
	})
	onTime(t, "discord reminder", post.At, before, after, time.Second)
	body.Allowed.Users = nil
	if err := json.Unmarshal(post.Body, &body); err != nil || !strings.Contains(body.Content, "<@"+carol.ID+">") ||
		len(body.Allowed.Users) != 1 || body.Allowed.Users[0] != carol.ID {
		t.Errorf("reminder %s: want it to ping carol only", post.Body)
	}
}

// TestServeSaysWhatItCannotEdit: without bot tokens the startup log names,
// per platform, the timed messages the bot cannot send, and serve runs.
func TestServeSaysWhatItCannotEdit(t *testing.T) {
	t.Parallel()
	pub := strings.Repeat("ab", 32)
	s := serveInProcess(t, env("CONNECT4_ADDR", freeAddr(t), "DISCORD_PUBLIC_KEY", pub, "SLACK_SIGNING_SECRET", "shh"))
	s.wantLog("level=WARN", "slack: without SLACK_BOT_TOKEN (scope chat:write) the bot cannot edit messages on its own nor post reminders", "expired challenges")
	s.wantLog("level=WARN", "discord: without DISCORD_BOT_TOKEN the bot cannot edit messages on its own", "Claim button")
	if code, _ := s.get("/readyz"); code != http.StatusOK {
		t.Errorf("/readyz = %d, want 200: everything else works", code)
	}
}
