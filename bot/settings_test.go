package bot

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/connect4/connect4/bot/match"
	"github.com/connect4/connect4/render"
	"github.com/connect4/connect4/sessions"
	"github.com/connect4/connect4/sessions/storetest"
)

func TestParseSettings(t *testing.T) {
	tests := []struct {
		in   string
		want match.Settings
		bad  bool
	}{
		{"settings", match.Settings{}, false},
		{"settings board image", match.Settings{Board: match.BoardImage}, false},
		{"settings board EMOJI", match.Settings{Board: match.BoardEmoji}, false},
		{"settings palette colourblind", match.Settings{Palette: match.PaletteColourBlind}, false},
		{"settings palette colorblind board emoji", match.Settings{Board: match.BoardEmoji, Palette: match.PaletteColourBlind}, false},
		{"settings palette standard", match.Settings{Palette: match.PaletteStandard}, false},
		{"settings board", match.Settings{}, true},
		{"settings board hologram", match.Settings{}, true},
		{"settings palette rainbow", match.Settings{}, true},
		{"settings font comic", match.Settings{}, true},
	}
	for _, tc := range tests {
		req, err := ParseText(tc.in)
		var ue *UserError
		switch {
		case tc.bad:
			if !errors.As(err, &ue) || ue.Problem != ProblemUsage {
				t.Errorf("ParseText(%q) error = %v, want ProblemUsage", tc.in, err)
			}
		case err != nil || req.Kind != KindSettings || req.Settings != tc.want:
			t.Errorf("ParseText(%q) = %+v, %v; want settings %+v", tc.in, req, err, tc.want)
		}
	}
}

// TestSettings checks who may change what, that the change is announced
// and kept per channel, and that boards shown afterwards carry the
// channel's look, with Finished on the reply that ends the game only.
func TestSettings(t *testing.T) {
	forEachStore(t, func(t *testing.T, h *harness) {
		r := h.start("UA", "UB")
		if r.Look != (match.Settings{}) || !r.Picture() || r.ImagePalette() != render.ImageStandard {
			t.Fatalf("a new channel's board: look %+v, picture %v, palette %v; want defaults (a picture, standard)", r.Look, r.Picture(), r.ImagePalette())
		}

		// Anyone may change the palette; only managers the board style.
		h.want(h.say("UC", "settings palette colourblind"), Public, ProblemNone, "<@UC> changed this channel's boards", "colour-blind")
		h.want(h.say("UC", "settings board emoji"), Ephemeral, ProblemBoardManager)
		manager := Command{Key: h.key, User: player("UM"), CanManage: true}
		h.want(h.svc.HandleText(t.Context(), manager, "settings board emoji"), Public, ProblemNone, "emoji", "colour-blind")
		h.want(h.say("UC", "settings"), Ephemeral, ProblemNone, "emoji, in the colour-blind")

		r = h.drops(r, 1)
		if want := (match.Settings{Board: match.BoardEmoji, Palette: match.PaletteColourBlind}); r.Look != want || r.Picture() || r.Finished {
			t.Fatalf("after the change a move shows look %+v, picture %v, finished %v; want %+v, no picture, not finished", r.Look, r.Picture(), r.Finished, want)
		}
		if r.ImagePalette() != render.ImageColourBlind {
			t.Fatalf("palette %v, want colourblind", r.ImagePalette())
		}
		other := Command{Key: match.Key{Platform: "test", Workspace: "T1", Channel: "C2"}, User: player("UA")}
		h.want(h.svc.HandleText(t.Context(), other, "settings"), Ephemeral, ProblemNone, "pictures", "standard")

		// 1 2 1 2 1 2 1: red (UA) wins in column 1 with the last drop.
		r = h.drops(r, 2, 1, 2, 1, 2)
		if r.Finished {
			t.Fatal("a move before the end is marked Finished")
		}
		r = h.drops(r, 1)
		if !r.Game.State().Over() || !r.Finished {
			t.Fatalf("winning move: over %v, finished %v; want both", r.Game.State().Over(), r.Finished)
		}
		if alt := r.AltText(); alt == "" || alt != render.AltText(r.Game, render.Names{Red: "ua", Yellow: "ub"}, render.ImageColourBlind) {
			t.Fatalf("AltText = %q", alt)
		}
		b := h.say("UA", "board")
		if b.Finished {
			t.Fatal("a re-posted finished board is marked Finished: the replay would be posted again")
		}
	})
}

