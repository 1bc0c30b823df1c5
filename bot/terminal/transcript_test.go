package terminal

import (
	"bytes"
	"flag"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/connect4/connect4/bot"
	"github.com/connect4/connect4/sessions"
)

var update = flag.Bool("update", false, "rewrite the golden transcripts under testdata")

// TestAfternoonTranscript runs testdata/afternoon.script at the terminal
// and compares what it shows with testdata/afternoon.golden, word for
// word: every reply of a whole afternoon, so that a changed message shows
// up in review. `go test ./bot/terminal -run Afternoon -update` rewrites
// it after a deliberate change.
func TestAfternoonTranscript(t *testing.T) {
	script, err := os.ReadFile(filepath.Join("testdata", "afternoon.script"))
	if err != nil {
		t.Fatal(err)
	}
	now := time.Date(2026, 12, 1, 14, 0, 0, 0, time.UTC)
	clock := func() time.Time { return now }
	st, err := sessions.NewMemory(sessions.Options{Now: clock})
	if err != nil {
		t.Fatal(err)
	}
	log := slog.New(slog.DiscardHandler)
	svc := bot.New(st, bot.Options{AI: leftmost, Now: clock, Logger: log, PickPuzzle: func(int) int { return 0 }})
	var out bytes.Buffer
	a, err := New(svc, Config{In: bytes.NewReader(script), Out: &out}, log)
	if err != nil {
		t.Fatal(err)
	}
	if err := a.Run(t.Context()); err != nil {
		t.Fatal(err)
	}
	golden := filepath.Join("testdata", "afternoon.golden")
	if *update {
		if err := os.WriteFile(golden, out.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run with -update to write it)", err)
	}
	if !bytes.Equal(out.Bytes(), want) {
		t.Errorf("the afternoon's transcript differs from %s (run with -update after a deliberate change):\n%s", golden, firstDiff(string(want), out.String()))
	}
}

// firstDiff shows the first line where got differs from want.
func firstDiff(want, got string) string {
	w, g := bytes.Split([]byte(want), []byte("\n")), bytes.Split([]byte(got), []byte("\n"))
	for i := 0; i < len(w) || i < len(g); i++ {
		var wl, gl []byte
		if i < len(w) {
			wl = w[i]
		}
		if i < len(g) {
			gl = g[i]
		}
		if !bytes.Equal(wl, gl) {
			return "line " + itoa(i+1) + ":\n  want " + string(wl) + "\n  got  " + string(gl)
		}
	}
	return "(same lines)"
}

func itoa(n int) string { return strconv.Itoa(n) }
