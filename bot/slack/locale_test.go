package slack

import (
	"strings"
	"testing"

	"github.com/connect4/connect4/bot"
	"github.com/connect4/connect4/bot/lang"
	"github.com/connect4/connect4/bot/match"
	"github.com/connect4/connect4/sessions"
	"github.com/connect4/connect4/sessions/storetest"
)

// TestUserLocaleCached checks that a slash command's miss asks users.info
// once (with include_locale) and that the answer is kept: the second
// command asks nothing.
func TestUserLocaleCached(t *testing.T) {
	e := newEnv(t, storetest.NewMemory(t, sessions.Options{}), Config{})
	if got := e.a.userLocale(t.Context(), spanishID, true); got != "es-ES" {
		t.Fatalf("userLocale = %q, want es-ES", got)
	}
	if got := e.a.userLocale(t.Context(), spanishID, true); got != "es-ES" {
		t.Fatalf("userLocale again = %q, want es-ES", got)
	}
	e.mu.Lock()
	n := e.userInfos
	e.mu.Unlock()
	if n != 1 {
		t.Errorf("%d users.info calls, want 1", n)
	}
}

// TestClickLocaleInBackground checks that a click's miss answers at once
// with no locale and fills the cache in the background for the next one.
func TestClickLocaleInBackground(t *testing.T) {
	e := newEnv(t, storetest.NewMemory(t, sessions.Options{}), Config{})
	if got := e.a.userLocale(t.Context(), spanishID, false); got != "" {
		t.Fatalf("userLocale on a miss = %q, want \"\" (no wait)", got)
	}
	e.wait() // the background work
	if got, ok := e.a.locales.get(spanishID); !ok || got != "es-ES" {
		t.Fatalf("after the fill: %q, %v; want es-ES", got, ok)
	}
	if got := e.a.userLocale(t.Context(), spanishID, false); got != "es-ES" {
		t.Fatalf("userLocale after the fill = %q, want es-ES", got)
	}
}

// TestSpanishUserGetsSpanish: a Slack user whose users.info locale is
// es-ES gets the bot's refusal in Spanish: what the bot says to a command
// with Locale es-ES, which is not its English.
// (Awaits the bot's texts in the catalogue and their Spanish.)
func TestSpanishUserGetsSpanish(t *testing.T) {
	e := newEnv(t, storetest.NewMemory(t, sessions.Options{}), Config{})
	const text = "frobnicate"
	got := e.slash(spanishID, text)
	cmd := bot.Command{Key: match.Key{Platform: Platform, Workspace: testTeam, Channel: testChan},
		User: match.Player{ID: spanishID, Name: strings.ToLower(spanishID)}, Self: match.Player{ID: botUserID, Name: "connect4"}}
	spanish, english := cmd, cmd
	spanish.Locale, english.Locale = "es-ES", "en-US"
	want := e.a.svc.HandleText(t.Context(), spanish, text)
	if got.Text != message(want).Text {
		t.Errorf("refusal %q, want the Spanish %q", got.Text, message(want).Text)
	}
	if en := e.a.svc.HandleText(t.Context(), english, text); en.Text == want.Text {
		t.Errorf("the Spanish refusal is the English one: %q", en.Text)
	}
	if l, _ := lang.Parse("es-ES"); l != lang.Spanish {
		t.Fatalf("es-ES parses as %v", l)
	}
}
