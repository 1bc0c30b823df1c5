package bot

import (
	"context"
	"errors"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/connect4/connect4/bot/lang"
	"github.com/connect4/connect4/bot/match"
)

// board re-posts the caller's game (or pending challenge) at the bottom of
// the channel; someone with neither is told which games are running. In an
// AI game where the AI is to move, it moves first.
func (s *Service) board(ctx context.Context, cmd Command) (Reply, error) {
	rec, list, err := s.ownGame(ctx, cmd)
	if err != nil {
		return Reply{}, err
	}
	if list != nil {
		return *list, nil
	}
	if rec.Status == match.StatusPending {
		if left := rec.ExpiresAt.Sub(s.opt.Now()); rec.ExpiresAt.IsZero() || left > 0 {
			return challengeView(s.channelLang(ctx, cmd, rec), rec, Public, left), nil
		}
		return Reply{}, userErr(ProblemNoGame)
	}
	text := words("standing.board.between", lang.Args{"Players": people(inTurnOrder(rec))})
	return s.afterHuman(ctx, cmd, rec, Public, text)
}

var medals = [...]string{"🥇", "🥈", "🥉"}

// leaderboard shows the channel's top 10 by rating, with each player's
// record beside the rating, in the channel's language. Before anyone has a
// rated game (a channel whose games predate ratings) it ranks by wins.
// Names are plain text, so a look at the leaderboard pings nobody.
func (s *Service) leaderboard(ctx context.Context, cmd Command) (Reply, error) {
	rated, err := s.store.Ratings(ctx, cmd.Key, ratedLookup)
	if err != nil {
		return Reply{}, err
	}
	top, err := s.store.Leaderboard(ctx, cmd.Key, 10)
	if err != nil {
		return Reply{}, err
	}
	l := s.channelLang(ctx, cmd, nil)
	return Reply{Visibility: Public, Text: leaderboardText(l, cmd.Key.Platform, rated, top)}, nil
}

// leaderboardText writes the leaderboard in l: the rated players (the
// first 10 of them) by rating, then those with results but no rating; or,
// with no rated player, top by wins.
func leaderboardText(l lang.Lang, platform string, rated, top []match.Standing) string {
	var b strings.Builder
	if len(rated) > 0 {
		b.WriteString(l.Say("standing.leaderboard.ratedTitle", nil))
		ids := make(map[string]bool, len(rated))
		for i, st := range rated {
			ids[st.Player.ID] = true
			if i < 10 {
				b.WriteString("\n" + l.Say("standing.leaderboard.ratedLine", lang.Args{"Rank": rank(l, i),
					"Name": plainName(st.Player), "Rating": ratingText(*st.Rating), "Wins": st.Wins, "Losses": st.Losses, "Draws": st.Draws}))
			}
		}
		// Games of 3 or 4 count on the leaderboard but are not rated: a
		// player who has played only those has no rating to rank by.
		var unrated []string
		for _, st := range top {
			if !ids[st.Player.ID] {
				unrated = append(unrated, l.Say("standing.leaderboard.unratedEntry", lang.Args{"Name": plainName(st.Player),
					"Wins": st.Wins, "Losses": st.Losses, "Draws": st.Draws}))
			}
		}
		if len(unrated) > 0 {
			b.WriteString("\n" + l.Say("standing.leaderboard.unrated", lang.Args{"Players": strings.Join(unrated, " · ")}))
		}
		return b.String()
	}
	if len(top) == 0 {
		return l.Say("standing.leaderboard.empty", syntax(l, platform))
	}
	b.WriteString(l.Say("standing.leaderboard.winsTitle", nil))
	for i, st := range top {
		b.WriteString("\n" + l.Say("standing.leaderboard.winsLine", lang.Args{"Rank": rank(l, i), "Name": plainName(st.Player),
			"Wins": st.Wins, "Losses": st.Losses, "Draws": st.Draws, "Percent": percent(st.WinRate())}))
	}
	return b.String()
}

