package bot

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/connect4/connect4/bot/lang"
	"github.com/connect4/connect4/bot/match"
	"github.com/connect4/connect4/sessions"
	"github.com/connect4/connect4/sessions/storetest"
)

// These tests say what a reply must read in German or French by asking the
// catalogue (lang.German.Say) and check that it differs from the English:
// they fail until the catalogues have the ids they use: German
// problem.noGame, problem.notYourTurn, offer.challenge.direct,
// offer.challenge.expired and button.accept; French
// offer.challenge.direct, offer.challenge.expired and button.accept.

// differs fails t when the message id reads the same in l as in English:
// the assertion below it would prove nothing.
func differs(t *testing.T, l lang.Lang, id string, args lang.Args) string {
	t.Helper()
	got, en := say(l, id, args), say(lang.English, id, args)
	if got == en {
		t.Errorf("%s is the same in %s as in English (%q): no translation yet", id, l, got)
	}
	return got
}

// localeCmd is a command of user in h's channel, from a player whose
// platform locale is locale in a channel whose locale is channel.
func (h *harness) localeCmd(user, locale, channel string) Command {
	return Command{Key: h.key, User: player(user), Self: h.self, Locale: locale, ChannelLocale: channel}
}

// TestWhoReadsWhat: a refusal is in the sender's language, the game and
// its announcements in the channel's; the channel's setting wins over the
// platform's locales; an unknown locale reads as English.
func TestWhoReadsWhat(t *testing.T) {
	forEachStore(t, func(t *testing.T, h *harness) {
		ctx := t.Context()
		challenge := func(l lang.Lang) (string, string) {
			args := lang.Args{"Challenger": "<@UA>", "Opponent": "<@UB>", "Variant": phrase{}, "Time": duration(DefaultChallengeTTL)}
			return differs(t, l, "offer.challenge.direct", args), differs(t, l, "button.accept", nil)
		}

		// No game yet: the refusal is the German sender's own.
		r := h.svc.HandleText(ctx, h.localeCmd("UA", "de", "fr"), "board")
		if want := differs(t, lang.German, "problem.noGame", syntax(lang.German, h.key.Platform)); r.Visibility != Ephemeral || r.Text != want || r.Lang != lang.German {
			t.Errorf("refusal to a German player in a French channel: %v %q (%v), want ephemeral %q", r.Visibility, r.Text, r.Lang, want)
		}

		// The challenge is the channel's: French.
		r = h.svc.HandleText(ctx, h.localeCmd("UA", "de", "fr"), "<@UB>")
		wantText, wantButton := challenge(lang.French)
		if r.Visibility != Public || r.Text != wantText || r.Lang != lang.French || len(r.Buttons) == 0 || r.Buttons[0].Label != wantButton {
			t.Fatalf("challenge by a German player in a French channel: %v %q %+v, want public %q with %q", r.Visibility, r.Text, r.Buttons, wantText, wantButton)
		}
		if rec := h.record(r); rec.Lang != "fr" {
			t.Errorf("the challenge's record has language %q, want fr (the channel's locale)", rec.Lang)
		}

		// A German refusal during the French game: UB clicks out of turn.
		g := h.click("UB", r, r.Buttons[0].Label)
		if g.Lang != lang.French || g.Game == nil {
			t.Fatalf("accepted game: %v %q, want French with a board", g.Lang, g.Text)
		}
		cmd := h.localeCmd("UB", "de", "fr")
		req, err := ParseAction(g.Buttons[0].Value)
		if err != nil {
			t.Fatal(err)
		}
		cmd.Request = req
		r = h.svc.Handle(ctx, cmd)
		if want := differs(t, lang.German, "problem.notYourTurn", lang.Args{"Player": "<@UA>"}); r.Problem != ProblemNotYourTurn || r.Text != want {
			t.Errorf("out-of-turn click by a German player: %v %q, want %q", r.Problem, r.Text, want)
		}

		// Unknown locales read as English, for a note to the sender (the
		// games here, as UC has none) and for the channel.
		r = h.svc.HandleText(ctx, h.localeCmd("UC", "xx-YY", "tlh"), "board")
		if r.Visibility != Ephemeral || r.Lang != lang.English || !strings.HasPrefix(r.Text, "Games here: @ua vs @ub") {
			t.Errorf("note to an unknown locale: %v %q (%v), want the English list of games", r.Visibility, r.Text, r.Lang)
		}
		r = h.svc.HandleText(ctx, h.localeCmd("UC", "xx-YY", "tlh"), "<@UD>")
		if r.Lang != lang.English || !strings.Contains(r.Text, "<@UC> challenges <@UD> to Connect Four!") {
			t.Errorf("challenge with unknown locales: %v %q, want English", r.Lang, r.Text)
		}
		if rec := h.record(r); rec.Lang != "en" {
			t.Errorf("record language %q, want en", rec.Lang)
		}

		// The setting wins over both locales, for everything the channel
		// sees; a refusal stays the sender's.
		manager := h.localeCmd("UM", "fr", "fr")
		manager.CanManage = true
		if r := h.svc.HandleText(ctx, manager, "settings language de-DE"); r.Problem != ProblemNone || r.Lang != lang.German {
			t.Fatalf("settings language de-DE: %v %q (%v)", r.Problem, r.Text, r.Lang)
		}
		r = h.svc.HandleText(ctx, h.localeCmd("UE", "fr", "fr"), "<@UF>")
		if want := differs(t, lang.German, "offer.challenge.direct", lang.Args{"Challenger": "<@UE>", "Opponent": "<@UF>",
			"Variant": phrase{}, "Time": duration(DefaultChallengeTTL)}); r.Text != want {
			t.Errorf("challenge under the German setting in a French channel: %q, want %q", r.Text, want)
		}
		if r := h.svc.HandleText(ctx, h.localeCmd("UE", "fr", "fr"), "settings language it"); r.Problem != ProblemBadLanguage ||
			!strings.Contains(r.Text, "de, fr, es, pt-BR") {
			t.Errorf("settings language it: %v %q, want ProblemBadLanguage listing the codes", r.Problem, r.Text)
		}
	})
}

