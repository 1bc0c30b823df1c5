package slack

import (
	"slices"
	"strings"
	"testing"
)

// TestManifestInstall checks what "Add to Slack" relies on in
// deploy/slack/manifest.yml: the scopes it asks for are exactly the
// manifest's, the redirect URL is the callback, the events reach
// /slack/events with the three events the adapter handles, and the Home
// tab is on.
func TestManifestInstall(t *testing.T) {
	m := readManifest(t)
	if got := m.OAuthConfig.Scopes.Bot; !slices.Equal(got, Scopes) {
		t.Errorf("manifest bot scopes %q, the install asks for %q", got, Scopes)
	}
	if r := m.OAuthConfig.RedirectUrls; len(r) != 1 || !strings.HasSuffix(r[0], CallbackPath) {
		t.Errorf("redirect URLs %q, want one ending in %s", r, CallbackPath)
	}
	ev := m.Settings.EventSubscriptions
	if ev == nil || !strings.HasSuffix(ev.RequestUrl, EventsPath) {
		t.Fatalf("event subscriptions %+v, want the request URL …%s", ev, EventsPath)
	}
	want := []string{"app_home_opened", "app_uninstalled", "link_shared", "tokens_revoked"}
	if got := slices.Sorted(slices.Values(ev.BotEvents)); !slices.Equal(got, want) {
		t.Errorf("bot events %q, want %q", got, want)
	}
	if !m.Features.AppHome.HomeTabEnabled {
		t.Error("the Home tab is off")
	}
}
