package discord

import (
	"encoding/json"
	"reflect"
	"testing"

	discordgo "github.com/bwmarrin/discordgo"

	"github.com/connect4/connect4/bot"
	"github.com/connect4/connect4/bot/match"
	"github.com/connect4/connect4/engine"
)

// TestEncodeResponse: the direct encoder writes the same JSON as
// encoding/json does for every layout the bot sends, and falls back to it
// for shapes it does not know.
func TestEncodeResponse(t *testing.T) {
	g7, g10, alice, bob := layoutGames()
	replies := []struct {
		name       string
		r          bot.Reply
		fromButton bool
	}{
		{"board", bot.Reply{Visibility: bot.Public, Text: "<@1> dropped a disc", Game: g7, Red: alice, Yellow: bob, Buttons: columnButtons(7)}, false},
		{"update", bot.Reply{Visibility: bot.Update, Text: "move", Game: g7, Red: alice, Yellow: bob,
			Buttons: append(columnButtons(7), bot.Button{Label: "Rematch", Value: "c4:rematch:g1:3:0", Style: bot.StylePrimary})}, true},
		{"ten columns", bot.Reply{Visibility: bot.Public, Text: "big", Game: g10, Red: alice, Yellow: bob, Buttons: columnButtons(10)}, false},
		{"challenge", bot.Reply{Visibility: bot.Public, Text: "<@1> challenges <@2> \u2028 & <b>", Notify: []string{"2"}, Buttons: []bot.Button{
			{Label: "Accept", Value: "c4:accept:g1:0:0", Style: bot.StylePrimary}, {Label: "Decline", Value: "c4:decline:g1:0:0", Style: bot.StyleDanger}}}, false},
		{"note", bot.Reply{Visibility: bot.Ephemeral, Text: "nope \x00 \xff"}, false},
		{"deferred", bot.Reply{}, true},
	}
	for _, tc := range replies {
		resp := response(tc.r, tc.fromButton)
		check(t, tc.name, resp)
	}
	check(t, "pong", &discordgo.InteractionResponse{Type: discordgo.InteractionResponsePong})
	check(t, "autocomplete", &discordgo.InteractionResponse{Type: discordgo.InteractionApplicationCommandAutocompleteResult,
		Data: &discordgo.InteractionResponseData{Choices: []*discordgo.ApplicationCommandOptionChoice{}}})
}

// layoutGames are what the encoders' tests lay out: a 7 × 6 game of three
// moves, an empty 10 × 10 one, and its players (bob's name to be escaped).
func layoutGames() (g7, g10 *engine.Game, alice, bob match.Player) {
	g7, _ = engine.New(engine.DefaultConfig())
	g10, _ = engine.New(engine.Config{Rows: 10, Cols: 10, Connect: 5})
	for _, c := range []int{3, 3, 4} {
		_ = g7.Play(g7.Turn(), c)
	}
	return g7, g10, match.Player{ID: "1", Name: "alice"}, match.Player{ID: "2", Name: "bob \"<&>\" ✓"}
}

// columnButtons are the buttons of n columns, the second disabled.
func columnButtons(n int) []bot.Button {
	var bs []bot.Button
	for c := 1; c <= n; c++ {
		bs = append(bs, bot.Button{Label: string(rune('0' + c%10)), Value: bot.Action{Kind: bot.KindDrop, GameID: "g1", Move: 3, Column: c - 1, Human: true}.String(), Column: c, Disabled: c == 2})
	}
	return bs
}

func check(t *testing.T, name string, resp *discordgo.InteractionResponse) {
	t.Helper()
	fast, err := encodeResponse(resp)
	if err != nil {
		t.Fatalf("%s: encodeResponse: %v", name, err)
	}
	var pool responseBuffers
	b := pool.get()
	*b = append(*b, "left over from the last response"...)
	pool.put(b)
	if again, err := appendResponse(*pool.get(), resp); err != nil || string(again) != string(fast) {
		t.Errorf("%s: appendResponse to a pooled buffer = %s, %v; want %s", name, again, err, fast)
	}
	sameJSON(t, name, "encodeResponse", fast, resp)
}

// sameJSON checks that fast, written by the direct encoder enc, is the
// JSON encoding/json writes for v, field order aside.
func sameJSON(t *testing.T, name, enc string, fast []byte, v any) {
	t.Helper()
	slow, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var a, b any
	if err := json.Unmarshal(fast, &a); err != nil {
		t.Fatalf("%s: %s wrote invalid JSON %s: %v", name, enc, fast, err)
	}
	if err := json.Unmarshal(slow, &b); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(a, b) {
		t.Errorf("%s:\n fast %s\n json %s", name, fast, slow)
	}
}

func BenchmarkEncodeResponse(b *testing.B) {
	g, _ := engine.New(engine.DefaultConfig())
	var bs []bot.Button
	for c := 1; c <= 7; c++ {
		bs = append(bs, bot.Button{Label: string(rune('0' + c)), Value: bot.Action{Kind: bot.KindDrop, GameID: "AbCdEfGhIjKlMnOp", Move: 12, Column: c - 1, Human: true}.String(), Column: c})
	}
	resp := response(bot.Reply{Visibility: bot.Update, Text: "<@1> dropped a disc in column 4.", Game: g,
		Red: match.Player{ID: "1"}, Yellow: match.Player{ID: "2"}, Buttons: bs}, true)
	b.Run("json.Marshal", func(b *testing.B) {
		for b.Loop() {
			_, _ = json.Marshal(resp)
		}
	})
	b.Run("encodeResponse", func(b *testing.B) {
		for b.Loop() {
			_, _ = encodeResponse(resp)
		}
	})
}

// TestResponseBuffers: the pool hands out empty buffers and keeps none
// over maxPooledResponse, so what it holds stays bounded.
func TestResponseBuffers(t *testing.T) {
	var pool responseBuffers
	for _, c := range []struct {
		size int
		kept bool
	}{{responseSize, true}, {maxPooledResponse, true}, {maxPooledResponse + 1, false}, {1 << 20, false}} {
		b := make([]byte, 7, c.size)
		if kept := pool.put(&b); kept != c.kept {
			t.Errorf("put a buffer of %d bytes: kept %v, want %v", c.size, kept, c.kept)
		}
		if b := *pool.get(); len(b) != 0 || cap(b) > maxPooledResponse {
			t.Errorf("get after a put of %d bytes: len %d cap %d, want 0 and at most %d", c.size, len(b), cap(b), maxPooledResponse)
		}
	}
}
