package bot

import (
	"context"
	"errors"

	"github.com/connect4/connect4/bot/lang"
	"github.com/connect4/connect4/bot/match"

	"github.com/connect4/connect4/engine"
	"github.com/connect4/connect4/engine/solver"
)

// drop drops the clicking player's disc in the clicked column, then lets
// the AI answer in an AI game.
func (s *Service) drop(ctx context.Context, cmd Command) (Reply, error) {
	// What the function in the store's compare-and-set reads and writes
	// lives in one allocation (the function's variables moved to the heap
	// one by one: the command, the text, whether the game was over).
	d := &dropping{cmd: cmd}
	rec, err := s.updatePlayable(ctx, &d.cmd, func(r *match.Record, me engine.Player) (match.Tally, error) {
		return d.play(ctx, s, r, me)
	})
	if err != nil {
		return Reply{}, noGame(d.cmd, err)
	}
	s.moved(d.cmd)
	if rec.Status == match.StatusFinished {
		s.finished(d.cmd, rec.Finish)
	}
	return s.afterHuman(ctx, d.cmd, rec, Update, d.text)
}

// dropping is a drop in the store's compare-and-set: the command, and the
// text that announces the move.
type dropping struct {
	cmd  Command
	text speech
}

// play drops d's disc as player me in r.
func (d *dropping) play(ctx context.Context, s *Service, r *match.Record, me engine.Player) (match.Tally, error) {
	cmd := &d.cmd
	g := r.Game
	if cmd.Move != g.Moves() {
		return match.Tally{}, userErr(ProblemStale)
	}
	if t := g.Turn(); t != me {
		return match.Tally{}, userErr(ProblemNotYourTurn, lang.Args{"Player": "<@" + r.PlayerOf(t).ID + ">"})
	}
	if err := g.Play(me, cmd.Column); err != nil {
		var me *engine.MoveError
		if errors.As(err, &me) && me.Reason == engine.ReasonColumnFull {
			return match.Tally{}, userErr(ProblemColumnFull, lang.Args{"Column": cmd.Column + 1})
		}
		if errors.As(err, &me) && me.Reason == engine.ReasonOutOfRange {
			return match.Tally{}, userErr(ProblemStale)
		}
		return match.Tally{}, err
	}
	r.Takeback = nil // a move lapses a pending takeback
	d.text = moveText(cmd.User, cmd.Column)
	var tally match.Tally
	if g.State().Over() {
		var end speech
		tally, end = settle(r, match.FinishNone, false)
		d.text = d.text.line(end)
	}
	if r.Puzzle != nil {
		verdict, t, err := puzzleCheck(s.channelLang(ctx, *cmd, r), r, me)
		if err != nil {
			return match.Tally{}, err
		}
		if verdict != "" {
			d.text = d.text.line(said(verdict))
			tally = t
		}
	}
	if !cmd.Message.IsZero() {
		r.Message = cmd.Message
	}
	return tally, nil
}

// updatePlayable runs fn in the store's compare-and-set on the game cmd
// acts on (its button's, or the caller's own), once playable says the
// caller may act in its current round, with the caller's color. It takes
// cmd by pointer: the closure handed to the store would otherwise copy the
// whole command to the heap on every move, beside the caller's own.
func (s *Service) updatePlayable(ctx context.Context, cmd *Command, fn func(r *match.Record, me engine.Player) (match.Tally, error)) (*match.Record, error) {
	id, err := s.target(ctx, *cmd)
	if err != nil {
		return nil, err
	}
	return s.store.Update(ctx, cmd.Key, id, func(r *match.Record) (match.Tally, error) {
		me, err := s.playable(r, *cmd)
		if err != nil {
			return match.Tally{}, err
		}
		return fn(r, me)
	})
}

// playable checks that cmd's user may act in rec's current round and
// returns the user's color.
func (s *Service) playable(r *match.Record, cmd Command) (engine.Player, error) {
	if cmd.FromButton() && r.ID != cmd.GameID {
		return 0, userErr(ProblemStale)
	}
	switch r.Status {
	case match.StatusPending:
		waiting := r.Opponent.ID
		if inv := r.Invited(); len(inv) > 0 {
			waiting = inv[0].ID
		}
		switch waiting {
		case "": // an open challenge
			return 0, &UserError{Problem: ProblemNotStarted, ID: "problem.notStartedOpen"}
		case cmd.User.ID:
			return 0, &UserError{Problem: ProblemNotStarted, ID: "problem.notStartedYou"}
		}
		return 0, userErr(ProblemNotStarted, lang.Args{"Player": "<@" + waiting + ">"})
	case match.StatusFinished:
		if !cmd.FromButton() {
			return 0, userErr(ProblemNoGame)
		}
		return 0, userErr(ProblemGameOver)
	}
	me := r.ColorOf(cmd.User.ID)
	if me == engine.NoPlayer {
		return 0, userErr(ProblemNotInGame)
	}
	if r.Game.State().Over() {
		return 0, userErr(ProblemRoundOver)
	}
	if r.Game.Left(me) {
		return 0, userErr(ProblemLeftGame)
	}
	return me, nil
}

