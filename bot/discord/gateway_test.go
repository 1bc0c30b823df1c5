package discord

import (
	"encoding/json"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	discordgo "github.com/bwmarrin/discordgo"

	"github.com/connect4/connect4/bot"
)

// gatewaySession is a discordgo session whose REST calls go to the fake.
func gatewaySession(t *testing.T, f *fixture) *discordgo.Session {
	t.Helper()
	u, err := url.Parse(f.fake.srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	s, err := newSession("test-token", restClient(nil, u))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// gatewayEvent decodes the JSON form of in, as the Gateway would deliver it.
func gatewayEvent(t *testing.T, in map[string]any) *discordgo.InteractionCreate {
	t.Helper()
	b, err := json.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	var i discordgo.Interaction
	if err := json.Unmarshal(b, &i); err != nil {
		t.Fatal(err)
	}
	return &discordgo.InteractionCreate{Interaction: &i}
}

// callback returns the one interaction callback among calls, decoded.
func callback(t *testing.T, calls []fakeCall, id, token string) gotResponse {
	t.Helper()
	wantPath := "/api/v9/interactions/" + id + "/" + token + "/callback"
	if len(calls) == 0 || calls[0].Method != "POST" || calls[0].Path != wantPath {
		t.Fatalf("REST calls %+v, want first POST %s", calls, wantPath)
	}
	var r gotResponse
	if err := json.Unmarshal(calls[0].Body, &r); err != nil {
		t.Fatal(err)
	}
	return r
}

func TestGatewayRouting(t *testing.T) {
	f := newFixture(t, sessionsMemory(), 100*time.Millisecond)
	s := gatewaySession(t, f)

	in := f.slashIn("UA", "challenge", []map[string]any{opt("opponent", 6, "UB")}, userJSON("UB"))
	f.a.gatewayInteraction(t.Context(), s, gatewayEvent(t, in))
	calls := f.fake.take()
	c := callback(t, calls, in["id"].(string), in["token"].(string))
	want(t, c, typeMessage, 0, "<@UA> challenges <@UB>")
	if len(calls) != 1 {
		t.Fatalf("REST calls %+v, want only the callback", calls)
	}

	in = f.clickIn("UB", c.button(t, "Accept").CustomID)
	f.a.gatewayInteraction(t.Context(), s, gatewayEvent(t, in))
	m := callback(t, f.fake.take(), in["id"].(string), in["token"].(string))
	want(t, m, typeUpdate, 0, "<@UB> accepted!")
	checkColumns(t, m, never)

	in = f.clickIn("UB", m.button(t, "1").CustomID)
	f.a.gatewayInteraction(t.Context(), s, gatewayEvent(t, in))
	want(t, callback(t, f.fake.take(), in["id"].(string), in["token"].(string)), typeMessage, flagEphemeral, "not your turn")

	in = f.clickIn("UA", "forged")
	f.a.gatewayInteraction(t.Context(), s, gatewayEvent(t, in))
	want(t, callback(t, f.fake.take(), in["id"].(string), in["token"].(string)), typeMessage, flagEphemeral, "isn't one of mine")
}

func TestGatewayDeferredAIMove(t *testing.T) {
	f := newFixture(t, sessionsMemory(), 100*time.Millisecond)
	s := gatewaySession(t, f)
	in := f.slashIn("UA", "ai", []map[string]any{opt("level", 3, "hard")})
	f.a.gatewayInteraction(t.Context(), s, gatewayEvent(t, in))
	start := callback(t, f.fake.take(), in["id"].(string), in["token"].(string))
	want(t, start, typeMessage, 0, "takes on the AI (hard)")

	f.a.deferAfter = time.Millisecond
	in = f.clickIn("UA", start.button(t, "7").CustomID)
	f.a.gatewayInteraction(t.Context(), s, gatewayEvent(t, in))
	f.a.Close(t.Context())
	calls := f.fake.take()
	if ack := callback(t, calls, in["id"].(string), in["token"].(string)); ack.Type != typeDeferUpdate {
		t.Fatalf("AI click acknowledged with type %d, want 6", ack.Type)
	}
	if len(calls) != 2 || calls[1].Method != "PATCH" || calls[1].Path != "/api/v9/webhooks/"+appID+"/"+in["token"].(string)+"/messages/@original" {
		t.Fatalf("REST calls %+v, want the callback then a PATCH of the original", calls)
	}
	var edit gotData
	if err := json.Unmarshal(calls[1].Body, &edit); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(edit.Content, "<@"+appID+"> dropped a disc in column 1.") || len(edit.Components) != 2 {
		t.Fatalf("edit %+v does not carry the AI's move and the column buttons", edit)
	}
}

func TestGatewaySelfFromState(t *testing.T) {
	f := newFixture(t, sessionsMemory(), 0)
	s := gatewaySession(t, f)
	s.State.User = &discordgo.User{ID: "990000000000000001", Username: "c4bot", Bot: true}
	self := map[string]any{"id": "990000000000000001", "username": "c4bot", "bot": true}
	in := f.slashIn("UA", "challenge", []map[string]any{opt("opponent", 6, self["id"])}, self)
	f.a.gatewayInteraction(t.Context(), s, gatewayEvent(t, in))
	want(t, callback(t, f.fake.take(), in["id"].(string), in["token"].(string)), typeMessage, 0, "<@UA> takes on the AI")
	if rec := f.record(guildID); rec == nil || rec.Opponent.ID != "990000000000000001" {
		t.Fatalf("record %+v, want the Gateway's bot user as the AI", rec)
	}
}

func TestRunGatewayNeedsToken(t *testing.T) {
	f := newFixture(t, sessionsMemory(), 0)
	if err := f.a.RunGateway(t.Context()); err == nil || !strings.Contains(err.Error(), "DISCORD_BOT_TOKEN") {
		t.Fatalf("RunGateway without a token = %v, want an error naming DISCORD_BOT_TOKEN", err)
	}
}

func TestRegisterCommands(t *testing.T) {
	for _, tc := range []struct{ guild, path string }{
		{"800000000000000002", "/api/v9/applications/" + appID + "/guilds/800000000000000002/commands"},
		{"", "/api/v9/applications/" + appID + "/commands"},
	} {
		fake := newFakeDiscord(t)
		a, err := New(bot.New(sessionsMemory(), bot.Options{}), Config{BotToken: "secret", ApplicationID: appID,
			GuildID: tc.guild, APIURL: fake.srv.URL}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if err := a.RegisterCommands(t.Context()); err != nil {
			t.Fatalf("RegisterCommands: %v", err)
		}
		calls := fake.take()
		if len(calls) != 1 || calls[0].Method != "PUT" || calls[0].Path != tc.path {
			t.Fatalf("guild %q: REST calls %+v, want PUT %s", tc.guild, calls, tc.path)
		}
		var cmds []*discordgo.ApplicationCommand
		if err := json.Unmarshal(calls[0].Body, &cmds); err != nil {
			t.Fatal(err)
		}
		if len(cmds) != 1 || cmds[0].Name != "connect4" {
			t.Fatalf("registered %+v, want /connect4 alone", cmds)
		}
		checkCommand(t, cmds[0])
	}

	a, _ := New(bot.New(sessionsMemory(), bot.Options{}), Config{}, nil)
	err := a.RegisterCommands(t.Context())
	if err == nil || !strings.Contains(err.Error(), "DISCORD_APPLICATION_ID") || !strings.Contains(err.Error(), "DISCORD_BOT_TOKEN") {
		t.Fatalf("RegisterCommands without config = %v, want an error naming both variables", err)
	}
}

// checkCommand checks /connect4 as Discord receives it.
func checkCommand(t *testing.T, c *discordgo.ApplicationCommand) {
	t.Helper()
	subs := map[string]*discordgo.ApplicationCommandOption{}
	var names []string
	for _, o := range c.Options {
		if o.Type != discordgo.ApplicationCommandOptionSubCommand {
			t.Errorf("option %s has type %v, want a subcommand", o.Name, o.Type)
		}
		subs[o.Name] = o
		names = append(names, o.Name)
	}
	for _, n := range []string{"challenge", "ai", "resign", "takeback", "claim", "board", "leaderboard", "stats", "seasons", "new_season", "help"} {
		if subs[n] == nil {
			t.Errorf("subcommands %v lack %s", names, n)
		}
	}
	ch := subs["challenge"]
	if ch == nil {
		return
	}
	opts := map[string]*discordgo.ApplicationCommandOption{}
	for _, o := range ch.Options {
		opts[o.Name] = o
	}
	if o := opts["opponent"]; o == nil || o.Type != discordgo.ApplicationCommandOptionUser || !o.Required {
		t.Errorf("opponent option %+v, want a required user", o)
	}
	for name, r := range map[string][2]float64{"rows": {4, 10}, "cols": {4, 10}, "connect": {3, 10}, "first_to": {1, 9}} {
		o := opts[name]
		if o == nil || o.Type != discordgo.ApplicationCommandOptionInteger || o.Required || o.MinValue == nil ||
			*o.MinValue != r[0] || o.MaxValue != r[1] {
			t.Errorf("%s option %+v, want an optional integer from %v to %v", name, o, r[0], r[1])
		}
	}
	lv := subs["ai"].Options
	if len(lv) == 0 || lv[0].Name != "level" || lv[0].Type != discordgo.ApplicationCommandOptionString || len(lv[0].Choices) != 3 {
		t.Errorf("ai options %+v, want a level with three choices first", lv)
	}
	// The AI on any board and match, and who starts (issue 30); puzzle
	// hint and give up.
	choices := func(sub, name string) []string {
		var vs []string
		for _, o := range subs[sub].Options {
			if o.Name == name {
				for _, c := range o.Choices {
					vs = append(vs, fmt.Sprint(c.Value))
				}
			}
		}
		return vs
	}
	var aiNames []string
	for _, o := range lv {
		aiNames = append(aiNames, o.Name)
	}
	if want := []string{"level", "rows", "cols", "connect", "first_to", "first"}; !slices.Equal(aiNames, want) {
		t.Errorf("ai options %v, want %v", aiNames, want)
	}
	for _, tt := range []struct{ sub, opt, want string }{
		{"ai", "first", "me them random"}, {"challenge", "first", "me them random"}, {"open", "first", "me them random"},
		{"puzzle", "action", "hint give_up"},
	} {
		if got := strings.Join(choices(tt.sub, tt.opt), " "); got != tt.want {
			t.Errorf("%s option %s: choices %q, want %q", tt.sub, tt.opt, got, tt.want)
		}
	}
	if st := subs["stats"].Options; len(st) != 2 || st[0].Name != "player" || st[1].Name != "versus" ||
		st[0].Type != discordgo.ApplicationCommandOptionUser || st[1].Type != discordgo.ApplicationCommandOptionUser || st[0].Required || st[1].Required {
		t.Errorf("stats options %+v, want optional users player and versus", st)
	}
	if rs := subs["resign"].Options; len(rs) != 1 || rs[0].Name != "match" || rs[0].Type != discordgo.ApplicationCommandOptionBoolean || rs[0].Required {
		t.Errorf("resign options %+v, want an optional boolean called match", rs)
	}
	for _, o := range c.Options {
		if len(o.Name) > 32 || len(o.Description) == 0 || len(o.Description) > 100 || strings.ToLower(o.Name) != o.Name {
			t.Errorf("subcommand %q (%q) breaks Discord's naming rules", o.Name, o.Description)
		}
		for _, p := range o.Options {
			if len(p.Name) > 32 || len(p.Description) == 0 || len(p.Description) > 100 {
				t.Errorf("option %q (%q) breaks Discord's naming rules", p.Name, p.Description)
			}
		}
	}
	if slices.Contains(names, "") {
		t.Error("a subcommand without a name")
	}
}

func TestRewriteKeepsPathPrefix(t *testing.T) {
	fake := newFakeDiscord(t)
	a, err := New(bot.New(sessionsMemory(), bot.Options{}), Config{BotToken: "secret", ApplicationID: appID,
		APIURL: fake.srv.URL + "/fake/"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	a.RegisterCommands(t.Context()) // the fake does not serve the prefixed path
	calls := fake.take()
	if len(calls) == 0 || calls[0].Path != "/fake/api/v9/applications/"+appID+"/commands" {
		t.Fatalf("REST calls %+v, want the path under /fake", calls)
	}
}

func TestDeferredEditRetriedOnce(t *testing.T) {
	t.Parallel() // it waits (its own servers, timers) and shares nothing
	f := newFixture(t, sessionsMemory(), 50*time.Millisecond)
	start := f.slash("UA", "ai", nil)
	f.a.deferAfter = time.Millisecond
	f.fake.mu.Lock()
	f.fake.lost = 1
	f.fake.mu.Unlock()
	if ack := f.click("UA", start, "3"); ack.Type != typeDeferUpdate {
		t.Fatalf("AI click answered type %d, want 6", ack.Type)
	}
	f.a.Close(t.Context())
	calls := f.fake.take()
	if len(calls) != 2 || calls[0].Method != "PATCH" || calls[1].Method != "PATCH" || calls[0].Path != calls[1].Path {
		t.Fatalf("REST calls %+v, want the PATCH and one retry", calls)
	}
	if got := f.observations(); got[len(got)-1] != "drop/ok" {
		t.Fatalf("observed %v, want the retried drop ok", got)
	}

	// A second 404 is given up on, and counted as an error.
	f2 := newFixture(t, sessionsMemory(), 50*time.Millisecond)
	start = f2.slash("UA", "ai", nil)
	f2.a.deferAfter = time.Millisecond
	f2.fake.mu.Lock()
	f2.fake.lost = 5
	f2.fake.mu.Unlock()
	f2.click("UA", start, "3")
	f2.a.Close(t.Context())
	if calls := f2.fake.take(); len(calls) != 2 {
		t.Fatalf("REST calls %+v, want two tries", calls)
	}
	if got := f2.observations(); got[len(got)-1] != "drop/error" {
		t.Fatalf("observed %v, want the lost drop as an error", got)
	}
}

func TestAfterCloseSlowCommandsAnswerInPlace(t *testing.T) {
	f := newFixture(t, sessionsMemory(), 50*time.Millisecond)
	start := f.slash("UA", "ai", nil)
	f.a.Close(t.Context())
	f.a.deferAfter = time.Millisecond
	m := f.click("UA", start, "3")
	want(t, m, typeUpdate, 0, "<@UA> dropped a disc in column 3.", "<@"+appID+"> dropped a disc in column 1.")
	if calls := f.fake.take(); len(calls) != 0 {
		t.Fatalf("REST calls %+v after Close, want none", calls)
	}
}

func TestSessionToken(t *testing.T) {
	for in, want := range map[string]string{"abc": "Bot abc", "Bot abc": "Bot abc", "": ""} {
		s, err := newSession(in, nil)
		if err != nil || s.Token != want {
			t.Errorf("newSession(%q).Token = %q, %v; want %q", in, s.Token, err, want)
		}
	}
}
