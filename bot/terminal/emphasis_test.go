package terminal

import "testing"

func TestEmphasize(t *testing.T) {
	tests := []struct {
		in, plain, ansi string
	}{
		{"*Analysis* of a game", "Analysis of a game", "\x1b[1mAnalysis\x1b[0m of a game"},
		{"**Connect Four**: drop discs", "Connect Four: drop discs", "\x1b[1mConnect Four\x1b[0m: drop discs"},
		{"Try `/connect4 help`.", "Try /connect4 help.", "Try \x1b[1;36m/connect4 help\x1b[0m."},
		{"Did you mean */connect4 @bob 7x6*?", "Did you mean /connect4 @bob 7x6?", "Did you mean \x1b[1m/connect4 @bob 7x6\x1b[0m?"},
		{"_wins_ and *a* *b*", "wins and a b", "\x1b[3mwins\x1b[0m and \x1b[1ma\x1b[0m \x1b[1mb\x1b[0m"},
		// Not emphasis: left as it is.
		{"7 * 6 and a lone *", "7 * 6 and a lone *", "7 * 6 and a lone *"},
		{"first_to and snake_case_words", "first_to and snake_case_words", "first_to and snake_case_words"},
		{"`*not bold*` in code", "*not bold* in code", "\x1b[1;36m*not bold*\x1b[0m in code"},
		{"no marks at all", "no marks at all", "no marks at all"},
		{"*谜题*（困难）", "谜题（困难）", "\x1b[1m谜题\x1b[0m（困难）"},
		{"**四子棋**：落子", "四子棋：落子", "\x1b[1m四子棋\x1b[0m：落子"},
		{"a*b*c stays", "a*b*c stays", "a*b*c stays"},
		{"", "", ""},
	}
	for _, tt := range tests {
		if got := emphasize(tt.in, false); got != tt.plain {
			t.Errorf("emphasize(%q, false) = %q, want %q", tt.in, got, tt.plain)
		}
		if got := emphasize(tt.in, true); got != tt.ansi {
			t.Errorf("emphasize(%q, true) = %q, want %q", tt.in, got, tt.ansi)
		}
	}
}
