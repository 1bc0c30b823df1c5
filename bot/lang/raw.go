package lang

import "golang.org/x/text/feature/plural"

// Raw returns message id in l as written in the catalogue, placeholders
// unfilled: for a message with plural forms, the form l's CLDR rules give
// count. A message l lacks is English's, as Say does; "" and false when
// English lacks it too. It is for hot paths that fill a few placeholders
// themselves (render's alt text on every picture), where Say's template
// execution costs more than the picture.
func (l Lang) Raw(id string, count int) (string, bool) {
	c := mustCatalogue()
	l = l.Or(English)
	if int(l) >= len(info) {
		l = English
	}
	m, ok := c.messages[l][id]
	if !ok {
		if m, ok = c.messages[English][id]; !ok {
			return "", false
		}
		l = English
	}
	if m.One == "" && m.Few == "" && m.Many == "" && m.Zero == "" && m.Two == "" {
		return m.Other, true
	}
	var s string
	switch plural.Cardinal.MatchPlural(l.Tag(), count, 0, 0, 0, 0) {
	case plural.Zero:
		s = m.Zero
	case plural.One:
		s = m.One
	case plural.Two:
		s = m.Two
	case plural.Few:
		s = m.Few
	case plural.Many:
		s = m.Many
	}
	if s == "" {
		s = m.Other
	}
	return s, true
}
