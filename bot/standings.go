package bot

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"

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
	text := said(fmt.Sprintf("The game between %s:", people(inTurnOrder(rec)).in(lang.English)))
	return s.afterHuman(ctx, cmd, rec, Public, text)
}

var medals = [...]string{"🥇", "🥈", "🥉"}

// leaderboard shows the channel's top 10 by rating, with each player's
// record beside the rating. Before anyone has a rated game (a channel whose
// games predate ratings) it ranks by wins. Names are plain text, so a look
// at the leaderboard pings nobody.
func (s *Service) leaderboard(ctx context.Context, cmd Command) (Reply, error) {
	rated, err := s.store.Ratings(ctx, cmd.Key, ratedLookup)
	if err != nil {
		return Reply{}, err
	}
	top, err := s.store.Leaderboard(ctx, cmd.Key, 10)
	if err != nil {
		return Reply{}, err
	}
	var b strings.Builder
	if len(rated) > 0 {
		b.WriteString("🏆 Connect Four leaderboard (rating, wins-losses-draws; ? marks a provisional rating)")
		ids := make(map[string]bool, len(rated))
		for i, st := range rated {
			ids[st.Player.ID] = true
			if i < 10 {
				fmt.Fprintf(&b, "\n%s %s %s · %d-%d-%d", rank(i), plainName(st.Player), ratingText(*st.Rating), st.Wins, st.Losses, st.Draws)
			}
		}
		// Games of 3 or 4 count on the leaderboard but are not rated: a
		// player who has played only those has no rating to rank by.
		var unrated []string
		for _, st := range top {
			if !ids[st.Player.ID] {
				unrated = append(unrated, fmt.Sprintf("%s %d-%d-%d", plainName(st.Player), st.Wins, st.Losses, st.Draws))
			}
		}
		if len(unrated) > 0 {
			b.WriteString("\nNot rated yet (games of 3 or 4 only): " + strings.Join(unrated, " · "))
		}
		return Reply{Visibility: Public, Text: b.String()}, nil
	}
	if len(top) == 0 {
		return Reply{Visibility: Public, Text: "No games have finished in this channel yet. Start one with `/connect4 @someone`!"}, nil
	}
	b.WriteString("🏆 Connect Four leaderboard (wins-losses-draws, win rate)")
	for i, st := range top {
		fmt.Fprintf(&b, "\n%s %s %d-%d-%d (%.0f%%)", rank(i), plainName(st.Player), st.Wins, st.Losses, st.Draws, 100*st.WinRate())
	}
	return Reply{Visibility: Public, Text: b.String()}, nil
}

// ratedLookup is how many rated players the leaderboard reads to tell
// who has no rating: far more than a channel's regulars.
const ratedLookup = 200

// rank is the medal or number of place i (0-based).
func rank(i int) string {
	if i < len(medals) {
		return medals[i]
	}
	return fmt.Sprintf("%d.", i+1)
}

// ratingText is a rating as shown: rounded, with "?" when provisional.
func ratingText(r match.PlayerRating) string {
	t := fmt.Sprintf("%.0f", r.Rating.Rating)
	if r.Provisional() {
		t += "?"
	}
	return t
}

