package discord

import (
	"encoding/json"
	"reflect"
	"strconv"
	"testing"

	discordgo "github.com/bwmarrin/discordgo"

	"github.com/connect4/connect4/bot"
	"github.com/connect4/connect4/bot/match"
	"github.com/connect4/connect4/engine"
)

func mustJSON(tb testing.TB, v any) []byte {
	tb.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		tb.Fatal(err)
	}
	return b
}

// realisticClick is the body Discord sends when a player clicks column 2
// under a game in a guild: the interaction with the member, the guild and
// channel, and the clicked message with its board and its 7 column
// buttons, laid out by this adapter.
func realisticClick(tb testing.TB) []byte {
	tb.Helper()
	g, err := engine.New(engine.DefaultConfig())
	if err != nil {
		tb.Fatal(err)
	}
	for _, c := range []int{3, 3, 2, 4, 1} {
		if err := g.Play(g.Turn(), c); err != nil {
			tb.Fatal(err)
		}
	}
	var buttons []bot.Button
	for c := range 7 {
		buttons = append(buttons, bot.Button{Label: strconv.Itoa(c + 1), Column: c + 1,
			Value: bot.Action{Kind: bot.KindDrop, GameID: "g7Yx2kQ9bVfLm3Ns", Move: 5, Column: c}.String()})
	}
	content, comps := layout(bot.Reply{Visibility: bot.Update, Text: "<@300000000000000002> dropped a disc in column 2.",
		Game: g, Red: match.Player{ID: "300000000000000001", Name: "Ann"}, Yellow: match.Player{ID: "300000000000000002", Name: "Bob"},
		Buttons: buttons})
	userObj := func(id, name string, bot bool) map[string]any {
		return map[string]any{"id": id, "username": name, "global_name": name, "avatar": "a1b2c3d4e5f60718293a4b5c6d7e8f90",
			"discriminator": "0", "public_flags": 0, "flags": 0, "bot": bot, "banner": nil, "accent_color": nil,
			"avatar_decoration_data": nil, "banner_color": nil, "clan": nil, "primary_guild": nil}
	}
	in := map[string]any{
		"app_permissions": "562949953421311", "application_id": appID,
		"authorizing_integration_owners": map[string]any{"0": guildID},
		"channel": map[string]any{"flags": 0, "guild_id": guildID, "id": chanID, "last_message_id": "600000000000000009",
			"name": "general", "nsfw": false, "parent_id": "700000000000000000", "permissions": "562949953421311",
			"position": 0, "rate_limit_per_user": 0, "topic": nil, "type": 0},
		"channel_id": chanID, "context": 0,
		"data":                map[string]any{"component_type": 2, "custom_id": buttons[1].Value, "id": 2},
		"entitlement_sku_ids": []any{}, "entitlements": []any{},
		"guild":    map[string]any{"features": []any{"COMMUNITY", "NEWS"}, "id": guildID, "locale": "en-US"},
		"guild_id": guildID, "guild_locale": "en-US", "id": "500000000000000042", "locale": "en-GB",
		"member": map[string]any{"avatar": nil, "banner": nil, "communication_disabled_until": nil, "deaf": false,
			"flags": 0, "joined_at": "2026-01-01T10:00:00.000000+00:00", "mute": false, "nick": nil, "pending": false,
			"permissions": "562949953421311", "premium_since": nil, "roles": []any{"400000000000000001", "400000000000000002"},
			"unusual_dm_activity_until": nil, "user": userObj("300000000000000002", "bob", false)},
		"message": map[string]any{
			"application_id": appID, "attachments": []any{}, "author": userObj(appID, "connect4", true),
			"channel_id": chanID, "components": comps, "content": content, "edited_timestamp": "2026-12-01T09:00:05.000000+00:00",
			"embeds": []any{}, "flags": 0, "id": "600000000000000001",
			"interaction": map[string]any{"id": "500000000000000041", "name": "connect4 challenge", "type": 2,
				"user": userObj("300000000000000001", "ann", false)},
			"interaction_metadata": map[string]any{"authorizing_integration_owners": map[string]any{"0": guildID},
				"id": "500000000000000041", "name": "connect4 challenge", "type": 2, "user": userObj("300000000000000001", "ann", false)},
			"mention_everyone": false, "mention_roles": []any{}, "mentions": []any{}, "pinned": false,
			"timestamp": "2026-12-01T09:00:00.000000+00:00", "tts": false, "type": 20, "webhook_id": appID,
		},
		"token": "aW50ZXJhY3Rpb246NTAwMDAwMDAwMDAwMDAwMDQyOnRoaXMgaXMgYSBsb25nIHRva2VuIGFzIERpc2NvcmQgc2VuZHMgaXQ", "type": 3, "version": 1,
	}
	return mustJSON(tb, in)
}

