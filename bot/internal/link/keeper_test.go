package link

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"strings"
	"testing"
	"time"
)

// TestKeeper runs attempts that fail twice, connect, fail, and are then
// refused: the waits start over after the connection, the state follows,
// and the refusal ends Run with ErrTokenRefused and its reason.
func TestKeeper(t *testing.T) {
	k := &Keeper{Tracker: NewTracker(), Backoff: Backoff{Min: time.Millisecond, Max: time.Millisecond},
		Log: slog.New(slog.NewTextHandler(io.Discard, nil)), Name: "test link", Token: "TEST_TOKEN",
		Refusal: func(err error) string {
			if err.Error() == "refused" {
				return "bad token"
			}
			return ""
		}}
	script := []string{"fail", "fail", "connect", "fail", "refused"}
	var attempts int
	err := k.Run(t.Context(), func(ctx context.Context, connected func()) error {
		step := script[attempts]
		attempts++
		if step == "connect" {
			connected()
			if !k.Tracker.State().Connected {
				t.Error("not connected after connected()")
			}
			return errors.New("lost")
		}
		return errors.New(step)
	})
	if !errors.Is(err, ErrTokenRefused) || !strings.Contains(err.Error(), "bad token") || !strings.Contains(err.Error(), "TEST_TOKEN") {
		t.Fatalf("Run = %v, want ErrTokenRefused naming TEST_TOKEN and bad token", err)
	}
	st := k.Tracker.State()
	if attempts != len(script) || st.Connected || st.Err == nil || st.Err.Error() != "refused" {
		t.Fatalf("%d attempts, state %+v; want %d and down for the refusal", attempts, st, len(script))
	}
}

// TestKeeperStops checks that Run returns nil once its context ends.
func TestKeeperStops(t *testing.T) {
	ctx, cancel := context.WithCancel(t.Context())
	k := &Keeper{Tracker: NewTracker(), Backoff: Backoff{Min: time.Hour, Max: time.Hour},
		Log: slog.New(slog.NewTextHandler(io.Discard, nil)), Name: "test link", Refusal: func(error) string { return "" }}
	done := make(chan error)
	go func() {
		done <- k.Run(ctx, func(context.Context, func()) error { return errors.New("down") })
	}()
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("Run after cancel = %v, want nil", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Run did not stop when its context ended")
	}
}
