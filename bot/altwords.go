package bot

import (
	"strconv"
	"strings"

	"github.com/connect4/connect4/bot/lang"
	"github.com/connect4/connect4/render"
)

// AltWords are render's words (alt text, Describe) in l, from the
// catalogue's alt.* messages. English (and Unset) is nil: render's own
// English, which render's tests hold equal to the catalogue's. The others
// fill the catalogue's text (lang.Raw) themselves rather than through
// Say's templates, which would cost a picture move more than drawing the
// picture: the numbers of a board (below 1,000) are written the same in
// every language, and the tests hold the result equal to Say's.
func AltWords(l lang.Lang) render.Words {
	l = l.Or(lang.English)
	if l == lang.English {
		return nil
	}
	return func(id string, args map[string]any) string {
		n, _ := args["Count"].(int)
		s, ok := l.Raw(id, n)
		if !ok {
			return l.Say(id, lang.Args(args))
		}
		return fillArgs(s, args)
	}
}

// fillArgs replaces each {{.Name}} of s by args[Name]: a string as it is,
// an int in decimal.
func fillArgs(s string, args map[string]any) string {
	if !strings.Contains(s, "{{") {
		return s
	}
	var sb strings.Builder
	sb.Grow(len(s) + 32)
	for {
		i := strings.Index(s, "{{")
		if i < 0 {
			break
		}
		j := strings.Index(s[i:], "}}")
		if j < 0 {
			break
		}
		sb.WriteString(s[:i])
		name := strings.TrimPrefix(strings.TrimSpace(s[i+2:i+j]), ".")
		switch v := args[name].(type) {
		case string:
			sb.WriteString(v)
		case int:
			sb.WriteString(strconv.Itoa(v))
		}
		s = s[i+j+2:]
	}
	sb.WriteString(s)
	return sb.String()
}