// TestDecodeMatchesDiscordgo checks that the adapter's own decoding of an
// interaction reads the same values as discordgo's full one, on commands,
// clicks, DMs and malformed options.
func TestDecodeMatchesDiscordgo(t *testing.T) {
	f := newFixture(t, sessionsMemory(), 0)
	withResolved := f.slashIn("UA", "challenge", []map[string]any{opt("opponent", 6, "UB"), opt("rows", 4, 8)},
		map[string]any{"id": "UB", "username": "ub", "global_name": "Bee", "bot": true})
	withResolved["member"].(map[string]any)["permissions"] = "2147483647"
	bodies := map[string][]byte{
		"realistic click":            realisticClick(t),
		"challenge":                  mustJSON(t, withResolved),
		"ai":                         mustJSON(t, f.slashIn("UA", "ai", []map[string]any{opt("level", 3, "hard")})),
		"click":                      mustJSON(t, f.clickIn("UA", "c4:drop:g1:0:3")),
		"dm":                         mustJSON(t, f.envelope(2, "UA", "", map[string]any{"name": "connect4", "type": 1})),
		"group DM of a user install": mustJSON(t, groupOf3.in(f, 2, "UB", map[string]any{"name": "connect4", "type": 1})),
		"server of a user install":   mustJSON(t, venue{context: 0, guild: guildID, channel: chanID, owners: map[string]any{"1": "UA"}, perms: "2048"}.in(f, 3, "UB", map[string]any{"custom_id": "c4:drop:g1:0:3", "component_type": 2})),
		"ping":                       []byte(`{"type":1,"id":"1","application_id":"9","token":"t"}`),
		"empty options":              []byte(`{"type":2,"id":"1","channel_id":"7","user":{"id":"2"},"data":{"name":"connect4","options":[],"resolved":{}}}`),
		"odd option types":           []byte(`{"type":2,"channel_id":"1","user":{"id":"2"},"data":{"name":"connect4","options":[{"name":"challenge","type":1,"options":[{"name":"opponent","type":6,"value":12},{"name":"rows","type":4,"value":"x"}]}]}}`),
	}
	for name, body := range bodies {
		t.Run(name, func(t *testing.T) {
			own, err := parse(body)
			if err != nil {
				t.Fatalf("parse: %v", err)
			}
			var full discordgo.Interaction
			if err := json.Unmarshal(body, &full); err != nil {
				t.Fatalf("discordgo: %v", err)
			}
			if got := fromGateway(&full); !reflect.DeepEqual(own, got) {
				t.Fatalf("own decoding\n%s\ndiscordgo's\n%s", mustJSON(t, own), mustJSON(t, got))
			}
		})
	}
	// The realistic click is a drop in column 2 on message ...001.
	in, _ := parse(bodies["realistic click"])
	cmd, err := command(in, f.a.self(nil, in))
	if err != nil || cmd.Kind != bot.KindDrop || cmd.Column != 1 || cmd.User.ID != "300000000000000002" ||
		cmd.Message.MessageID != "600000000000000001" || cmd.Nonce != "500000000000000042" {
		t.Fatalf("realistic click = %+v, %v", cmd, err)
	}
}

// BenchmarkDecodeClick compares decoding a realistic button click (the
// clicked message with its board and 7 column buttons) with discordgo's
// Interaction and with the adapter's own structs.
func BenchmarkDecodeClick(b *testing.B) {
	body := realisticClick(b)
	b.Run("discordgo", func(b *testing.B) {
		b.SetBytes(int64(len(body)))
		b.ReportAllocs()
		for b.Loop() {
			var in discordgo.Interaction
			if err := json.Unmarshal(body, &in); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("own", func(b *testing.B) {
		b.SetBytes(int64(len(body)))
		b.ReportAllocs()
		for b.Loop() {
			if _, err := parse(body); err != nil {
				b.Fatal(err)
			}
		}
	})
}
