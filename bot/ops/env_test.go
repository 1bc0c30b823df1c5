package ops

import (
	"bytes"
	"errors"
	"strings"
	"testing"
	"time"
)

func TestEnv(t *testing.T) {
	vars := []Var{
		{"A_DUR", "10s", "a duration", 1},
		{"A_COUNT", "", "a count", 1},
		{"A_LIST", "", "a list", 2},
		{"A_BOOL", "false", "a switch", 2},
	}
	set := map[string]string{"A_DUR": "nope", "A_COUNT": " 7 ", "A_LIST": "a, ,b,", "A_BOOL": "maybe"}
	e := &Env{Getenv: func(k string) string { return set[k] }, Vars: vars, Uses: 1}
	if d := e.Duration("A_DUR", time.Second, time.Minute); d != 0 {
		t.Errorf("Duration of a bad value = %v", d)
	}
	if n := e.Count("A_COUNT", 1, 9); n != 7 {
		t.Errorf("Count = %d, want 7", n)
	}
	if l := e.List("A_LIST"); strings.Join(l, "|") != "a|b" {
		t.Errorf("List = %q", l)
	}
	e.Bool("A_BOOL") // read by subcommand 2 only: not reported for 1
	err := e.Err()
	var ve *VarError
	if !errors.As(err, &ve) || ve.Var != "A_DUR" || strings.Contains(err.Error(), "A_BOOL") {
		t.Errorf("Err() = %v, want only A_DUR's problem", err)
	}
	set = map[string]string{}
	e = &Env{Getenv: func(k string) string { return set[k] }, Vars: vars}
	if d := e.Duration("A_DUR", time.Second, time.Minute); d != 10*time.Second || e.Count("A_COUNT", 1, 9) != 0 || e.Bool("A_BOOL") || e.Err() != nil {
		t.Errorf("defaults: %v, %v", d, e.Err())
	}
	set["A_DUR"] = "2h"
	e.Duration("A_DUR", time.Second, time.Minute)
	if err := e.Err(); err == nil || !strings.Contains(err.Error(), "A_DUR: 2h0m0s out of range 1s..1m0s") {
		t.Errorf("out of range: %v", err)
	}
	var buf bytes.Buffer
	PrintVars(&buf, vars, 2)
	if got := buf.String(); !strings.Contains(got, "A_LIST") || !strings.Contains(got, "A_BOOL") || strings.Contains(got, "A_DUR") ||
		!strings.Contains(got, "-      a list") {
		t.Errorf("PrintVars:\n%s", got)
	}
}
