package bot

import (
	"context"
	"fmt"
	"strings"

	"github.com/connect4/connect4/bot/match"
)

// board re-posts the channel's game (or pending challenge) at the bottom of
// the channel. In an AI game where the AI is to move, it moves first.
func (s *Service) board(ctx context.Context, cmd Command) (Reply, error) {
	rec, err := s.store.Load(ctx, cmd.Key)
	if err != nil {
		return Reply{}, noGame(err)
	}
	if rec.Status == match.StatusPending {
		if left := rec.ExpiresAt.Sub(s.opt.Now()); !rec.ExpiresAt.IsZero() && left > 0 {
			return challengeView(rec, Public, duration(left)), nil
		}
		return Reply{}, userErr(ProblemNoGame)
	}
	if !rec.Started() {
		return Reply{}, userErr(ProblemNoGame)
	}
	red, yellow := rec.Colors()
	text := fmt.Sprintf("The game between <@%s> and <@%s>:", red.ID, yellow.ID)
	if rec.Status == match.StatusFinished {
		text = fmt.Sprintf("The last game in this channel, between <@%s> and <@%s> (%s):", red.ID, yellow.ID, rec.Finish)
	}
	return s.afterHuman(ctx, cmd, rec, Public, text)
}

var medals = [...]string{"🥇", "🥈", "🥉"}

// leaderboard shows the channel's top 10.
func (s *Service) leaderboard(ctx context.Context, cmd Command) (Reply, error) {
	top, err := s.store.Leaderboard(ctx, cmd.Key, 10)
	if err != nil {
		return Reply{}, err
	}
	if len(top) == 0 {
		return Reply{Visibility: Public, Text: "No games have finished in this channel yet. Start one with `/connect4 @someone`!"}, nil
	}
	var b strings.Builder
	b.WriteString("🏆 Connect Four leaderboard (wins-losses-draws, win rate)")
	for i, st := range top {
		rank := fmt.Sprintf("%d.", i+1)
		if i < len(medals) {
			rank = medals[i]
		}
		fmt.Fprintf(&b, "\n%s <@%s> %d-%d-%d (%.0f%%)", rank, st.Player.ID, st.Wins, st.Losses, st.Draws, 100*st.WinRate())
	}
	return Reply{Visibility: Public, Text: b.String()}, nil
}

// stats shows one player's record in the channel, to the person asking.
func (s *Service) stats(ctx context.Context, cmd Command) (Reply, error) {
	who := cmd.Target
	if who.ID == "" {
		who = cmd.User
	}
	st, err := s.store.Stats(ctx, cmd.Key, who.ID)
	if err != nil {
		return Reply{}, err
	}
	if st.Games() == 0 {
		return Reply{Visibility: Ephemeral, Text: fmt.Sprintf("<@%s> hasn't finished a game in this channel yet.", who.ID)}, nil
	}
	return Reply{Visibility: Ephemeral, Text: fmt.Sprintf("<@%s> in this channel: %s, %s, %s — %.0f%% of %d games won.",
		who.ID, plural(st.Wins, "win"), plural(st.Losses, "loss"), plural(st.Draws, "draw"), 100*st.WinRate(), st.Games())}, nil
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
		if rep.Record == match.RecordNone {
			return Reply{}, userErr(ProblemNothingDamaged)
		}
		return Reply{}, userErr(ProblemNotCorrupt)
	}
	s.log.Warn("repaired damaged channel data", "channel", cmd.Key.String(), "user", cmd.User.ID,
		"record_cleared", rep.Record == match.RecordCleared, "entries_dropped", rep.EntriesDropped,
		"leaderboard_cleared", rep.LeaderboardCleared)
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
