package discord

import (
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	discordgo "github.com/bwmarrin/discordgo"

	"github.com/connect4/connect4/bot"
	"github.com/connect4/connect4/bot/lang"
	"github.com/connect4/connect4/bot/match"
	"github.com/connect4/connect4/sessions"
	"github.com/connect4/connect4/sessions/storetest"
)

// TestLocaleDecoded checks that an interaction's locale and guild_locale,
// over HTTP and the Gateway, reach the command as Locale and
// ChannelLocale, and that a hostile or oversized one reaches it as ""
// (English).
func TestLocaleDecoded(t *testing.T) {
	tests := []struct{ locale, guild, wantLocale, wantGuild string }{
		{"de", "fr", "de", "fr"},
		{"pt-BR", "", "pt-BR", ""},
		{"es-419", "zh-CN", "es-419", "zh-CN"},
		{"xx-YY", "sv-SE", "xx-YY", "sv-SE"}, // unknown: the bot reads it as English
		{"de\n<script>", "fr\u202e", "", ""},
		{strings.Repeat("de", 100), "", "", ""},
	}
	for _, tt := range tests {
		body, err := json.Marshal(map[string]any{
			"id": "1", "application_id": appID, "type": 2, "token": "t", "guild_id": guildID, "channel_id": chanID,
			"member": map[string]any{"user": userJSON("U1")}, "locale": tt.locale, "guild_locale": tt.guild,
			"data": map[string]any{"name": "connect4", "options": []any{map[string]any{"name": "help", "type": 1}}},
		})
		if err != nil {
			t.Fatal(err)
		}
		in, err := parse(body)
		if err != nil {
			t.Fatal(err)
		}
		var g discordgo.Interaction
		if err := json.Unmarshal(body, &g); err != nil {
			t.Fatal(err)
		}
		for name, in := range map[string]*interaction{"http": in, "gateway": fromGateway(&g)} {
			cmd, err := command(in, match.Player{ID: "BOT"})
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			if cmd.Locale != tt.wantLocale || cmd.ChannelLocale != tt.wantGuild {
				t.Errorf("%s: locale %q guild_locale %q: Locale %q ChannelLocale %q, want %q %q",
					name, tt.locale, tt.guild, cmd.Locale, cmd.ChannelLocale, tt.wantLocale, tt.wantGuild)
			}
		}
	}
}

// TestGermanPlayerInFrenchGuild: an interaction with locale "de" in a
// guild whose guild_locale is "fr" gets its ephemeral answer in German,
// and its game message in French: the message the channel sees is the
// same whoever asked it in that guild, and not the English one.
// (Awaits the German and French catalogues, and for the game message the
// bot's texts in the catalogue.)
func TestGermanPlayerInFrenchGuild(t *testing.T) {
	f := newFixture(t, storetest.NewMemory(t, sessions.Options{}), 0)
	localized := func(in map[string]any, locale, guildLocale, channel string) map[string]any {
		in["locale"], in["guild_locale"], in["channel_id"] = locale, guildLocale, channel
		return in
	}
	// The ephemeral help, the adapter's own: in the user's German.
	help := f.send(localized(f.slashIn("U1", "help", nil), "de", "fr", chanID))
	if help.Data == nil || help.Data.Flags&64 == 0 {
		t.Fatalf("help is not ephemeral: %+v", help)
	}
	if want := lang.German.Say("onDiscord.help", nil); help.content() != want {
		t.Errorf("help %q, want the German %q", help.content(), want)
	}
	if help.content() == lang.English.Say("onDiscord.help", nil) {
		t.Error("the German help is the English one")
	}
	// Its second part, clocks, draws and tournaments, in an embed under it.
	if e := help.Data.Embeds; len(e) != 1 || e[0].Description != lang.German.Say("onDiscord.helpMore", nil) || !strings.Contains(e[0].Description, "`/connect4 turnier`") {
		t.Errorf("help's embeds %+v, want the German second part", e)
	}
	// The public challenge, the channel's: in French.
	challenge := func(locale, guildLocale, channel string) string {
		in := localized(f.slashIn("U1", "challenge", []map[string]any{opt("opponent", 6, "U2")}, userJSON("U2")), locale, guildLocale, channel)
		r := f.send(in)
		if r.Data == nil || r.Data.Flags&64 != 0 {
			t.Fatalf("challenge in %s: not public: %+v", channel, r)
		}
		return r.content()
	}
	german := challenge("de", "fr", "300000000000000001")
	french := challenge("fr", "fr", "300000000000000002")
	english := challenge("en-US", "en-US", "300000000000000003")
	if german != french {
		t.Errorf("the challenge by a German player in a French guild:\n%q\nby a French player:\n%q", german, french)
	}
	if german == english {
		t.Errorf("the challenge in a French guild is the English one: %q", german)
	}
}

