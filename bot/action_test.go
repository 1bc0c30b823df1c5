package bot

import (
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/connect4/connect4/engine"
)

func TestActionRoundTrip(t *testing.T) {
	a := Action{Kind: KindDrop, GameID: "AbC_-123456789012", Move: 41, Column: 6}
	s := a.String()
	if len(s) > MaxActionLen {
		t.Fatalf("%q longer than %d", s, MaxActionLen)
	}
	got, err := ParseAction(s)
	if err != nil || got != (Request{Kind: KindDrop, GameID: a.GameID, Move: 41, Column: 6}) {
		t.Fatalf("ParseAction(%q) = %+v, %v", s, got, err)
	}
	// A drop between two people says so, so that it is never deferred.
	a.Human = true
	s = a.String()
	got, err = ParseAction(s)
	if err != nil || !got.Human || got.Kind != KindDrop || !strings.Contains(s, ":move:") {
		t.Fatalf("ParseAction(%q) = %+v, %v; want a human drop", s, got, err)
	}
	svc := New(nil, Options{})
	if svc.Slow(Command{Request: got}) || !svc.Slow(Command{Request: Request{Kind: KindDrop}}) {
		t.Error("Slow: a human drop must not be slow, an AI game's drop must be")
	}
	for _, bad := range []string{"", "c4", "c4:drop:g:1", "c4:drop:g:1:2:3", "xx:drop:g:1:2", "c4:fly:g:1:2",
		"c4:drop:g h:1:2", "c4:drop:g:-1:2", "c4:drop:g:1:10", "c4:drop:g:1:x", "c4:drop::1:2",
		"c4:drop:" + strings.Repeat("g", 200) + ":1:2", "c4:resign:g:1:2"} {
		if r, err := ParseAction(bad); err == nil {
			t.Errorf("ParseAction(%q) = %+v, want an error", bad, r)
		}
	}
}

// parseActionNaive is ParseAction as it was written first, with Split and
// a regular expression: the reference FuzzParseAction holds it to.
func parseActionNaive(s string) (Request, bool) {
	parts := strings.Split(s, ":")
	if len(s) > MaxActionLen || len(parts) != 5 || parts[0] != actionPrefix {
		return Request{}, false
	}
	kind, ok := buttonKinds[parts[1]]
	if !ok || !regexp.MustCompile(`^[A-Za-z0-9_\-]{1,64}$`).MatchString(parts[2]) {
		return Request{}, false
	}
	move, err1 := strconv.Atoi(parts[3])
	col, err2 := strconv.Atoi(parts[4])
	if err1 != nil || err2 != nil || move < 0 || move > engine.MaxSize*engine.MaxSize || col < 0 || col >= engine.MaxSize {
		return Request{}, false
	}
	return Request{Kind: kind, GameID: parts[2], Move: move, Column: col, Human: parts[1] == humanDrop}, true
}

// FuzzParseAction checks ParseAction against parseActionNaive: the same
// request or the same refusal for any input.
func FuzzParseAction(f *testing.F) {
	for _, s := range []string{"c4:drop:AbC_-1:41:6", "c4:move:g:0:0", "c4:accept:g:0:0", "c4:drop:g:1", "c4:drop:g:1:2:3",
		"c4:drop::1:2", "c4:drop:g h:1:2", "c4:drop:g:+1:2", "c4:drop:g:1:-0", "c4:drop:g:1:10", ":::", "::::", "c4::::",
		"c4:drop:" + strings.Repeat("g", 64) + ":1:2", "c4:drop:" + strings.Repeat("g", 65) + ":1:2", "c4:drop:g\n:1:2"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, err := ParseAction(s)
		want, ok := parseActionNaive(s)
		if (err == nil) != ok || got != want {
			t.Fatalf("ParseAction(%q) = %+v, %v; want %+v, ok %v", s, got, err, want, ok)
		}
	})
}

// TestColumnValues: the column buttons' values cut from one string are
// what String encodes for each column, on every board width.
func TestColumnValues(t *testing.T) {
	for cols := engine.MinSize; cols <= engine.MaxSize; cols++ {
		for _, a := range []Action{
			{Kind: KindDrop, GameID: "AbCdEfGhIjKlMnOp", Move: 0},
			{Kind: KindDrop, GameID: "x_-9", Move: 41, Human: true},
			{Kind: KindDrop, GameID: "AbCdEfGhIjKlMnOp", Move: engine.MaxSize * engine.MaxSize, Human: true},
		} {
			var vals [engine.MaxSize]string
			a.columnValues(cols, &vals)
			for c := range engine.MaxSize {
				want := ""
				if c < cols {
					a.Column = c
					want = a.String()
				}
				if vals[c] != want {
					t.Errorf("%+v.columnValues(%d)[%d] = %q, want %q", a, cols, c, vals[c], want)
				}
			}
		}
	}
}
