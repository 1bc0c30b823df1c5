package discord

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	discordgo "github.com/bwmarrin/discordgo"

	"github.com/connect4/connect4/bot"
	"github.com/connect4/connect4/bot/lang"
)

// longArgs are arguments for every placeholder of the catalogue: a
// mention of a 19-digit id for each name (22 characters), and Count 22.
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
			a[m[1]] = "<@1234567890123456789>"
		}
	}
	a["Count"] = 22
	return a
}

// TestEveryMessageFitsDiscord lays out every message of the catalogue in
// every language, as a reply's content and as a button's label (ids under
// button.), and checks that Discord takes it whole: content within 2,000
// characters holding the whole text, labels within 80 and not cut.
func TestEveryMessageFitsDiscord(t *testing.T) {
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
			content, comps := layout(r)
			if n := utf8.RuneCountInString(content); n > maxContent {
				t.Errorf("%s: %q: content of %d characters", l, id, n)
			}
			if !strings.Contains(content, strings.TrimSpace(s)) {
				t.Errorf("%s: %q: the content does not hold the whole text", l, id)
			}
			for _, row := range comps {
				for _, c := range row.(discordgo.ActionsRow).Components {
					b := *c.(*discordgo.Button) // components makes pointers
					if b.Label != s || utf8.RuneCountInString(b.Label) > maxLabel {
						t.Errorf("%s: %q: label %q, want %q within %d", l, id, b.Label, s, maxLabel)
					}
				}
			}
		}
	}
}
