package bot

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/connect4/connect4/bot/lang"
	"github.com/connect4/connect4/bot/match"
	"github.com/connect4/connect4/sessions"
	"github.com/connect4/connect4/sessions/storetest"
)

// TestRefusalsOneLine checks what a typed command not understood gets: the
// command probably meant in one line, a reason in one line, or, when the
// words say nothing, the help.
func TestRefusalsOneLine(t *testing.T) {
	clk := storetest.NewClock(time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC))
	h := newHarness(t, storetest.NewMemory(t, sessions.Options{Now: clk.Now}), clk, "")
	tests := []struct {
		text     string
		want     []string // fragments of the reply
		wantHelp bool     // the whole help follows
	}{
		{"challenge bob", []string{"“challenge bob”", "*/connect4 @bob*"}, false},
		{"<@UB> 7 by 6", []string{"*/connect4 <@UB> 7x6*"}, false},
		{"resing", []string{"*/connect4 resign*"}, false},
		{"<@UB> sideways", []string{`"sideways"`, "Try `/connect4 help`"}, false},
		{"<@UB> connect", []string{"connect needs a number"}, false},
		{"resign now", []string{"“resign now”", "*/connect4 resign*"}, false},
		{"accept <@UB>", []string{"*/connect4 accept*"}, false},
		{"stats me", []string{"*/connect4 stats*"}, false},
		{"dance", []string{"(dance)"}, true},
		{"seven by six", []string{"(seven by six)"}, true},
	}
	for _, tt := range tests {
		r := h.say("UA", tt.text)
		if r.Problem != ProblemUsage || r.Visibility != Ephemeral {
			t.Errorf("%q: reply %v/%v, want Ephemeral/ProblemUsage", tt.text, r.Visibility, r.Problem)
		}
		for _, f := range tt.want {
			if !strings.Contains(r.Text, f) {
				t.Errorf("%q: reply %q does not contain %q", tt.text, r.Text, f)
			}
		}
		help := strings.Contains(r.Text, lang.English.Say("help.intro", nil))
		if help != tt.wantHelp {
			t.Errorf("%q: help shown = %v, want %v (reply %q)", tt.text, help, tt.wantHelp, r.Text)
		}
		if !tt.wantHelp && strings.Count(r.Text, "\n") > 0 {
			t.Errorf("%q: reply %q is more than one line", tt.text, r.Text)
		}
	}
}

// TestRefusalsPlatformSyntax checks that a refusal naming a command names
// it as the player's platform reads it.
func TestRefusalsPlatformSyntax(t *testing.T) {
	tests := []struct {
		platform, want, notWant string
	}{
		{"slack", "`/connect4 challenge %s`", "opponent:"},
		{"terminal", "`/connect4 challenge %s`", "opponent:"},
		{"discord", "`/connect4 challenge opponent:%s`", "{{"},
	}
	for _, tt := range tests {
		clk := storetest.NewClock(time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC))
		h := newHarness(t, storetest.NewMemory(t, sessions.Options{Now: clk.Now}), clk, "")
		key := match.Key{Platform: tt.platform, Workspace: "T1", Channel: "C1"}
		// The person in the example is the language's word for anyone.
		for _, l := range []struct{ locale, someone string }{{"en", "@someone"}, {"de", "@jemand"}, {"ja", "@だれか"}} {
			want := fmt.Sprintf(tt.want, l.someone)
			r := h.svc.Handle(t.Context(), Command{Key: key, User: player("UA"), Locale: l.locale, Request: Request{Kind: KindBoard}})
			if r.Problem != ProblemNoGame || !strings.Contains(r.Text, want) || strings.Contains(r.Text, tt.notWant) {
				t.Errorf("%s, %s: board with no game = %v %q, want ProblemNoGame naming %s", tt.platform, l.locale, r.Problem, r.Text, want)
			}
		}
		// The empty leaderboard and a reset that cleared the game name it
		// too: `/connect4 @someone` is no command on Discord.
		if got, want := leaderboardText(lang.English, tt.platform, nil, nil), fmt.Sprintf(tt.want, "@someone"); !strings.Contains(got, want) {
			t.Errorf("%s: empty leaderboard = %q, want it to name %s", tt.platform, got, want)
		}
		if got, want := repairText(lang.English, tt.platform, player("UA"), match.Repair{Record: match.RecordCleared}), fmt.Sprintf(tt.want, "@someone"); !strings.Contains(got, want) {
			t.Errorf("%s: reset = %q, want it to name %s", tt.platform, got, want)
		}
		// The settings name their options as the platform reads them.
		wantBoard := map[string]string{"slack": "`/connect4 settings board image|emoji`", "terminal": "`/connect4 settings board image|emoji`",
			"discord": "`/connect4 settings board:image|emoji`"}[tt.platform]
		if r := h.svc.Handle(t.Context(), Command{Key: key, User: player("UA"), Request: Request{Kind: KindSettings}}); !strings.Contains(r.Text, wantBoard) {
			t.Errorf("%s: settings = %q, want it to name %s", tt.platform, r.Text, wantBoard)
		}
		got := seasonsText(lang.English, tt.platform, nil)
		wantSeason := map[string]string{"slack": "`/connect4 season new`", "terminal": "`/connect4 season new`", "discord": "`/connect4 new_season`"}[tt.platform]
		if !strings.Contains(got, wantSeason) {
			t.Errorf("%s: seasons with none = %q, want it to name %s", tt.platform, got, wantSeason)
		}
	}
}

