package clock

import (
	"errors"
	"testing"
	"time"
)

var t0 = time.Date(2026, 12, 1, 20, 0, 0, 0, time.UTC)

// TestLiveClock plays a 3+2 game move by move and checks each player's
// time, worked by hand.
func TestLiveClock(t *testing.T) {
	c, _ := NewLive(3, 2)
	k := Start(c, 2, t0)
	steps := []struct {
		after      time.Duration // since the game's start
		next       int
		red, yellw time.Duration // after the move
	}{
		{10 * time.Second, 1, 3*time.Minute - 8*time.Second, 3 * time.Minute},                                  // Red: 180-10+2 = 172
		{25 * time.Second, 0, 172 * time.Second, 3*time.Minute - 13*time.Second},                               // Yellow: 180-15+2 = 167
		{85 * time.Second, 1, 114 * time.Second, 167 * time.Second},                                            // Red: 172-60+2 = 114
		{85*time.Second + 500*time.Millisecond, 0, 114 * time.Second, 167*time.Second + 1500*time.Millisecond}, // Yellow: 167-0.5+2
	}
	for i, s := range steps {
		var err error
		if k, err = k.Move(t0.Add(s.after), s.next); err != nil {
			t.Fatalf("move %d: %v", i+1, err)
		}
		if k.Left[0] != s.red || k.Left[1] != s.yellw || k.Turn != s.next || !k.Since.Equal(t0.Add(s.after)) {
			t.Errorf("after move %d: %+v, want red %v yellow %v", i+1, k, s.red, s.yellw)
		}
	}
	// Red to move with 1:54: the flag falls at 85.5 s + 114 s.
	flag := t0.Add(85*time.Second + 500*time.Millisecond + 114*time.Second)
	if got := k.FlagAt(); !got.Equal(flag) {
		t.Errorf("FlagAt = %v, want %v", got, flag)
	}
	if got := k.Remaining(0, flag.Add(-time.Minute)); got != time.Minute {
		t.Errorf("Remaining(red) a minute before the flag = %v", got)
	}
	if got := k.Remaining(1, flag); got != 167*time.Second+1500*time.Millisecond {
		t.Errorf("Remaining(yellow) = %v: the waiting clock must not run", got)
	}
	if k.Fallen(flag.Add(-time.Nanosecond)) || !k.Fallen(flag) {
		t.Errorf("Fallen around %v wrong", flag)
	}
	if got := k.Remaining(0, flag.Add(time.Hour)); got != 0 {
		t.Errorf("Remaining after the flag = %v, want 0", got)
	}
	late, err := k.Move(flag, 1)
	var fe *FlagError
	if !errors.As(err, &fe) || fe.Player != 0 || !fe.At.Equal(flag) || late != k {
		t.Errorf("Move at the flag = %+v, %v, want a *FlagError for red and no change", late, err)
	}
}

// TestCorrespondenceClock gives every move its own days, whatever the
// last one took.
func TestCorrespondenceClock(t *testing.T) {
	c, _ := NewDays(2)
	k := Start(c, 2, t0)
	k, err := k.Move(t0.Add(47*time.Hour), 1)
	if err != nil {
		t.Fatal(err)
	}
	if k.Left != [4]time.Duration{48 * time.Hour, 48 * time.Hour} || !k.FlagAt().Equal(t0.Add(95*time.Hour)) {
		t.Errorf("after a move at 47 h: %+v, flag at %v", k, k.FlagAt())
	}
	if _, err := k.Move(t0.Add(95*time.Hour), 0); err == nil {
		t.Error("a move two days after the last was accepted")
	}
}

// TestClockEdges: no clock, a replica's clock behind, a bad next player.
func TestClockEdges(t *testing.T) {
	none := Start(Control{}, 2, t0)
	if none.Running() || !none.FlagAt().IsZero() || none.Fallen(t0.Add(1e6*time.Hour)) {
		t.Errorf("no clock: %+v", none)
	}
	if k, err := none.Move(t0, 1); err != nil || k != none {
		t.Errorf("Move without a clock = %+v, %v", k, err)
	}
	c, _ := NewLive(1, 0)
	k := Start(c, 2, t0)
	back, err := k.Move(t0.Add(-time.Second), 1)
	if err != nil || back.Left[0] != time.Minute || !back.Since.Equal(t0) {
		t.Errorf("a move stamped before the turn began = %+v, %v: want no time charged", back, err)
	}
	if _, err := k.Move(t0, 2); err == nil {
		t.Error("next player 2 of 2 accepted")
	}
	if got := k.Remaining(5, t0); got != 0 {
		t.Errorf("Remaining(5) = %v", got)
	}
	if four := Start(c, 4, t0); four.Players != 4 || four.Left[3] != time.Minute {
		t.Errorf("four players: %+v", four)
	}
}

func TestFormat(t *testing.T) {
	for _, tc := range []struct {
		d    time.Duration
		want string
	}{
		{161 * time.Second, "2:41"},
		{161*time.Second + 999*time.Millisecond, "2:41"},
		{5 * time.Second, "0:05"},
		{999 * time.Millisecond, "0:00"},
		{0, "0:00"},
		{-time.Minute, "0:00"},
		{10 * time.Minute, "10:00"},
		{time.Hour + 2*time.Minute + 3*time.Second, "1:02:03"},
		{48*time.Hour - time.Second, "47:59:59"},
		{14 * 24 * time.Hour, "336:00:00"},
	} {
		if got := Format(tc.d); got != tc.want {
			t.Errorf("Format(%v) = %q, want %q", tc.d, got, tc.want)
		}
	}
}

func BenchmarkMove(b *testing.B) {
	c, _ := NewLive(3, 2)
	k := Start(c, 2, t0)
	at := t0
	for b.Loop() {
		at = at.Add(time.Second)
		k, _ = k.Move(at, 1-k.Turn)
	}
}
