package lang

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/nicksnyder/go-i18n/v2/i18n"
	"golang.org/x/text/feature/plural"
	"golang.org/x/text/message"
)

// compiled is a message cut into its literal text and placeholders, per
// CLDR plural form, once when the catalogue is read. The catalogue's
// tests allow no template action but {{.Name}}, so this is all of a
// message: writing it costs a few appends, where executing go-i18n's
// text/template costs microseconds and a dozen allocations on every
// message a move says.
type compiled struct {
	plural bool // the message has forms other than other
	other  form
	forms  [plural.Many + 1]form // by x/text plural.Form; zero where absent
}

// form is one plural form: text and placeholders in turn.
type form []segment

// segment is literal text, or the placeholder named name.
type segment struct {
	text, name string
}

var action = regexp.MustCompile(`\{\{\s*\.([A-Za-z][A-Za-z0-9]*)\s*\}\}|\{\{.*?\}\}`)

// compile cuts m's forms. A template action other than {{.Name}} is an
// error: the catalogue's test names it first.
func compile(m *i18n.Message) (*compiled, error) {
	c := &compiled{}
	for f, src := range map[plural.Form]string{plural.Zero: m.Zero, plural.One: m.One, plural.Two: m.Two,
		plural.Few: m.Few, plural.Many: m.Many, plural.Other: m.Other} {
		if src == "" {
			continue
		}
		var fm form
		last := 0
		for _, loc := range action.FindAllStringSubmatchIndex(src, -1) {
			if loc[2] < 0 {
				return nil, fmt.Errorf("message %q: %q is not a {{.Name}} placeholder", m.ID, src[loc[0]:loc[1]])
			}
			if loc[0] > last {
				fm = append(fm, segment{text: src[last:loc[0]]})
			}
			fm = append(fm, segment{name: src[loc[2]:loc[3]]})
			last = loc[1]
		}
		if last < len(src) {
			fm = append(fm, segment{text: src[last:]})
		}
		if f == plural.Other {
			c.other = fm
		} else {
			c.forms[f] = fm
			c.plural = true
		}
	}
	return c, nil
}

// form returns the form l's CLDR rules give the whole number n, or other.
func (c *compiled) form(l Lang, n int) form {
	f := plural.Cardinal.MatchPlural(l.Tag(), abs(n), 0, 0, 0, 0)
	if f != plural.Other && int(f) < len(c.forms) && c.forms[f] != nil {
		return c.forms[f]
	}
	return c.other
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// write fills f's placeholders from args: strings as they are, integers
// and floats (rounded) in the language's number format, anything else as
// fmt prints it; a placeholder args lacks as "<no value>", as
// text/template would.
func (f form) write(p *message.Printer, args Args) string {
	if len(f) == 1 && f[0].name == "" {
		return f[0].text
	}
	var b strings.Builder
	n := 0
	for _, s := range f {
		n += len(s.text)
		if s.name != "" {
			n += 24 // a mention or a number
		}
	}
	b.Grow(n)
	for _, s := range f {
		if s.name == "" {
			b.WriteString(s.text)
			continue
		}
		v, ok := args[s.name]
		if !ok {
			b.WriteString("<no value>")
			continue
		}
		switch v := v.(type) {
		case string:
			b.WriteString(v)
		case int:
			writeInt(&b, p, int64(v))
		case int64:
			writeInt(&b, p, v)
		case float64:
			b.WriteString(p.Sprintf("%.0f", v))
		case fmt.Stringer:
			b.WriteString(v.String())
		default:
			fmt.Fprint(&b, v)
		}
	}
	return b.String()
}

// writeInt writes n in p's language: below 1,000 every language here
// writes the plain digits, which skips the printer.
func writeInt(b *strings.Builder, p *message.Printer, n int64) {
	if n > -1000 && n < 1000 {
		b.WriteString(strconv.FormatInt(n, 10))
		return
	}
	b.WriteString(p.Sprintf("%d", n))
}