// noGame turns ErrNoGame into its refusal: for a button, the game it was
// drawn for is gone (expired, or an id that names nothing), so the button
// is out of date; typed, the caller has no game.
func noGame(cmd Command, err error) error {
	switch {
	case !errors.Is(err, match.ErrNoGame):
		return err
	case cmd.FromButton():
		return userErr(ProblemStale)
	}
	return userErr(ProblemNoGame)
}

// settle records the end of rec's current round: the round result, and
// the end of the match when a player has reached FirstTo wins, when wholeMatch
// is set (a player gave up the whole match), or for a timeout claim (the
// idle player has left). A resignation gives up the current game only.
// finish is FinishResign or FinishTimeout for those, FinishNone for an end
// on the board. It returns the tally for the leaderboard (none in AI games)
// and the announcement, which says what the result does to the match.
func settle(r *match.Record, finish match.Finish, wholeMatch bool) (match.Tally, speech) {
	if r.Multi() {
		return settleMulti(r, finish)
	}
	g := r.Game
	red, yellow := r.Colors()
	var tally match.Tally
	var text speech
	res := match.RoundResult{Finish: finish}
	switch g.State() {
	case engine.Draw:
		res.Finish = match.FinishDraw
		tally = match.Tally{Winner: red, Loser: yellow, Draw: true}
		text = words("game.end.draw", nil)
	default:
		w, l := red, yellow
		if g.Winner() == engine.Yellow {
			w, l = yellow, red
		}
		res.Winner = w.ID
		tally = match.Tally{Winner: w, Loser: l}
		switch {
		case finish == match.FinishResign && wholeMatch && r.FirstTo > 1:
			text = words("game.end.gaveUpMatch", lang.Args{"Loser": mention(l)})
		case finish == match.FinishResign:
			text = words("game.end.resigned", lang.Args{"Loser": mention(l), "Winner": mention(w)})
		case finish == match.FinishTimeout:
			text = words("game.end.timeout", lang.Args{"Loser": mention(l), "Winner": mention(w)})
		default:
			res.Finish = match.FinishWin
			text = words("game.end.win", lang.Args{"Winner": mention(w)})
		}
	}
	r.Rounds = append(r.Rounds, res)
	if r.AILevel != solver.LevelNone {
		tally = match.Tally{} // games against the AI count nowhere
	} else {
		tally.Rated = true // every finished game between two people is rated
	}
	matchOver := r.FirstTo <= 1 || wholeMatch || finish == match.FinishTimeout || r.MatchWon()
	if matchOver {
		r.Status, r.Finish = match.StatusFinished, res.Finish
	}
	if r.FirstTo > 1 {
		text = text.then(speech{{p: matchText(r, res.Winner, matchOver)}})
	}
	return tally, text
}

// settleMulti is settle for a game of 3 or 4 players, a single game: the
// winner wins and every other player loses (a draw for all on a full
// board), unrated; finish says how the last player before the winner
// left, as for settle.
func settleMulti(r *match.Record, finish match.Finish) (match.Tally, speech) {
	g := r.Game
	res := match.RoundResult{Finish: finish}
	var tally match.Tally
	var text speech
	if g.State() == engine.Draw {
		ps := inTurnOrder(r)
		res.Finish = match.FinishDraw
		tally = match.Tally{Winner: ps[0], Loser: ps[1], Others: ps[2:], Draw: true}
		text = words("game.end.drawFull", nil)
	} else {
		w := r.PlayerOf(g.Winner())
		res.Winner = w.ID
		losers := othersOf(r, w.ID)
		tally = match.Tally{Winner: w, Loser: losers[0], Others: losers[1:]}
		switch finish {
		case match.FinishNone:
			res.Finish = match.FinishWin
			text = words("game.end.win", lang.Args{"Winner": mention(w)})
		default:
			text = words("game.end.lastLeft", lang.Args{"Winner": mention(w)})
		}
	}
	r.Rounds = append(r.Rounds, res)
	r.Status, r.Finish = match.StatusFinished, res.Finish
	return tally, text
}

// matchText says where a match stands after a round: who leads, or who won
// it, with the score as it is.
func matchText(r *match.Record, lastWinner string, over bool) phrase {
	a, b := r.Score()
	lead, ahead, behind := r.Challenger, a, b
	if b > a {
		lead, ahead, behind = r.Opponent, b, a
	}
	switch {
	case over && lastWinner != "":
		w, _ := r.PlayerByID(lastWinner)
		mine := r.Wins(w.ID)
		return phrase{"game.match.won", lang.Args{"Winner": mention(w), "Wins": mine, "Losses": a + b - mine}}
	case over:
		return phrase{"game.match.ended", lang.Args{"Ahead": ahead, "Behind": behind}}
	case a == b:
		return phrase{"game.match.level", lang.Args{"Wins": a, "FirstTo": r.FirstTo}}
	}
	return phrase{"game.match.leads", lang.Args{"Leader": mention(lead), "Ahead": ahead, "Behind": behind, "FirstTo": r.FirstTo}}
}

