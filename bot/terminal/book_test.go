package terminal

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/connect4/connect4/engine/solver"
)

// TestBookModes checks that `connect4 book` builds the opening book
// without -outcomes and the outcome table with it, and refuses bad flags.
func TestBookModes(t *testing.T) {
	var out, errOut bytes.Buffer
	if err := Book(t.Context(), []string{"-h"}, &out, &errOut); err != nil || !strings.Contains(out.String(), "opening book") {
		t.Errorf("book -h = %v, printed %q; want the book's usage", err, out.String())
	}
	out.Reset()
	if err := Book(t.Context(), []string{"-outcomes", "-h"}, &out, &errOut); err != nil || !strings.Contains(out.String(), "outcome table") {
		t.Errorf("book -outcomes -h = %v, printed %q; want the table's usage", err, out.String())
	}
	for _, args := range [][]string{{"-outcomes", "-full", "9"}, {"-outcomes", "extra"}, {"-outcomes", "-nope"}, {"-outcomes", "-part", "3/2"}, {"-outcomes", "-part", "0/2"}, {"-outcomes", "-part", "1/2x"}, {"-outcomes", "-part", "2"}} {
		if err := Book(t.Context(), args, &out, &errOut); err == nil {
			t.Errorf("book %q = nil error, want one", args)
		}
	}

	// Levels 0 and 1 come from the opening book: nothing to solve.
	dir := t.TempDir()
	bin := filepath.Join(dir, "outcomes.bin")
	out.Reset()
	args := []string{"-outcomes", "-full", "1", "-games", "0", "-part", "2/2", "-progress", filepath.Join(dir, "p"), "-out", bin}
	if err := Book(t.Context(), args, &out, &errOut); err != nil {
		t.Fatalf("book %q: %v (%s)", args, err, errOut.String())
	}
	data, err := os.ReadFile(bin)
	if err != nil {
		t.Fatal(err)
	}
	o, err := solver.LoadOutcomes(data)
	if err != nil || o.Full() != 1 || o.Len() != 5 {
		t.Errorf("the table written: %v, %v; want 1 full level of 5 positions", o, err)
	}
	if !strings.Contains(out.String(), "wrote "+bin+": full to 1 discs, 5 positions") {
		t.Errorf("book printed %q, want the table written", out.String())
	}
}