// TestAnswerRefusalsNameWhatHappened: a typed accept or cancel with
// nothing to answer says which, and a click on a challenge that was
// cancelled or declined says so (the issue: "A typed cancel leaves the
// challenge's buttons live; clicking Accept then says the board has moved
// on").
func TestAnswerRefusalsNameWhatHappened(t *testing.T) {
	tests := []struct {
		name   string
		typed  []string // said first, each "user text" (none: the channel is empty)
		by     string   // who answers
		answer string   // typed, or a label clicked on the challenge
		click  bool
		p      Problem
		want   string
	}{
		{"typed cancel, no challenge", nil, "UA", "cancel", false, ProblemNoChallenge,
			"You have no challenge waiting in this channel, so there's nothing to cancel."},
		{"typed accept, no challenge", nil, "UB", "accept", false, ProblemNoChallenge,
			"There's no challenge for you to answer in this channel."},
		{"Accept after a typed cancel", []string{"UA <@UB>", "UA cancel"}, "UB", "Accept", true, ProblemStale,
			"That challenge was cancelled, so the button did nothing. Start a new one with `/connect4 challenge @someone`."},
		{"Accept after a typed decline", []string{"UA <@UB>", "UB decline"}, "UB", "Accept", true, ProblemStale,
			"That challenge was declined, so the button did nothing."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			clk := storetest.NewClock(time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC))
			h := newHarness(t, storetest.NewMemory(t, sessions.Options{Now: clk.Now}), clk, "")
			var challenge Reply
			for i, step := range tt.typed {
				user, text, _ := strings.Cut(step, " ")
				if r := h.say(user, text); i == 0 {
					challenge = r
				}
			}
			var r Reply
			if tt.click {
				r = h.click(tt.by, challenge, tt.answer)
			} else {
				r = h.say(tt.by, tt.answer)
			}
			if r.Problem != tt.p || r.Visibility != Ephemeral || !strings.Contains(r.Text, tt.want) {
				t.Errorf("%s: %v %v %q, want Ephemeral %v %q", tt.answer, r.Visibility, r.Problem, r.Text, tt.p, tt.want)
			}
		})
	}
}