// percent is a share (0 to 1) as a whole percentage, rounded as fmt's
// %.0f rounds it (a half to even).
func percent(share float64) int { return int(math.RoundToEven(100 * share)) }

// ratedLookup is how many rated players the leaderboard reads to tell
// who has no rating: far more than a channel's regulars.
const ratedLookup = 200

// rank is the medal or number of place i (0-based), in l.
func rank(l lang.Lang, i int) string {
	if i < len(medals) {
		return medals[i]
	}
	return l.Say("standing.leaderboard.place", lang.Args{"Place": i + 1})
}

// ratingText is a rating as shown, the same in every language: rounded,
// in digits with no grouping (as ratings are written, like years), with
// "?" when provisional.
func ratingText(r match.PlayerRating) string {
	t := strconv.FormatFloat(r.Rating.Rating, 'f', 0, 64)
	if r.Provisional() {
		t += "?"
	}
	return t
}

// ratingChangeText is the line under a rated result, in l: each player's
// new rating and the change ("Ratings: <@a> 1562 (+62) · <@b> 1438 (−62)").
func ratingChangeText(l lang.Lang, c *match.RatingChange) string {
	parts := make([]string, 2)
	for i := range c.Players {
		d := int(math.Round(c.After[i].Rating.Rating) - math.Round(c.Before[i].Rating.Rating))
		id := "standing.rating.gain"
		if d < 0 {
			id, d = "standing.rating.loss", -d
		}
		parts[i] = l.Say(id, lang.Args{"Player": "<@" + c.Players[i] + ">", "Rating": ratingText(c.After[i]), "Points": d})
	}
	return l.Say("standing.rating.changes", lang.Args{"First": parts[0], "Second": parts[1]})
}

// sparks are the eight heights of a sparkline, lowest first.
var sparks = []rune("▁▂▃▄▅▆▇█")

// sparkline draws ratings, oldest first, scaled between their lowest and
// highest.
func sparkline(h []float64) string {
	if len(h) == 0 {
		return ""
	}
	lo, hi := slices.Min(h), slices.Max(h)
	out := make([]rune, len(h))
	for i, r := range h {
		j := len(sparks) / 2
		if hi > lo {
			j = int(math.Round((r - lo) / (hi - lo) * float64(len(sparks)-1)))
		}
		out[i] = sparks[j]
	}
	return string(out)
}

// streakText says the current streak in l, or "".
func streakText(l lang.Lang, n int) string {
	switch {
	case n > 0:
		return l.Say("standing.stats.won", lang.Args{"Count": n})
	case n < 0:
		return l.Say("standing.stats.lost", lang.Args{"Count": -n})
	}
	return ""
}

// stats shows one player's rating, record and form in the channel, or the
// head-to-head record of two, to the person asking, in their language.
func (s *Service) stats(ctx context.Context, cmd Command) (Reply, error) {
	l := s.userLang(cmd)
	who := cmd.Target
	if who.ID == "" {
		who = cmd.User
	}
	if cmd.Versus.ID != "" {
		if cmd.Versus.ID == who.ID {
			return Reply{}, &UserError{Problem: ProblemUsage, ID: "standing.stats.samePlayer"}
		}
		h, err := s.store.HeadToHead(ctx, cmd.Key, who.ID, cmd.Versus.ID)
		if err != nil {
			return Reply{}, err
		}
		args := lang.Args{"Player": "<@" + who.ID + ">", "Opponent": "<@" + cmd.Versus.ID + ">"}
		if h.Games() == 0 {
			return Reply{Visibility: Ephemeral, Text: l.Say("standing.stats.neverMet", args)}, nil
		}
		args["Wins"], args["Losses"], args["Count"] = h.AWins, h.BWins, h.Draws
		return Reply{Visibility: Ephemeral, Text: l.Say("standing.stats.headToHead", args)}, nil
	}
	st, err := s.store.Stats(ctx, cmd.Key, who.ID)
	if err != nil {
		return Reply{}, err
	}
	text := statsText(l, who, st)
	if won := s.tournamentsWon(ctx, l, cmd.Key, who.ID); won != "" {
		text += "\n" + won
	}
	return Reply{Visibility: Ephemeral, Text: text}, nil
}

