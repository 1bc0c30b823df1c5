package render

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/connect4/connect4/engine"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

func game(t testing.TB, cfg engine.Config, moves ...int) *engine.Game {
	t.Helper()
	g, err := engine.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range moves {
		if err := g.Play(g.Turn(), c); err != nil {
			t.Fatalf("move %d: %v", c, err)
		}
	}
	return g
}

func TestGolden(t *testing.T) {
	std := engine.DefaultConfig()
	resigned := game(t, std, 3, 3, 2)
	_ = resigned.Resign(engine.Yellow)
	games := []struct {
		name string
		g    *engine.Game
	}{
		{"empty", game(t, std)},
		{"midgame", game(t, std, 3, 3, 4, 2, 2, 5)},
		{"diagonal-win", game(t, std, 0, 1, 2, 3, 3, 3, 3, 2, 1, 6, 2)},
		{"draw", game(t, std, 0, 1, 5, 5, 0, 4, 4, 1, 4, 6, 0, 6, 1, 3, 5, 5, 6, 0, 5, 1, 4, 3, 2, 4, 4, 3, 3, 3, 0, 0, 5, 3, 2, 6, 2, 2, 1, 2, 6, 2, 1, 6)},
		{"resigned", resigned},
		{"10x10-win", game(t, engine.Config{Rows: 10, Cols: 10, Connect: 5}, 5, 6, 6, 7, 7, 8, 7, 8, 8, 0, 8, 9, 9, 9, 9, 0, 9)},
		{"4x5-connect3", game(t, engine.Config{Rows: 4, Cols: 5, Connect: 3}, 4, 4, 4)},
	}
	names := Names{Red: "alice", Yellow: "bob"}
	for _, tt := range games {
		for pname, p := range map[string]Palette{"slack": Slack(), "unicode": Unicode()} {
			t.Run(tt.name+"-"+pname, func(t *testing.T) {
				board := Board(tt.g, p)
				checkShape(t, tt.g, p, board)
				got := board + "\n\n" + Describe(tt.g, names) + "\n"
				path := filepath.Join("testdata", tt.name+"."+pname+".golden")
				if *update {
					if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
						t.Fatal(err)
					}
				}
				want, err := os.ReadFile(path)
				if err != nil {
					t.Fatalf("%v (run go test -update to create it)", err)
				}
				if got != string(want) {
					t.Errorf("Board/Describe of %s:\n%s\nwant:\n%s", tt.name, got, want)
				}
			})
		}
	}
}

// checkShape checks the layout independently of the golden files: a header
// of the column numbers, then Rows lines of exactly Cols emoji of the
// palette, agreeing with the engine's board, top row first.
func checkShape(t *testing.T, g *engine.Game, p Palette, board string) {
	t.Helper()
	b := g.Board()
	lines := strings.Split(board, "\n")
	if len(lines) != b.Rows()+1 {
		t.Fatalf("%d lines, want header + %d rows:\n%s", len(lines), b.Rows(), board)
	}
	if want := strings.Join(p.Numbers[:b.Cols()], ""); lines[0] != want {
		t.Errorf("header %q, want %q", lines[0], want)
	}
	win := map[engine.Cell]bool{}
	for _, c := range g.WinningCells() {
		win[c] = true
	}
	for i, line := range lines[1:] {
		row := b.Rows() - 1 - i
		rest := line
		for col := 0; col < b.Cols(); col++ {
			want := p.disc(b.At(row, col), win[engine.Cell{Row: row, Col: col}])
			if !strings.HasPrefix(rest, want) {
				t.Fatalf("row %d col %d: line %q does not continue with %q", row, col, line, want)
			}
			rest = rest[len(want):]
		}
		if rest != "" {
			t.Errorf("row %d: trailing %q", row, rest)
		}
	}
	if !utf8.ValidString(board) {
		t.Error("board is not valid UTF-8")
	}
}

func TestDescribe(t *testing.T) {
	tests := []struct {
		g    *engine.Game
		want string
	}{
		{game(t, engine.DefaultConfig()), "No moves yet. alice (red) to move."},
		{game(t, engine.DefaultConfig(), 3), "1 move played; last: alice (red) in column 4. bob (yellow) to move."},
		{game(t, engine.DefaultConfig(), 0, 1, 0, 1, 0, 1, 0), "alice (red) won by connecting 4."},
	}
	for _, tt := range tests {
		if got := Describe(tt.g, Names{Red: "alice", Yellow: "bob"}); !strings.HasSuffix(got, tt.want) {
			t.Errorf("Describe(%v) = %q, want it to end %q", tt.g.History(), got, tt.want)
		}
	}
	if got := Describe(game(t, engine.DefaultConfig()), Names{}); !strings.HasSuffix(got, "red to move.") {
		t.Errorf("Describe without names = %q", got)
	}
}

func ExampleBoard() {
	g, _ := engine.New(engine.Config{Rows: 4, Cols: 5, Connect: 3})
	for _, col := range []int{2, 2, 1, 1, 3} {
		_ = g.Play(g.Turn(), col)
	}
	fmt.Println(Board(g, Unicode()))
	fmt.Println(Describe(g, Names{Red: "alice", Yellow: "bob"}))
	// Output:
	// 1️⃣2️⃣3️⃣4️⃣5️⃣
	// ⚪⚪⚪⚪⚪
	// ⚪⚪⚪⚪⚪
	// ⚪🟡🟡⚪⚪
	// ⚪🟥🟥🟥⚪
	// Connect 3 on 4 rows by 5 columns. 5 moves played; last: alice (red) in column 4. alice (red) won by connecting 3.
}
