package bot

import (
	"context"
	"strings"

	"github.com/connect4/connect4/bot/lang"
	"github.com/connect4/connect4/bot/match"
	"github.com/connect4/connect4/bot/tournament"
)

// The channel's record of finished tournaments: the store keeps each
// one's final table (tournament.Summary), pushed by the write that
// finished it, the last tournament.MaxHistory of them.
// /connect4 tournament history lists them with their winners and shows
// the latest one's final table; /connect4 stats counts a player's wins.

// tournamentHistory answers /connect4 tournament history.
func (s *Service) tournamentHistory(ctx context.Context, ts TournamentStore, cmd Command) (Reply, error) {
	l := s.channelLang(ctx, cmd, nil)
	h, err := ts.TournamentHistory(ctx, cmd.Key)
	if err != nil {
		return Reply{}, err
	}
	if len(h) == 0 {
		return Reply{Visibility: Ephemeral, Lang: l, Text: l.Say("tournament.history.none", nil)}, nil
	}
	var b strings.Builder
	b.WriteString(l.Say("tournament.history.title", nil))
	for _, sum := range h {
		b.WriteString("\n" + historyLine(l, sum))
	}
	b.WriteString("\n\n" + l.Say("tournament.final", nil))
	for _, p := range h[0].Places {
		id := "tournament.line"
		if p.Withdrawn {
			id = "tournament.lineWithdrawn"
		}
		b.WriteString("\n" + l.Say(id, lineArgs(p.Rank, p.Player, p.Score, p.Buchholz, p.SonnebornBerger)))
	}
	return Reply{Visibility: Ephemeral, Lang: l, Text: b.String()}, nil
}

// historyLine says one finished tournament: when it ended, its format and
// who won it with how many points.
func historyLine(l lang.Lang, sum tournament.Summary) string {
	format := l.Say("command.choice.roundRobin", nil)
	if sum.Format == tournament.Swiss {
		format = l.Say("command.choice.swiss", nil)
	}
	ws := sum.Winners()
	names := make([]string, len(ws))
	for i, w := range ws {
		names[i] = mention(w)
	}
	score := ""
	if len(sum.Places) > 0 {
		score = points(sum.Places[0].Score)
	}
	return l.Say("tournament.history.line", lang.Args{"Date": sum.Ended.UTC().Format("2006-01-02"), "Format": format,
		"Winners": strings.Join(names, ", "), "Score": score})
}

// tournamentsWon returns the line of /connect4 stats that counts the
// tournaments of channel k that id won (first place, shared or not), or
// "" for none (or when the store cannot say: the rest of the stats stand).
func (s *Service) tournamentsWon(ctx context.Context, l lang.Lang, k match.Key, id string) string {
	ts, err := s.tournaments()
	if err != nil {
		return ""
	}
	h, err := ts.TournamentHistory(ctx, k)
	if err != nil {
		s.log.Warn("tournaments won not counted", "channel", k.String(), "err", err)
		return ""
	}
	n := 0
	for _, sum := range h {
		for _, w := range sum.Winners() {
			if w.ID == id {
				n++
			}
		}
	}
	if n == 0 {
		return ""
	}
	return l.Say("tournament.history.won", lang.Args{"Count": n})
}
