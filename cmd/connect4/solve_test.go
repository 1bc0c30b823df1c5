package main

import (
	"bytes"
	"strings"
	"testing"
)

func TestRunSolveFlags(t *testing.T) {
	for _, args := range [][]string{{"-nope"}, {"-level", "expert"}, {"extra"}} {
		var out, errOut bytes.Buffer
		if err := runSolve(t.Context(), args, strings.NewReader("4\n"), &out, &errOut); err == nil {
			t.Errorf("runSolve(%q) = nil error, want one", args)
		}
	}
	var out, errOut bytes.Buffer
	if err := runSolve(t.Context(), []string{"-h"}, strings.NewReader(""), &out, &errOut); err != errHelp || !strings.Contains(out.String(), "cleared transposition table") {
		t.Errorf("runSolve -h = %v, usage %q", err, out.String())
	}
}