// TestMoveBeforeTheGameStarts: a move on a challenge still waiting names
// who has to accept, and never an empty mention ("<@> still has to
// accept" for an open challenge).
func TestMoveBeforeTheGameStarts(t *testing.T) {
	tests := []struct {
		name     string
		opponent string // "" for an open challenge
		mover    string
		want     string
	}{
		{"challenger", "UB", "UA", "The game hasn't started: <@UB> still has to accept the challenge."},
		{"challenged", "UB", "UB", "The game hasn't started: you haven't answered the challenge yet (click Accept or Decline)."},
		{"open", "", "UA", "The game hasn't started: nobody has accepted your open challenge yet (`/connect4 cancel` withdraws it)."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := &match.Record{Status: match.StatusPending, Challenger: player("UA"), Opponent: match.Player{ID: tt.opponent}}
			var s Service
			_, err := s.playable(r, Command{User: player(tt.mover), Request: Request{Kind: KindDrop}})
			var ue *UserError
			if !errors.As(err, &ue) || ue.Problem != ProblemNotStarted || ue.In(lang.English) != tt.want {
				t.Errorf("%s moves on a challenge to %q: %v, want %v %q", tt.mover, tt.opponent, err, ProblemNotStarted, tt.want)
			}
		})
	}
}

// TestTypedColumn: a column typed as a command says how moves are made,
// in one line, instead of "I didn't understand that (4)" and the help.
func TestTypedColumn(t *testing.T) {
	for _, text := range []string{"4", "1", "10"} {
		clk := storetest.NewClock(time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC))
		h := newHarness(t, storetest.NewMemory(t, sessions.Options{Now: clk.Now}), clk, "")
		r := h.say("UA", text)
		want := "To drop a disc in column " + text + ", click " + text + " under the board: moves are buttons, not commands. `/connect4 board` shows your game again."
		if r.Problem != ProblemUsage || r.Text != want {
			t.Errorf("/connect4 %s: %v %q, want %v %q", text, r.Problem, r.Text, ProblemUsage, want)
		}
	}
	// Not a column: the usual refusal.
	if _, err := ParseText("11"); problemOf(err) != ProblemUsage {
		t.Errorf("ParseText(%q) = %v, want ProblemUsage", "11", err)
	}
}

// TestTypedWithNoGameOfYours: a typed command about "your game" from
// someone with none, while others play, says so and what to do, instead
// of "You're not playing in this game" (no game was named).
func TestTypedWithNoGameOfYours(t *testing.T) {
	const want = "You have no game in this channel. Start one with `/connect4 challenge @someone`; `/connect4 board` shows the games here."
	for _, text := range []string{"resign", "takeback", "claim", "draw"} {
		clk := storetest.NewClock(time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC))
		h := newHarness(t, storetest.NewMemory(t, sessions.Options{Now: clk.Now}), clk, "")
		h.start("UA", "UC")
		r := h.say("UB", text)
		if r.Problem != ProblemNotInGame || r.Text != want {
			t.Errorf("%q by someone with no game: %v %q, want %v %q", text, r.Problem, r.Text, ProblemNotInGame, want)
		}
	}
}

// TestBusyNamesTheWayOut: a player busy in this channel is told the step
// that frees them, not only "it has to finish first".
func TestBusyNamesTheWayOut(t *testing.T) {
	tests := []struct {
		name   string
		before []string // "user text", said first
		user   string
		want   string
	}{
		{"challenged already", []string{"UA <@UB>"}, "UA",
			"You've challenged <@UB> in this channel already: wait for the answer, or withdraw the challenge with `/connect4 cancel`."},
		{"a challenge to answer", []string{"UA <@UB>"}, "UB",
			"You've a challenge from <@UA> to answer in this channel already: accept or decline it first."},
		{"playing", []string{"UA <@UB>", "UB accept"}, "UA",
			"You're playing <@UB> in this channel already: finish that game first, or resign it with `/connect4 resign`."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			clk := storetest.NewClock(time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC))
			h := newHarness(t, storetest.NewMemory(t, sessions.Options{Now: clk.Now}), clk, "")
			for _, step := range tt.before {
				user, text, _ := strings.Cut(step, " ")
				h.say(user, text)
			}
			if r := h.say(tt.user, "<@UC>"); r.Problem != ProblemBusy || r.Text != tt.want {
				t.Errorf("%s challenges <@UC>: %v %q, want %v %q", tt.user, r.Problem, r.Text, ProblemBusy, tt.want)
			}
		})
	}
}
