package terminal

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"testing"
)

func TestQuietCancel(t *testing.T) {
	var buf bytes.Buffer
	log := slog.New(QuietCancel(slog.NewTextHandler(&buf, nil))).With("platform", "terminal")
	log.Error("AI move failed", "err", fmt.Errorf("choose move: %w", context.Canceled))
	log.Error("AI move failed", "err", context.Canceled)
	if buf.Len() != 0 {
		t.Errorf("cancelled errors logged: %q", buf.String())
	}
	log.Error("AI move failed", "err", context.DeadlineExceeded)
	log.Warn("store unavailable", "err", errors.New("dial tcp: refused"))
	log.Info("something", "note", context.Canceled) // not the err attribute
	if n := strings.Count(buf.String(), "\n"); n != 3 {
		t.Errorf("logged %d lines, want 3:\n%s", n, buf.String())
	}
	if IsTerminal(strings.NewReader("")) {
		t.Errorf("IsTerminal(a strings.Reader) = true")
	}
}
