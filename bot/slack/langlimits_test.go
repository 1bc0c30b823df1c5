package slack

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	slackapi "github.com/slack-go/slack"

	"github.com/connect4/connect4/bot"
	"github.com/connect4/connect4/bot/lang"
)

// longArgs are arguments for every placeholder of the catalogue: a
// mention of the longest id for each name, and Count 22 (plural forms
// with two digits).
func longArgs(t *testing.T) lang.Args {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("..", "lang", "catalogue", "*.en.yaml"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no English catalogue files: %v", err)
	}
	a := lang.Args{}
	re := regexp.MustCompile(`\{\{\s*\.([A-Za-z][A-Za-z0-9]*)\s*\}\}`)
	for _, f := range files {
		buf, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range re.FindAllStringSubmatch(string(buf), -1) {
			a[m[1]] = "<@U0123456789ABCDEFGHIJ>"
		}
	}
	a["Count"] = 22
	return a
}

// TestEveryMessageFitsSlack lays out every message of the catalogue in
// every language, as a reply's text and as a button's label (ids under
// button.), and checks that Slack takes it whole: no text object cut to
// 3,000 characters, no label cut to 75, every text object valid.
func TestEveryMessageFitsSlack(t *testing.T) {
	args := longArgs(t)
	for _, l := range lang.All {
		for _, id := range lang.IDs() {
			a := lang.Args{}
			for k, v := range args {
				a[k] = v
			}
			s := l.Say(id, a)
			r := bot.Reply{Visibility: bot.Ephemeral, Text: s, Lang: l}
			if strings.HasPrefix(id, "button.") {
				r.Buttons = []bot.Button{{Label: s, Value: "x"}}
			}
			msg := message(r)
			var texts []*slackapi.TextBlockObject
			whole := false
			for _, b := range msg.Blocks.BlockSet {
				switch b := b.(type) {
				case *slackapi.SectionBlock:
					texts = append(texts, b.Text)
					whole = whole || strings.Contains(b.Text.Text, strings.TrimSpace(s))
				case *slackapi.ActionBlock:
					for _, el := range b.Elements.ElementSet {
						btn := el.(*slackapi.ButtonBlockElement)
						texts = append(texts, btn.Text)
						if btn.Text.Text != s {
							t.Errorf("%s: %q: the button's label is cut to %q", l, id, btn.Text.Text)
						}
					}
				}
			}
			if !whole {
				t.Errorf("%s: %q: no section holds the whole text", l, id)
			}
			for _, tx := range texts {
				if err := tx.Validate(); err != nil {
					t.Errorf("%s: %q: %v", l, id, err)
				}
			}
		}
	}
}
