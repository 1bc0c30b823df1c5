package ops

import (
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"
)

// Var documents one environment variable: for the configuration table in
// deploy/README.md, `connect4 help` and each subcommand's --help. Uses is the set
// of subcommands that read it, as bits of the caller's choosing.
type Var struct {
	Name, Default, Doc string
	Uses               uint
}

// PrintVars lists the variables read by any of the subcommands in uses,
// with their defaults ("-" for none), one per line.
func PrintVars(w io.Writer, vars []Var, uses uint) {
	for _, v := range vars {
		if v.Uses&uses == 0 {
			continue
		}
		def := v.Default
		if def == "" {
			def = "-"
		}
		fmt.Fprintf(w, "  %-26s %-6s %s\n", v.Name, def, v.Doc)
	}
}

// VarError is one problem with the environment: the variable and what is
// wrong with it, with what a valid value looks like.
type VarError struct{ Var, Msg string }

// Error returns "VAR: message".
func (e *VarError) Error() string { return e.Var + ": " + e.Msg }

// Env reads documented variables and collects every problem, so that an
// operator sees them all at once. Only the problems of the variables the
// subcommands in Uses read are kept (all when Uses is 0).
type Env struct {
	Getenv func(string) string
	Vars   []Var
	Uses   uint

	errs []error
}

// Bad records a problem with the variable name.
func (e *Env) Bad(name, format string, args ...any) {
	if e.Uses == 0 || e.uses(name)&e.Uses != 0 {
		e.errs = append(e.errs, &VarError{Var: name, Msg: fmt.Sprintf(format, args...)})
	}
}

// Err returns every problem recorded, each a *VarError, or nil.
func (e *Env) Err() error { return errors.Join(e.errs...) }

func (e *Env) uses(name string) uint {
	for _, v := range e.Vars {
		if v.Name == name {
			return v.Uses
		}
	}
	return 0
}

// Raw returns the value of name as set, untrimmed: for secrets, whose
// spaces may matter.
func (e *Env) Raw(name string) string { return e.Getenv(name) }

// String returns the value of name without surrounding space, or its
// documented default when unset or blank.
func (e *Env) String(name string) string {
	s := strings.TrimSpace(e.Getenv(name))
	if s == "" {
		for _, v := range e.Vars {
			if v.Name == name {
				return v.Default
			}
		}
	}
	return s
}

// Duration returns name as a duration within lo..hi.
func (e *Env) Duration(name string, lo, hi time.Duration) time.Duration {
	s := e.String(name)
	d, err := time.ParseDuration(s)
	switch {
	case err != nil:
		e.Bad(name, "%q is not a duration (like 90s, 10m, 24h)", s)
	case d < lo || d > hi:
		e.Bad(name, "%v out of range %v..%v", d, lo, hi)
	}
	return d
}

// Count returns name as a whole number within lo..hi, or 0 when unset.
func (e *Env) Count(name string, lo, hi int) int {
	s := e.String(name)
	if s == "" {
		return 0
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < lo || n > hi {
		e.Bad(name, "%q is not a whole number from %d to %d", s, lo, hi)
		return 0
	}
	return n
}

// List returns name's comma-separated items, without blanks.
func (e *Env) List(name string) []string {
	var out []string
	for _, a := range strings.Split(e.String(name), ",") {
		if a = strings.TrimSpace(a); a != "" {
			out = append(out, a)
		}
	}
	return out
}

// Bool returns name as true (true, 1, yes) or false (false, 0, no).
func (e *Env) Bool(name string) bool {
	switch s := strings.ToLower(e.String(name)); s {
	case "true", "1", "yes":
		return true
	case "false", "0", "no", "":
		return false
	default:
		e.Bad(name, "%q is not true or false", s)
	}
	return false
}
