package discord

import (
	"context"
	"errors"
	"fmt"
	"time"

	discordgo "github.com/bwmarrin/discordgo"
	"github.com/gorilla/websocket"

	"github.com/connect4/connect4/bot/internal/link"
)

// ErrTokenRefused is wrapped by the error RunGateway returns when Discord
// refuses DISCORD_BOT_TOKEN (Gateway close code 4004, "Authentication
// failed"): the server cannot recover by retrying and should stop.
var ErrTokenRefused = errors.New("discord: the Gateway refused DISCORD_BOT_TOKEN (close code 4004 Authentication failed)")

// closeAuthenticationFailed is the Gateway close code of a refused token.
const closeAuthenticationFailed = 4004

// errConnectionLost is the reason recorded when a live connection drops.
var errConnectionLost = errors.New("discord: gateway connection lost")

// ConnectionState is the state of the Gateway connection at one moment,
// for readiness checks and metrics.
type ConnectionState struct {
	// Connected reports whether the Gateway connection is up.
	Connected bool
	// Since is when Connected last changed, or when the Adapter was made.
	Since time.Time
	// Err is why the last attempt failed or the connection was lost; nil
	// while connected.
	Err error
	// Reconnects counts the times the connection came back after it was
	// lost or an attempt failed; the first connection does not count.
	Reconnects int
}

// Connection returns the state of the Gateway connection. It is down
// (since New) until RunGateway has connected. It is safe for concurrent
// use.
func (a *Adapter) Connection() ConnectionState {
	st := a.gateway.State()
	return ConnectionState{Connected: st.Connected, Since: st.Since, Err: st.Err, Reconnects: st.Reconnects}
}

// keepGateway opens s and opens it again whenever it is lost, until ctx is
// done (returning nil) or the token is refused. lost is signalled by the
// Disconnect handler; one drop may signal it twice, and a signal may come
// after the connection is already back, so each one is checked with Open:
// ErrWSAlreadyOpen means still connected, nil means it was lost and is
// back. Only keepGateway changes a.gateway.
func (a *Adapter) keepGateway(ctx context.Context, s *discordgo.Session, lost <-chan time.Time) error {
	failures := 0
	var lostAt time.Time // when the Disconnect that the last Open follows came; zero for none
	for {
		err := s.Open()
		if errors.Is(err, discordgo.ErrWSAlreadyOpen) {
			lostAt = time.Time{} // a second signal of a drop already healed
			err = nil
		}
		if !lostAt.IsZero() {
			a.gateway.DownSince(errConnectionLost, lostAt)
			lostAt = time.Time{}
			a.log.Warn("discord gateway connection lost; reconnecting")
		}
		if err == nil {
			failures = 0
			a.connected()
			select {
			case <-ctx.Done():
				return nil
			case lostAt = <-lost:
				continue // at once: a dropped connection usually resumes
			}
		}
		a.gateway.Down(err)
		if refused(err) {
			return fmt.Errorf("%w: %w", ErrTokenRefused, err)
		}
		wait := a.backoff.Delay(failures)
		failures++
		a.log.Warn("discord gateway connection failed", "err", err, "attempt", failures, "retry_in", wait.Round(time.Millisecond))
		if link.Sleep(ctx, wait) != nil {
			return nil
		}
	}
}

// connected records a successful connection, and logs it unless the
// connection was up already.
func (a *Adapter) connected() {
	if a.gateway.State().Connected {
		return
	}
	down, again := a.gateway.Up()
	if again {
		a.log.Info("discord gateway reconnected", "down_for", down.Round(time.Millisecond))
		return
	}
	a.log.Info("discord gateway connected", "after", down.Round(time.Millisecond))
}

// refused reports whether err is Discord refusing the token: close code
// 4004, which discordgo returns from Open as gorilla's CloseError.
func refused(err error) bool {
	var ce *websocket.CloseError
	return errors.As(err, &ce) && ce.Code == closeAuthenticationFailed
}
