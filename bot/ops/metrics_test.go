package ops

import (
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus/testutil"
)

func TestMetricsHooksCount(t *testing.T) {
	m := NewMetrics()
	bh := m.BotHooks()
	obsD, obsS := m.Observe("discord"), m.Observe("slack")

	bh.GameStarted("discord", false)
	bh.GameStarted("discord", true)
	bh.GameStarted("discord", true)
	bh.GameStarted("slack", false)
	for range 5 {
		bh.Move("discord")
	}
	bh.Move("slack")
	bh.GameFinished("discord", "win")
	bh.GameFinished("discord", "win")
	bh.GameFinished("slack", "draw")
	m.StoreConflict()
	m.StoreConflict()
	m.StoreRetry()
	m.StoreError("update", errors.New("boom"))
	m.StoreError("update", errors.New("boom"))
	m.StoreError("load", errors.New("boom"))
	// Binary fractions of a second, so that the sum below is exact.
	obsD("drop", "ok", time.Second/256) // 3.90625 ms
	obsD("drop", "ok", time.Second/32)  // 31.25 ms
	obsD("drop", "refused", 0)
	obsS("challenge", "ok", 2*time.Second)

	tests := []struct {
		name string
		got  float64
		want float64
	}{
		{"started discord ai=no", testutil.ToFloat64(m.gamesStarted.WithLabelValues("discord", "no")), 1},
		{"started discord ai=yes", testutil.ToFloat64(m.gamesStarted.WithLabelValues("discord", "yes")), 2},
		{"started slack ai=no", testutil.ToFloat64(m.gamesStarted.WithLabelValues("slack", "no")), 1},
		{"started slack ai=yes", testutil.ToFloat64(m.gamesStarted.WithLabelValues("slack", "yes")), 0},
		{"moves discord", testutil.ToFloat64(m.moves.WithLabelValues("discord")), 5},
		{"moves slack", testutil.ToFloat64(m.moves.WithLabelValues("slack")), 1},
		{"finished discord win", testutil.ToFloat64(m.gamesFinished.WithLabelValues("discord", "win")), 2},
		{"finished slack draw", testutil.ToFloat64(m.gamesFinished.WithLabelValues("slack", "draw")), 1},
		{"conflicts", testutil.ToFloat64(m.conflicts), 2},
		{"retries", testutil.ToFloat64(m.retries), 1},
		{"store errors update", testutil.ToFloat64(m.storeErrors.WithLabelValues("update")), 2},
		{"store errors load", testutil.ToFloat64(m.storeErrors.WithLabelValues("load")), 1},
		{"requests discord drop ok", testutil.ToFloat64(m.requests.WithLabelValues("discord", "drop", "ok")), 2},
		{"requests discord drop refused", testutil.ToFloat64(m.requests.WithLabelValues("discord", "drop", "refused")), 1},
		{"requests slack challenge ok", testutil.ToFloat64(m.requests.WithLabelValues("slack", "challenge", "ok")), 1},
	}
	for _, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("%s = %v, want %v", tt.name, tt.got, tt.want)
		}
	}

	// The histogram: three discord observations, one at or under 1 ms,
	// one in (2.5 ms, 5 ms], one in (25 ms, 50 ms]; slack's 2 s in (1, 2].
	want := `
# HELP connect4_request_duration_seconds Time from a chat request's arrival to its last reply, by platform.
# TYPE connect4_request_duration_seconds histogram
connect4_request_duration_seconds_bucket{platform="discord",le="0.001"} 1
connect4_request_duration_seconds_bucket{platform="discord",le="0.0025"} 1
connect4_request_duration_seconds_bucket{platform="discord",le="0.005"} 2
connect4_request_duration_seconds_bucket{platform="discord",le="0.01"} 2
connect4_request_duration_seconds_bucket{platform="discord",le="0.025"} 2
connect4_request_duration_seconds_bucket{platform="discord",le="0.05"} 3
connect4_request_duration_seconds_bucket{platform="discord",le="0.1"} 3
connect4_request_duration_seconds_bucket{platform="discord",le="0.25"} 3
connect4_request_duration_seconds_bucket{platform="discord",le="0.5"} 3
connect4_request_duration_seconds_bucket{platform="discord",le="1"} 3
connect4_request_duration_seconds_bucket{platform="discord",le="2"} 3
connect4_request_duration_seconds_bucket{platform="discord",le="3"} 3
connect4_request_duration_seconds_bucket{platform="discord",le="+Inf"} 3
connect4_request_duration_seconds_sum{platform="discord"} 0.03515625
connect4_request_duration_seconds_count{platform="discord"} 3
connect4_request_duration_seconds_bucket{platform="slack",le="0.001"} 0
connect4_request_duration_seconds_bucket{platform="slack",le="0.0025"} 0
connect4_request_duration_seconds_bucket{platform="slack",le="0.005"} 0
connect4_request_duration_seconds_bucket{platform="slack",le="0.01"} 0
connect4_request_duration_seconds_bucket{platform="slack",le="0.025"} 0
connect4_request_duration_seconds_bucket{platform="slack",le="0.05"} 0
connect4_request_duration_seconds_bucket{platform="slack",le="0.1"} 0
connect4_request_duration_seconds_bucket{platform="slack",le="0.25"} 0
connect4_request_duration_seconds_bucket{platform="slack",le="0.5"} 0
connect4_request_duration_seconds_bucket{platform="slack",le="1"} 0
connect4_request_duration_seconds_bucket{platform="slack",le="2"} 1
connect4_request_duration_seconds_bucket{platform="slack",le="3"} 1
connect4_request_duration_seconds_bucket{platform="slack",le="+Inf"} 1
connect4_request_duration_seconds_sum{platform="slack"} 2
connect4_request_duration_seconds_count{platform="slack"} 1
`
	if err := testutil.CollectAndCompare(m.latency, strings.NewReader(want)); err != nil {
		t.Error(err)
	}
}