// statsText writes who's standing st in l: the record, and where they
// have a rating, the rating, deviation, streak and the ratings' sparkline.
func statsText(l lang.Lang, who match.Player, st match.Standing) string {
	player := "<@" + who.ID + ">"
	if st.Games() == 0 {
		return l.Say("standing.stats.noGames", lang.Args{"Player": player})
	}
	record := l.Say("standing.stats.record", lang.Args{
		"Wins":    l.Say("unit.wins", lang.Args{"Count": st.Wins}),
		"Losses":  l.Say("unit.losses", lang.Args{"Count": st.Losses}),
		"Draws":   l.Say("unit.draws", lang.Args{"Count": st.Draws}),
		"Percent": percent(st.WinRate()), "Count": st.Games()})
	if st.Rating == nil {
		return l.Say("standing.stats.unrated", lang.Args{"Player": player, "Record": record})
	}
	r := *st.Rating
	args := lang.Args{"Player": player, "Rating": ratingText(r), "Deviation": int(math.RoundToEven(r.Deviation)), "Record": record}
	id := "standing.stats.rated"
	if t := streakText(l, r.Streak); t != "" {
		id, args["Streak"] = "standing.stats.ratedStreak", t
	}
	text := l.Say(id, args)
	if len(st.History) > 1 {
		text += "\n" + l.Say("standing.stats.history", lang.Args{"Count": len(st.History), "Sparkline": sparkline(st.History)})
	}
	return text
}

// newSeason archives the channel's season and starts a new one, for those
// who may manage the channel, and tells the channel in its language.
func (s *Service) newSeason(ctx context.Context, cmd Command) (Reply, error) {
	if !cmd.CanManage {
		return Reply{}, userErr(ProblemNotManager)
	}
	se, err := s.store.NewSeason(ctx, cmd.Key)
	if errors.Is(err, match.ErrEmptySeason) {
		return Reply{}, userErr(ProblemEmptySeason)
	}
	if err != nil {
		return Reply{}, err
	}
	s.log.Info("new season", "channel", cmd.Key.String(), "user", cmd.User.ID, "archived", se.Number)
	l := s.channelLang(ctx, cmd, nil)
	text := l.Say("standing.season.started", lang.Args{"Manager": plainName(cmd.User), "Season": se.Number,
		"Players": l.Say("unit.ratedPlayers", lang.Args{"Count": len(se.Standings)}),
		"Rating":  strconv.FormatFloat(match.NewRating().Rating.Rating, 'f', 0, 64)})
	return Reply{Visibility: Public, Text: text + "\n" + podium(se)}, nil
}

// seasons lists the channel's past seasons with their podiums, to the
// person asking, in their language.
func (s *Service) seasons(ctx context.Context, cmd Command) (Reply, error) {
	all, err := s.store.Seasons(ctx, cmd.Key)
	if err != nil {
		return Reply{}, err
	}
	return Reply{Visibility: Ephemeral, Text: seasonsText(s.userLang(cmd), cmd.Key.Platform, all)}, nil
}

// seasonsText writes the past seasons all in l, the latest ten; with none,
// how to start one on platform.
func seasonsText(l lang.Lang, platform string, all []match.Season) string {
	if len(all) == 0 {
		return l.Say("standing.season.none", syntax(l, platform))
	}
	var b strings.Builder
	b.WriteString(l.Say("standing.season.pastTitle", nil))
	for i, se := range all {
		if i == 10 {
			b.WriteString("\n" + l.Say("standing.season.earlier", lang.Args{"Count": len(all) - 10}))
			break
		}
		b.WriteString("\n" + l.Say("standing.season.past", lang.Args{"Season": se.Number, "Date": dateText(l, se.Ended), "Podium": podium(se)}))
	}
	return b.String()
}

