package ops

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/connect4/connect4/bot/internal/link"
)

// pingFunc is a store health check.
type pingFunc func(context.Context) error

func (f pingFunc) Ping(ctx context.Context) error { return f(ctx) }

func TestHealthProbes(t *testing.T) {
	now := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	up := link.State{Connected: true, Since: now.Add(-time.Hour)}
	downShort := link.State{Since: now.Add(-30 * time.Second), Err: errors.New("refused")}
	downLong := link.State{Since: now.Add(-10 * time.Minute), Err: errors.New("refused")}
	storeDown := errors.New("dial tcp: connection refused")
	for _, tc := range []struct {
		name                string
		gateway, socket     link.State
		store               error
		stopping            bool
		ready, live         int
		readyWant, liveWant []string
		storeUp             bool
	}{
		{name: "all up", gateway: up, socket: up, ready: 200, live: 200,
			readyWant: []string{"ready\n", "discord gateway: connected for 1h0m0s", "slack socket mode: connected", "store: ok"}, liveWant: []string{"ok"}, storeUp: true},
		{name: "store down keeps ready", gateway: up, socket: up, store: storeDown, ready: 200, live: 200,
			readyWant: []string{"ready\n", "store: unavailable"}, liveWant: []string{"ok"}},
		{name: "gateway down briefly", gateway: downShort, socket: up, ready: 503, live: 200,
			readyWant: []string{"not ready", "discord gateway: down for 30s", "slack socket mode: connected"}, liveWant: []string{"ok"}, storeUp: true},
		{name: "socket down too long", gateway: up, socket: downLong, ready: 503, live: 503,
			readyWant: []string{"not ready", "slack socket mode: down for 10m0s"},
			liveWant:  []string{"unhealthy", "slack socket mode: down for 10m0s, over CONNECT4_UNHEALTHY_AFTER 5m0s"}, storeUp: true},
		{name: "shutting down", gateway: up, socket: up, stopping: true, ready: 503, live: 200,
			readyWant: []string{"not ready", "shutting down"}, liveWant: []string{"ok"}, storeUp: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			storeUp := !tc.storeUp
			h := &Health{
				Store: pingFunc(func(context.Context) error { return tc.store }),
				Conns: []Conn{
					{Name: "discord gateway", Platform: "discord", State: func() link.State { return tc.gateway }},
					{Name: "slack socket mode", Platform: "slack", State: func() link.State { return tc.socket }},
				},
				UnhealthyAfter: 5 * time.Minute, StoreUp: func(b bool) { storeUp = b },
				Log: slog.New(slog.NewTextHandler(io.Discard, nil)), Now: func() time.Time { return now },
			}
			if tc.stopping {
				h.Stopping()
			}
			for _, p := range []struct {
				path    string
				handler http.HandlerFunc
				code    int
				want    []string
			}{{"/readyz", h.Ready, tc.ready, tc.readyWant}, {"/healthz", h.Live, tc.live, tc.liveWant}} {
				rec := httptest.NewRecorder()
				p.handler(rec, httptest.NewRequest("GET", p.path, nil))
				body := rec.Body.String()
				if rec.Code != p.code {
					t.Errorf("GET %s = %d, want %d\n%s", p.path, rec.Code, p.code, body)
				}
				for _, w := range p.want {
					if !strings.Contains(body, w) {
						t.Errorf("GET %s body lacks %q:\n%s", p.path, w, body)
					}
				}
				if strings.Contains(body, "connection refused") {
					t.Errorf("GET %s body shows an error's text (kept for the log):\n%s", p.path, body)
				}
			}
			if storeUp != tc.storeUp {
				t.Errorf("store recorded up = %v, want %v", storeUp, tc.storeUp)
			}
		})
	}
}
