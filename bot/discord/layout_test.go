package discord

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"

	discordgo "github.com/bwmarrin/discordgo"

	"github.com/connect4/connect4/bot"
)

func TestComponentsLayout(t *testing.T) {
	columns := func(n int) []bot.Button {
		var bs []bot.Button
		for c := 1; c <= n; c++ {
			bs = append(bs, bot.Button{Label: strconv.Itoa(c), Value: fmt.Sprintf("c4:drop:g:0:%d", c-1), Column: c, Disabled: c == 2})
		}
		return bs
	}
	rematch := bot.Button{Label: "Rematch", Value: "c4:rematch:g:0:0", Style: bot.StylePrimary}
	for _, tc := range []struct {
		buttons []bot.Button
		want    []int
	}{
		{nil, nil},
		{columns(4), []int{4}},
		{columns(5), []int{5}},
		{columns(6), []int{3, 3}},
		{columns(7), []int{4, 3}},
		{columns(8), []int{4, 4}},
		{columns(9), []int{5, 4}},
		{columns(10), []int{5, 5}},
		{append(columns(7), rematch), []int{4, 3, 1}},
		{append(columns(10), rematch), []int{5, 5, 1}},
		{[]bot.Button{{Label: "Accept", Value: "a"}, {Label: "Decline", Value: "d"}, {Label: "Cancel", Value: "c"}}, []int{3}},
		{[]bot.Button{{Label: "no value"}}, nil},
	} {
		rows := components(tc.buttons)
		if rows == nil {
			t.Fatalf("components(%d buttons) = nil, want a non-nil slice", len(tc.buttons))
		}
		var got []int
		for _, r := range rows {
			row := r.(discordgo.ActionsRow)
			got = append(got, len(row.Components))
			for _, c := range row.Components {
				b := *c.(*discordgo.Button) // components makes pointers
				if want := b.Label == "2"; b.Disabled != want {
					t.Errorf("button %s disabled = %v, want %v", b.Label, b.Disabled, want)
				}
			}
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("components(%d buttons) rows %v, want %v", len(tc.buttons), got, tc.want)
		}
	}
}

func TestButtonStyles(t *testing.T) {
	for in, want := range map[bot.ButtonStyle]discordgo.ButtonStyle{
		bot.StyleDefault: discordgo.SecondaryButton, bot.StylePrimary: discordgo.PrimaryButton, bot.StyleDanger: discordgo.DangerButton,
	} {
		if got := buttonStyle(in); got != want {
			t.Errorf("buttonStyle(%v) = %v, want %v", in, got, want)
		}
	}
}

func TestLayoutClipsContent(t *testing.T) {
	long := strings.Repeat("é", maxContent+10)
	content, comps := layout(bot.Reply{Visibility: bot.Ephemeral, Text: long})
	if n := len([]rune(content)); n != maxContent {
		t.Errorf("ephemeral content of %d characters, want %d", n, maxContent)
	}
	if comps == nil || len(comps) != 0 {
		t.Errorf("ephemeral components %v, want an empty, non-nil list", comps)
	}
}
