package bot

import (
	"bytes"
	"errors"
	"log/slog"
	"strings"
	"testing"
	"time"
)

func TestOutageLogsStartAndEnd(t *testing.T) {
	tests := []struct {
		attempts string   // f: a failure, o: a success
		want     []string // the log lines' messages and counts, in order
	}{
		{"ooo", nil},
		{"ffffffffff", []string{"WARN schedule claim failing"}},
		{"fffffo", []string{"WARN schedule claim failing", "INFO schedule claim works again failures=5"}},
		{"offoffffo", []string{"WARN schedule claim failing", "INFO schedule claim works again failures=2",
			"WARN schedule claim failing", "INFO schedule claim works again failures=4"}},
	}
	for _, tt := range tests {
		var buf bytes.Buffer
		log := slog.New(slog.NewTextHandler(&buf, &slog.HandlerOptions{
			ReplaceAttr: func(_ []string, a slog.Attr) slog.Attr {
				if a.Key == slog.TimeKey || a.Key == "outage" || a.Key == "err" {
					return slog.Attr{}
				}
				return a
			}}))
		now := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
		o := outage{log: log, what: "schedule claim", now: func() time.Time { now = now.Add(500 * time.Millisecond); return now }}
		for _, a := range tt.attempts {
			if a == 'f' {
				o.fail(errors.New("sessions: claim: store unavailable"))
			} else {
				o.ok()
			}
		}
		var got []string
		for line := range strings.Lines(buf.String()) {
			line = strings.TrimSpace(line)
			line = strings.NewReplacer("level=", "", "msg=", "", `"`, "").Replace(line)
			line = strings.Replace(line, "; retrying quietly until it works again", "", 1)
			got = append(got, line)
		}
		if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
			t.Errorf("attempts %s: log\n%s\nwant\n%s", tt.attempts, strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
		}
	}
}
