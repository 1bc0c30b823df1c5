package bot

import (
	"strings"

	"github.com/connect4/connect4/bot/lang"
	"github.com/connect4/connect4/bot/match"
)

// What the bot says is built as phrases (a message id and its arguments)
// and said only once the reply's language is known: the use cases decide
// what to say inside a store's compare-and-set, and which language to say
// it in after it (the record's own language is one of the choices).

// phrase is a message of the catalogue not yet said: its id and
// arguments. An argument may itself be a phrase, a speech or a list of
// players (see people): say says them in the same language.
type phrase struct {
	id   string
	args lang.Args
}

// in says p in l.
func (p phrase) in(l lang.Lang) string {
	if p.id == "" { // nothing, or text already said (see said)
		s, _ := p.args["Text"].(string)
		return s
	}
	return say(l, p.id, p.args)
}

// said is text already said in its language, as a speech: for a piece
// of wording written by code that still says its own.
func said(text string) speech {
	return speech{{p: phrase{args: lang.Args{"Text": text}}}}
}

// speech is sentences said one after the other, each after its separator
// (" " or "\n"; the first one's is not written).
type speech []part

type part struct {
	sep string
	p   phrase
}

// words starts a speech with the message id.
func words(id string, args lang.Args) speech { return speech{{p: phrase{id, args}}} }

// then appends more after a space: the next sentence of the same line.
func (sp speech) then(more speech) speech { return sp.join(" ", more) }

// line appends more on a new line.
func (sp speech) line(more speech) speech { return sp.join("\n", more) }

func (sp speech) join(sep string, more speech) speech {
	if len(more) == 0 {
		return sp
	}
	out := append(sp[:len(sp):len(sp)], more...)
	if len(sp) > 0 {
		out[len(sp)].sep = sep
	}
	return out
}

// in says sp in l.
func (sp speech) in(l lang.Lang) string {
	var b strings.Builder
	for i, pt := range sp {
		if i > 0 {
			b.WriteString(pt.sep)
		}
		b.WriteString(pt.p.in(l))
	}
	return b.String()
}

// people is a list of players said as in a sentence: "<@a>", "<@a> and
// <@b>", "<@a>, <@b> and <@c>", in the language's own way of listing.
type people []match.Player

// in says ps in l.
func (ps people) in(l lang.Lang) string {
	switch len(ps) {
	case 0:
		return ""
	case 1:
		return mention(ps[0])
	case 2:
		return l.Say("list.pair", lang.Args{"First": mention(ps[0]), "Second": mention(ps[1])})
	}
	return l.Say("list.more", lang.Args{"First": mention(ps[0]), "Rest": ps[1:].in(l)})
}

// names is a list of plain names said as in a sentence, like people.
type names []string

// in says ns in l.
func (ns names) in(l lang.Lang) string {
	switch len(ns) {
	case 0:
		return ""
	case 1:
		return ns[0]
	case 2:
		return l.Say("list.pair", lang.Args{"First": ns[0], "Second": ns[1]})
	}
	return l.Say("list.more", lang.Args{"First": ns[0], "Rest": ns[1:].in(l)})
}

// say returns the message id in l, its phrases, speeches and lists among
// args said in l first. args is not changed.
func say(l lang.Lang, id string, args lang.Args) string {
	if len(args) == 0 {
		return l.Say(id, nil)
	}
	a := make(lang.Args, len(args))
	for k, v := range args {
		switch v := v.(type) {
		case phrase:
			a[k] = v.in(l)
		case speech:
			a[k] = v.in(l)
		case people:
			a[k] = v.in(l)
		case names:
			a[k] = v.in(l)
		default:
			a[k] = v
		}
	}
	return l.Say(id, a)
}
