package web

import (
	"regexp"
	"slices"
	"testing"

	"github.com/connect4/connect4/bot/lang"
)

// TestTemplateWords: every word the template says is in templateWords
// (which the catalogue's tests see as used) and in the catalogue, and
// templateWords lists nothing the template does not say.
func TestTemplateWords(t *testing.T) {
	raw, err := files.ReadFile("templates/page.html")
	if err != nil {
		t.Fatal(err)
	}
	said := map[string]bool{}
	for _, m := range regexp.MustCompile(`\{\{t "([^"]+)"`).FindAllStringSubmatch(string(raw), -1) {
		said[m[1]] = true
		if !slices.Contains(templateWords, m[1]) {
			t.Errorf("the template says %q, which templateWords lacks", m[1])
		}
	}
	ids := lang.IDs()
	for _, id := range templateWords {
		if !said[id] {
			t.Errorf("templateWords lists %q, which the template never says", id)
		}
		if !slices.Contains(ids, id) {
			t.Errorf("%q is not in the catalogue", id)
		}
	}
}
