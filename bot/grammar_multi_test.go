package bot

import (
	"testing"

	"github.com/connect4/connect4/bot/match"
)

func TestParseTextMulti(t *testing.T) {
	b, c, d := match.Player{ID: "U2"}, match.Player{ID: "U3", Name: "cat"}, match.Player{ID: "U4"}
	with := func(kind Kind, opp match.Player, v Variant, others ...match.Player) Request {
		r := Request{Kind: kind, Opponent: opp, Variant: v}
		copy(r.Others[:], others)
		return r
	}
	tests := []struct {
		in   string
		want Request
		prob Problem
	}{
		{"<@U2> <@U3|cat>", with(KindChallenge, b, Variant{}, c), 0},
		{"challenge <@U2> <@U3|cat> <@U4> 9x7 connect 4", with(KindChallenge, b, Variant{Rows: 7, Cols: 9, Connect: 4}, c, d), 0},
		{"<@U2> <@U3|cat> <@U4> <@U5>", Request{}, ProblemTooManyPlayers},
		{"<@U2> 9x7 <@U3>", Request{}, ProblemUsage}, // the players come first
		{"ai <@U2>", with(KindAI, match.Player{}, Variant{}, b), 0},
		{"ai <@U2> <@U3|cat> hard", with(KindAI, match.Player{}, Variant{}, b, c), 0},
	}
	for _, tt := range tests {
		got, err := ParseText(tt.in)
		if p := problemOf(err); p != tt.prob || (err == nil && got != tt.want) {
			t.Errorf("ParseText(%q) = %+v, %v; want %+v, problem %v", tt.in, got, err, tt.want, tt.prob)
		}
	}
}

func TestVariantForMorePlayers(t *testing.T) {
	for _, tc := range []struct {
		v    Variant
		prob Problem
	}{
		{Variant{Players: 3}, ProblemNone},
		{Variant{Players: 4, Rows: 4, Cols: 7, Connect: 4}, ProblemNone},          // 28 cells ≥ 4×6
		{Variant{Players: 4, Rows: 4, Cols: 7, Connect: 6}, ProblemBoardTooSmall}, // 28 < 4×8
		{Variant{Players: 3, Rows: 10, Cols: 6}, ProblemBoardTooSmall},
		{Variant{Players: 3, FirstTo: 2}, ProblemMultiMatch},
		{Variant{Players: 2, Rows: 4, Cols: 4}, ProblemNone},
	} {
		err := tc.v.withDefaults().validate()
		if p := problemOf(err); p != tc.prob {
			t.Errorf("%+v: validate = %v, want problem %v", tc.v, err, tc.prob)
		}
	}
}
