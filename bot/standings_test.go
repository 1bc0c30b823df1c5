package bot

import (
	"testing"
	"time"

	"github.com/connect4/connect4/bot/lang"
	"github.com/connect4/connect4/bot/match"
)

// TestStatsInSenderLanguage: stats are shown only to the person asking,
// so they come in that person's language, whatever the channel's; an
// unknown locale reads as English. The German cases fail until the
// standing and unit areas are translated: the German text must be
// German, not English said for want of it.
func TestStatsInSenderLanguage(t *testing.T) {
	forEachStore(t, func(t *testing.T, h *harness) {
		h.drops(h.start("UA", "UB"), 1, 2, 1, 2, 1, 2, 1)
		st, err := h.store.Stats(t.Context(), h.key, "UA")
		if err != nil {
			t.Fatal(err)
		}
		b, c := lang.Args{"Player": "<@UA>", "Opponent": "<@UB>", "Wins": 1, "Losses": 0, "Count": 0}, lang.Args{"Player": "<@UA>", "Opponent": "<@UC>"}
		requests := []struct {
			text string
			want func(l lang.Lang) string
			id   string // a message the reply says, to tell German from English
		}{
			{"stats <@UZ>", func(l lang.Lang) string { return l.Say("standing.stats.noGames", lang.Args{"Player": "<@UZ>"}) }, "standing.stats.noGames"},
			{"stats <@UA>", func(l lang.Lang) string { return statsText(l, player("UA"), st) }, "standing.stats.rated"},
			{"stats <@UA> <@UB>", func(l lang.Lang) string { return l.Say("standing.stats.headToHead", copyArgs(b)) }, "standing.stats.headToHead"},
			{"stats <@UA> <@UC>", func(l lang.Lang) string { return l.Say("standing.stats.neverMet", copyArgs(c)) }, "standing.stats.neverMet"},
		}
		for _, tc := range []struct {
			locale string
			want   lang.Lang
		}{
			{"de", lang.German},
			{"de-AT", lang.German},
			{"", lang.English},
			{"xx-YY", lang.English},
			{"en-GB", lang.English},
		} {
			for _, rq := range requests {
				cmd := Command{Key: h.key, User: player("UC"), Self: h.self, Locale: tc.locale, ChannelLocale: "fr"}
				r := h.svc.HandleText(t.Context(), cmd, rq.text)
				want := rq.want(tc.want)
				if r.Visibility != Ephemeral || r.Text != want {
					t.Errorf("locale %q, %q = %v %q, want %v %q", tc.locale, rq.text, r.Visibility, r.Text, Ephemeral, want)
				}
				if tc.want != lang.English && want == rq.want(lang.English) {
					t.Errorf("locale %q, %q: %q is said in English: %s has no %q yet", tc.locale, rq.text, want, tc.want, rq.id)
				}
			}
		}
	})
}

func copyArgs(a lang.Args) lang.Args {
	c := make(lang.Args, len(a))
	for k, v := range a {
		c[k] = v
	}
	return c
}

// TestLeaderboardInChannelLanguage: the leaderboard is seen by the whole
// channel, so it comes in the channel's language, not the asker's. It
// fails until the standing area is translated into German.
func TestLeaderboardInChannelLanguage(t *testing.T) {
	forEachStore(t, func(t *testing.T, h *harness) {
		cmd := Command{Key: h.key, User: player("UC"), Self: h.self, Locale: "fr", ChannelLocale: "de"}
		r := h.svc.HandleText(t.Context(), cmd, "leaderboard")
		want := lang.German.Say("standing.leaderboard.empty", syntax(lang.German, h.key.Platform))
		if r.Visibility != Public || r.Text != want {
			t.Errorf("leaderboard = %v %q, want %v %q", r.Visibility, r.Text, Public, want)
		}
		if want == lang.English.Say("standing.leaderboard.empty", syntax(lang.English, h.key.Platform)) {
			t.Errorf("%q is said in English: German has no standing.leaderboard.empty yet", want)
		}
	})
}

