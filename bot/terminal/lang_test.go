package terminal

import (
	"bytes"
	"io"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/connect4/connect4/bot/lang"
	"github.com/connect4/connect4/render"
)

// TestJapaneseGame plays a whole game against the AI with the terminal in
// Japanese (connect4 play -lang ja), to the win, and checks that every
// board's column numbers sit over their discs by display width, and that
// the adapter's own words are the Japanese catalogue's.
// (The "not English" checks await the Japanese catalogue.)
func TestJapaneseGame(t *testing.T) {
	script := strings.Join([]string{"zzz", "/connect4 ai", "7", "7", "7", "7", "quit"}, "\n")
	var out bytes.Buffer
	a, err := New(newService(nil, io.Discard), Config{In: strings.NewReader(script), Out: &out, Locale: "ja"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := a.Run(t.Context()); err != nil {
		t.Fatal(err)
	}
	got := out.String()
	if !strings.Contains(got, render.Unicode().RedWin) {
		t.Fatalf("the game did not end in a win:\n%s", got)
	}
	checkBoardsAligned(t, got)

	channel := lang.Japanese.Say("terminal.channel", nil)
	unknown := emphasize(lang.Japanese.Say("terminal.unknownWord", lang.Args{"Word": strconv.Quote("zzz"), "Hint": "[1]"}), false)
	for _, want := range []string{channel, unknown} {
		if !strings.Contains(got, want+"\n") {
			t.Errorf("output lacks the Japanese %q:\n%s", want, got)
		}
	}
	if channel == lang.English.Say("terminal.channel", nil) || strings.HasPrefix(unknown, "(I don't know") {
		t.Errorf("the terminal's words in Japanese are the English ones: %q, %q", channel, unknown)
	}
}

var headerLine = regexp.MustCompile(`^[0-9]+( +[0-9]+)* *$`)

// checkBoardsAligned finds every board in out (a header of column numbers
// over rows of discs) and checks by display width that each row is two
// cells a column and each number starts in its column's first cell.
func checkBoardsAligned(t *testing.T, out string) {
	t.Helper()
	lines := strings.Split(out, "\n")
	boards := 0
	for i, line := range lines {
		if !headerLine.MatchString(line) || i+1 >= len(lines) || cells(lines[i+1]) < 2*4 || strings.ContainsAny(lines[i+1], "abcdefghijklmnopqrstuvwxyz[(") {
			continue
		}
		boards++
		nums := strings.Fields(line)
		at := 0
		for c, num := range nums {
			j := strings.Index(line[at:], num) + at
			if got := cells(line[:j]); got != c*discCells {
				t.Errorf("board %d: number %s starts at cell %d, its discs at %d:\n%s\n%s", boards, num, got, c*discCells, line, lines[i+1])
			}
			at = j + len(num)
		}
		for _, row := range lines[i+1:] {
			if row == "" || headerLine.MatchString(row) || strings.ContainsAny(row, "abcdefghijklmnopqrstuvwxyz[(@") || !strings.ContainsAny(row, "⚪🔴🟡🟥🟨") {
				break
			}
			if got, want := cells(row), len(nums)*discCells; got != want {
				t.Errorf("board %d: row %q is %d cells, want %d", boards, row, got, want)
			}
		}
	}
	if boards < 4 {
		t.Errorf("found %d boards, want one a move:\n%s", boards, out)
	}
}
