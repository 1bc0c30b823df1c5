package bot

import (
	"strings"
	"testing"

	"github.com/connect4/connect4/bot/lang"
)

// TestAltWordsSayAsSay checks that AltWords' own filling says every alt.*
// message in every language exactly as lang's Say does, for the numbers
// and names a board has.
func TestAltWordsSayAsSay(t *testing.T) {
	names := []string{"A", "B", "Who", "Loser", "Name", "Colour", "Discs", "Columns", "Lines"}
	for _, l := range lang.All[1:] {
		w := AltWords(l)
		for _, id := range lang.IDs() {
			if !strings.HasPrefix(id, "alt.") {
				continue
			}
			for _, n := range []int{0, 1, 2, 3, 4, 5, 10, 11, 21, 22, 25, 100, 101} {
				args := func() map[string]any {
					a := map[string]any{"Count": n, "Column": n, "From": n, "To": n + 1, "Row": n,
						"FromColumn": n, "FromRow": n, "ToColumn": n, "ToRow": n, "Connect": n, "Rows": n, "Cols": n}
					for _, k := range names {
						a[k] = "<" + k + ">"
					}
					return a
				}
				if got, want := w(id, args()), l.Say(id, lang.Args(args())); got != want {
					t.Errorf("%s: %q with %d: %q, Say says %q", l, id, n, got, want)
				}
			}
		}
	}
	if AltWords(lang.English) != nil || AltWords(lang.Unset) != nil {
		t.Error("English is not render's own")
	}
}
