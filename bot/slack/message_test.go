package slack

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/connect4/connect4/bot/match"

	slackapi "github.com/slack-go/slack"

	"github.com/connect4/connect4/bot"
	"github.com/connect4/connect4/engine"
	"github.com/connect4/connect4/render"
)

// bigGame is a 10×10 board filled as far as possible without a win, the
// longest board text there is.
func bigGame(t *testing.T) *engine.Game {
	t.Helper()
	g, err := engine.New(engine.Config{Rows: 10, Cols: 10, Connect: 4})
	if err != nil {
		t.Fatal(err)
	}
	// Columns in pairs, two discs at a time, never four in a line.
	for _, pair := range [][2]int{{0, 1}, {2, 3}, {4, 5}, {6, 7}, {8, 9}} {
		for row := 0; row < 10; row++ {
			for _, c := range pair {
				if g.State().Over() {
					return g
				}
				_ = g.Play(g.Turn(), c) // a win or a refusal only shortens the board
			}
		}
	}
	return g
}

func TestMessageLimits(t *testing.T) {
	g := bigGame(t)
	long := strings.Repeat("A long announcement. ", 120) // about 2500 characters
	var btns []bot.Button
	for c := 0; c < 30; c++ {
		btns = append(btns, bot.Button{Label: strconv.Itoa(c + 1), Value: "c4:drop:g:0:" + strconv.Itoa(c%10), Column: c + 1, Disabled: c%3 == 0})
	}
	btns = append(btns, bot.Button{Label: strings.Repeat("Rematch ", 20), Value: "c4:rematch:g:0:0", Style: bot.StylePrimary},
		bot.Button{Label: "Decline", Value: "c4:decline:g:0:0", Style: bot.StyleDanger})
	r := bot.Reply{Visibility: bot.Update, Text: long, Game: g, Buttons: btns,
		Red: match.Player{ID: "UA", Name: "a"}, Yellow: match.Player{ID: "UB", Name: "b"}}
	msg := message(r)
	if msg.Text == "" || utf8.RuneCountInString(msg.Text) > maxText {
		t.Fatalf("fallback text of %d characters", utf8.RuneCountInString(msg.Text))
	}
	m := r.Format(render.Slack())
	if !strings.Contains(sectionText(posted{Blocks: *msg.Blocks}), m.Board) {
		t.Fatalf("the board was cut:\n%s", sectionText(posted{Blocks: *msg.Blocks}))
	}
	var texts []*slackapi.TextBlockObject
	var buttonsSeen []*slackapi.ButtonBlockElement
	ids := map[string]bool{}
	for _, b := range msg.Blocks.BlockSet {
		switch b := b.(type) {
		case *slackapi.SectionBlock:
			texts = append(texts, b.Text)
		case *slackapi.ContextBlock:
			for _, el := range b.ContextElements.Elements {
				texts = append(texts, el.(*slackapi.TextBlockObject))
			}
		case *slackapi.ActionBlock:
			if n := len(b.Elements.ElementSet); n == 0 || n > maxActionButtons {
				t.Errorf("actions block %s with %d elements", b.BlockID, n)
			}
			for _, el := range b.Elements.ElementSet {
				btn := el.(*slackapi.ButtonBlockElement)
				buttonsSeen = append(buttonsSeen, btn)
				texts = append(texts, btn.Text)
				if ids[btn.ActionID] {
					t.Errorf("action_id %s used twice", btn.ActionID)
				}
				ids[btn.ActionID] = true
			}
		}
	}
	for _, tx := range texts {
		if err := tx.Validate(); err != nil {
			t.Errorf("text object %.40q: %v", tx.Text, err)
		}
	}
	for _, btn := range buttonsSeen {
		if utf8.RuneCountInString(btn.Text.Text) > maxButtonLabel {
			t.Errorf("button label of %d characters", utf8.RuneCountInString(btn.Text.Text))
		}
		if strings.Contains(btn.Value, ":drop:") {
			col, _ := strconv.Atoi(btn.Text.Text)
			if (col-1)%3 == 0 {
				t.Errorf("disabled button %s drawn", btn.Text.Text)
			}
		}
	}
	if want := 30 - 10 + 2; len(buttonsSeen) != want {
		t.Errorf("%d buttons drawn, want %d", len(buttonsSeen), want)
	}
	if s := buttonsSeen[len(buttonsSeen)-2].Style; s != slackapi.StylePrimary {
		t.Errorf("Rematch style %q, want primary", s)
	}
	if s := buttonsSeen[len(buttonsSeen)-1].Style; s != slackapi.StyleDanger {
		t.Errorf("Decline style %q, want danger", s)
	}
	if js, err := json.Marshal(msg); err != nil || len(js) >= 20*1024 {
		t.Errorf("message of %d bytes (%v), want under Socket Mode's 20 KB", len(js), err)
	}
}

// TestMessageShape checks the layout of an ordinary board.
func TestMessageShape(t *testing.T) {
	g, _ := engine.New(engine.DefaultConfig())
	_ = g.Play(engine.Red, 3)
	r := bot.Reply{Visibility: bot.Update, Text: "<@UA> dropped a disc in column 4.", Game: g,
		Red: match.Player{ID: "UA"}, Yellow: match.Player{ID: "UB"},
		Buttons: []bot.Button{{Label: "1", Value: "c4:drop:g1:1:0", Column: 1}}}
	msg := message(r)
	js, err := json.Marshal(msg)
	if err != nil {
		t.Fatal(err)
	}
	var raw struct {
		Text   string `json:"text"`
		Blocks []struct {
			Type     string `json:"type"`
			Text     *struct{ Type, Text string }
			Elements []map[string]any `json:"elements"`
		} `json:"blocks"`
	}
	if err := json.Unmarshal(js, &raw); err != nil {
		t.Fatal(err)
	}
	var types []string
	for _, b := range raw.Blocks {
		types = append(types, b.Type)
	}
	if strings.Join(types, " ") != "section context actions" {
		t.Fatalf("blocks %v, want section context actions", types)
	}
	sec := raw.Blocks[0].Text
	if sec.Type != "mrkdwn" || !strings.HasPrefix(sec.Text, "<@UA> dropped a disc in column 4.\n:red_circle: <@UA> vs :large_yellow_circle: <@UB>\n:one:") {
		t.Fatalf("section %+v, want mrkdwn header then board", sec)
	}
	if el := raw.Blocks[1].Elements[0]; el["type"] != "mrkdwn" || !strings.Contains(el["text"].(string), "<@UB>, it's your turn") {
		t.Fatalf("context element %v, want mrkdwn saying UB is to move", el)
	}
	el := raw.Blocks[2].Elements[0]
	label, _ := el["text"].(map[string]any)
	if el["type"] != "button" || el["action_id"] != "c4_0" || el["value"] != "c4:drop:g1:1:0" || label["type"] != "plain_text" || label["text"] != "1" {
		t.Fatalf("button %v", el)
	}
	if !strings.Contains(raw.Text, "to move") {
		t.Fatalf("fallback %q does not say whose turn it is", raw.Text)
	}
	if strings.Contains(raw.Text, ":red_circle:") {
		t.Fatalf("fallback %q has emoji codes", raw.Text)
	}
}
