package bot

import (
	"strings"
	"testing"
	"time"
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
		if n := utf8.RuneCountInString(helpText(l, 24*time.Hour)); n > maxHelp {
			t.Errorf("%s: the help is %d characters, more than %d", l, n, maxHelp)
		}
	}
}

// TestHelpSaysTheTurnTimeout: the help's claim line says the idle time
// the operator set (CONNECT4_TURN_TIMEOUT), not always "a day".
func TestHelpSaysTheTurnTimeout(t *testing.T) {
	tests := []struct {
		l       lang.Lang
		timeout time.Duration
		want    string
	}{
		{lang.English, 24 * time.Hour, "win a game your opponent has left idle for 24 hours"},
		{lang.English, 2 * time.Hour, "win a game your opponent has left idle for 2 hours"},
		{lang.English, 90 * time.Minute, "win a game your opponent has left idle for 1h 30m"},
		{lang.German, time.Hour, "seit 1 Stunde nicht gezogen hat"},
	}
	for _, tt := range tests {
		if got := helpText(tt.l, tt.timeout); !strings.Contains(got, tt.want) {
			t.Errorf("helpText(%v, %v) lacks %q:\n%s", tt.l, tt.timeout, tt.want, got)
		}
	}
}
