package slack

import (
	"bytes"
	"os"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	slackapi "github.com/slack-go/slack"
	"gopkg.in/yaml.v3"
)

// TestManifest decodes deploy/slack/manifest.yml strictly into slack-go's
// Manifest (so every key is one Slack knows) and checks what the adapter
// relies on.
func TestManifest(t *testing.T) {
	m := readManifest(t)
	if n := utf8.RuneCountInString(m.Display.Name); n == 0 || n > 35 {
		t.Errorf("display name %q: %d characters, want 1 to 35", m.Display.Name, n)
	}
	if len(m.Features.SlashCommands) != 1 {
		t.Fatalf("slash commands %+v, want one", m.Features.SlashCommands)
	}
	sc := m.Features.SlashCommands[0]
	if sc.Command != "/connect4" || !sc.ShouldEscape || !strings.HasSuffix(sc.Url, "/slack/commands") {
		t.Errorf("slash command %+v, want /connect4, should_escape, url …/slack/commands", sc)
	}
	if in := m.Settings.Interactivity; !in.IsEnabled || !strings.HasSuffix(in.RequestUrl, "/slack/interactions") {
		t.Errorf("interactivity %+v, want enabled at …/slack/interactions", in)
	}
	if m.Settings.SocketModeEnabled {
		t.Error("socket_mode_enabled is on; HTTP is the default")
	}
	for _, s := range []string{"commands", "chat:write", "chat:write.public", "users:read"} {
		if !slices.Contains(m.OAuthConfig.Scopes.Bot, s) {
			t.Errorf("bot scopes %v lack %s", m.OAuthConfig.Scopes.Bot, s)
		}
	}
}

// readManifest decodes deploy/slack/manifest.yml strictly into slack-go's
// Manifest: every key must be one Slack knows.
func readManifest(t *testing.T) slackapi.Manifest {
	t.Helper()
	raw, err := os.ReadFile("../../deploy/slack/manifest.yml")
	if err != nil {
		t.Fatal(err)
	}
	dec := yaml.NewDecoder(bytes.NewReader(raw))
	dec.KnownFields(true)
	var m slackapi.Manifest
	if err := dec.Decode(&m); err != nil {
		t.Fatalf("manifest.yml: %v", err)
	}
	return m
}
