package discord

import (
	"context"
	"errors"
	"net"
	"sync"
	"time"

	discordgo "github.com/bwmarrin/discordgo"
	"github.com/gorilla/websocket"

	"github.com/connect4/connect4/bot/internal/link"
)

// ErrTokenRefused is wrapped by the error RunGateway returns when Discord
// refuses DISCORD_BOT_TOKEN (Gateway close code 4004, "Authentication
// failed"): the server cannot recover by retrying and should stop. It is
// link.ErrTokenRefused, shared with the Slack adapter.
var ErrTokenRefused = link.ErrTokenRefused

// closeAuthenticationFailed is the Gateway close code of a refused token.
const closeAuthenticationFailed = 4004

// errConnectionLost is the reason recorded when a live connection drops.
var errConnectionLost = errors.New("discord: gateway connection lost")

// ConnectionState is the state of the Gateway connection at one moment.
type ConnectionState = link.State

// Connection returns the state of the Gateway connection. It is down
// (since New) until RunGateway has connected. It is safe for concurrent
// use.
func (a *Adapter) Connection() ConnectionState {
	return a.gateway.State()
}

// keepGateway opens s and opens it again whenever it is lost, until ctx is
// done (returning nil) or the token is refused, with a.keeper.
func (a *Adapter) keepGateway(ctx context.Context, s *discordgo.Session, guard *openGuard, lost <-chan time.Time) error {
	return a.keeper.Run(ctx, func(ctx context.Context, connected func()) error {
		return a.openGateway(ctx, s, guard, lost, connected)
	})
}

// openGateway opens s, and opens it again at once each time it is lost,
// until an Open fails (returning why) or ctx is done. lost is signalled by
// the Disconnect handler; one drop may signal it twice, and a signal may
// come after the connection is already back, so each one is checked with
// Open: ErrWSAlreadyOpen means still connected, nil means it was lost and
// is back.
func (a *Adapter) openGateway(ctx context.Context, s *discordgo.Session, guard *openGuard, lost <-chan time.Time, connected func()) error {
	var lostAt time.Time // when the Disconnect that the last Open follows came; zero for none
	for {
		guard.arm(time.Now().Add(a.openTimeout))
		stop := context.AfterFunc(ctx, guard.abort)
		err := s.Open()
		stop()
		guard.disarm()
		if err != nil && ctx.Err() != nil {
			return err
		}
		if errors.Is(err, discordgo.ErrWSAlreadyOpen) {
			lostAt = time.Time{} // a second signal of a drop already healed
			err = nil
		}
		if !lostAt.IsZero() {
			a.keeper.Lost(errConnectionLost, lostAt)
			lostAt = time.Time{}
		}
		if err != nil {
			return err
		}
		connected()
		select {
		case <-ctx.Done():
			return ctx.Err()
		case lostAt = <-lost:
			// at once: a dropped connection usually resumes
		}
	}
}

// openTimeout bounds the reads of one Gateway Open.
const openTimeout = 30 * time.Second

// openGuard puts a read deadline on the Gateway connection while Open
// runs (discordgo reads Hello and READY without one), and lets a shutdown
// cut a hung Open short. It is safe for concurrent use.
type openGuard struct {
	mu    sync.Mutex
	conn  net.Conn  // the newest connection dialled
	until time.Time // the read deadline while Open runs; zero once it has returned
}

// dialer returns a copy of base (nil: gorilla's default) whose connections
// obey the guard.
func (g *openGuard) dialer(base *websocket.Dialer) *websocket.Dialer {
	d := *websocket.DefaultDialer
	if base != nil {
		d = *base
	}
	next := d.NetDialContext
	if next == nil {
		var nd net.Dialer
		next = nd.DialContext
	}
	d.NetDialContext = func(ctx context.Context, network, addr string) (net.Conn, error) {
		c, err := next(ctx, network, addr)
		if err != nil {
			return nil, err
		}
		gc := &guardedConn{Conn: c, g: g}
		g.mu.Lock()
		g.conn = gc
		g.mu.Unlock()
		return gc, nil
	}
	return &d
}

// arm sets the read deadline of the Open about to run.
func (g *openGuard) arm(until time.Time) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.until = until
}

// abort makes the reads of a running Open fail at once.
func (g *openGuard) abort() {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.until.IsZero() {
		return // Open has returned
	}
	g.until = time.Now()
	if g.conn != nil {
		_ = g.conn.SetReadDeadline(g.until)
	}
}

// disarm lifts the read deadline once Open has returned, from the live
// connection too.
func (g *openGuard) disarm() {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.until = time.Time{}
	if g.conn != nil {
		_ = g.conn.SetReadDeadline(time.Time{})
	}
}

// guardedConn is a Gateway connection that applies its guard's deadline
// before every read while Open runs. The deadline is set under the guard's
// lock, so that disarm cannot be overtaken by a read that set it late.
type guardedConn struct {
	net.Conn
	g *openGuard
}

func (c *guardedConn) Read(p []byte) (int, error) {
	c.g.mu.Lock()
	if !c.g.until.IsZero() {
		_ = c.Conn.SetReadDeadline(c.g.until)
	}
	c.g.mu.Unlock()
	return c.Conn.Read(p)
}

// refusal returns why err is Discord refusing the token (close code 4004,
// which discordgo returns from Open as gorilla's CloseError), or "".
func refusal(err error) string {
	var ce *websocket.CloseError
	if errors.As(err, &ce) && ce.Code == closeAuthenticationFailed {
		return "Gateway close code 4004 Authentication failed: " + err.Error()
	}
	return ""
}
