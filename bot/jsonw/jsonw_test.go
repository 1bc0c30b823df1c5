package jsonw

import (
	"encoding/json"
	"testing"
)

// FuzzAppendString: the string escaper agrees with encoding/json on any
// input.
func FuzzAppendString(f *testing.F) {
	for _, s := range []string{"", "plain", "<@1> & \"q\" \\ \n\t\r\x00\x1f", "\u2028\u2029", "\xff\xfe ok", "🔴⚪ é"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		want, _ := json.Marshal(s)
		if got := AppendString(nil, s); string(got) != string(want) {
			t.Errorf("AppendString(%q) = %s, want %s", s, got, want)
		}
	})
}