// TestSettingsAcrossReplicas checks the settings a Service keeps: a
// change through another replica (another Service on the same store)
// shows once settingsTTL has passed, and a change through this one at
// once.
func TestSettingsAcrossReplicas(t *testing.T) {
	clk := storetest.NewClock(time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC))
	st := storetest.NewMemory(t, sessions.Options{Now: clk.Now})
	h := newHarness(t, st, clk, "")
	other := New(st, Options{Now: clk.Now, AI: lowestColumn})
	r := h.start("UA", "UB")
	if r.Look.Palette != match.PaletteDefault {
		t.Fatalf("palette %v at first", r.Look.Palette)
	}
	h.want(other.HandleText(t.Context(), Command{Key: h.key, User: player("UC")}, "settings palette colourblind"), Public, ProblemNone)
	r = h.drops(r, 1)
	if r.Look.Palette != match.PaletteDefault {
		t.Fatalf("another replica's change showed at once (palette %v): the settings were read again", r.Look.Palette)
	}
	clk.Advance(settingsTTL)
	r = h.drops(r, 2)
	if r.Look.Palette != match.PaletteColourBlind {
		t.Fatalf("another replica's change not shown after %v: palette %v", settingsTTL, r.Look.Palette)
	}
	h.want(h.say("UC", "settings palette standard"), Public, ProblemNone)
	if r = h.drops(r, 3); r.Look.Palette != match.PaletteStandard {
		t.Fatalf("this replica's change not shown at once: palette %v", r.Look.Palette)
	}
}

// hungSettings is a store whose settings reads never answer.
type hungSettings struct{ Store }

func (hungSettings) Settings(ctx context.Context, _ match.Key) (match.Settings, error) {
	<-ctx.Done()
	return match.Settings{}, ctx.Err()
}

// TestSettingsHung checks that a store that never answers the settings
// read costs a board its channel's look, not the reply: the move is made
// and shown with the default look.
func TestSettingsHung(t *testing.T) {
	t.Parallel() // it waits out the settings budget, sharing nothing
	clk := storetest.NewClock(time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC))
	h := newHarness(t, hungSettings{storetest.NewMemory(t, sessions.Options{Now: clk.Now})}, clk, "")
	r := h.start("UA", "UB")
	r = h.drops(r, 4)
	if r.Problem != ProblemNone || r.Game.Moves() != 1 || r.Look != (match.Settings{}) || !r.Picture() {
		t.Fatalf("move with hung settings: problem %v, moves %d, look %+v", r.Problem, r.Game.Moves(), r.Look)
	}
}

// TestPictureOfThreePlayers checks a game of 3: its board is a picture
// like any other, and the alt text names the third player with their
// colour.
func TestPictureOfThreePlayers(t *testing.T) {
	clk := storetest.NewClock(time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC))
	h := newHarness(t, storetest.NewMemory(t, sessions.Options{Now: clk.Now}), clk, "")
	r := h.say("UA", "<@UB> <@UC>")
	r = h.click("UB", r, "Accept")
	r = h.click("UC", r, "Accept")
	if r.Game == nil || !r.Picture() || len(r.Others) != 1 {
		t.Fatalf("3-player game: game %v, picture %v, others %v", r.Game != nil, r.Picture(), r.Others)
	}
	for _, col := range []string{"1", "2", "3"} {
		mover := r.Players()[int(r.Game.Turn())-1].ID
		if r = h.click(mover, r, col); r.Problem != ProblemNone {
			t.Fatalf("drop %s by %s: %q", col, mover, r.Text)
		}
	}
	if alt := r.AltText(); !strings.Contains(alt, "uc (green) in column 3") {
		t.Fatalf("AltText %q does not name the third player with their colour", alt)
	}
}
