package lang

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/nicksnyder/go-i18n/v2/i18n"
	"golang.org/x/text/feature/plural"
	"golang.org/x/text/language"
	"gopkg.in/yaml.v3"
)

// forms are a message's plural forms by CLDR category name.
func forms(m *i18n.Message) map[string]string {
	f := map[string]string{}
	for name, s := range map[string]string{"zero": m.Zero, "one": m.One, "two": m.Two, "few": m.Few, "many": m.Many, "other": m.Other} {
		if s != "" {
			f[name] = s
		}
	}
	return f
}

// integerCategories returns the CLDR plural categories the language uses
// for whole numbers (the only counts the bot has), always with "other"
// (the fallback go-i18n needs).
func integerCategories(l Lang) []string {
	names := map[plural.Form]string{plural.Zero: "zero", plural.One: "one", plural.Two: "two", plural.Few: "few", plural.Many: "many", plural.Other: "other"}
	set := map[string]bool{"other": true}
	for n := 0; n <= 1000; n++ {
		set[names[plural.Cardinal.MatchPlural(l.Tag(), n, 0, 0, 0, 0)]] = true
	}
	var out []string
	for k := range set {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

var (
	placeholder = regexp.MustCompile(`\{\{\s*\.([A-Za-z][A-Za-z0-9]*)\s*\}\}`)
	anyAction   = regexp.MustCompile(`\{\{.*?\}\}`)
)

// placeholders returns the sorted set of placeholder names in every form of
// m, and the template actions that are not plain placeholders.
func placeholders(m *i18n.Message) (names, other []string) {
	set := map[string]bool{}
	for _, s := range forms(m) {
		for _, a := range anyAction.FindAllString(s, -1) {
			if p := placeholder.FindStringSubmatch(a); p != nil {
				set[p[1]] = true
			} else {
				other = append(other, a)
			}
		}
	}
	for k := range set {
		names = append(names, k)
	}
	sort.Strings(names)
	return names, other
}

func TestCatalogueLoads(t *testing.T) {
	if err := Check(); err != nil {
		t.Fatal(err)
	}
	if len(IDs()) == 0 {
		t.Fatal("the English catalogue has no messages")
	}
}

// TestEveryMessageInEveryLanguage walks every message id in every language:
// present, no id English lacks, the same placeholders as English, the
// plural forms the language's CLDR rules use for whole numbers, and each
// form renders without a template error.
func TestEveryMessageInEveryLanguage(t *testing.T) {
	c := mustCatalogue()
	for _, l := range All {
		cats := integerCategories(l)
		t.Run(l.String(), func(t *testing.T) {
			for id := range c.messages[l] {
				if _, ok := c.messages[English][id]; !ok {
					t.Errorf("%s: %q is not in the English catalogue", l, id)
				}
			}
			for _, id := range c.ids {
				en := c.messages[English][id]
				m, ok := c.messages[l][id]
				if !ok {
					t.Errorf("%s: %q is missing", l, id)
					continue
				}
				wantNames, _ := placeholders(en)
				names, bad := placeholders(m)
				if len(bad) > 0 {
					t.Errorf("%s: %q: template actions other than {{.Name}}: %q", l, id, bad)
				}
				if !slices.Equal(names, wantNames) {
					t.Errorf("%s: %q has placeholders %q, English has %q", l, id, names, wantNames)
				}
				got := slices.Sorted(func(yield func(string) bool) {
					for k := range forms(m) {
						if !yield(k) {
							return
						}
					}
				})
				if isPlural(en) {
					if !slices.Equal(got, cats) {
						t.Errorf("%s: %q has plural forms %q, the language's whole numbers need %q", l, id, got, cats)
					}
				} else if !slices.Equal(got, []string{"other"}) {
					t.Errorf("%s: %q has plural forms %q but English has none: write one string", l, id, got)
				}
				for _, n := range []int{0, 1, 2, 3, 4, 5, 11, 12, 21, 22, 25, 101, 1500} {
					s := l.Say(id, sampleArgs(wantNames, n))
					if s == id || strings.Contains(s, "<no value>") || strings.Contains(s, "{{") {
						t.Errorf("%s: %q with Count %d renders as %q", l, id, n, s)
					}
					if !isPlural(en) {
						break
					}
				}
			}
		})
	}
}

// isPlural reports whether the English message has plural forms (and so
// takes a Count).
func isPlural(m *i18n.Message) bool {
	return m.One != "" || m.Few != "" || m.Many != "" || m.Zero != "" || m.Two != ""
}

// sampleArgs fills every placeholder: Count with n, the rest with text of
// the longest likely size (a Discord mention of a 19-digit id is 22).
func sampleArgs(names []string, n int) Args {
	a := Args{}
	for _, k := range names {
		a[k] = "<@123456789012345678>"
	}
	if slices.Contains(names, "Count") {
		a["Count"] = n
	}
	return a
}

// Limits by id prefix: what the platforms take (Discord's button label 80,
// select option and command option description 100, command description
// 100, message content 2,000; Slack's button text 75 and section text
// 3,000). A long translation is shortened in the catalogue, never cut by
// code.
var limits = []struct {
	prefix string
	max    int
}{
	{"button.", 75},
	{"command.", 100},
	{"", 1900},
}

// TestLimits renders every message in every language with arguments of the
// longest likely size and checks it against its platform limit.
func TestLimits(t *testing.T) {
	c := mustCatalogue()
	for _, l := range All {
		for _, id := range c.ids {
			names, _ := placeholders(c.messages[English][id])
			max := 0
			for _, lim := range limits {
				if strings.HasPrefix(id, lim.prefix) {
					max = lim.max
					break
				}
			}
			for _, n := range []int{1, 2, 5, 22} {
				s := l.Say(id, sampleArgs(names, n))
				if utf8.RuneCountInString(s) > max {
					t.Errorf("%s: %q is %d characters, more than %d: %q", l, id, utf8.RuneCountInString(s), max, s)
				}
			}
		}
	}
}

// commandName is Discord's rule for a command, subcommand or option name
// (the locale's lower case where it has one).
var commandName = regexp.MustCompile(`^[-_\p{L}\p{N}\p{Devanagari}\p{Thai}\p{M}]{1,32}$`)

// TestCommandNames checks the localized command and option names (ids
// under command.name.) against Discord's rule, and that no two names of
// one language are the same.
func TestCommandNames(t *testing.T) {
	c := mustCatalogue()
	for _, l := range All {
		seen := map[string]string{}
		for _, id := range c.ids {
			if !strings.HasPrefix(id, "command.name.") {
				continue
			}
			s := l.Say(id, nil)
			if !commandName.MatchString(s) || s != strings.ToLower(s) {
				t.Errorf("%s: %q = %q is not a Discord command name (lower case, 1-32 letters, digits, - or _)", l, id, s)
			}
			if prev, dup := seen[s]; dup && scope(prev) == scope(id) {
				t.Errorf("%s: %q and %q are both %q", l, prev, id, s)
			}
			seen[s] = id
		}
	}
}

// scope is the level a command name lives at: names under one parent must
// differ. command.name.<parent>.<name>: the parent.
func scope(id string) string {
	rest := strings.TrimPrefix(id, "command.name.")
	if i := strings.LastIndexByte(rest, '.'); i >= 0 {
		return rest[:i]
	}
	return ""
}

// glossary is one language's glossary file: each term of the game's own
// vocabulary with the forms (or stems) it is written in, and the messages
// that may do without it (with the reason in a comment).
type glossary struct {
	Terms  map[string][]string `yaml:"terms"`
	Except map[string][]string `yaml:"except"`
}

func readGlossary(t *testing.T, l Lang) glossary {
	t.Helper()
	buf, err := os.ReadFile(filepath.Join("glossary", l.String()+".yaml"))
	if err != nil {
		t.Fatalf("%s: no glossary: %v", l, err)
	}
	var g glossary
	if err := yaml.Unmarshal(buf, &g); err != nil {
		t.Fatalf("%s: glossary: %v", l, err)
	}
	return g
}

// TestGlossary checks that the game's vocabulary stays the same in every
// message: where the English message uses a term of the glossary, the
// translation uses that language's word for it.
func TestGlossary(t *testing.T) {
	c := mustCatalogue()
	en := readGlossary(t, English)
	if len(en.Terms) == 0 {
		t.Fatal("the English glossary has no terms")
	}
	for _, l := range All[1:] {
		g := readGlossary(t, l)
		for term := range en.Terms {
			if len(g.Terms[term]) == 0 {
				t.Errorf("%s: the glossary has no word for %q", l, term)
			}
		}
		for _, id := range c.ids {
			if c.messages[l][id] == nil {
				continue // missing: TestEveryMessageInEveryLanguage says so
			}
			// Placeholder names ({{.Draws}}) are not words of the text.
			enText := strings.ToLower(anyAction.ReplaceAllString(strings.Join(slices.Collect(mapsValues(forms(c.messages[English][id]))), " "), " "))
			text := strings.ToLower(strings.Join(slices.Collect(mapsValues(forms(c.messages[l][id]))), " "))
			for term, enForms := range en.Terms {
				if !containsWord(enText, enForms) || slices.Contains(g.Except[term], id) {
					continue
				}
				if !slices.ContainsFunc(g.Terms[term], func(f string) bool { return strings.Contains(text, strings.ToLower(f)) }) {
					t.Errorf("%s: %q uses %q in English but none of %q", l, id, term, g.Terms[term])
				}
			}
		}
	}
}

func mapsValues(m map[string]string) func(func(string) bool) {
	return func(yield func(string) bool) {
		for _, v := range m {
			if !yield(v) {
				return
			}
		}
	}
}

// containsWord reports whether text holds one of the forms as a whole word
// (no letter just before or after it).
func containsWord(text string, forms []string) bool {
	for _, f := range forms {
		f = strings.ToLower(f)
		for i := 0; ; {
			j := strings.Index(text[i:], f)
			if j < 0 {
				break
			}
			start, end := i+j, i+j+len(f)
			before, _ := utf8.DecodeLastRuneInString(text[:start])
			after, _ := utf8.DecodeRuneInString(text[end:])
			if (start == 0 || !unicode.IsLetter(before)) && (end == len(text) || !unicode.IsLetter(after)) {
				return true
			}
			i = start + 1
		}
	}
	return false
}

// TestEveryIDUsed checks the catalogue against the code: every message id
// is written as a string literal somewhere in the module's code (no dead
// messages), and every literal that looks like an id of one of the
// catalogue's areas is one (no typo said as its id).
func TestEveryIDUsed(t *testing.T) {
	ids := map[string]bool{}
	areas := map[string]bool{}
	for _, id := range IDs() {
		ids[id] = true
		areas[id[:strings.IndexByte(id+".", '.')]] = true
	}
	used := map[string]bool{}
	root := filepath.Join("..", "..")
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata") && p != root {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, p, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		ast.Inspect(f, func(n ast.Node) bool {
			lit, ok := n.(*ast.BasicLit)
			if !ok || lit.Kind != token.STRING {
				return true
			}
			s, err := strconv.Unquote(lit.Value)
			if err != nil || !idLike.MatchString(s) {
				return true
			}
			if ids[s] {
				used[s] = true
			} else if areas[s[:strings.IndexByte(s, '.')]] {
				t.Errorf("%s: %q looks like a message id but is not in the catalogue", fset.Position(lit.Pos()), s)
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range IDs() {
		if !used[id] {
			t.Errorf("%q is in the catalogue but no code says it", id)
		}
	}
}

var idLike = regexp.MustCompile(`^[a-z][a-zA-Z0-9]*(\.[a-zA-Z0-9_]+)+$`)

func TestParse(t *testing.T) {
	tests := []struct {
		in   string
		want Lang
		ok   bool
	}{
		{"de", German, true}, {"de-DE", German, true}, {"de-AT", German, true}, {"de_DE.UTF-8", German, true},
		{"fr", French, true}, {"fr_FR@euro", French, true}, {"es-ES", Spanish, true}, {"es-419", Spanish, true},
		{"pt-BR", PortugueseBR, true}, {"pt-PT", PortugueseBR, true}, {"pl", Polish, true}, {"ru", Russian, true},
		{"ja", Japanese, true}, {"ja-JP", Japanese, true}, {"ko", Korean, true}, {"ko-KR", Korean, true},
		{"zh-CN", ChineseSimplified, true}, {"zh-Hans", ChineseSimplified, true}, {"en-US", English, true}, {"en-GB", English, true},
		{"", Unset, false}, {"C", Unset, false}, {"POSIX", Unset, false}, {"xx-YY", Unset, false},
		{"not a locale", Unset, false}, {"<script>", Unset, false}, {strings.Repeat("de-", 100), Unset, false},
		{"sv-SE", Unset, false}, {"de-\x00", Unset, false},
	}
	for _, tt := range tests {
		got, ok := Parse(tt.in)
		if got != tt.want || ok != tt.ok {
			t.Errorf("Parse(%q) = %v, %v, want %v, %v", tt.in, got, ok, tt.want, tt.ok)
		}
	}
	for _, l := range All {
		if got, ok := ParseCode(l.String()); got != l || !ok {
			t.Errorf("ParseCode(%q) = %v, %v", l.String(), got, ok)
		}
		if got, ok := Parse(l.String()); got != l || !ok {
			t.Errorf("Parse(%q) = %v, %v", l.String(), got, ok)
		}
		for _, d := range l.DiscordLocales() {
			if got, ok := Parse(d); got != l || !ok {
				t.Errorf("Parse(Discord's %q) = %v, %v, want %v", d, got, ok, l)
			}
		}
	}
}

func ExampleLang_Say() {
	fmt.Println(English.Say("unit.moves", Args{"Count": 1}))
	fmt.Println(English.Say("unit.moves", Args{"Count": 1500}))
	fmt.Println(German.Say("unit.moves", Args{"Count": 1500}))
	fmt.Println(Polish.Say("unit.moves", Args{"Count": 3}))
	fmt.Println(Polish.Say("unit.moves", Args{"Count": 5}))
	fmt.Println(Russian.Say("unit.moves", Args{"Count": 21}))
	fmt.Println(Japanese.Say("unit.moves", Args{"Count": 7}))
	// Output:
	// 1 move
	// 1,500 moves
	// 1.500 Züge
	// 3 ruchy
	// 5 ruchów
	// 21 ход
	// 7手
}

func TestClean(t *testing.T) {
	tests := []struct{ in, want string }{
		{"es-ES", "es-ES"}, {"ja-JP", "ja-JP"}, {"pt_BR", "pt_BR"}, {"es-419", "es-419"}, {"", ""},
		{"es-ES\n", ""}, {"<script>", ""}, {"de DE", ""}, {strings.Repeat("a", 17), ""}, {"ü", ""}, {"fr\u202e", ""},
	}
	for _, tt := range tests {
		if got := Clean(tt.in); got != tt.want {
			t.Errorf("Clean(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestKnownAsParsed holds Parse's table of known locales to x/text's
// parser and matcher: every entry gets the language the full parse gives.
func TestKnownAsParsed(t *testing.T) {
	for loc, want := range known {
		tag, err := language.Parse(strings.ReplaceAll(loc, "_", "-"))
		if err != nil {
			t.Errorf("%q: %v", loc, err)
			continue
		}
		_, i, conf := matcher.Match(tag)
		if conf == language.No || All[i] != want {
			t.Errorf("known[%q] = %v, x/text matches %v (%v)", loc, want, All[i], conf)
		}
	}
}
