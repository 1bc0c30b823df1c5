package terminal

import (
	"strings"
	"unicode"

	"golang.org/x/text/width"
)

// cells returns how many terminal cells s takes: East Asian wide and
// fullwidth characters (CJK, the disc emoji) two, combining marks, format
// characters and variation selectors none, the rest one. Columns of text
// are lined up by it, not by bytes or runes.
func cells(s string) int {
	n := 0
	for _, r := range s {
		switch {
		case unicode.In(r, unicode.Mn, unicode.Me, unicode.Cf, unicode.Variation_Selector):
		case r < 0x20 || r == 0x7f:
		default:
			switch width.LookupRune(r).Kind() {
			case width.EastAsianWide, width.EastAsianFullwidth:
				n += 2
			default:
				n++
			}
		}
	}
	return n
}

// padCells returns s followed by spaces up to n cells (s itself when it
// is as wide or wider).
func padCells(s string, n int) string {
	if c := cells(s); c < n {
		return s + strings.Repeat(" ", n-c)
	}
	return s
}