// TestLanguageSetting: only managers set the language; the setting is
// shown; "default" clears it.
func TestLanguageSetting(t *testing.T) {
	forEachStore(t, func(t *testing.T, h *harness) {
		ctx := t.Context()
		h.want(h.say("UA", "settings language fr"), Ephemeral, ProblemLanguageManager)
		manager := Command{Key: h.key, User: player("UM"), CanManage: true}
		r := h.svc.HandleText(ctx, manager, "settings language pt_BR")
		if r.Visibility != Public || r.Problem != ProblemNone {
			t.Fatalf("settings language pt_BR by a manager: %v/%v %q", r.Visibility, r.Problem, r.Text)
		}
		st, err := h.store.Settings(ctx, h.key)
		if err != nil || st.Language != "pt-BR" {
			t.Fatalf("stored settings %+v, %v; want language pt-BR", st, err)
		}
		h.want(h.say("UA", "settings"), Ephemeral, ProblemNone, "Português (Brasil)")
		h.svc.HandleText(ctx, manager, "settings language default")
		if st, err := h.store.Settings(ctx, h.key); err != nil || st.Language != "" {
			t.Fatalf("stored settings after default %+v, %v; want no language", st, err)
		}
		if r := h.say("UA", "settings"); strings.Contains(r.Text, "messages in") {
			t.Errorf("settings after default: %q still names a language", r.Text)
		}
	})
}

