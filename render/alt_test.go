package render

import (
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/connect4/connect4/engine"
)

func TestAltText(t *testing.T) {
	std := engine.DefaultConfig()
	resigned := game(t, std, 3, 3, 2)
	if err := resigned.Resign(engine.Yellow); err != nil {
		t.Fatal(err)
	}
	names := Names{Red: "alice", Yellow: "bob"}
	tests := []struct {
		name string
		g    *engine.Game
		n    Names
		pal  ImagePalette
		want string
	}{
		{"empty", game(t, std), names, ImageStandard,
			"Connect 4 on 6 rows by 7 columns. The board is empty. No moves yet. alice (red) to move."},
		{"one move, colour-blind", game(t, std, 3), names, ImageColourBlind,
			"Connect 4 on 6 rows by 7 columns. Discs from the bottom up: columns 1 to 3: empty; column 4: blue; columns 5 to 7: empty. " +
				"1 move played; last: alice (blue) in column 4. bob (orange) to move."},
		{"zero palette draws standard, no names", game(t, std, 0, 6, 6), Names{}, ImagePaletteUnknown,
			"Connect 4 on 6 rows by 7 columns. Discs from the bottom up: column 1: red; columns 2 to 6: empty; column 7: yellow, red. " +
				"3 moves played; last: red in column 7. yellow to move."},
		{"two empty columns", game(t, std, 0, 3), names, ImageStandard,
			"Connect 4 on 6 rows by 7 columns. Discs from the bottom up: column 1: red; columns 2 and 3: empty; column 4: yellow; columns 5 to 7: empty. " +
				"2 moves played; last: bob (yellow) in column 4. alice (red) to move."},
		{"vertical win", game(t, std, 0, 1, 0, 1, 0, 1, 0), names, ImageStandard,
			"Connect 4 on 6 rows by 7 columns. Discs from the bottom up: column 1: 4 red; column 2: 3 yellow; columns 3 to 7: empty. " +
				"7 moves played; last: alice (red) in column 1. alice (red) won by connecting 4: in column 1, rows 1 to 4."},
		{"horizontal win", game(t, std, 0, 0, 1, 1, 2, 2, 3), names, ImageStandard,
			"Connect 4 on 6 rows by 7 columns. Discs from the bottom up: column 1: red, yellow; column 2: red, yellow; column 3: red, yellow; column 4: red; columns 5 to 7: empty. " +
				"7 moves played; last: alice (red) in column 4. alice (red) won by connecting 4: in row 1, columns 1 to 4."},
		{"diagonal win", game(t, std, diagonal...), names, ImageColourBlind,
			"Connect 4 on 6 rows by 7 columns. Discs from the bottom up: column 1: empty; column 2: 2 blue; column 3: 2 orange; " +
				"column 4: 2 blue, 2 orange, 2 blue (full); column 5: orange, blue, orange, blue; column 6: blue, orange, blue; column 7: blue, 2 orange, blue, 2 orange (full). " +
				"23 moves played; last: alice (blue) in column 6. alice (blue) won by connecting 4: diagonally from column 4 row 1 to column 7 row 4."},
		{"two lines", game(t, std, 6, 4, 3, 5, 5, 6, 1, 4, 1, 6, 0, 5, 3, 6, 5, 1, 0, 3, 4, 3, 2), Names{}, ImageStandard,
			"Connect 4 on 6 rows by 7 columns. Discs from the bottom up: column 1: 2 red; column 2: 2 red, yellow; column 3: red; column 4: 2 red, 2 yellow; " +
				"column 5: 2 yellow, red; column 6: yellow, red, yellow, red; column 7: red, 3 yellow. " +
				"21 moves played; last: red in column 3. red won by connecting 4: in row 1, columns 1 to 4 and diagonally from column 3 row 1 to column 6 row 4."},
		{"falling diagonal", game(t, engine.Config{Rows: 4, Cols: 5, Connect: 3}, 2, 2, 2, 1, 1, 0, 0, 3, 0), names, ImageStandard,
			"Connect 3 on 4 rows by 5 columns. Discs from the bottom up: column 1: yellow, 2 red; column 2: yellow, red; column 3: red, yellow, red; column 4: yellow; column 5: empty. " +
				"9 moves played; last: alice (red) in column 1. alice (red) won by connecting 3: diagonally from column 1 row 3 to column 3 row 1."},
		{"resigned", resigned, names, ImageStandard,
			"Connect 4 on 6 rows by 7 columns. Discs from the bottom up: columns 1 and 2: empty; column 3: red; column 4: red, yellow; columns 5 to 7: empty. " +
				"3 moves played; last: alice (red) in column 3. bob (yellow) resigned; alice (red) won."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := AltText(tt.g, tt.n, tt.pal); got != tt.want {
				t.Errorf("AltText(%v, %+v, %v) =\n%q\nwant\n%q", tt.g.History(), tt.n, tt.pal, got, tt.want)
			}
		})
	}
}