// ratingChangeText is the line under a rated result: each player's new
// rating and the change ("<@a> 1562 (+62) · <@b> 1438 (−62)").
func ratingChangeText(c *match.RatingChange) string {
	parts := make([]string, 2)
	for i, id := range c.Players {
		d := math.Round(c.After[i].Rating.Rating) - math.Round(c.Before[i].Rating.Rating)
		sign := "+"
		if d < 0 {
			sign, d = "−", -d
		}
		parts[i] = fmt.Sprintf("<@%s> %s (%s%.0f)", id, ratingText(c.After[i]), sign, d)
	}
	return "Ratings: " + parts[0] + " · " + parts[1]
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

// streakText says the current streak, or "".
func streakText(n int) string {
	switch {
	case n > 1:
		return fmt.Sprintf("won the last %d", n)
	case n == 1:
		return "won the last game"
	case n == -1:
		return "lost the last game"
	case n < -1:
		return fmt.Sprintf("lost the last %d", -n)
	}
	return ""
}

// stats shows one player's rating, record and form in the channel, or the
// head-to-head record of two, to the person asking.
func (s *Service) stats(ctx context.Context, cmd Command) (Reply, error) {
	who := cmd.Target
	if who.ID == "" {
		who = cmd.User
	}
	if cmd.Versus.ID != "" {
		if cmd.Versus.ID == who.ID {
			return Reply{}, userErr(ProblemUsage, lang.Args{"Detail": "name two different players for head to head"})
		}
		h, err := s.store.HeadToHead(ctx, cmd.Key, who.ID, cmd.Versus.ID)
		if err != nil {
			return Reply{}, err
		}
		if h.Games() == 0 {
			return Reply{Visibility: Ephemeral, Text: fmt.Sprintf("<@%s> and <@%s> haven't played each other this season.", who.ID, cmd.Versus.ID)}, nil
		}
		return Reply{Visibility: Ephemeral, Text: fmt.Sprintf("<@%s> vs <@%s> this season: %d–%d, %s.",
			who.ID, cmd.Versus.ID, h.AWins, h.BWins, plural(h.Draws, "draw"))}, nil
	}
	st, err := s.store.Stats(ctx, cmd.Key, who.ID)
	if err != nil {
		return Reply{}, err
	}
	if st.Games() == 0 {
		return Reply{Visibility: Ephemeral, Text: fmt.Sprintf("<@%s> hasn't finished a game in this channel yet.", who.ID)}, nil
	}
	record := fmt.Sprintf("%s, %s, %s — %.0f%% of %d games won",
		plural(st.Wins, "win"), plural(st.Losses, "loss"), plural(st.Draws, "draw"), 100*st.WinRate(), st.Games())
	if st.Rating == nil {
		return Reply{Visibility: Ephemeral, Text: fmt.Sprintf("<@%s> in this channel: %s.", who.ID, record)}, nil
	}
	r := *st.Rating
	text := fmt.Sprintf("<@%s> in this channel: rating %s (deviation %.0f) · %s", who.ID, ratingText(r), r.Deviation, record)
	if t := streakText(r.Streak); t != "" {
		text += " · " + t
	}
	if len(st.History) > 1 {
		text += fmt.Sprintf("\nLast %d ratings: %s", len(st.History), sparkline(st.History))
	}
	return Reply{Visibility: Ephemeral, Text: text}, nil
}

// newSeason archives the channel's season and starts a new one, for those
// who may manage the channel.
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
	return Reply{Visibility: Public, Text: fmt.Sprintf("%s started a new season: season %d is archived (%s), and everyone starts again at 1500.\n%s",
		plainName(cmd.User), se.Number, plural(len(se.Standings), "rated player"), podium(se))}, nil
}

// seasons lists the channel's past seasons with their podiums.
func (s *Service) seasons(ctx context.Context, cmd Command) (Reply, error) {
	all, err := s.store.Seasons(ctx, cmd.Key)
	if err != nil {
		return Reply{}, err
	}
	if len(all) == 0 {
		return Reply{Visibility: Ephemeral, Text: "No season has ended in this channel yet. `/connect4 season new` archives the current one."}, nil
	}
	var b strings.Builder
	b.WriteString("📜 Past seasons in this channel")
	for i, se := range all {
		if i == 10 {
			fmt.Fprintf(&b, "\n… and %d earlier", len(all)-10)
			break
		}
		fmt.Fprintf(&b, "\nSeason %d (ended %s): %s", se.Number, se.Ended.Format("2 Jan 2006"), podium(se))
	}
	return Reply{Visibility: Ephemeral, Text: b.String()}, nil
}

// podium is a season's first three, by name and rating.
func podium(se match.Season) string {
	parts := make([]string, 0, 3)
	for i, st := range se.Podium() {
		parts = append(parts, fmt.Sprintf("%s %s %s", medals[i], plainName(st.Player), ratingText(*st.Rating)))
	}
	return strings.Join(parts, " · ")
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	if strings.HasSuffix(word, "s") {
		return fmt.Sprintf("%d %ses", n, word)
	}
	return fmt.Sprintf("%d %ss", n, word)
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
	var did []string
	if rep.Record == match.RecordCleared {
		did = append(did, "cleared this channel's damaged game")
	}
	switch {
	case rep.LeaderboardCleared:
		did = append(did, "cleared the leaderboard, which could not be read at all")
	case rep.EntriesDropped > 0:
		did = append(did, fmt.Sprintf("dropped %s from the leaderboard and kept the rest", entries(rep.EntriesDropped)))
	}
	if rep.IndexDropped > 0 {
		did = append(did, fmt.Sprintf("dropped %d stale %s from the list of games here", rep.IndexDropped, map[bool]string{true: "entry", false: "entries"}[rep.IndexDropped == 1]))
	}
	text := fmt.Sprintf("<@%s> %s.", cmd.User.ID, strings.Join(did, " and "))
	if rep.Record == match.RecordCleared {
		text += " Start a new game with `/connect4 @someone`."
	}
	return Reply{Visibility: Public, Text: text}, nil
}

func entries(n int) string {
	if n == 1 {
		return "1 unreadable entry"
	}
	return fmt.Sprintf("%d unreadable entries", n)
}
