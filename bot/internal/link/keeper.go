package link

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"
)

// ErrTokenRefused is wrapped by the error Keeper.Run returns when the
// platform refuses the token: retrying cannot help, the server should stop.
var ErrTokenRefused = errors.New("the platform refused the token")

// Keeper keeps one long-lived platform connection up: it runs connection
// attempts, waits Backoff between failed ones, records the connection's
// state in Tracker and logs each change. It is the one reconnect loop of
// both adapters. Set its fields before Run; its methods are safe for
// concurrent use once it runs.
type Keeper struct {
	Tracker *Tracker
	Backoff Backoff
	Log     *slog.Logger
	// Name names the connection in log lines ("slack socket mode").
	Name string
	// Token names the token the platform checks ("SLACK_APP_TOKEN"), for
	// the error of a refusal.
	Token string
	// Refusal returns why err means the token is refused ("invalid_auth"),
	// or "" when a retry may help.
	Refusal func(err error) string
}

// Run calls attempt until ctx is done (returning nil) or the token is
// refused (returning an error that wraps ErrTokenRefused and says why).
// attempt connects and serves until the connection fails for good,
// returning why; it calls connected after each connection it makes, which
// records it and starts the waits between failures over. A failed attempt
// is logged at Warn and tried again after Backoff.Delay.
func (k *Keeper) Run(ctx context.Context, attempt func(ctx context.Context, connected func()) error) error {
	failures := 0
	connected := func() {
		failures = 0
		k.Up()
	}
	for {
		err := attempt(ctx, connected)
		if ctx.Err() != nil {
			return nil
		}
		k.Tracker.Down(err)
		if why := k.Refusal(err); why != "" {
			return fmt.Errorf("%s: %w (%s)", k.Token, ErrTokenRefused, why)
		}
		wait := k.Backoff.Delay(failures)
		failures++
		k.Log.Warn(k.Name+" connection failed", "err", err, "attempt", failures, "retry_in", wait.Round(time.Millisecond))
		if Sleep(ctx, wait) != nil {
			return nil
		}
	}
}

// Up records that the connection is up, and logs it unless it was up
// already.
func (k *Keeper) Up() {
	if k.Tracker.State().Connected {
		return
	}
	down, again := k.Tracker.Up()
	if again {
		k.Log.Info(k.Name+" reconnected", "down_for", down.Round(time.Millisecond))
		return
	}
	k.Log.Info(k.Name+" connected", "after", down.Round(time.Millisecond))
}

// Lost records that a live connection dropped at at (zero: now) because
// of err, and logs it; it does nothing when the connection was down.
func (k *Keeper) Lost(err error, at time.Time) {
	if !k.Tracker.State().Connected {
		return
	}
	k.Tracker.DownSince(err, at)
	k.Log.Warn(k.Name + " connection lost; reconnecting")
}
