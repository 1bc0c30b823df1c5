package discord

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"

	discordgo "github.com/bwmarrin/discordgo"

	"github.com/connect4/connect4/bot/lang"
)

// registerFake is a local Discord that records the command registrations
// it receives and answers them with status.
type registerFake struct {
	srv    *httptest.Server
	mu     sync.Mutex
	paths  []string
	auth   []string
	bodies [][]byte
	status int
	body   string
}

func newRegisterFake(t *testing.T, status int, body string) *registerFake {
	f := &registerFake{status: status, body: body}
	f.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		f.mu.Lock()
		f.paths = append(f.paths, r.Method+" "+r.URL.Path)
		f.auth = append(f.auth, r.Header.Get("Authorization"))
		f.bodies = append(f.bodies, b)
		f.mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(f.status)
		io.WriteString(w, f.body)
	}))
	t.Cleanup(f.srv.Close)
	return f
}

func TestRegisterCommandsPaths(t *testing.T) {
	f := newRegisterFake(t, http.StatusOK, `[]`)
	tests := []struct {
		base, guild, want string
	}{
		{f.srv.URL, "", "PUT /api/v9/applications/111/commands"},
		{f.srv.URL + "/", "222", "PUT /api/v9/applications/111/guilds/222/commands"},
		{f.srv.URL + "/api", "", "PUT /api/v9/applications/111/commands"},
		{f.srv.URL + "/api/", "", "PUT /api/v9/applications/111/commands"},
		{f.srv.URL + "/api/v10", "222", "PUT /api/v9/applications/111/guilds/222/commands"},
		{f.srv.URL + "/proxy/api", "", "PUT /proxy/api/v9/applications/111/commands"},
	}
	for _, tt := range tests {
		if err := RegisterCommands(t.Context(), nil, tt.base, "tok", "111", tt.guild); err != nil {
			t.Fatalf("RegisterCommands(%q): %v", tt.base, err)
		}
		f.mu.Lock()
		got, auth, body := f.paths[len(f.paths)-1], f.auth[len(f.auth)-1], f.bodies[len(f.bodies)-1]
		f.mu.Unlock()
		if got != tt.want {
			t.Errorf("base %q guild %q: %s, want %s", tt.base, tt.guild, got, tt.want)
		}
		if auth != "Bot tok" {
			t.Errorf("Authorization %q, want Bot tok", auth)
		}
		var cmds []struct {
			Name    string `json:"name"`
			Options []struct {
				Name string `json:"name"`
			} `json:"options"`
		}
		if err := json.Unmarshal(body, &cmds); err != nil || len(cmds) != 1 || cmds[0].Name != "connect4" || len(cmds[0].Options) != len(Commands()[0].Options) {
			t.Errorf("body %s: want Commands() (%v)", body, err)
		}
	}
}

func TestRegisterCommandsErrors(t *testing.T) {
	f := newRegisterFake(t, http.StatusUnauthorized, `{"message": "401: Unauthorized", "code": 0}`)
	err := RegisterCommands(t.Context(), nil, f.srv.URL, "bad", "111", "")
	var re *RegisterError
	if !errors.As(err, &re) || re.StatusCode != 401 || re.Message != "401: Unauthorized" {
		t.Errorf("refused token: err = %v, want a *RegisterError 401", err)
	}

	err = RegisterCommands(t.Context(), nil, "ftp://x", "", "", "a/b")
	for _, want := range []string{"DISCORD_BOT_TOKEN", "DISCORD_APPLICATION_ID is not set", "DISCORD_GUILD_ID", "DISCORD_API_URL"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("bad arguments: err = %v, want it to name %s", err, want)
		}
	}

	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if err := RegisterCommands(ctx, nil, f.srv.URL, "tok", "111", ""); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: err = %v, want context.Canceled", err)
	}
}

