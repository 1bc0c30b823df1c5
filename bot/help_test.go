package bot

import (
	"testing"
	"unicode/utf8"

	"github.com/connect4/connect4/bot/lang"
)

// maxHelp is what the assembled help may take: Slack shows it as one
// section, whose text takes at most 3,000 characters.
const maxHelp = 3000

// TestHelpFits checks the whole help, in every language, against the
// platform that shows it whole (each line alone is checked by lang's
// limits).
func TestHelpFits(t *testing.T) {
	for _, l := range lang.All {
		if n := utf8.RuneCountInString(helpText(l)); n > maxHelp {
			t.Errorf("%s: the help is %d characters, more than %d", l, n, maxHelp)
		}
	}
}
