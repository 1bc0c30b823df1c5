package bot

import (
	"testing"
	"time"

	"github.com/connect4/connect4/bot/match"
	"github.com/connect4/connect4/sessions"
	"github.com/connect4/connect4/sessions/storetest"
)

func TestParseStarter(t *testing.T) {
	tests := []struct {
		in   string
		want Variant
		p    Problem
	}{
		{"<@UB> first me", Variant{First: StarterMe}, ProblemNone},
		{"<@UB> first them", Variant{First: StarterThem}, ProblemNone},
		{"<@UB> 9x7 first random first-to 3", Variant{Cols: 9, Rows: 7, First: StarterRandom, FirstTo: 3}, ProblemNone},
		{"<@UB> first to 3", Variant{FirstTo: 3}, ProblemNone}, // still first-to
		{"ai hard first them", Variant{First: StarterThem}, ProblemNone},
		{"<@UB> first", Variant{}, ProblemUsage},
		{"<@UB> first everyone", Variant{}, ProblemUsage},
	}
	for _, tt := range tests {
		r, err := ParseText(tt.in)
		if p := problemOf(err); p != tt.p {
			t.Errorf("ParseText(%q): problem %v (%v), want %v", tt.in, p, err, tt.p)
			continue
		}
		if tt.p == ProblemNone && r.Variant != tt.want {
			t.Errorf("ParseText(%q).Variant = %+v, want %+v", tt.in, r.Variant, tt.want)
		}
	}
}

func TestStarterRed(t *testing.T) {
	me, them := match.Player{ID: "UA"}, match.Player{ID: "UB"}
	tests := []struct {
		s    Starter
		coin int
		want string
	}{
		{StarterDefault, 1, "UA"},
		{StarterMe, 1, "UA"},
		{StarterThem, 0, "UB"},
		{StarterRandom, 0, "UA"},
		{StarterRandom, 1, "UB"},
	}
	for _, tt := range tests {
		if got := tt.s.red(me, them, func(int) int { return tt.coin }).ID; got != tt.want {
			t.Errorf("Starter(%d).red(coin %d) = %s, want %s", tt.s, tt.coin, got, tt.want)
		}
	}
}

// TestChooseWhoStarts plays each choice through to the first turn.
func TestChooseWhoStarts(t *testing.T) {
	tests := []struct {
		text    string
		wantRed string // "" for a refusal
		p       Problem
		words   string
	}{
		{"<@UB>", "UA", ProblemNone, "<@UA> is red and goes first"},
		{"<@UB> first me", "UA", ProblemNone, "<@UA> is red and goes first"},
		{"<@UB> first them", "UB", ProblemNone, "<@UB> is red and goes first"},
		{"<@UB> <@UC> first them", "", ProblemUsage, "A game of 3 or 4 can't choose who starts: the players move in the order named, you first."},
		// An open challenge: them is whoever accepts (the Discord option
		// and the typed words alike).
		{"open first them", "UB", ProblemNone, "<@UB> is red and goes first"},
		{"open first me", "UA", ProblemNone, "<@UA> is red and goes first"},
		{"open", "UA", ProblemNone, "<@UA> is red and goes first"},
	}
	for _, tt := range tests {
		clk := storetest.NewClock(time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC))
		h := newHarness(t, storetest.NewMemory(t, sessions.Options{Now: clk.Now}), clk, "")
		r := h.say("UA", tt.text)
		if tt.wantRed == "" {
			h.want(r, Ephemeral, tt.p, tt.words)
			continue
		}
		acc := h.click("UB", r, "Accept")
		h.want(acc, Update, ProblemNone, tt.words)
		if rec := h.record(acc); rec.RedID != tt.wantRed || rec.PlayerOf(rec.Game.Turn()).ID != tt.wantRed {
			t.Errorf("%q: red %s, to move %s; want %s", tt.text, rec.RedID, rec.PlayerOf(rec.Game.Turn()).ID, tt.wantRed)
		}
	}
	// Against the AI, first them: the AI is red and has moved already.
	clk := storetest.NewClock(time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC))
	h := newHarness(t, storetest.NewMemory(t, sessions.Options{Now: clk.Now}), clk, "")
	r := h.say("UA", "ai easy first them")
	h.want(r, Public, ProblemNone, "I'm red and I go first", "<@UBOT> dropped a disc")
	if rec := h.record(r); rec.RedID != "UBOT" || rec.Game.Moves() != 1 {
		t.Errorf("ai first them: red %s after %d moves, want UBOT after 1", rec.RedID, rec.Game.Moves())
	}
}

// TestAccepterFirst: in an open challenge, first them lets whoever
// accepts start, first random draws it, first me and the rule keep the
// challenger.
func TestAccepterFirst(t *testing.T) {
	tests := []struct {
		first Starter
		coin  int
		want  bool
	}{
		{StarterDefault, 1, false},
		{StarterMe, 1, false},
		{StarterThem, 0, true},
		{StarterRandom, 0, false},
		{StarterRandom, 1, true},
	}
	for _, tt := range tests {
		if got := accepterFirst(Variant{First: tt.first}, func(int) int { return tt.coin }); got != tt.want {
			t.Errorf("accepterFirst(first %d, coin %d) = %v, want %v", tt.first, tt.coin, got, tt.want)
		}
	}
}
