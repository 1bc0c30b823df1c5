package discord

import (
	"strings"
	"testing"

	"github.com/connect4/connect4/bot"
	"github.com/connect4/connect4/render"
)

// TestAppendReply: the response written straight from a reply is, byte
// for byte, what appendResponse writes for response(r, fromButton, ps...)
// (which TestEncodeResponse holds to encoding/json), for every visibility,
// button layout and palette; a reply with a link button is left to
// appendResponse, and initial.encode writes the same bytes for it.
func TestAppendReply(t *testing.T) {
	g7, g10, alice, bob := layoutGames()
	others := func(n int) []bot.Button {
		var bs []bot.Button
		for i := range n {
			bs = append(bs, bot.Button{Label: "b" + strings.Repeat("é", i*9), Value: "c4:rematch:g1:" + string(rune('a'+i)), Style: bot.ButtonStyle(i % 4)})
		}
		return bs
	}
	// A palette too long for a 10 × 10 board in 2000 characters.
	long := render.Unicode()
	long.Empty, long.Red, long.Yellow = "<:c4_empty_0123456789:1234567890123456789>", "<:c4_red_0123456789:1234567890123456789>", "<:c4_yellow_0123456789:1234567890123456789>"
	dropped := []bot.Button{{Label: "no value"}, {Label: "too long", Value: strings.Repeat("v", maxCustomID+1)}, {Label: "kept", Value: "c4:x"}}
	for _, tc := range []struct {
		name       string
		r          bot.Reply
		fromButton bool
		ps         []render.Palette
	}{
		{"board", bot.Reply{Visibility: bot.Public, Text: "<@1> dropped a disc", Game: g7, Red: alice, Yellow: bob, Buttons: columnButtons(7)}, false, nil},
		{"update", bot.Reply{Visibility: bot.Update, Text: "move", Game: g7, Red: alice, Yellow: bob,
			Buttons: append(columnButtons(7), bot.Button{Label: "Rematch", Value: "c4:rematch:g1:3:0", Style: bot.StylePrimary})}, true, nil},
		{"update typed", bot.Reply{Visibility: bot.Update, Text: "move", Game: g7, Red: alice, Yellow: bob, Buttons: columnButtons(7)}, false, nil},
		{"ten columns", bot.Reply{Visibility: bot.Public, Text: "big", Game: g10, Red: alice, Yellow: bob, Buttons: columnButtons(10)}, false, nil},
		{"ten columns, a long palette", bot.Reply{Visibility: bot.Update, Text: "big", Game: g10, Red: alice, Yellow: bob, Buttons: columnButtons(10)}, true, []render.Palette{long}},
		{"palettes", bot.Reply{Visibility: bot.Update, Text: "m", Game: g7, Red: alice, Yellow: bob, Buttons: columnButtons(7)}, true, []render.Palette{long, render.Unicode()}},
		{"more rows than five", bot.Reply{Visibility: bot.Public, Text: "many", Game: g7, Red: alice, Yellow: bob, Buttons: append(columnButtons(9), others(17)...)}, false, nil},
		{"others only", bot.Reply{Visibility: bot.Public, Text: "x", Buttons: others(7)}, false, nil},
		{"dropped buttons", bot.Reply{Visibility: bot.Public, Text: "x", Buttons: dropped}, false, nil},
		{"long label", bot.Reply{Visibility: bot.Public, Text: "x", Buttons: []bot.Button{{Label: strings.Repeat("ab", maxLabel), Value: "c4:x"}}}, false, nil},
		{"challenge", bot.Reply{Visibility: bot.Public, Text: "<@1> challenges <@2> \u2028 & <b>", Notify: []string{"2", "3"}, Buttons: []bot.Button{
			{Label: "Accept", Value: "c4:accept:g1:0:0", Style: bot.StylePrimary}, {Label: "Decline", Value: "c4:decline:g1:0:0", Style: bot.StyleDanger}}}, false, nil},
		{"note", bot.Reply{Visibility: bot.Ephemeral, Text: "nope \x00 \xff", Buttons: columnButtons(2)}, true, nil},
		{"long note", bot.Reply{Visibility: bot.Ephemeral, Text: strings.Repeat("é", maxContent+5)}, false, nil},
		{"long text", bot.Reply{Visibility: bot.Public, Text: strings.Repeat("x", maxContent+5)}, false, nil},
		{"nothing, from a button", bot.Reply{}, true, nil},
		{"nothing, typed", bot.Reply{Text: "hm"}, false, nil},
		{"link", bot.Reply{Visibility: bot.Public, Text: "see", Buttons: []bot.Button{{Label: "Page", URL: "https://c4.example.com/g1"}, {Label: "Rematch", Value: "c4:x"}}}, false, nil},
	} {
		x := replyResponse{r: tc.r, fromButton: tc.fromButton, ps: tc.ps}
		want, err := appendResponse(nil, response(tc.r, tc.fromButton, tc.ps...))
		if err != nil {
			t.Fatalf("%s: appendResponse: %v", tc.name, err)
		}
		got, ok := appendReply([]byte("kept "), &x)
		if ok != (tc.name != "link") {
			t.Errorf("%s: appendReply reports %v", tc.name, ok)
		}
		if ok && string(got) != "kept "+string(want) {
			t.Errorf("%s:\n appendReply    %s\n appendResponse %s", tc.name, got, want)
		}
		if _, body, _, err := (initial{direct: true, reply: x}).encode(nil); err != nil || string(body) != string(want) {
			t.Errorf("%s: encode = %s, %v; want %s", tc.name, body, err, want)
		}
	}
}
