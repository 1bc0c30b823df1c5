package bot

import (
	"strings"
	"testing"
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
