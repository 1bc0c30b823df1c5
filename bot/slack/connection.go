package slack

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"slices"
	"time"

	slackapi "github.com/slack-go/slack"
	"github.com/slack-go/slack/socketmode"

	"github.com/connect4/connect4/bot/internal/link"
)

// ErrTokenRefused is wrapped by the error RunSocketMode returns when Slack
// refuses SLACK_APP_TOKEN (apps.connections.open answers invalid_auth,
// not_authed, account_inactive or token_revoked): the server cannot
// recover by retrying and should stop. It is link.ErrTokenRefused, shared
// with the Discord adapter.
var ErrTokenRefused = link.ErrTokenRefused

// refusals are the apps.connections.open errors that no retry can cure.
var refusals = []string{"invalid_auth", "not_authed", "account_inactive", "token_revoked"}

// errConnectionLost is the reason recorded when a live connection drops.
var errConnectionLost = errors.New("slack: socket mode connection lost")

// ConnectionState is the state of the Socket Mode connection at one moment.
type ConnectionState = link.State

// Connection returns the state of the Socket Mode connection. It is down
// (since New) until RunSocketMode has connected. It is safe for concurrent
// use.
func (a *Adapter) Connection() ConnectionState {
	return a.socket.State()
}

// RunSocketMode connects to Slack over Socket Mode (with the app token) and
// serves slash commands and button clicks through the same code as the
// HTTP endpoints, until ctx is done. It needs Config.AppToken and
// Config.BotToken.
//
// It connects, and reconnects after every lost connection, for as long as
// ctx lasts: a failed attempt is logged at Warn with its reason and tried
// again after a wait that starts at 500 ms and doubles up to
// Config.ReconnectMax, with full jitter (socketmode's own retries, without
// jitter and up to 5 minutes apart, are cut short); a success is logged at
// Info with how long the connection was down. Connection reports the state
// meanwhile.
//
// It returns nil when ctx is done, an error when a token is missing, and
// an error wrapping ErrTokenRefused when Slack refuses the app token, at the
// first connection or at a later one.
func (a *Adapter) RunSocketMode(ctx context.Context) error {
	if a.cfg.AppToken == "" || a.cfg.BotToken == "" {
		return errors.New("slack: Socket Mode needs SLACK_APP_TOKEN and SLACK_BOT_TOKEN")
	}
	a.selfPlayer(ctx) // learn our user id before the first command
	return a.keeper.Run(ctx, a.runSocketClient)
}

// runSocketClient runs one socketmode client and serves its events until an
// attempt to connect fails (returning why) or ctx is done. The client
// reconnects by itself after a lost connection; only when that fails does
// runSocketClient stop it, so that RunSocketMode waits its own backoff.
// It calls connected on every connection.
func (a *Adapter) runSocketClient(ctx context.Context, connected func()) error {
	sm := socketmode.New(a.client(),
		socketmode.OptionLog(slog.NewLogLogger(a.log.Handler(), slog.LevelDebug)))
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	errc := make(chan error, 1)
	go func() { errc <- sm.RunContext(ctx) }()
	for {
		select {
		case evt := <-sm.Events:
			switch evt.Type {
			case socketmode.EventTypeConnecting:
				// The first event of every attempt, and the only sign of a
				// dropped connection.
				a.keeper.Lost(errConnectionLost, time.Time{})
			case socketmode.EventTypeConnected:
				connected()
			case socketmode.EventTypeConnectionError:
				err := errors.New("slack: socket mode connection error")
				if ce, ok := evt.Data.(*slackapi.ConnectionErrorEvent); ok && ce.ErrorObj != nil {
					err = ce.ErrorObj
				}
				cancel()
				<-errc
				return err
			case socketmode.EventTypeInvalidAuth:
				// Sent before RunContext returns the error of an
				// apps.connections.open answered 404.
			default:
				a.dispatch(ctx, sm, evt)
			}
		case err := <-errc:
			if err == nil {
				err = errors.New("slack: socket mode stopped")
			}
			return err
		}
	}
}

// refusal returns the Slack error code when err says the app token is
// refused: one of refusals, or apps.connections.open answering HTTP 404
// (which socketmode, too, treats as invalid auth); "" otherwise.
func refusal(err error) string {
	var se slackapi.SlackErrorResponse
	if errors.As(err, &se) && slices.Contains(refusals, se.Err) {
		return se.Err
	}
	var sc slackapi.StatusCodeError
	if errors.As(err, &sc) && sc.Code == http.StatusNotFound {
		return "apps.connections.open answered 404"
	}
	return ""
}
