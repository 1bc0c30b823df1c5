package discord

import (
	"encoding/json"
	"strings"
	"testing"

	discordgo "github.com/bwmarrin/discordgo"

	"github.com/connect4/connect4/bot"
)

// TestLinkButtons: a reply's link button becomes a link button (style 5,
// url, no custom_id) in a row of its own kind, in the JSON sent too; one
// whose URL Discord would refuse is left out.
func TestLinkButtons(t *testing.T) {
	page := "https://c4.example.com/pages/abc.def"
	rows := components([]bot.Button{
		{Label: "1", Value: "drop|g1|0|0|h", Column: 1},
		{Label: "Rematch", Value: "rematch|g1|7"},
		{Label: "Game page", URL: page},
		{Label: "Too long", URL: "https://c4.example.com/" + strings.Repeat("a", maxLinkURL)},
	})
	var links, others []discordgo.Button
	for _, r := range rows {
		for _, c := range r.(discordgo.ActionsRow).Components {
			b := *c.(*discordgo.Button) // components makes pointers
			if b.Style == discordgo.LinkButton {
				links = append(links, b)
			} else {
				others = append(others, b)
			}
		}
	}
	if len(links) != 1 || links[0].URL != page || links[0].CustomID != "" || links[0].Label != "Game page" {
		t.Fatalf("link buttons %+v, want the one page", links)
	}
	if len(others) != 2 {
		t.Errorf("%d other buttons, want 2", len(others))
	}
	js, err := encodeResponse(&discordgo.InteractionResponse{Type: discordgo.InteractionResponseChannelMessageWithSource,
		Data: &discordgo.InteractionResponseData{Content: "x", Components: rows}})
	if err != nil {
		t.Fatal(err)
	}
	var resp struct {
		Data struct {
			Components []struct {
				Components []map[string]any `json:"components"`
			} `json:"components"`
		} `json:"data"`
	}
	if err := json.Unmarshal(js, &resp); err != nil {
		t.Fatal(err)
	}
	found := false
	for _, r := range resp.Data.Components {
		for _, c := range r.Components {
			if c["url"] == page {
				found = true
				if c["style"] != float64(discordgo.LinkButton) || c["custom_id"] != nil && c["custom_id"] != "" {
					t.Errorf("link button sent as %v", c)
				}
			}
		}
	}
	if !found {
		t.Errorf("the link is not in the JSON sent: %s", js)
	}
}
