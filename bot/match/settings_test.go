package match

import (
	"slices"
	"testing"
)

func TestValidLanguage(t *testing.T) {
	tests := []struct {
		in   string
		want bool
	}{
		{"de", true}, {"pt-BR", true}, {"zh-CN", true}, {"default", true},
		{"", false}, {"-de", false}, {"1de", false}, {"de x", false}, {`de"`, false},
		{"de_DE", false}, {"abcdefghijklmnopq", false}, {"日本語", false},
	}
	for _, tt := range tests {
		if got := ValidLanguage(tt.in); got != tt.want {
			t.Errorf("ValidLanguage(%q) = %v, want %v", tt.in, got, tt.want)
		}
	}
}

// TestSettingsLanguage: a change sets the language, LanguageDefault clears
// it, and the stored fields read back as they were written.
func TestSettingsLanguage(t *testing.T) {
	st := Settings{Board: BoardEmoji}.With(Settings{Language: "de"})
	if st != (Settings{Board: BoardEmoji, Language: "de"}) {
		t.Fatalf("With(language de) = %+v", st)
	}
	if got := st.With(Settings{Palette: PaletteStandard}); got.Language != "de" {
		t.Errorf("a palette change lost the language: %+v", got)
	}
	cleared := st.With(Settings{Language: LanguageDefault})
	if cleared != (Settings{Board: BoardEmoji}) {
		t.Errorf("With(language default) = %+v, want the language cleared", cleared)
	}
	for _, s := range []Settings{st, {Language: LanguageDefault}} {
		f := s.Fields()
		var back Settings
		for i := 0; i+1 < len(f); i += 2 {
			back.ParseSetting(f[i], f[i+1])
		}
		want := s.With(Settings{})
		if want.Language == LanguageDefault {
			want.Language = ""
		}
		if back != want {
			t.Errorf("fields %q of %+v read back as %+v, want %+v", f, s, back, want)
		}
	}
	if f := (Settings{Language: LanguageDefault}).Fields(); !slices.Equal(f, []string{"language", ""}) {
		t.Errorf("fields of a clearing change = %q, want language cleared", f)
	}
	if (Settings{Language: "de x"}).Valid() {
		t.Error("a malformed language is valid")
	}
	var s Settings
	if s.ParseSetting("language", "x y") || s.ParseSetting("language", LanguageDefault) {
		t.Errorf("stored languages of the wrong form used: %+v", s)
	}
}