// TestMetricsHandler scrapes GET /metrics and checks that every metric is
// exposed in the text format, the zero series included, and that the Go
// and process collectors are there.
func TestMetricsHandler(t *testing.T) {
	m := NewMetrics()
	m.BotHooks().Move("discord")
	m.BotHooks().GameFinished("discord", "draw")
	m.StoreError("load", errors.New("boom"))
	m.Observe("slack")("drop", "ok", time.Millisecond)
	srv := httptest.NewServer(m.Handler())
	defer srv.Close()

	resp, err := http.Get(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET /metrics: %s", resp.Status)
	}
	if ct := resp.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/plain") {
		t.Errorf("Content-Type = %q, want text/plain (the Prometheus text format)", ct)
	}
	for _, want := range []string{
		`connect4_moves_total{platform="discord"} 1`,
		`connect4_moves_total{platform="slack"} 0`,
		`connect4_games_started_total{ai="yes",platform="discord"} 0`,
		`connect4_store_errors_total{op="load"} 1`,
		`connect4_store_conflicts_total 0`,
		`connect4_store_retries_total 0`,
		`connect4_requests_total{kind="drop",outcome="ok",platform="slack"} 1`,
		`connect4_request_duration_seconds_count{platform="slack"} 1`,
		`connect4_request_duration_seconds_count{platform="discord"} 0`,
		"# TYPE connect4_games_finished_total counter",
		`connect4_games_finished_total{platform="discord",result="draw"} 1`,
		"go_goroutines ",
		"process_cpu_seconds_total ",
	} {
		if !strings.Contains(string(body), want) {
			t.Errorf("GET /metrics lacks %q", want)
		}
	}
}

// TestMetricsIndependent checks that two metrics share no state: there is
// no global registry.
func TestMetricsIndependent(t *testing.T) {
	a, b := NewMetrics(), NewMetrics()
	a.BotHooks().Move("discord")
	if got := testutil.ToFloat64(b.moves.WithLabelValues("discord")); got != 0 {
		t.Errorf("second metrics counted the first one's move: moves = %v, want 0", got)
	}
	if n, err := testutil.GatherAndCount(a.reg, "connect4_moves_total"); err != nil || n != 2 {
		t.Errorf("GatherAndCount(connect4_moves_total) = %d, %v; want 2 series (slack, discord)", n, err)
	}
}
