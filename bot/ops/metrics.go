package ops

import (
	"net/http"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/connect4/connect4/bot"
)

// latencyBuckets suit requests from about a millisecond (a click on Redis)
// to Discord's 3 s acknowledgement deadline.
var latencyBuckets = []float64{.001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2, 3}

// platforms are the platforms whose series exist from the start, at zero,
// so that rate() and absent() work before the first request.
var platforms = []string{"slack", "discord"}

// Metrics are the Prometheus metrics of a serving bot, on a registry of
// their own (no global registry). Its hook funcs and handler are safe for
// concurrent use.
type Metrics struct {
	reg *prometheus.Registry

	requests      *prometheus.CounterVec   // platform, kind, outcome
	latency       *prometheus.HistogramVec // platform
	moves         *prometheus.CounterVec   // platform
	gamesStarted  *prometheus.CounterVec   // platform, ai
	gamesFinished *prometheus.CounterVec   // platform, result
	conflicts     prometheus.Counter
	retries       prometheus.Counter
	storeErrors   *prometheus.CounterVec // op
	storeUp       prometheus.Gauge
}

// NewMetrics returns the metrics, registered with a new registry together
// with the Go runtime and process collectors.
func NewMetrics() *Metrics {
	m := &Metrics{
		reg: prometheus.NewRegistry(),
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "connect4_requests_total",
			Help: "Chat requests (commands and button clicks) by platform, command kind and outcome (ok, refused, error, unauthorized, bad_request, too_large).",
		}, []string{"platform", "kind", "outcome"}),
		latency: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "connect4_request_duration_seconds",
			Help:    "Time from a chat request's arrival to its last reply, by platform.",
			Buckets: latencyBuckets,
		}, []string{"platform"}),
		moves: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "connect4_moves_total",
			Help: "Discs dropped (by people and by the AI), by platform.",
		}, []string{"platform"}),
		gamesStarted: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "connect4_games_started_total",
			Help: "Games started (challenge accepted, AI game, rematch, next round), by platform and whether the AI plays (yes, no).",
		}, []string{"platform", "ai"}),
		gamesFinished: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "connect4_games_finished_total",
			Help: "Games and challenges ended, by platform and result (win, draw, resign, timeout, declined, cancelled, expired).",
		}, []string{"platform", "result"}),
		conflicts: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "connect4_store_conflicts_total",
			Help: "Optimistic-lock conflicts: a game changed between its read and its write.",
		}),
		retries: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "connect4_store_retries_total",
			Help: "Updates run again on a fresh read after a conflict.",
		}),
		storeErrors: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "connect4_store_errors_total",
			Help: "Failures of the game store (unreachable, timed out, corrupt record), by operation.",
		}, []string{"op"}),
	}
	m.storeUp = prometheus.NewGauge(prometheus.GaugeOpts{
		Name: "connect4_store_up",
		Help: "1 when the game store answered the last /readyz check, else 0.",
	})
	m.storeUp.Set(1) // until a check says otherwise
	m.reg.MustRegister(m.requests, m.latency, m.moves, m.gamesStarted, m.gamesFinished,
		m.conflicts, m.retries, m.storeErrors, m.storeUp,
		collectors.NewGoCollector(),
		collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	for _, p := range platforms {
		m.latency.WithLabelValues(p)
		m.moves.WithLabelValues(p)
		m.gamesStarted.WithLabelValues(p, "yes")
		m.gamesStarted.WithLabelValues(p, "no")
	}
	return m
}

// BotHooks returns the hooks that count moves and games of a bot.Service.
func (m *Metrics) BotHooks() bot.Hooks {
	return bot.Hooks{
		GameStarted: func(platform string, ai bool) {
			m.gamesStarted.WithLabelValues(platform, yesNo(ai)).Inc()
		},
		Move: func(platform string) {
			m.moves.WithLabelValues(platform).Inc()
		},
		GameFinished: func(platform, result string) {
			m.gamesFinished.WithLabelValues(platform, result).Inc()
		},
	}
}

// StoreConflict counts an optimistic-lock conflict of the store: with
// StoreRetry and StoreError it fills the store's hooks.
func (m *Metrics) StoreConflict() { m.conflicts.Inc() }

// StoreRetry counts an update run again after a conflict.
func (m *Metrics) StoreRetry() { m.retries.Inc() }

// StoreError counts a failure of the store's operation op.
func (m *Metrics) StoreError(op string, _ error) { m.storeErrors.WithLabelValues(op).Inc() }

// SetStoreUp records the result of a store check.
func (m *Metrics) SetStoreUp(up bool) {
	if up {
		m.storeUp.Set(1)
	} else {
		m.storeUp.Set(0)
	}
}

// Watch exports the state of a platform connection: connect4_connected
// and connect4_reconnects_total with its platform label, read from the
// adapter at every scrape. Call it once per platform.
func (m *Metrics) Watch(c Conn) {
	labels := prometheus.Labels{"platform": c.Platform}
	m.reg.MustRegister(
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{
			Name:        "connect4_connected",
			Help:        "1 while the platform's long-lived connection (Discord Gateway, Slack Socket Mode) is up, else 0.",
			ConstLabels: labels,
		}, func() float64 {
			if c.State().Connected {
				return 1
			}
			return 0
		}),
		prometheus.NewCounterFunc(prometheus.CounterOpts{
			Name:        "connect4_reconnects_total",
			Help:        "Times the platform's long-lived connection came back after it was lost or an attempt failed.",
			ConstLabels: labels,
		}, func() float64 { return float64(c.State().Reconnects) }),
	)
}

// Observe returns the Observe func of a chat adapter's Config for
// platform: it counts the request and records its latency.
func (m *Metrics) Observe(platform string) func(kind, outcome string, elapsed time.Duration) {
	latency := m.latency.WithLabelValues(platform)
	return func(kind, outcome string, elapsed time.Duration) {
		m.requests.WithLabelValues(platform, kind, outcome).Inc()
		latency.Observe(elapsed.Seconds())
	}
}

// Handler serves the metrics in the Prometheus text format, for
// GET /metrics.
func (m *Metrics) Handler() http.Handler {
	return promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{
		Registry:      m.reg, // counts its own scrape errors
		ErrorHandling: promhttp.ContinueOnError,
	})
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}
