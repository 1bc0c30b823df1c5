package bot

import (
	"log/slog"
	"reflect"
	"strings"
	"testing"

	"github.com/connect4/connect4/bot/match"
	"github.com/connect4/connect4/engine/solver"
)

func slogTo(b *strings.Builder) *slog.Logger { return slog.New(slog.NewTextHandler(b, nil)) }

func TestParseText(t *testing.T) {
	bob := match.Player{ID: "U2"}
	tests := []struct {
		in   string
		want Request
		prob Problem
	}{
		{"", Request{Kind: KindHelp}, 0},
		{"<@U2>", Request{Kind: KindChallenge, Opponent: bob}, 0},
		{"<@U2|bob>", Request{Kind: KindChallenge, Opponent: match.Player{ID: "U2", Name: "bob"}}, 0},
		{"challenge <@U2>", Request{Kind: KindChallenge, Opponent: bob}, 0},
		{"<@U2> 8x9 connect 5 first-to 3", Request{Kind: KindChallenge, Opponent: bob, Variant: Variant{Rows: 9, Cols: 8, Connect: 5, FirstTo: 3}}, 0},
		{"<@U2> 7x6", Request{Kind: KindChallenge, Opponent: bob, Variant: Variant{Rows: 6, Cols: 7}}, 0},
		{"<@U2> 9×7", Request{Kind: KindChallenge, Opponent: bob, Variant: Variant{Rows: 7, Cols: 9}}, 0},
		{"<@U2> first to 2 10×10", Request{Kind: KindChallenge, Opponent: bob, Variant: Variant{Rows: 10, Cols: 10, FirstTo: 2}}, 0},
		{"<@U2> 0x7", Request{}, ProblemBadVariant},
		{"<@U2> connect 0", Request{}, ProblemBadVariant},
		{"<@U2> connect", Request{}, ProblemUsage},
		{"<@U2> connect five", Request{}, ProblemUsage},
		{"challenge", Request{}, ProblemUsage},
		{"challenge bob", Request{}, ProblemUsage},
		{"ai", Request{Kind: KindAI}, 0},
		{"AI Hard", Request{Kind: KindAI, Level: solver.Hard}, 0},
		{"resign", Request{Kind: KindResign}, 0},
		{"resign now", Request{}, ProblemUsage},
		{"board", Request{Kind: KindBoard}, 0},
		{"leaderboard", Request{Kind: KindLeaderboard}, 0},
		{"stats", Request{Kind: KindStats}, 0},
		{"stats <@U2>", Request{Kind: KindStats, Target: bob}, 0},
		{"stats bob", Request{}, ProblemUsage},
		{"help", Request{Kind: KindHelp}, 0},
		{"claim", Request{Kind: KindClaim}, 0},
		{"<@>", Request{}, ProblemUsage},
		{"<@U2|bob", Request{}, ProblemUsage},
	}
	for _, tt := range tests {
		got, err := ParseText(tt.in)
		if p := problemOf(err); p != tt.prob || (err == nil && !reflect.DeepEqual(got, tt.want)) {
			t.Errorf("ParseText(%q) = %+v, %v; want %+v, problem %v", tt.in, got, err, tt.want, tt.prob)
		}
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{"<@U2> 8x9 connect 5 first-to 3", "c4:drop:abc:3:4", "stats <@U1|x>", "first to"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if r, err := ParseText(s); err == nil && r.Kind == KindNone {
			t.Errorf("ParseText(%q) accepted with no kind", s)
		}
		if r, err := ParseAction(s); err == nil {
			if _, ok := buttonKinds[r.Kind.String()]; !ok || r.Column < 0 || r.Column >= 10 {
				t.Errorf("ParseAction(%q) = %+v", s, r)
			}
		}
	})
}
