package ops

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"sync/atomic"
	"time"

	"github.com/connect4/connect4/bot/internal/link"
)

// storePingBudget bounds the store check of one /readyz, well inside the
// probes' timeouts.
const storePingBudget = time.Second

// Conn is a long-lived platform connection that /readyz, /healthz and
// the metrics watch: the Discord Gateway or Slack Socket Mode.
type Conn struct {
	Name     string // for the probe bodies: "discord gateway", "slack socket mode"
	Platform string // the metrics label
	State    func() link.State
}

// Health answers /readyz and /healthz. Set its fields before serving; its
// handlers are safe for concurrent use.
type Health struct {
	Store          interface{ Ping(context.Context) error }
	Conns          []Conn
	UnhealthyAfter time.Duration // see Live
	StoreUp        func(bool)    // records each store check (Metrics.SetStoreUp)
	Log            *slog.Logger
	Now            func() time.Time // time.Now when nil

	stopping  atomic.Bool // shutting down: not ready
	storeDown atomic.Bool // the last store check failed (logged once per outage)
}

// Stopping makes Ready answer 503 from now on: the replica is shutting down.
func (h *Health) Stopping() { h.stopping.Store(true) }

func (h *Health) now() time.Time {
	if h.Now == nil {
		return time.Now()
	}
	return h.Now()
}

// Ready answers /readyz: 503 while the replica is shutting down or a
// configured platform connection is down, else 200. The body names each
// connection and the store with its state. A store outage is reported (in
// the body, the log and connect4_store_up) but does not make the replica
// unready: the store is shared, so every replica would leave the Service at
// once and users would get the platform's generic failure instead of the
// bot's own "try again in a moment".
func (h *Health) Ready(w http.ResponseWriter, r *http.Request) {
	var b strings.Builder
	ok := true
	if h.stopping.Load() {
		ok = false
		b.WriteString("shutting down\n")
	}
	now := h.now()
	for _, c := range h.Conns {
		st := c.State()
		if !st.Connected {
			ok = false
			fmt.Fprintf(&b, "%s: down for %s\n", c.Name, roundAge(now.Sub(st.Since)))
			continue
		}
		fmt.Fprintf(&b, "%s: connected for %s\n", c.Name, roundAge(now.Sub(st.Since)))
	}
	ctx, cancel := context.WithTimeout(r.Context(), storePingBudget)
	defer cancel()
	if err := h.Store.Ping(ctx); err != nil {
		b.WriteString("store: unavailable (commands are answered \"try again\"; not a reason to leave the Service)\n")
		if !h.storeDown.Swap(true) {
			h.Log.Warn("store unavailable; staying ready, commands are answered \"try again\"", "err", err)
		}
		h.StoreUp(false)
	} else {
		b.WriteString("store: ok\n")
		if h.storeDown.Swap(false) {
			h.Log.Info("store available again")
		}
		h.StoreUp(true)
	}
	status := http.StatusOK
	head := "ready\n"
	if !ok {
		status, head = http.StatusServiceUnavailable, "not ready\n"
	}
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	fmt.Fprint(w, head, b.String())
}

// Live answers /healthz: 200 while the process serves, 503 once a
// configured platform connection has been down longer than UnhealthyAfter,
// so that the orchestrator restarts a bot that cannot recover by itself.
// The store plays no part: restarting cannot mend it.
func (h *Health) Live(w http.ResponseWriter, r *http.Request) {
	var bad []string
	now := h.now()
	for _, c := range h.Conns {
		st := c.State()
		if down := now.Sub(st.Since); !st.Connected && down > h.UnhealthyAfter {
			bad = append(bad, fmt.Sprintf("%s: down for %s, over CONNECT4_UNHEALTHY_AFTER %s", c.Name, roundAge(down), h.UnhealthyAfter))
		}
	}
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	if len(bad) > 0 {
		w.WriteHeader(http.StatusServiceUnavailable)
		fmt.Fprintf(w, "unhealthy\n%s\n", strings.Join(bad, "\n"))
		return
	}
	fmt.Fprintln(w, "ok")
}

// roundAge rounds d for a probe body: to 100 ms under a minute, else to
// the second.
func roundAge(d time.Duration) time.Duration {
	if d < time.Minute {
		return d.Round(100 * time.Millisecond)
	}
	return d.Round(time.Second)
}
