package terminal

import (
	"regexp"
	"strings"
)

// The chat's emphasis, as a terminal shows it. The bot writes Slack's
// markup (*bold*, _italic_, `code`; Discord's **bold** in its own words);
// a terminal shows neither asterisks nor backticks: with Config.Emphasis
// it draws them with ANSI SGR sequences (bold, italic, and code in bold
// cyan), else it drops the marks and keeps the words.

const (
	sgrBold   = "\x1b[1m"
	sgrItalic = "\x1b[3m"
	sgrCode   = "\x1b[1;36m"
	sgrReset  = "\x1b[0m"
)

var (
	// codeSpan is `text` with no backtick or newline inside.
	codeSpan = regexp.MustCompile("`([^`\n]+)`")
	// strong is *text* or **text**: its marks not touching a letter or
	// digit outside (so that a*b stays), nor a space inside (so that
	// 7 * 6 and a lone * stay as they are).
	strong = regexp.MustCompile(`(^|[^\p{L}\p{N}_*])\*{1,2}([^\s*](?:[^*\n]*[^\s*])?)\*{1,2}($|[^\p{L}\p{N}_*])`)
	// italic is _text_ on the same terms; snake_case words stay whole.
	italic = regexp.MustCompile(`(^|[^\p{L}\p{N}_*])_([^\s_](?:[^_\n]*[^\s_])?)_($|[^\p{L}\p{N}_*])`)
)

// emphasize returns s with the chat's emphasis drawn for a terminal: in
// ANSI when ansi is set, else as plain words.
func emphasize(s string, ansi bool) string {
	if !strings.ContainsAny(s, "*_`") {
		return s
	}
	// Code first: what is inside a code span is not emphasis. Its text is
	// set aside behind a private-use marker while the rest is rewritten.
	var spans []string
	s = codeSpan.ReplaceAllStringFunc(s, func(m string) string {
		spans = append(spans, m[1:len(m)-1])
		return string(rune(0xE000 + len(spans) - 1))
	})
	wrap := func(re *regexp.Regexp, on string) {
		// Twice: two spans sharing a space ("*a* *b*") match one at a time.
		for range 2 {
			s = re.ReplaceAllStringFunc(s, func(m string) string {
				sub := re.FindStringSubmatch(m)
				if !ansi {
					return sub[1] + sub[2] + sub[3]
				}
				return sub[1] + on + sub[2] + sgrReset + sub[3]
			})
		}
	}
	wrap(strong, sgrBold)
	wrap(italic, sgrItalic)
	for i, text := range spans {
		if ansi {
			text = sgrCode + text + sgrReset
		}
		s = strings.Replace(s, string(rune(0xE000+i)), text, 1)
	}
	return s
}
