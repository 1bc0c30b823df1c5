package terminal

import (
	"testing"

	"github.com/connect4/connect4/render"
)

func TestCells(t *testing.T) {
	p := render.Unicode()
	tests := []struct {
		s    string
		want int
	}{
		{"", 0}, {"abc", 3}, {"1 2", 3},
		{"日本語", 6}, {"ターン", 6}, {"ｱｲｳ", 3}, // halfwidth katakana
		{"１２", 4}, // fullwidth digits
		{"한국어", 6}, {"简体中文", 8}, {"Zug", 3}, {"Français", 8}, {"Русский", 7},
		{"e\u0301", 1}, // a combining accent takes no cell
		{p.Empty + p.Red + p.Yellow, 6}, {p.RedWin + p.YellowWin, 4},
	}
	for _, tt := range tests {
		if got := cells(tt.s); got != tt.want {
			t.Errorf("cells(%q) = %d, want %d", tt.s, got, tt.want)
		}
	}
	if got := padCells("日", 4); got != "日  " {
		t.Errorf("padCells(日, 4) = %q", got)
	}
	if got := padCells("日本語", 4); got != "日本語" {
		t.Errorf("padCells(日本語, 4) = %q", got)
	}
}