// TestRegisterBodyValidates sends the registration to a local Discord and
// checks the body against Discord's OpenAPI spec, then walks its names
// and descriptions in every locale: every language but English's default
// under each of its Discord locales (keys Discord knows), names 1-32
// lower-case characters of Discord's name rule, descriptions 1-100.
func TestRegisterBodyValidates(t *testing.T) {
	spec := loadOpenAPI(t)
	f := newRegisterFake(t, http.StatusOK, `[]`)
	if err := RegisterCommands(t.Context(), nil, f.srv.URL, "tok", "111", ""); err != nil {
		t.Fatal(err)
	}
	f.mu.Lock()
	body := f.bodies[0]
	f.mu.Unlock()
	var v any
	if err := json.Unmarshal(body, &v); err != nil {
		t.Fatal(err)
	}
	for _, e := range spec.validate(spec.requestSchema(t, "PUT", "/applications/{application_id}/commands"), v, "body") {
		t.Error(e)
	}
	known := map[string]bool{}
	enum, _ := dig(spec.doc, "components", "schemas", "AvailableLocalesEnum", "oneOf")
	for _, x := range listOf(enum) {
		known[fmt.Sprint(x.(map[string]any)["const"])] = true
	}
	if len(known) < 20 {
		t.Fatalf("the spec lists %d locales", len(known))
	}
	var want []string
	for _, l := range lang.All[1:] {
		want = append(want, l.DiscordLocales()...)
	}
	name := regexp.MustCompile(`^[-_'\p{L}\p{N}\p{Devanagari}\p{Thai}\p{M}]{1,32}$`)
	var walk func(path string, node map[string]any, isChoice bool)
	walk = func(path string, node map[string]any, isChoice bool) {
		for _, field := range []string{"name_localizations", "description_localizations"} {
			if field == "description_localizations" && isChoice {
				continue
			}
			locs, _ := node[field].(map[string]any)
			for _, loc := range want {
				if _, ok := locs[loc]; !ok {
					t.Errorf("%s: %s has no %s", path, field, loc)
				}
			}
			for loc, s := range locs {
				s := s.(string)
				switch {
				case !known[loc]:
					t.Errorf("%s: %s has %q, which is not a Discord locale", path, field, loc)
				case field == "name_localizations" && !isChoice && (!name.MatchString(s) || s != strings.ToLower(s)):
					t.Errorf("%s: %s name %q is not a Discord command name", path, loc, s)
				case utf8.RuneCountInString(s) < 1 || utf8.RuneCountInString(s) > 100:
					t.Errorf("%s: %s %s %q is not 1-100 characters", path, loc, field, s)
				}
			}
		}
		for _, o := range listOf(node["options"]) {
			o := o.(map[string]any)
			walk(path+" "+fmt.Sprint(o["name"]), o, false)
		}
		for _, c := range listOf(node["choices"]) {
			c := c.(map[string]any)
			walk(path+"="+fmt.Sprint(c["value"]), c, true)
		}
	}
	for _, c := range listOf(v) {
		walk("/connect4", c.(map[string]any), false)
	}
}

// TestCommandsLocalized checks that the localizations are the catalogue's:
// German's name and description of a subcommand, and that the English
// default is the English name the adapter parses.
func TestCommandsLocalized(t *testing.T) {
	cmd := Commands()[0]
	if cmd.Name != "connect4" || cmd.Description != lang.English.Say("command.desc.connect4", nil) {
		t.Fatalf("command %q %q", cmd.Name, cmd.Description)
	}
	var ch *discordgo.ApplicationCommandOption
	for _, o := range cmd.Options {
		if o.Name == "challenge" {
			ch = o
		}
	}
	if ch == nil {
		t.Fatal("no challenge subcommand")
	}
	for _, tt := range []struct {
		got, want string
	}{
		{ch.NameLocalizations["de"], lang.German.Say("command.name.sub.challenge", nil)},
		{ch.DescriptionLocalizations["de"], lang.German.Say("command.desc.sub.challenge", nil)},
		{ch.NameLocalizations["es-419"], lang.Spanish.Say("command.name.sub.challenge", nil)},
		{ch.NameLocalizations["es-ES"], lang.Spanish.Say("command.name.sub.challenge", nil)},
		{ch.Options[0].NameLocalizations["ja"], lang.Japanese.Say("command.name.opt.opponent", nil)},
	} {
		if tt.got != tt.want {
			t.Errorf("localization %q, want %q", tt.got, tt.want)
		}
	}
	if _, ok := ch.NameLocalizations["en-US"]; ok {
		t.Error("English has a localization; it is the default")
	}
}
