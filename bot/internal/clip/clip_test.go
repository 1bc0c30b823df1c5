package clip

import "testing"

func TestRunes(t *testing.T) {
	tests := []struct {
		in   string
		n    int
		want string
	}{
		{"abc", 3, "abc"},
		{"abcd", 3, "ab…"},
		{"ééé", 2, "é…"},
		{"", 1, ""},
	}
	for _, tt := range tests {
		if got := Runes(tt.in, tt.n); got != tt.want {
			t.Errorf("Runes(%q, %d) = %q, want %q", tt.in, tt.n, got, tt.want)
		}
	}
}