// end resigns the current game for cmd.User (KindResign), or claims it for
// the player who has waited longer than the turn timeout (KindClaim).
func (s *Service) end(ctx context.Context, cmd Command) (Reply, error) {
	now := s.opt.Now()
	var text speech
	rec, err := s.updatePlayable(ctx, &cmd, func(r *match.Record, me engine.Player) (match.Tally, error) {
		g := r.Game
		finish := match.FinishResign
		gone := cmd.User // who leaves the game
		if cmd.Kind == KindResign {
			if err := g.Resign(me); err != nil {
				return match.Tally{}, err
			}
			text = words("game.end.resignedLeaves", lang.Args{"Player": mention(gone)})
		} else {
			idle := g.Turn()
			if idle == me {
				return match.Tally{}, userErr(ProblemYourMove)
			}
			if next := nextAfter(g, idle); r.Multi() && next != me {
				// In a game of 3 or 4 the one waiting on the idle player is
				// the next to move: only they may claim.
				return match.Tally{}, userErr(ProblemNotNextToClaim, lang.Args{"Next": "<@" + r.PlayerOf(next).ID + ">", "Idle": "<@" + r.PlayerOf(idle).ID + ">"})
			}
			if left := s.claimableAt(r).Sub(now); left > 0 {
				return match.Tally{}, userErr(ProblemTooEarly, lang.Args{"Player": "<@" + r.PlayerOf(idle).ID + ">", "Time": duration(left)})
			}
			if err := g.Resign(idle); err != nil {
				return match.Tally{}, err
			}
			finish = match.FinishTimeout
			gone = r.PlayerOf(idle)
			text = words("game.end.timeoutLeaves", lang.Args{"Player": mention(gone)})
		}
		r.Takeback = nil // the game it asked about is over
		if r.Multi() && !g.State().Over() {
			// The game goes on without them.
			text = text.then(words("game.yourMove", lang.Args{"Player": mention(r.PlayerOf(g.Turn()))}))
			return match.Tally{}, nil
		}
		tally, t := settle(r, finish, cmd.WholeMatch)
		if r.Multi() {
			t = text.then(t)
		}
		text = t
		return tally, nil
	})
	if err != nil {
		return Reply{}, noGame(cmd, err)
	}
	if rec.Status == match.StatusFinished || !rec.Multi() {
		s.finished(cmd, rec.Finish)
	}
	l := s.channelLang(ctx, cmd, rec)
	return gameView(l, rec, Public, text.in(l)), nil
}

// nextRound starts the next round of a match, colors swapped.
//
// Between two people it is an offer the other accepts; against the AI it
// starts at once.
func (s *Service) nextRound(ctx context.Context, cmd Command) (Reply, error) {
	if r, ok, err := s.aiNextRound(ctx, cmd); ok {
		return r, err
	}
	return s.offer(ctx, cmd, match.OfferNextRound)
}

// startNextRound starts the next round of the match in record gameID, whose round ended after moveNo moves, colors swapped.
func (s *Service) startNextRound(ctx context.Context, cmd Command, gameID string, moveNo int) (Reply, error) {
	var text speech
	rec, err := s.store.Update(ctx, cmd.Key, gameID, func(r *match.Record) (match.Tally, error) {
		if r.ID != gameID {
			return match.Tally{}, userErr(ProblemStale)
		}
		if r.Status != match.StatusPlaying {
			return match.Tally{}, userErr(ProblemGameOver)
		}
		if r.ColorOf(cmd.User.ID) == engine.NoPlayer {
			return match.Tally{}, userErr(ProblemNotInGame)
		}
		g := r.Game
		if !g.State().Over() || g.Moves() != moveNo {
			return match.Tally{}, userErr(ProblemStale) // the next round has already begun
		}
		_, yellow := r.Colors()
		next, err := engine.New(r.Config())
		if err != nil {
			return match.Tally{}, err
		}
		r.RedID, r.Game, r.Offer, r.Takeback = yellow.ID, next, nil, nil
		if !cmd.Message.IsZero() {
			r.Message = cmd.Message
		}
		text = words("game.start.round", lang.Args{"Round": len(r.Rounds) + 1, "Red": mention(yellow)})
		return match.Tally{}, nil
	})
	if err != nil {
		return Reply{}, noGame(cmd, err)
	}
	return s.afterHuman(ctx, cmd, rec, Update, text)
}

func (s *Service) moved(cmd Command) {
	if f := s.opt.Hooks.Move; f != nil {
		f(cmd.Key.Platform)
	}
}
