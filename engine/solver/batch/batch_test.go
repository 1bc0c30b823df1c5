package batch

import (
	"bytes"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/connect4/connect4/engine"
	"github.com/connect4/connect4/engine/solver"
)

func TestRun(t *testing.T) {
	in := strings.Join([]string{
		"2252576253462244111563365343671351441 -1", // from Test_L3_R1
		"12a",
		"",
		"4444444",
		"1212121",
		"445566 18",
		"445566 3",
		"7422341735647741166133573473242566",
	}, "\n")
	var out bytes.Buffer
	err := Run(t.Context(), strings.NewReader(in), &out, Options{Bench: true})
	if err == nil || !strings.Contains(err.Error(), "3 invalid lines, 1 wrong scores") {
		t.Errorf("Run error = %v, want 3 invalid lines, 1 wrong score", err)
	}
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	want := []string{
		"2252576253462244111563365343671351441 -1 ",
		`line 2: invalid position "12a": solver: invalid column at move 3`,
		`line 4: invalid position "4444444": solver: column full at move 7`,
		`line 5: invalid position "1212121": solver: game already won at move 7`,
		"445566 18 ",
		"445566 18 ",
		"7422341735647741166133573473242566 1 ",
		"positions: 4, mean time: ",
	}
	if len(lines) != len(want) {
		t.Fatalf("Run printed %d lines, want %d:\n%s", len(lines), len(want), out.String())
	}
	for i, w := range want {
		if !strings.HasPrefix(lines[i], w) {
			t.Errorf("line %d = %q, want prefix %q", i+1, lines[i], w)
		}
	}
	if f := strings.Fields(lines[0]); len(f) != 4 {
		t.Errorf("line 1 = %q, want moves, score, nodes, microseconds", lines[0])
	}
	if !strings.HasSuffix(lines[5], "wrong: want 3") {
		t.Errorf("line 6 = %q, want it flagged wrong", lines[5])
	}
	if !strings.Contains(lines[7], "scores checked: 3, wrong: 1") {
		t.Errorf("summary = %q, want 3 checked, 1 wrong", lines[7])
	}
}

func TestRunLevel(t *testing.T) {
	var out bytes.Buffer
	err := Run(t.Context(), strings.NewReader("1122334\n112233\n"), &out, Options{Level: solver.Hard, Budget: 50 * time.Millisecond, Bench: true})
	if err == nil {
		t.Errorf("Run accepted an invalid line")
	}
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	if len(lines) != 3 || !strings.HasPrefix(lines[0], "line 1: invalid position") ||
		!strings.HasPrefix(lines[1], "112233 4 ") && !strings.HasPrefix(lines[1], "112233 1 ") ||
		!strings.HasPrefix(lines[2], "hard moves: 1, ") {
		t.Errorf("Run -level hard printed:\n%s\nwant an error line, a winning column (1 or 4), a summary", out.String())
	}
}

func TestStandardGame(t *testing.T) {
	tests := []struct {
		moves   string
		history []int
		state   engine.State
		reason  engine.Reason // ReasonNone: no error
	}{
		{"", []int{}, engine.InProgress, engine.ReasonNone},
		{"4453", []int{3, 3, 4, 2}, engine.InProgress, engine.ReasonNone},
		{"1212121", []int{0, 1, 0, 1, 0, 1, 0}, engine.Won, engine.ReasonNone},
		{"12121212", nil, 0, engine.ReasonGameOver},
		{"4444444", nil, 0, engine.ReasonColumnFull},
		{"48", nil, 0, engine.ReasonOutOfRange},
		{"0", nil, 0, engine.ReasonOutOfRange},
	}
	for _, tt := range tests {
		g, err := StandardGame(tt.moves)
		if tt.reason != engine.ReasonNone {
			var me *engine.MoveError
			if !errors.As(err, &me) || me.Reason != tt.reason || g != nil {
				t.Errorf("StandardGame(%q) = %v, %v; want reason %v", tt.moves, g, err, tt.reason)
			}
			continue
		}
		if err != nil || g.Config() != engine.DefaultConfig() || g.State() != tt.state || !slices.Equal(g.History(), tt.history) {
			t.Errorf("StandardGame(%q) = %v, %v; want a standard game in state %v after %v", tt.moves, g, err, tt.state, tt.history)
		}
	}
}
