package bot

import "unicode/utf8"

// Clip cuts s to at most n characters (runes), marking a cut with "…", for
// platform limits on message and button text. n must be at least 1.
func Clip(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n-1]) + "…"
}

// TextForeignButton is told to someone who clicks a button this bot did not
// draw, or whose value was tampered with: it changes nothing.
const TextForeignButton = "That button isn't one of mine, so it did nothing."
