// Package clip cuts text to the length limits of chat platforms (message
// text, button labels, alt text). Both chat adapters use it; it knows
// nothing of Slack or Discord.
package clip

import "unicode/utf8"

// Runes cuts s to at most n characters (runes), marking a cut with "…", for
// platform limits on message and button text. n must be at least 1.
func Runes(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n-1]) + "…"
}