func TestLeaderboardText(t *testing.T) {
	rating := func(r float64, provisional bool) *match.PlayerRating {
		pr := match.NewRating()
		pr.Rating.Rating = r
		if !provisional {
			pr.Deviation = 50
		}
		return &pr
	}
	five := []match.Standing{
		{Player: player("UA"), Wins: 7, Losses: 1}, {Player: player("UB"), Wins: 3, Losses: 3, Draws: 2},
		{Player: player("UC"), Wins: 1, Losses: 7}, {Player: player("UD"), Wins: 1, Losses: 1}, {Player: player("UE"), Losses: 8},
	}
	for _, tc := range []struct {
		name       string
		rated, top []match.Standing
		want       string
	}{
		{"nobody", nil, nil, "No games have finished in this channel yet. Start one with `/connect4 challenge @someone`!"},
		{"by wins", nil, five, "🏆 Connect Four leaderboard (wins-losses-draws, win rate)\n🥇 ua 7-1-0 (88%)\n🥈 ub 3-3-2 (38%)\n🥉 uc 1-7-0 (12%)\n4. ud 1-1-0 (50%)\n5. ue 0-8-0 (0%)"},
		{"rated", []match.Standing{
			{Player: player("UA"), Wins: 7, Losses: 1, Rating: rating(1712.5, false)},
			{Player: player("UB"), Wins: 3, Losses: 3, Draws: 2, Rating: rating(1499.6, true)},
		}, five, "🏆 Connect Four leaderboard (rating, wins-losses-draws; ? marks a provisional rating)\n🥇 ua 1712 · 7-1-0\n🥈 ub 1500? · 3-3-2\nNot rated yet (games of 3 or 4 only): uc 1-7-0 · ud 1-1-0 · ue 0-8-0"},
	} {
		if got := leaderboardText(lang.English, "slack", tc.rated, tc.top); got != tc.want {
			t.Errorf("%s: leaderboardText = %q, want %q", tc.name, got, tc.want)
		}
	}
}

func TestSeasonsText(t *testing.T) {
	r := match.NewRating()
	var all []match.Season
	for n := 12; n >= 1; n-- {
		all = append(all, match.Season{Number: n, Ended: time.Date(2026, time.Month(n), n, 0, 0, 0, 0, time.UTC),
			Standings: []match.Standing{{Player: player("UA"), Rating: &r}}})
	}
	got := seasonsText(lang.English, "slack", all)
	want := "📜 Past seasons in this channel\nSeason 12 (ended 12 Dec 2026): 🥇 ua 1500?\nSeason 11 (ended 11 Nov 2026): 🥇 ua 1500?\n" +
		"Season 10 (ended 10 Oct 2026): 🥇 ua 1500?\nSeason 9 (ended 9 Sep 2026): 🥇 ua 1500?\nSeason 8 (ended 8 Aug 2026): 🥇 ua 1500?\n" +
		"Season 7 (ended 7 Jul 2026): 🥇 ua 1500?\nSeason 6 (ended 6 Jun 2026): 🥇 ua 1500?\nSeason 5 (ended 5 May 2026): 🥇 ua 1500?\n" +
		"Season 4 (ended 4 Apr 2026): 🥇 ua 1500?\nSeason 3 (ended 3 Mar 2026): 🥇 ua 1500?\n… and 2 earlier"
	if got != want {
		t.Errorf("seasonsText = %q, want %q", got, want)
	}
	if got := dateText(lang.English, time.Date(2026, 1, 2, 0, 0, 0, 0, time.UTC)); got != "2 Jan 2026" {
		t.Errorf("dateText(2 January 2026) = %q, want 2 Jan 2026", got)
	}
}

func TestRepairText(t *testing.T) {
	const start = " Start a new game with `/connect4 challenge @someone`."
	for _, tc := range []struct {
		rep  match.Repair
		want string
	}{
		{match.Repair{Record: match.RecordCleared}, "<@UA> cleared this channel's damaged game." + start},
		{match.Repair{EntriesDropped: 1}, "<@UA> dropped 1 unreadable entry from the leaderboard (the rest are kept)."},
		{match.Repair{EntriesDropped: 3, IndexDropped: 1}, "<@UA> dropped 3 unreadable entries from the leaderboard (the rest are kept) and dropped 1 stale entry from the list of games here."},
		{match.Repair{Record: match.RecordCleared, LeaderboardCleared: true, EntriesDropped: 2, IndexDropped: 2},
			"<@UA> cleared this channel's damaged game, cleared the leaderboard (it could not be read at all) and dropped 2 stale entries from the list of games here." + start},
	} {
		if got := repairText(lang.English, "slack", player("UA"), tc.rep); got != tc.want {
			t.Errorf("repairText(%+v) = %q, want %q", tc.rep, got, tc.want)
		}
	}
}
