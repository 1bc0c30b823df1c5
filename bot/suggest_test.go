package bot

import "testing"

func TestSuggest(t *testing.T) {
	tests := []struct {
		in    string
		known []string
		want  string // "" for no suggestion
	}{
		// The issue's own inputs.
		{"challenge bob", nil, "@bob"},
		{"<@bob> 7 by 6", nil, "<@bob> 7x6"},
		{"@bob 7 by 6", nil, "@bob 7x6"},
		// Sizes written other ways.
		{"<@U2> 7*6", nil, "<@U2> 7x6"},
		{"<@U2> 7 * 6", nil, "<@U2> 7x6"},
		{"<@U2> 9X7 connect 5", nil, "<@U2> 9x7 connect 5"},
		{"<@U2> 7,6", nil, "<@U2> 7x6"},
		{"seven by six", nil, ""}, // out of scope
		// Typos of commands and options.
		{"resing", nil, "resign"},
		{"leaderbord", nil, "leaderboard"},
		{"takebak", nil, "takeback"},
		{"ai hrad", nil, "ai hard"},
		{"puzzle medum", nil, "puzzle medium"},
		{"season nwe", nil, "season new"},
		{"resign mtach", nil, "resign match"},
		{"<@U2> conect 5", nil, "<@U2> connect 5"},
		{"<@U2> first-too 3", nil, "<@U2> first-to 3"},
		{"challenge bob 8x7 conect 5", nil, "@bob 8x7 connect 5"},
		// A command that takes nothing, with something after it: the
		// command alone; "stats" alone means yourself.
		{"resign now", nil, "resign"},
		{"accept @bob", nil, "accept"},
		{"board please", nil, "board"},
		{"stats me", nil, "stats"},
		{"stats myself", nil, "stats"},
		{"cancel my challenge", nil, "cancel"},
		// Players the adapter knows.
		{"stats bob", []string{"bob"}, "stats @bob"},
		{"stats bbo", []string{"bob", "carol"}, "stats @bob"},
		{"carol 7x6", []string{"bob", "carol"}, "@carol 7x6"},
		{"challenge bob carol", nil, "@bob @carol"},
		// Nothing close: the help is the answer.
		{"dance", nil, ""},
		{"x", nil, ""},
		{"", nil, ""},
		{"<@U2> sideways", nil, ""},
		{"<@U2> connect five", nil, ""},
		// Already right: nothing to suggest.
		{"<@U2> 7x6", nil, ""},
	}
	for _, tt := range tests {
		got, ok := Suggest(tt.in, tt.known)
		if got != tt.want || ok != (tt.want != "") {
			t.Errorf("Suggest(%q, %q) = %q, %v; want %q", tt.in, tt.known, got, ok, tt.want)
		}
	}
}

func TestEditDistance(t *testing.T) {
	tests := []struct {
		a, b string
		want int
	}{
		{"", "", 0},
		{"resign", "resign", 0},
		{"resing", "resign", 1}, // a swap is one edit
		{"conect", "connect", 1},
		{"leaderbord", "leaderboard", 1},
		{"bob", "board", 3},
		{"ёж", "еж", 1}, // by runes
	}
	for _, tt := range tests {
		if got := editDistance(tt.a, tt.b); got != tt.want {
			t.Errorf("editDistance(%q, %q) = %d, want %d", tt.a, tt.b, got, tt.want)
		}
	}
}
