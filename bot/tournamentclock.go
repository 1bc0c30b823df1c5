package bot

import (
	"context"
	"errors"
	"time"

	"github.com/connect4/connect4/bot/clock"
	"github.com/connect4/connect4/bot/lang"
	"github.com/connect4/connect4/bot/match"
	"github.com/connect4/connect4/bot/pairing"
	"github.com/connect4/connect4/bot/tournament"
)

// A tournament's own timed events: its start at a set time (tournament
// new ... start 18:00) and each round's time limit (round 2h). Both are
// schedule entries named by the tournament's id (TournamentSchedule), so
// the worker claims each once across replicas like a record's timer; when
// one fires it is checked against the tournament (an entry made stale by
// a start by hand, or by a round that ended in time, does nothing) and
// carried out by compare-and-set writes: the start by UpdateTournament
// (of replicas racing, one starts it, the others are refused as started),
// each unfinished game's adjudication by a versioned update of its record
// (once: a finished game changes no more), and the round's advance by
// AdvanceTournament, as for any game that ends.

// TournamentSchedule keeps a tournament's timed events in the store's
// schedule: sessions.Redis and sessions.Memory implement it.
type TournamentSchedule interface {
	// ScheduleTournament makes the entry of kind (match.TimerRoundLimit
	// or match.TimerTournamentStart) of channel k's tournament id due at
	// due, moving one there already.
	ScheduleTournament(ctx context.Context, k match.Key, id string, kind match.TimerKind, due time.Time) error
}

// scheduleTournament writes t's next timed event: its start while it
// takes players and has a start time, its round's time limit while a
// round with one runs. It reports whether that went well (nothing to do
// is well); a failure is logged.
func (s *Service) scheduleTournament(ctx context.Context, t *tournament.Tournament) bool {
	kind, due := match.TimerNone, time.Time{}
	switch {
	case t.Status == tournament.Joining && !t.Options.StartAt.IsZero():
		kind, due = match.TimerTournamentStart, t.Options.StartAt
	default:
		if d, ok := t.Deadline(); ok {
			kind, due = match.TimerRoundLimit, d
		}
	}
	if kind == match.TimerNone {
		return true
	}
	sc, ok := s.raw.(TournamentSchedule)
	if !ok {
		s.log.Error("tournament time not scheduled: the store keeps no tournament schedule", "channel", t.Key.String())
		return false
	}
	if err := sc.ScheduleTournament(ctx, t.Key, t.ID, kind, due); err != nil {
		s.log.Error("tournament time not scheduled", "channel", t.Key.String(), "kind", kind.String(), "err", err)
		return false
	}
	return true
}

// fireTournament carries out d, a tournament's timed event (see Fire).
func (s *Service) fireTournament(ctx context.Context, d match.Due) (Notice, error) {
	ts, err := s.tournaments()
	if err != nil {
		return Notice{}, err
	}
	t, err := ts.Tournament(ctx, d.Key)
	switch {
	case errors.Is(err, tournament.ErrNotFound):
		return Notice{}, nil
	case err != nil:
		return Notice{}, err
	case t.ID != d.GameID:
		return Notice{}, nil // another tournament's: stale
	}
	now := s.opt.Now()
	l := s.settingLang(ctx, d.Key).Or(lang.English)
	switch d.Kind {
	case match.TimerTournamentStart:
		if t.Status != tournament.Joining || t.Options.StartAt.UnixMilli() != d.Due.UnixMilli() {
			return Notice{}, nil
		}
		if t.Options.StartAt.After(now) {
			return Notice{}, ErrNotDue
		}
		return s.startOnTime(ctx, ts, l, t, now)
	case match.TimerRoundLimit:
		due, ok := t.Deadline()
		if !ok || due.UnixMilli() != d.Due.UnixMilli() {
			return Notice{}, nil
		}
		if due.After(now) {
			return Notice{}, ErrNotDue
		}
		return s.timeUp(ctx, ts, l, t, now)
	}
	return Notice{}, nil
}

