package bot

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/connect4/connect4/engine"
	"github.com/connect4/connect4/sessions"
)

// challenge opens a challenge to cmd.Opponent, or starts a game against the
// AI when the opponent is this bot itself.
func (s *Service) challenge(ctx context.Context, cmd Command) (Reply, error) {
	opp := cmd.Opponent
	switch {
	case opp.ID == "":
		return Reply{}, userErr(ProblemUsage, "whom do you want to challenge?")
	case opp.ID == cmd.User.ID:
		return Reply{}, userErr(ProblemSelfChallenge)
	case cmd.Self.ID != "" && opp.ID == cmd.Self.ID:
		return s.startAI(ctx, cmd, "")
	case cmd.OpponentIsBot:
		return Reply{}, userErr(ProblemBotChallenge, opp.ID)
	}
	v := cmd.Variant.withDefaults()
	if err := v.validate(); err != nil {
		return Reply{}, err
	}
	rec := &sessions.Record{
		Key: cmd.Key, Status: sessions.StatusPending,
		Challenger: cmd.User, Opponent: opp,
		Rows: v.Rows, Cols: v.Cols, Connect: v.Connect, FirstTo: v.FirstTo,
		Message:   cmd.Message,
		ExpiresAt: s.opt.Now().Add(s.opt.ChallengeTTL),
	}
	if err := s.store.Create(ctx, rec); err != nil {
		return Reply{}, busy(err)
	}
	return challengeView(rec, Public, duration(s.opt.ChallengeTTL)), nil
}

// busy turns a *sessions.BusyError into a refusal naming the players of the
// game in the way; other errors pass through.
func busy(err error) error {
	var be *sessions.BusyError
	if !errors.As(err, &be) || be.Existing == nil {
		return err
	}
	e := be.Existing
	if e.Status == sessions.StatusPending {
		return userErr(ProblemBusy, fmt.Sprintf("<@%s> has challenged <@%s>", e.Challenger.ID, e.Opponent.ID))
	}
	return userErr(ProblemBusy, fmt.Sprintf("<@%s> and <@%s> are playing", e.Challenger.ID, e.Opponent.ID))
}

// aiPlayer is the AI's identity in a game: this bot's user where known.
func aiPlayer(self sessions.Player, level string) sessions.Player {
	p := sessions.Player{ID: self.ID, Name: self.Name}
	if p.ID == "" {
		p.ID = "connect4-ai"
	}
	if p.Name == "" {
		p.Name = "Connect Four AI"
	}
	p.Name += " (" + level + ")"
	return p
}

// startAI starts a game of cmd.User (Red) against the AI at level.
func (s *Service) startAI(ctx context.Context, cmd Command, level string) (Reply, error) {
	if level == "" {
		level = "medium"
	}
	level = strings.ToLower(level)
	if !validLevel(level) {
		return Reply{}, userErr(ProblemBadLevel, level)
	}
	v := cmd.Variant.withDefaults()
	v.FirstTo = 1
	if err := v.validate(); err != nil {
		return Reply{}, err
	}
	g, err := engine.New(v.config())
	if err != nil {
		return Reply{}, err
	}
	ai := aiPlayer(cmd.Self, level)
	if ai.ID == cmd.User.ID {
		return Reply{}, userErr(ProblemSelfChallenge)
	}
	rec := &sessions.Record{
		Key: cmd.Key, Status: sessions.StatusPlaying,
		Challenger: cmd.User, Opponent: ai, RedID: cmd.User.ID,
		Rows: v.Rows, Cols: v.Cols, Connect: v.Connect, FirstTo: 1,
		Game: encode(g), AILevel: level, Message: cmd.Message,
	}
	if err := s.store.Create(ctx, rec); err != nil {
		return Reply{}, busy(err)
	}
	s.started(cmd, true)
	text := fmt.Sprintf("<@%s> takes on the AI (%s). You're red and you go first.", cmd.User.ID, level)
	return gameView(rec, g, Public, text), nil
}

