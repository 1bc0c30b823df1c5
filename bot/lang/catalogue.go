package lang

import (
	"embed"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strings"
	"sync"

	"github.com/nicksnyder/go-i18n/v2/i18n"
	"golang.org/x/text/message"
	"gopkg.in/yaml.v3"
)

// files are the catalogue: catalogue/<area>.<code>.yaml, one file per area
// of the bot (problems, game, help, ...) and language. A message is a
// string, or a map of CLDR plural forms (one, few, many, other) with an
// optional description for the translator; placeholders are
// {{.Name}}.
//
//go:embed catalogue/*.yaml
var files embed.FS

// catalogue is the parsed catalogue: one localizer and one number printer
// per language, and the English messages' ids. It is read-only once built.
type catalogue struct {
	printers [len(info)]*message.Printer
	bundle   *i18n.Bundle
	ids      []string
	// messages are the raw messages by language and id, as go-i18n read
	// them; compiled are the same, cut into text and placeholders once so
	// that Say only writes them out.
	messages [len(info)]map[string]*i18n.Message
	compiled [len(info)]map[string]*compiled
}

// load parses the embedded catalogue. An error is a malformed file, a
// file for a language not in All, or a message id written twice: all
// caught by the package's tests before a build ships.
func load() (*catalogue, error) {
	b := i18n.NewBundle(English.Tag())
	b.RegisterUnmarshalFunc("yaml", yaml.Unmarshal)
	c := &catalogue{bundle: b}
	for _, l := range All {
		c.messages[l] = map[string]*i18n.Message{}
		c.compiled[l] = map[string]*compiled{}
	}
	names, err := fs.Glob(files, "catalogue/*.yaml")
	if err != nil {
		return nil, err
	}
	for _, name := range names {
		l, err := fileLang(name)
		if err != nil {
			return nil, err
		}
		buf, err := files.ReadFile(name)
		if err != nil {
			return nil, err
		}
		mf, err := b.ParseMessageFileBytes(buf, name)
		if err != nil {
			return nil, fmt.Errorf("lang: %s: %w", name, err)
		}
		for _, m := range mf.Messages {
			if _, dup := c.messages[l][m.ID]; dup {
				return nil, fmt.Errorf("lang: %s: message %q is written twice", name, m.ID)
			}
			c.messages[l][m.ID] = m
			cm, err := compile(m)
			if err != nil {
				return nil, fmt.Errorf("lang: %s: %w", name, err)
			}
			c.compiled[l][m.ID] = cm
		}
	}
	for id := range c.messages[English] {
		c.ids = append(c.ids, id)
	}
	sort.Strings(c.ids)
	for _, l := range All {
		c.printers[l] = message.NewPrinter(l.Tag())
	}
	return c, nil
}

// fileLang returns the language of a catalogue file from its name
// (area.code.yaml).
func fileLang(name string) (Lang, error) {
	base := strings.TrimSuffix(path.Base(name), ".yaml")
	i := strings.LastIndexByte(base, '.')
	if i < 0 {
		return Unset, fmt.Errorf("lang: %s: the name is not area.code.yaml", name)
	}
	l, ok := ParseCode(base[i+1:])
	if !ok {
		return Unset, fmt.Errorf("lang: %s: %q is not one of the languages", name, base[i+1:])
	}
	return l, nil
}

// embedded is the catalogue of this build, parsed on first use.
var embedded = sync.OnceValues(load)

// mustCatalogue returns the embedded catalogue. The catalogue is part of
// the binary and tested whole, so a parse error is a build that must not
// run: it panics on the first message said, with the reason.
func mustCatalogue() *catalogue {
	c, err := embedded()
	if err != nil {
		panic(err)
	}
	return c
}

// Check parses the embedded catalogue and returns what is wrong with its
// files, if anything: main calls it at start so that a broken build stops
// there rather than at the first message.
func Check() error {
	_, err := embedded()
	return err
}

// Args are a message's arguments, by placeholder name. The argument named
// Count (an int) also chooses the plural form. Integers and floats are
// written in the language's number format (floats rounded to a whole
// number); strings as they are.
type Args map[string]any

// Say returns the message id in l (English for Unset) with args filled in.
// A message missing from l's catalogue is said in English; one missing
// from English too is said as its id (the tests make sure neither
// happens). Say is safe for concurrent use and does not modify args.
func (l Lang) Say(id string, args Args) string {
	c := mustCatalogue()
	l = l.Or(English)
	if int(l) >= len(info) {
		l = English
	}
	m, ok := c.compiled[l][id]
	if !ok {
		if m, ok = c.compiled[English][id]; !ok {
			return id
		}
		l = English
	}
	form := m.other
	if m.plural {
		n, _ := args["Count"].(int)
		form = m.form(l, n)
	}
	return form.write(c.printers[l], args)
}

// IDs returns the id of every message, sorted: the English catalogue's,
// which every other language must match.
func IDs() []string { return mustCatalogue().ids }