// startOnTime starts t, whose start time has come, on behalf of its
// organiser, with the players who joined; with too few (fewer than
// MinPlayers, or a Swiss with no fewer rounds than players) it cancels t.
func (s *Service) startOnTime(ctx context.Context, ts TournamentStore, l lang.Lang, t *tournament.Tournament, now time.Time) (Notice, error) {
	seeds := s.seeds(ctx, t.Key)
	need := 0 // the players it needed, when too few joined
	t, err := ts.UpdateTournament(ctx, t.Key, t.ID, func(t *tournament.Tournament) error {
		err := t.Start(t.Organiser.ID, seeds, now)
		switch need = 0; tournament.ReasonOf(err) {
		case tournament.ReasonTooFew:
			need = tournament.MinPlayers
		case tournament.ReasonRounds: // a Swiss of as many rounds as players, or more
			need = t.Options.Rounds + 1
		default:
			return err
		}
		return t.Cancel(t.Organiser.ID, now)
	})
	switch r := tournament.ReasonOf(err); {
	case r == tournament.ReasonStarted || r == tournament.ReasonOver:
		return Notice{}, nil // started by hand, or by another replica
	case err != nil:
		return Notice{}, err
	}
	if need > 0 {
		return Notice{Post: &Reply{Visibility: Public, Lang: l,
			Text:  l.Say("tournament.startTooFew", lang.Args{"Limit": need}),
			Edits: []Edit{{Message: t.Message, Reply: tableView(l, t)}}}}, nil
	}
	r := s.roundReply(ctx, l, t)
	r.Visibility = Public
	return Notice{Post: &r}, nil
}

// timeUp adjudicates the unfinished games of t's current round, whose
// time limit has passed: each game's message says how it ended, and the
// last result recorded advances the round (see tournamentOver).
func (s *Service) timeUp(ctx context.Context, ts TournamentStore, l lang.Lang, t *tournament.Tournament, now time.Time) (Notice, error) {
	ctx, n := withNews(ctx)
	var edits []Edit
	for _, g := range t.Rounds[len(t.Rounds)-1].Games {
		if g.GameID == "" || g.Result != pairing.NoResult {
			continue
		}
		var text speech
		rec, err := s.store.Update(ctx, t.Key, g.GameID, func(r *match.Record) (match.Tally, error) {
			tally, said, ok := adjudicate(r, now)
			if !ok {
				return match.Tally{}, match.ErrNoChange
			}
			text = said
			return tally, nil
		})
		switch {
		case errors.Is(err, match.ErrNoGame):
			// Never started (a player was busy) or gone: a draw.
			addNews(ctx, s.tournamentResult(ctx, ts, t, l, g.GameID, ""))
			continue
		case err != nil:
			return Notice{}, err // the worker tries again: what was adjudicated stays so
		case len(text) == 0:
			continue // it ended meanwhile: its own write recorded it
		}
		s.finished(Command{Key: t.Key}, rec.Finish)
		edits = append(edits, Edit{Message: rec.Message, Reply: *flagNotice(l, rec, text)})
	}
	r := n.into(Reply{Visibility: Public, Lang: l, Text: l.Say("tournament.timeUp", lang.Args{"Round": t.Round()})})
	r.Edits = append(edits, r.Edits...)
	return Notice{Post: &r}, nil
}

// adjudicate ends r, a tournament game still in progress when its round's
// time limit passes at now, by the clock rules: under a time control the
// player with the least time left loses on time when the other can still
// connect (clock.Deadline), and it is a draw otherwise; without a time
// control it is a draw. ok is false when r is no longer in progress.
func adjudicate(r *match.Record, now time.Time) (tally match.Tally, text speech, ok bool) {
	if !turnOf(r).playing {
		return match.Tally{}, nil, false
	}
	r.Offer, r.Takeback, r.DrawOffer = nil, nil, ""
	if r.Clock.Running() {
		if loser, v := clock.Deadline(r.Game, r.Clock, now); v == clock.Lost {
			who := r.PlayerOf(loser)
			id := "tournament.adjudicated.lost"
			if left := r.Clock.Remaining(int(loser)-1, now); left == r.Clock.Remaining(2-int(loser), now) {
				id = "tournament.adjudicated.lostEqual" // on equal time the one to move loses (clock.Deadline)
			}
			if err := r.Game.Resign(loser); err == nil {
				tally, _ := settle(r, match.FinishTimeout, true)
				return tally, words(id, lang.Args{"Loser": mention(who), "Winner": mention(tally.Winner)}), true
			}
		}
	}
	red, yellow := r.Colors()
	r.Rounds = append(r.Rounds, match.RoundResult{Finish: match.FinishDraw})
	r.Status, r.Finish = match.StatusFinished, match.FinishDraw
	return match.Tally{Winner: red, Loser: yellow, Draw: true, Rated: true}, words("tournament.adjudicated.drawn", nil), true
}

