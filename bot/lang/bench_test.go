package lang

import (
	"testing"

	"github.com/nicksnyder/go-i18n/v2/i18n"
)

// BenchmarkSay is one message as a move says it: two mentions and a
// column; BenchmarkSayPlural a count.
func BenchmarkSay(b *testing.B) {
	for b.Loop() {
		_ = English.Say("game.dropped", Args{"Player": "<@123456789012345678>", "Column": 4})
	}
}

func BenchmarkSayPlural(b *testing.B) {
	for b.Loop() {
		_ = Polish.Say("unit.moves", Args{"Count": 5})
	}
}

// TestSayAsGoI18n holds Say's compiled messages to go-i18n's own template
// execution: every message in every language, with every plural count of
// the sample, says the same.
func TestSayAsGoI18n(t *testing.T) {
	c := mustCatalogue()
	for _, l := range All {
		loc := i18n.NewLocalizer(c.bundle, l.String())
		for _, id := range c.ids {
			names, _ := placeholders(c.messages[English][id])
			for _, n := range []int{0, 1, 2, 3, 5, 12, 22, 1500, -1} {
				args := sampleArgs(names, n)
				data := map[string]any{}
				for k, v := range args {
					data[k] = v
				}
				if _, ok := data["Count"]; ok {
					data["Count"] = c.printers[l].Sprintf("%d", n)
				}
				cfg := &i18n.LocalizeConfig{MessageID: id, TemplateData: data}
				if _, ok := args["Count"]; ok {
					cfg.PluralCount = n
				}
				want, err := loc.Localize(cfg)
				if err != nil {
					continue // missing in l (the walk test reports it); Say falls back to English, numbers and all
				}
				if got := l.Say(id, args); got != want {
					t.Errorf("%s: %q (Count %d) = %q, go-i18n says %q", l, id, n, got, want)
				}
			}
		}
	}
}
