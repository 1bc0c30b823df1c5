package link

import (
	"context"
	"errors"
	"testing"
	"time"
)

func TestBackoffCeiling(t *testing.T) {
	for _, tc := range []struct {
		b    Backoff
		n    int
		want time.Duration
	}{
		{Backoff{}, 0, 500 * time.Millisecond},
		{Backoff{}, 1, time.Second},
		{Backoff{}, 3, 4 * time.Second},
		{Backoff{}, 7, time.Minute}, // 64 s capped
		{Backoff{}, 1000, time.Minute},
		{Backoff{Min: 10 * time.Millisecond, Max: 50 * time.Millisecond}, 2, 40 * time.Millisecond},
		{Backoff{Min: 10 * time.Millisecond, Max: 50 * time.Millisecond}, 3, 50 * time.Millisecond},
		{Backoff{Min: time.Second, Max: 100 * time.Millisecond}, 0, 100 * time.Millisecond},
	} {
		if got := tc.b.Ceiling(tc.n); got != tc.want {
			t.Errorf("%+v.Ceiling(%d) = %v, want %v", tc.b, tc.n, got, tc.want)
		}
	}
}

// TestBackoffDelayJitters checks that delays stay under the ceiling and are
// spread over it (full jitter), not all at the ceiling.
func TestBackoffDelayJitters(t *testing.T) {
	b := Backoff{Min: time.Second, Max: time.Minute}
	for n := range 8 {
		ceil := b.Ceiling(n)
		var low, high bool
		for range 200 {
			d := b.Delay(n)
			if d < 0 || d > ceil {
				t.Fatalf("Delay(%d) = %v, outside [0, %v]", n, d, ceil)
			}
			low = low || d < ceil/2
			high = high || d >= ceil/2
		}
		if !low || !high {
			t.Errorf("Delay(%d) over 200 draws: below half %v, above half %v; want both", n, low, high)
		}
	}
}

func TestSleep(t *testing.T) {
	if err := Sleep(t.Context(), time.Millisecond); err != nil {
		t.Errorf("Sleep = %v", err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if err := Sleep(ctx, time.Hour); !errors.Is(err, context.Canceled) {
		t.Errorf("Sleep after cancel = %v, want context.Canceled", err)
	}
}

func TestTracker(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	tr := NewTracker()
	tr.now = func() time.Time { return now }
	tr.state.Since = now
	if s := tr.State(); s.Connected || !s.Since.Equal(now) || s.Err != nil {
		t.Fatalf("new tracker state %+v", s)
	}
	refused := errors.New("refused")
	now = now.Add(time.Second)
	tr.Down(refused)
	if s := tr.State(); s.Connected || !s.Since.Equal(now.Add(-time.Second)) || s.Err != refused {
		t.Errorf("after a failed attempt: %+v, want down since the start with the error", s)
	}
	now = now.Add(2 * time.Second)
	if down, again := tr.Up(); down != 3*time.Second || again {
		t.Errorf("first Up = %v, %v; want 3s, false", down, again)
	}
	if down, again := tr.Up(); down != 0 || again {
		t.Errorf("Up while up = %v, %v; want 0, false", down, again)
	}
	now = now.Add(time.Minute)
	lost := errors.New("lost")
	tr.Down(lost)
	tr.Down(refused)
	if s := tr.State(); s.Connected || !s.Since.Equal(now) || s.Err != refused || s.Reconnects != 0 {
		t.Errorf("after losing it: %+v", s)
	}
	now = now.Add(5 * time.Second)
	if down, again := tr.Up(); down != 5*time.Second || !again {
		t.Errorf("Up after a loss = %v, %v; want 5s, true", down, again)
	}
	noticed := now.Add(time.Second)
	now = now.Add(3 * time.Second)
	tr.DownSince(lost, noticed)
	if s := tr.State(); s.Connected || !s.Since.Equal(noticed) {
		t.Errorf("after DownSince: %+v, want down since %v", s, noticed)
	}
	now = now.Add(time.Second)
	if down, again := tr.Up(); down != 3*time.Second || !again {
		t.Errorf("Up after a loss = %v, %v; want 5s, true", down, again)
	}
	if s := tr.State(); !s.Connected || s.Err != nil || s.Reconnects != 2 || !s.Since.Equal(now) {
		t.Errorf("after reconnecting: %+v", s)
	}
}