// forfeitIdle ends r, a tournament game nobody moved in for idle (the
// abandon timer), as the flag-fall rule would if the idle player's flag
// fell: the player whose turn it is loses by forfeit when the other can
// still connect, and it is a draw otherwise; rated, like a loss on time.
// (Outside a tournament such a game is closed unrated: there it must have
// a result, and the one keeping it waiting is the one to lose it.) ok is
// false when r is no longer in progress.
func forfeitIdle(r *match.Record, idle time.Duration) (tally match.Tally, text speech, ok bool) {
	if !turnOf(r).playing {
		return match.Tally{}, nil, false
	}
	g := r.Game
	turn := g.Turn()
	who := r.PlayerOf(turn)
	r.Offer, r.Takeback, r.DrawOffer = nil, nil, ""
	r.Timers = nil // the game is over (Fire keeps the abandon timer, fired)
	if clock.FlagVerdict(g, turn) == clock.Lost && g.Resign(turn) == nil {
		tally, _ := settle(r, match.FinishTimeout, true)
		return tally, words("tournament.forfeit.lost", lang.Args{"Loser": mention(who), "Winner": mention(tally.Winner), "Time": duration(idle)}), true
	}
	red, yellow := r.Colors()
	r.Rounds = append(r.Rounds, match.RoundResult{Finish: match.FinishDraw})
	r.Status, r.Finish = match.StatusFinished, match.FinishDraw
	return match.Tally{Winner: red, Loser: yellow, Draw: true, Rated: true},
		words("tournament.forfeit.drawn", lang.Args{"Player": mention(who), "Time": duration(idle)}), true
}

// endCancelled ends the games of t's current round still in progress, t
// having been cancelled: each ends unrated and uncounted, as an abort
// does, and its message says why. It returns the edits of their messages.
func (s *Service) endCancelled(ctx context.Context, l lang.Lang, t *tournament.Tournament) []Edit {
	if len(t.Rounds) == 0 {
		return nil
	}
	ctx = match.WithNonce(ctx, "") // the tournament's writes, not the command's (see ensureRound)
	var edits []Edit
	for _, g := range t.Rounds[len(t.Rounds)-1].Games {
		if g.GameID == "" || g.Result != pairing.NoResult {
			continue
		}
		var ended bool
		rec, err := s.store.Update(ctx, t.Key, g.GameID, func(r *match.Record) (match.Tally, error) {
			ended = false
			if r.Status == match.StatusFinished {
				return match.Tally{}, match.ErrNoChange
			}
			r.Status, r.Finish = match.StatusFinished, match.FinishCancelled
			r.Offer, r.Takeback, r.DrawOffer = nil, nil, ""
			ended = true
			return match.Tally{}, nil
		})
		switch {
		case errors.Is(err, match.ErrNoGame):
			continue // never started: a player was busy
		case err != nil:
			s.log.Warn("cancelled tournament's game not ended: it plays on as an ordinary game", "channel", t.Key.String(), "game", g.GameID, "err", err)
			continue
		case !ended:
			continue
		}
		s.finished(Command{Key: t.Key}, rec.Finish)
		v := gameView(l, rec, Update, l.Say("tournament.gameCancelled", nil))
		v.Buttons = nil
		edits = append(edits, Edit{Message: rec.Message, Reply: v})
	}
	return edits
}