// fullAlternating fills a 10 × 10 board so that no two discs next to each
// other in a column are alike, the longest text AltText can write for a
// board: column 1 up to its last disc, then each other column in turn,
// then the last disc of column 1, so that no row holds ten alike.
func fullAlternating(t *testing.T) *engine.Game {
	t.Helper()
	moves := []int{0, 0, 0, 0, 0, 0, 0, 0, 0}
	for c := 1; c < 10; c++ {
		for range 10 {
			moves = append(moves, c)
		}
	}
	moves = append(moves, 0)
	g := game(t, engine.Config{Rows: 10, Cols: 10, Connect: 10}, moves...)
	if g.State() != engine.Draw {
		t.Fatalf("state %v, want a draw", g.State())
	}
	return g
}

func TestAltTextFitsSlack(t *testing.T) {
	g := fullAlternating(t)
	long := Names{Red: strings.Repeat("a", 80), Yellow: strings.Repeat("b", 80)}
	got := AltText(g, long, ImageColourBlind)
	if n := utf8.RuneCountInString(got); n > MaxAltText {
		t.Fatalf("AltText of a full 10 × 10 board with 80-character names: %d characters, want at most %d:\n%s", n, MaxAltText, got)
	}
	if !strings.Contains(got, long.Yellow+" (orange)") || strings.Count(got, "(full)") != 10 {
		t.Errorf("AltText of a full board lost the names or a column:\n%s", got)
	}
	// Names too long to fit are left out rather than the text cut.
	huge := Names{Red: "alice", Yellow: strings.Repeat("é", 1500)}
	got = AltText(g, huge, ImageStandard)
	if n := utf8.RuneCountInString(got); n > MaxAltText {
		t.Fatalf("AltText with a 1500-character name: %d characters, want at most %d", n, MaxAltText)
	}
	if strings.Contains(got, "é") || strings.Contains(got, "alice") || !strings.Contains(got, "last: yellow in column 1") || !strings.HasSuffix(got, "a draw.") {
		t.Errorf("AltText with a 1500-character name = %q, want the colours alone", got)
	}
}

func TestAltTextIsDeterministic(t *testing.T) {
	for seed := uint64(1); seed <= 20; seed++ {
		cfg := sizes[seed%uint64(len(sizes))]
		g := randomGame(t, cfg, seed)
		a := AltText(g, Names{Red: "alice", Yellow: "bob"}, ImageStandard)
		if b := AltText(g.Clone(), Names{Red: "alice", Yellow: "bob"}, ImageStandard); a != b {
			t.Fatalf("two AltTexts of %v differ:\n%s\n%s", g.History(), a, b)
		}
		// Every column is named once, alone or in a run of empty ones.
		for c := 1; c <= cfg.Cols; c++ {
			col := fmt.Sprintf("column %d:", c)
			if g.Moves() > 0 && g.Board().Height(c-1) > 0 && strings.Count(a, col) != 1 {
				t.Errorf("%v: %q appears %d times in %q", g.History(), col, strings.Count(a, col), a)
			}
		}
		if !strings.HasPrefix(a, Describe(g, Names{})[:len("Connect 4 on ")]) {
			t.Errorf("AltText %q does not start as Describe does", a)
		}
	}
}

func ExampleAltText() {
	g, _ := engine.New(engine.Config{Rows: 4, Cols: 5, Connect: 3})
	for _, col := range []int{2, 2, 1, 1, 3} {
		_ = g.Play(g.Turn(), col)
	}
	fmt.Println(AltText(g, Names{Red: "alice", Yellow: "bob"}, ImageStandard))
	fmt.Println(AltText(g, Names{}, ImageColourBlind))
	// Output:
	// Connect 3 on 4 rows by 5 columns. Discs from the bottom up: column 1: empty; column 2: red, yellow; column 3: red, yellow; column 4: red; column 5: empty. 5 moves played; last: alice (red) in column 4. alice (red) won by connecting 3: in row 1, columns 2 to 4.
	// Connect 3 on 4 rows by 5 columns. Discs from the bottom up: column 1: empty; column 2: blue, orange; column 3: blue, orange; column 4: blue; column 5: empty. 5 moves played; last: blue in column 4. blue won by connecting 3: in row 1, columns 2 to 4.
}