// months are the message ids of the months' short names, January first.
var months = [12]string{"standing.month.jan", "standing.month.feb", "standing.month.mar", "standing.month.apr",
	"standing.month.may", "standing.month.jun", "standing.month.jul", "standing.month.aug",
	"standing.month.sep", "standing.month.oct", "standing.month.nov", "standing.month.dec"}

// dateText is the day of t in l ("29 Nov 2026"): the year in digits with
// no grouping.
func dateText(l lang.Lang, t time.Time) string {
	return l.Say("standing.season.date", lang.Args{"Day": t.Day(), "Month": l.Say(months[t.Month()-1], nil), "Year": strconv.Itoa(t.Year())})
}

// podium is a season's first three, by medal, name and rating: no words,
// the same in every language.
func podium(se match.Season) string {
	parts := make([]string, 0, 3)
	for i, st := range se.Podium() {
		parts = append(parts, medals[i]+" "+plainName(st.Player)+" "+ratingText(*st.Rating))
	}
	return strings.Join(parts, " · ")
}

// reset repairs the channel's data when it is damaged beyond reading: a
// record that does not parse or is of the wrong type is cleared, unreadable
// leaderboard entries are dropped and the rest kept. A readable game is never
// thrown away by this command.
func (s *Service) reset(ctx context.Context, cmd Command) (Reply, error) {
	rep, err := s.store.Repair(ctx, cmd.Key)
	if err != nil {
		return Reply{}, err
	}
	if !rep.Changed() {
		switch rep.Record {
		case match.RecordNone:
			return Reply{}, userErr(ProblemNothingDamaged)
		case match.RecordNewer:
			return Reply{}, userErr(ProblemNewerVersion)
		}
		return Reply{}, userErr(ProblemNotCorrupt)
	}
	s.log.Warn("repaired damaged channel data", "channel", cmd.Key.String(), "user", cmd.User.ID,
		"record_cleared", rep.Record == match.RecordCleared, "entries_dropped", rep.EntriesDropped,
		"leaderboard_cleared", rep.LeaderboardCleared, "index_dropped", rep.IndexDropped)
	l := s.channelLang(ctx, cmd, nil)
	return Reply{Visibility: Public, Text: repairText(l, cmd.Key.Platform, cmd.User, rep)}, nil
}

// repairText says in l what a repair asked for by who did (rep changed
// something).
func repairText(l lang.Lang, platform string, who match.Player, rep match.Repair) string {
	var did []string
	if rep.Record == match.RecordCleared {
		did = append(did, l.Say("standing.reset.clearedGame", nil))
	}
	switch {
	case rep.LeaderboardCleared:
		did = append(did, l.Say("standing.reset.clearedLeaderboard", nil))
	case rep.EntriesDropped > 0:
		did = append(did, l.Say("standing.reset.droppedEntries", lang.Args{"Count": rep.EntriesDropped}))
	}
	if rep.IndexDropped > 0 {
		did = append(did, l.Say("standing.reset.droppedIndex", lang.Args{"Count": rep.IndexDropped}))
	}
	var all string
	switch len(did) {
	case 1:
		all = did[0]
	case 2:
		all = l.Say("standing.reset.twoActions", lang.Args{"First": did[0], "Second": did[1]})
	case 3:
		all = l.Say("standing.reset.threeActions", lang.Args{"First": did[0], "Second": did[1], "Third": did[2]})
	}
	text := l.Say("standing.reset.done", lang.Args{"User": "<@" + who.ID + ">", "Did": all})
	if rep.Record == match.RecordCleared {
		text += " " + l.Say("standing.reset.startNew", syntax(l, platform))
	}
	return text
}