// answer accepts, declines or cancels the channel's pending challenge.
func (s *Service) answer(ctx context.Context, cmd Command) (Reply, error) {
	now := s.opt.Now()
	var expired bool
	rec, err := s.store.Update(ctx, cmd.Key, func(r *sessions.Record) (sessions.Tally, error) {
		expired = false
		if cmd.FromButton() && r.ID != cmd.GameID {
			return sessions.Tally{}, userErr(ProblemStale)
		}
		switch r.Status {
		case sessions.StatusPlaying:
			if cmd.FromButton() {
				return sessions.Tally{}, userErr(ProblemStale)
			}
			return sessions.Tally{}, userErr(ProblemNoChallenge)
		case sessions.StatusFinished:
			if r.Finish == sessions.FinishExpired {
				return sessions.Tally{}, userErr(ProblemExpired)
			}
			if cmd.FromButton() {
				return sessions.Tally{}, userErr(ProblemStale)
			}
			return sessions.Tally{}, userErr(ProblemNoChallenge)
		}
		if !r.ExpiresAt.IsZero() && !now.Before(r.ExpiresAt) {
			r.Status, r.Finish, expired = sessions.StatusFinished, sessions.FinishExpired, true
			return sessions.Tally{}, nil
		}
		isChallenger, isOpponent := cmd.User.ID == r.Challenger.ID, cmd.User.ID == r.Opponent.ID
		switch cmd.Kind {
		case KindAccept, KindDecline:
			if isChallenger {
				return sessions.Tally{}, userErr(ProblemOwnChallenge)
			}
			if !isOpponent {
				return sessions.Tally{}, userErr(ProblemNotForYou, r.Opponent.ID)
			}
		case KindCancel:
			if !isChallenger {
				return sessions.Tally{}, userErr(ProblemOnlyChallenger, r.Challenger.ID)
			}
		}
		if cmd.Message != (sessions.MessageRef{}) {
			r.Message = cmd.Message
		}
		switch cmd.Kind {
		case KindAccept:
			if r.Opponent.Name == "" || r.Opponent.Name == r.Opponent.ID {
				r.Opponent.Name = cmd.User.Name
			}
			g, err := engine.New(r.Config())
			if err != nil {
				return sessions.Tally{}, err
			}
			r.Status, r.RedID, r.Game, r.ExpiresAt = sessions.StatusPlaying, r.Challenger.ID, encode(g), time.Time{}
		case KindDecline:
			r.Status, r.Finish = sessions.StatusFinished, sessions.FinishDeclined
		default:
			r.Status, r.Finish = sessions.StatusFinished, sessions.FinishCancelled
		}
		return sessions.Tally{}, nil
	})
	if err != nil {
		if errors.Is(err, sessions.ErrNoGame) {
			return Reply{}, userErr(ProblemNoChallenge)
		}
		return Reply{}, err
	}
	vis := Public
	if cmd.FromButton() {
		vis = Update
	}
	if expired {
		s.finished(cmd, sessions.FinishExpired)
		return Reply{Visibility: vis, Problem: ProblemExpired,
			Text: fmt.Sprintf("The challenge from <@%s> to <@%s> expired before it was answered.", rec.Challenger.ID, rec.Opponent.ID)}, nil
	}
	switch rec.Finish {
	case sessions.FinishDeclined:
		s.finished(cmd, rec.Finish)
		return Reply{Visibility: vis, Text: fmt.Sprintf("<@%s> declined the challenge from <@%s>.", rec.Opponent.ID, rec.Challenger.ID)}, nil
	case sessions.FinishCancelled:
		s.finished(cmd, rec.Finish)
		return Reply{Visibility: vis, Text: fmt.Sprintf("<@%s> withdrew the challenge to <@%s>.", rec.Challenger.ID, rec.Opponent.ID)}, nil
	}
	g, err := rec.DecodeGame()
	if err != nil {
		return Reply{}, err
	}
	s.started(cmd, false)
	red, _ := colors(rec)
	return gameView(rec, g, vis, fmt.Sprintf("<@%s> accepted! <@%s> is red and goes first.", rec.Opponent.ID, red.ID)), nil
}

// rematch starts a new game between the players of the channel's finished
// game, with colors swapped.
func (s *Service) rematch(ctx context.Context, cmd Command) (Reply, error) {
	old, err := s.store.Load(ctx, cmd.Key)
	if errors.Is(err, sessions.ErrNoGame) {
		return Reply{}, userErr(ProblemNothingToRematch)
	}
	if err != nil {
		return Reply{}, err
	}
	if cmd.FromButton() && old.ID != cmd.GameID {
		if old.Status != sessions.StatusFinished && old.Rematches > 0 && colorOf(old, cmd.User.ID) != engine.NoPlayer {
			return Reply{}, busy(&sessions.BusyError{Existing: old})
		}
		return Reply{}, userErr(ProblemStale)
	}
	switch {
	case old.Status != sessions.StatusFinished:
		return Reply{}, busy(&sessions.BusyError{Existing: old})
	case len(old.Game) == 0:
		return Reply{}, userErr(ProblemNothingToRematch)
	case colorOf(old, cmd.User.ID) == engine.NoPlayer:
		return Reply{}, userErr(ProblemNotInGame)
	}
	g, err := engine.New(old.Config())
	if err != nil {
		return Reply{}, err
	}
	_, lastYellow := colors(old)
	rec := &sessions.Record{
		Key: cmd.Key, Status: sessions.StatusPlaying,
		Challenger: old.Challenger, Opponent: old.Opponent, RedID: lastYellow.ID,
		Rows: old.Rows, Cols: old.Cols, Connect: old.Connect, FirstTo: old.FirstTo,
		Game: encode(g), AILevel: old.AILevel, Rematches: old.Rematches + 1, Message: cmd.Message,
	}
	if err := s.store.Create(ctx, rec); err != nil {
		return Reply{}, busy(err)
	}
	s.started(cmd, rec.AILevel != "")
	vis := Public
	if cmd.FromButton() {
		vis = Update
	}
	text := fmt.Sprintf("Rematch! <@%s> is red and goes first this time.", lastYellow.ID)
	return s.afterHuman(ctx, cmd, rec, g, vis, text)
}

// duration says d in words, for challenge expiry and claim times.
func duration(d time.Duration) string {
	d = d.Round(time.Minute)
	h, m := int(d.Hours()), int(d.Minutes())%60
	switch {
	case h == 0 && m <= 1:
		return "a minute"
	case h == 0:
		return fmt.Sprintf("%d minutes", m)
	case m == 0 && h == 1:
		return "1 hour"
	case m == 0:
		return fmt.Sprintf("%d hours", h)
	}
	return fmt.Sprintf("%dh %02dm", h, m)
}

func (s *Service) started(cmd Command, ai bool) {
	if f := s.opt.Hooks.GameStarted; f != nil {
		f(cmd.Key.Platform, ai)
	}
}

func (s *Service) finished(cmd Command, f sessions.Finish) {
	if h := s.opt.Hooks.GameFinished; h != nil {
		h(cmd.Key.Platform, f.String())
	}
}