// TestTimedLanguage: a timed message is in the channel's setting, else
// the language its record was created in.
func TestTimedLanguage(t *testing.T) {
	for _, tc := range []struct {
		name    string
		setting string
		want    lang.Lang
	}{
		{"record's language", "", lang.French},
		{"setting wins", "de", lang.German},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h, m := timedHarness(t)
			ctx := t.Context()
			r := h.svc.HandleText(ctx, h.localeCmd("UA", "en", "fr"), "<@UB>")
			if h.record(r).Lang != "fr" {
				t.Fatalf("record language %q, want fr", h.record(r).Lang)
			}
			if tc.setting != "" {
				if _, err := m.SetSettings(ctx, h.key, match.Settings{Language: tc.setting}); err != nil {
					t.Fatal(err)
				}
				h.svc.looks.Put(h.key, match.Settings{Language: tc.setting}, h.clock.Now()) // as another replica's change, once its cache lapsed
			}
			h.clock.Advance(testTTL)
			n := wantFired(t, h, m, "expire")[0]
			want := differs(t, tc.want, "offer.challenge.expired", lang.Args{"Challenger": "<@UA>", "Opponent": "<@UB>"})
			if n.Edit == nil || n.Edit.Text != want || n.Edit.Lang != tc.want {
				t.Fatalf("expiry notice %+v, want %q", n.Edit, want)
			}
		})
	}
}

// TestUserErrorEnglish: a refusal's Error is English whatever it is told
// in, and its arguments are said in the language asked.
func TestUserErrorEnglish(t *testing.T) {
	e := userErr(ProblemTooEarly, lang.Args{"Player": "<@UB>", "Time": duration(90 * time.Minute)})
	if got, want := e.Error(), "<@UB> still has 1h 30m to move before you can claim the game."; got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
	var ue *UserError
	if !errors.As(error(e), &ue) || !reflect.DeepEqual(ue.Args["Time"], duration(90*time.Minute)) {
		t.Errorf("the arguments were changed by saying them: %+v", ue.Args)
	}
	for _, tc := range []struct {
		ps   people
		want string
	}{
		{people{player("A")}, "<@A>"},
		{people{player("A"), player("B")}, "<@A> and <@B>"},
		{people{player("A"), player("B"), player("C"), player("D")}, "<@A>, <@B>, <@C> and <@D>"},
	} {
		if got := tc.ps.in(lang.English); got != tc.want {
			t.Errorf("people %v = %q, want %q", tc.ps, got, tc.want)
		}
	}
}

func TestParseSettingsLanguage(t *testing.T) {
	tests := []struct {
		in   string
		want string
		p    Problem
	}{
		{"settings language de", "de", ProblemNone},
		{"settings language DE-de", "de", ProblemNone},
		{"settings language pt_BR", "pt-BR", ProblemNone},
		{"settings lang ja-JP", "ja", ProblemNone},
		{"settings language zh-Hans", "zh-CN", ProblemNone},
		{"settings language default", match.LanguageDefault, ProblemNone},
		{"settings language klingon", "", ProblemBadLanguage},
		{"settings language sv", "", ProblemBadLanguage},
		{"settings language", "", ProblemUsage},
	}
	for _, tc := range tests {
		req, err := ParseText(tc.in)
		if got := problemOf(err); got != tc.p || (tc.p == ProblemNone && req.Settings.Language != tc.want) {
			t.Errorf("ParseText(%q) = %q, %v; want %q, %v", tc.in, req.Settings.Language, err, tc.want, tc.p)
		}
	}
}

// countingSettings counts the settings reads of a store.
type countingSettings struct {
	Store
	reads *int
}

func (c countingSettings) Settings(ctx context.Context, k match.Key) (match.Settings, error) {
	*c.reads++
	return c.Store.Settings(ctx, k)
}

// TestMoveSettingsReads: the channel's language and the board's look come
// from one settings read, cached: a move on a warm cache reads no settings,
// and one on a cold cache reads them once.
func TestMoveSettingsReads(t *testing.T) {
	clk := storetest.NewClock(time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC))
	var reads int
	st := countingSettings{Store: storetest.NewMemory(t, sessions.Options{Now: clk.Now}), reads: &reads}
	h := newHarness(t, st, clk, "")
	r := h.start("UA", "UB")
	for i, tc := range []struct {
		wait time.Duration
		want int
	}{{0, 0}, {settingsTTL + time.Second, 1}, {0, 0}} {
		clk.Advance(tc.wait)
		before := reads
		r = h.drops(r, i+1)
		if r.Lang != lang.English || reads-before != tc.want {
			t.Errorf("move %d: %d settings reads (language %v), want %d", i+1, reads-before, r.Lang, tc.want)
		}
	}
}