// TestLanguageSettingWins: a refusal goes to a German player in German in
// a French guild, while the game message is French; once a channel
// manager sets `settings language:ja`, the channel's messages are
// Japanese whatever the guild's or the player's locale, and the refusal
// stays the player's own German.
func TestLanguageSettingWins(t *testing.T) {
	f := newFixture(t, storetest.NewMemory(t, sessions.Options{}), 0)
	const channel = "300000000000000009"
	in := func(in map[string]any, locale string) map[string]any {
		in["locale"], in["guild_locale"], in["channel_id"] = locale, "fr", channel
		return in
	}
	refusal := f.send(in(f.slashIn("U1", "resign", nil), "de"))
	if refusal.Data == nil || refusal.Data.Flags&64 == 0 {
		t.Fatalf("resign with no game is not ephemeral: %+v", refusal)
	}
	if want := bot.ProblemNoGame.On(lang.German, Platform); refusal.content() != want || want == bot.ProblemNoGame.On(lang.English, Platform) {
		t.Errorf("refusal %q, want the German %q", refusal.content(), want)
	}
	challenge := func(locale string) string {
		r := f.send(in(f.slashIn("U1", "challenge", []map[string]any{opt("opponent", 6, "U2")}, userJSON("U2")), locale))
		if r.Data == nil || r.Data.Flags&64 != 0 {
			t.Fatalf("challenge: not public: %+v", r)
		}
		f.send(in(f.slashIn("U1", "cancel", nil), locale))
		return r.content()
	}
	french := challenge("de")
	if !strings.Contains(french, lang.French.Say("timer.minutes", lang.Args{"Count": 10})) {
		t.Errorf("the challenge in a French guild is not French: %q", french)
	}

	// A player without Manage Channels may not choose the language.
	set := in(f.slashIn("U1", "settings", []map[string]any{opt("language", 3, "ja")}), "de")
	if r := f.send(set); !strings.Contains(r.content(), bot.ProblemLanguageManager.In(lang.German)) {
		t.Fatalf("settings language by a player: %q, want the refusal", r.content())
	}
	set["member"].(map[string]any)["permissions"] = "16" // Manage Channels
	if r := f.send(set); r.Data == nil || r.Data.Flags&64 != 0 {
		t.Fatalf("settings language by a manager: %+v", r)
	}
	japanese := challenge("de")
	if japanese == french || !strings.Contains(japanese, lang.Japanese.Say("timer.minutes", lang.Args{"Count": 10})) {
		t.Errorf("after settings language:ja the challenge is %q, want Japanese", japanese)
	}
	if r := f.send(in(f.slashIn("U1", "resign", nil), "de")); r.content() != bot.ProblemNoGame.On(lang.German, Platform) {
		t.Errorf("after the setting, the German player's refusal is %q, want German", r.content())
	}
	// A value that is none of the registered choices (only a forged or
	// broken client sends one) is refused whole, like any malformed option.
	bad := in(f.slashIn("U1", "settings", []map[string]any{opt("language", 3, "xx")}), "de")
	bad["member"].(map[string]any)["permissions"] = "16"
	body, err := json.Marshal(bad)
	if err != nil {
		t.Fatal(err)
	}
	if w := f.do(body, sign(f.priv, strconv.FormatInt(time.Now().Unix(), 10), body)); w.Code != http.StatusBadRequest {
		t.Errorf("settings language:xx = %d, want 400", w.Code)
	}
}
