// Package lang is what the bot says, in the languages it speaks: the
// catalogue of every user-facing message (embedded YAML files a translator
// edits, one set per language), CLDR plural rules and number formats, and
// the matching of a platform's locale ("de", "es-ES", "pt_BR.UTF-8") to one
// of the languages.
//
// It knows nothing of chat platforms, games or stores: callers choose the
// language (the player's own, or the channel's) and give the message's
// arguments already written (mentions, columns, durations).
package lang

import (
	"strings"

	"golang.org/x/text/language"
)

// Lang is one of the languages the bot speaks. The zero value Unset means
// no choice was made; it reads as English (see Or).
type Lang uint8

// The languages. New ones are only ever appended (a channel's setting is
// stored by code, not by number, but tests and tables index by Lang).
const (
	Unset Lang = iota
	English
	German
	French
	Spanish
	PortugueseBR
	Polish
	Russian
	Japanese
	Korean
	ChineseSimplified
)

// All lists every language, English first.
var All = []Lang{English, German, French, Spanish, PortugueseBR, Polish, Russian, Japanese, Korean, ChineseSimplified}

// info is what is known of each language: its BCP 47 code (the catalogue
// files' suffix and the stored setting), its own name, and the locales
// Discord uses for it.
var info = [...]struct {
	code, name string
	discord    []string
}{
	Unset:             {"", "", nil},
	English:           {"en", "English", []string{"en-US", "en-GB"}},
	German:            {"de", "Deutsch", []string{"de"}},
	French:            {"fr", "Français", []string{"fr"}},
	Spanish:           {"es", "Español", []string{"es-ES", "es-419"}},
	PortugueseBR:      {"pt-BR", "Português (Brasil)", []string{"pt-BR"}},
	Polish:            {"pl", "Polski", []string{"pl"}},
	Russian:           {"ru", "Русский", []string{"ru"}},
	Japanese:          {"ja", "日本語", []string{"ja"}},
	Korean:            {"ko", "한국어", []string{"ko"}},
	ChineseSimplified: {"zh-CN", "简体中文", []string{"zh-CN"}},
}

// String returns the language's code ("de", "pt-BR"), as stored in a
// channel's setting and used in the catalogue's file names; "" for Unset.
func (l Lang) String() string {
	if int(l) < len(info) {
		return info[l].code
	}
	return ""
}

// Name returns the language's name in itself ("Deutsch"); "" for Unset.
func (l Lang) Name() string {
	if int(l) < len(info) {
		return info[l].name
	}
	return ""
}

// DiscordLocales returns the locales Discord uses for l (for its command
// name and description localizations); none for English's default.
func (l Lang) DiscordLocales() []string {
	if int(l) < len(info) {
		return info[l].discord
	}
	return nil
}

// Or returns l, or other when l is Unset.
func (l Lang) Or(other Lang) Lang {
	if l == Unset {
		return other
	}
	return l
}

// tags are the languages' BCP 47 tags in the order of All, and matcher
// matches a requested locale against them.
var (
	tags = func() []language.Tag {
		t := make([]language.Tag, len(All))
		for i, l := range All {
			t[i] = language.MustParse(l.String())
		}
		return t
	}()
	matcher = language.NewMatcher(tags)
)

// Tag returns the language's BCP 47 tag; English's for Unset.
func (l Lang) Tag() language.Tag {
	l = l.Or(English)
	if int(l) > len(tags) {
		return tags[0]
	}
	return tags[l-1]
}

// known are the locales platforms send most, written as they send them,
// with their language: each language's code and Discord locales, and
// Slack's and POSIX's language-region forms. Parse answers these with one
// map read (it runs a few times on every move); anything else goes
// through x/text's parser and matcher, with the same answer.
var known = func() map[string]Lang {
	m := map[string]Lang{}
	for _, l := range All {
		m[l.String()] = l
		for _, d := range l.DiscordLocales() {
			m[d] = l
		}
	}
	for loc, l := range map[string]Lang{
		"en-AU": English, "en-CA": English, "en-IN": English, "de-DE": German, "de-AT": German, "de-CH": German,
		"fr-FR": French, "fr-CA": French, "fr-BE": French, "fr-CH": French, "es-MX": Spanish, "es-LA": Spanish,
		"pt": PortugueseBR, "pt-PT": PortugueseBR, "pl-PL": Polish, "ru-RU": Russian, "ja-JP": Japanese,
		"ko-KR": Korean, "zh": ChineseSimplified, "zh-Hans": ChineseSimplified,
	} {
		m[loc] = l
	}
	for loc, l := range m {
		if strings.Contains(loc, "-") {
			m[strings.ReplaceAll(loc, "-", "_")] = l
		}
	}
	return m
}()

// maxLocale is the longest locale Parse reads: BCP 47 tags people use are
// far shorter, and a longer one is not a locale.
const maxLocale = 64

// Parse returns the language that best serves locale, as platforms and
// systems write it: a BCP 47 tag ("de", "es-ES", "zh-Hans-CN"), Discord's
// locales ("pt-BR", "zh-CN"), Slack's ("ja-JP"), or a POSIX locale
// ("de_DE.UTF-8", "fr_FR@euro"). A regional variant we do not have reads as
// its language's ("de-AT" is German, "pt-PT" Brazilian Portuguese). It
// returns Unset and false for an empty, malformed or unknown locale
// (including "C" and "POSIX"), which callers read as English.
func Parse(locale string) (Lang, bool) {
	if locale == "" || len(locale) > maxLocale {
		return Unset, false
	}
	if l, ok := known[locale]; ok { // the forms platforms send, without x/text's parse
		return l, true
	}
	// POSIX: language[_territory][.codeset][@modifier].
	if i := strings.IndexAny(locale, ".@"); i >= 0 {
		locale = locale[:i]
	}
	locale = strings.ReplaceAll(locale, "_", "-")
	if locale == "C" || locale == "POSIX" {
		return Unset, false
	}
	t, err := language.Parse(locale)
	if err != nil {
		return Unset, false
	}
	_, i, conf := matcher.Match(t)
	if conf == language.No {
		return Unset, false
	}
	return All[i], true
}

// ParseCode returns the language whose code (String) is code, in any
// case, or Unset and false: the strict form a stored setting is read in.
func ParseCode(code string) (Lang, bool) {
	for _, l := range All {
		if strings.EqualFold(l.String(), code) {
			return l, true
		}
	}
	return Unset, false
}

// maxClean is the longest locale Clean passes on: the platforms' are at
// most 6 characters ("zh-CN", "es-419").
const maxClean = 16

// Clean returns locale, as a platform sent it, when it is short and made
// of ASCII letters, digits, '-' and '_' only; else "" (English). Adapters
// pass outside locales through it, so that a hostile value reaches
// neither the command nor a log line.
func Clean(locale string) string {
	if len(locale) > maxClean {
		return ""
	}
	for _, c := range []byte(locale) {
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-' || c == '_') {
			return ""
		}
	}
	return locale
}
