package clock

import (
	"errors"
	"testing"
	"time"
)

func TestParseLive(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want Control
		err  Reason
	}{
		{"3+2", Control{Kind: Live, Base: 3 * time.Minute, Increment: 2 * time.Second}, ReasonNone},
		{"0+5", Control{Kind: Live, Increment: 5 * time.Second}, ReasonNone},
		{"10+0", Control{Kind: Live, Base: 10 * time.Minute}, ReasonNone},
		{"180+60", Control{Kind: Live, Base: 180 * time.Minute, Increment: time.Minute}, ReasonNone},
		{"0+0", Control{}, ReasonZero},
		{"00+00", Control{}, ReasonZero},
		{"181+0", Control{}, ReasonMinutes},
		{"99999999999999999999+1", Control{}, ReasonMinutes},
		{"5+61", Control{}, ReasonSeconds},
		{"3", Control{}, ReasonSyntax},
		{"3+", Control{}, ReasonSyntax},
		{"+2", Control{}, ReasonSyntax},
		{"3+2+1", Control{}, ReasonSyntax},
		{"-3+2", Control{}, ReasonSyntax},
		{"3 + 2", Control{}, ReasonSyntax},
		{"３+2", Control{}, ReasonSyntax},
		{"", Control{}, ReasonSyntax},
	} {
		got, err := ParseLive(tc.in)
		var e *Error
		switch {
		case tc.err == ReasonNone && (err != nil || got != tc.want):
			t.Errorf("ParseLive(%q) = %+v, %v, want %+v", tc.in, got, err, tc.want)
		case tc.err != ReasonNone && (!errors.As(err, &e) || e.Reason != tc.err || got != Control{}):
			t.Errorf("ParseLive(%q) = %+v, %v, want reason %v", tc.in, got, err, tc.err)
		}
	}
}

func TestParseDays(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want time.Duration
		err  Reason
	}{
		{"1", 24 * time.Hour, ReasonNone},
		{"14", 14 * 24 * time.Hour, ReasonNone},
		{"02", 48 * time.Hour, ReasonNone},
		{"0", 0, ReasonDays},
		{"15", 0, ReasonDays},
		{"99", 0, ReasonDays},
		{"123456789012", 0, ReasonDays},
		{"2d", 0, ReasonSyntax},
		{"-1", 0, ReasonSyntax},
		{"", 0, ReasonSyntax},
	} {
		got, err := ParseDays(tc.in)
		var e *Error
		switch {
		case tc.err == ReasonNone && (err != nil || got != Control{Kind: Correspondence, PerMove: tc.want}):
			t.Errorf("ParseDays(%q) = %+v, %v, want %v per move", tc.in, got, err, tc.want)
		case tc.err != ReasonNone && (!errors.As(err, &e) || e.Reason != tc.err):
			t.Errorf("ParseDays(%q) = %+v, %v, want reason %v", tc.in, got, err, tc.err)
		}
	}
	_, err := ParseDays("99")
	if want := `clock: days out of range in "99": want 1 to 14`; err == nil || err.Error() != want {
		t.Errorf("ParseDays(99) = %v, want %s", err, want)
	}
}

func TestValidateString(t *testing.T) {
	for _, tc := range []struct {
		c    Control
		str  string
		want Reason
	}{
		{Control{}, "", ReasonNone},
		{Control{Kind: Live, Base: 3 * time.Minute, Increment: 2 * time.Second}, "3+2", ReasonNone},
		{Control{Kind: Correspondence, PerMove: 48 * time.Hour}, "2d", ReasonNone},
		{Control{Kind: Live}, "0+0", ReasonZero},
		{Control{Kind: Live, Base: 90 * time.Second}, "1+0", ReasonSyntax},
		{Control{Kind: Live, Base: time.Minute, PerMove: time.Hour}, "1+0", ReasonSyntax},
		{Control{Kind: Correspondence, PerMove: 15 * 24 * time.Hour}, "15d", ReasonDays},
		{Control{Kind: Correspondence, PerMove: 36 * time.Hour}, "1d", ReasonSyntax},
		{Control{Kind: None, Base: time.Minute}, "", ReasonKind},
		{Control{Kind: Kind(7)}, "kind(7)", ReasonKind},
	} {
		err := tc.c.Validate()
		var e *Error
		if tc.want == ReasonNone && err != nil || tc.want != ReasonNone && (!errors.As(err, &e) || e.Reason != tc.want) {
			t.Errorf("%+v.Validate() = %v, want %v", tc.c, err, tc.want)
		}
		if got := tc.c.String(); got != tc.str {
			t.Errorf("%+v.String() = %q, want %q", tc.c, got, tc.str)
		}
	}
}

// FuzzParse checks that the parsers never panic, refuse only with an
// *Error, and that what they accept is valid and reads back the same.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"3+2", "0+0", "181+0", "14", "99", "", "+", "1+1+1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, parse := range []func(string) (Control, error){ParseLive, ParseDays} {
			c, err := parse(s)
			var e *Error
			if err != nil {
				if !errors.As(err, &e) || len(e.Input) > 40 {
					t.Fatalf("parse(%q) = %v, want an *Error with a short input", s, err)
				}
				continue
			}
			if err := c.Validate(); err != nil {
				t.Fatalf("parse(%q) = %+v, which is invalid: %v", s, c, err)
			}
			again, err := ParseLive(c.String())
			if c.Kind == Correspondence {
				again, err = ParseDays(c.String()[:len(c.String())-1])
			}
			if err != nil || again != c {
				t.Fatalf("parse(%q) = %+v; its String %q reads back as %+v, %v", s, c, c.String(), again, err)
			}
		}
	})
}
