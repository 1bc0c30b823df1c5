package bot

import (
	"errors"
	"strconv"
	"strings"
	"time"

	"github.com/connect4/connect4/bot/clock"
	"github.com/connect4/connect4/bot/lang"
	"github.com/connect4/connect4/bot/match"
	"github.com/connect4/connect4/engine"
)

// Time controls. A challenge may name one ("clock 3+2", "days 2"); the
// record keeps it (match.Record.Clock) and the clocks start when the game
// does. Every write through the timed store moves them (tick): a move
// charges the mover and starts the next player's clock, a new round starts
// them afresh, a takeback hands the turn back with the time each had. The
// flag timer (plan) falls at the running clock's FlagAt, and Fire decides
// the game on time (flag) once, whichever replica claims it. A move made
// after the flag fell does not count: it is refused, and the flag timer,
// already due, ends the game within the worker's poll interval.
//
// Time controls are for games between two people: a game of 3 or 4 (whose
// turns skip players who left) and a game against the AI (which answers at
// once) are refused one.

// tick moves r's clocks for a write at now, from prev (nil for a new
// record). It returns a refusal for a move made after the mover's flag
// fell.
func tick(prev *before, r *match.Record, now time.Time) error {
	if !r.Timed() {
		return nil
	}
	now = now.Truncate(time.Millisecond) // as the store keeps it
	k := &r.Clock
	cur := turnOf(r)
	switch {
	case r.Status != match.StatusPlaying:
		return nil
	case k.Players == 0 || (cur.playing && cur.moves == 0 && prev != nil && (!prev.turn.playing || prev.turn.red != cur.red)):
		// The game starts (accepted, a rematch) or a new round of the match.
		*k = clock.Start(k.Control, r.NumPlayers(), now)
		if cur.playing {
			k.Turn = int(r.Game.Turn()) - 1
		}
		return nil
	case prev == nil || prev.turn == cur:
		return nil
	}
	p := prev.turn
	if !p.playing {
		return nil
	}
	switch {
	case p.red == r.RedID && r.Game.Moves() == p.moves+1:
		next := k.Turn // the game is over: the clocks stop with the mover charged
		if cur.playing {
			next = int(r.Game.Turn()) - 1
		}
		moved, err := k.Move(now, next)
		var fe *clock.FlagError
		if errors.As(err, &fe) {
			return &UserError{Problem: ProblemGameOver, ID: "clock.problem.flagFell"}
		}
		if err != nil {
			return err
		}
		*k = moved
	case cur.playing:
		// A takeback (or a turn passed without a move): the player now to
		// move has the time they had, from now.
		k.Turn, k.Since = int(r.Game.Turn())-1, now
	}
	return nil
}

// flagTimer returns the flag timer of r: due when the running clock's flag
// falls, while a game under a time control is being played.
func flagTimer(r *match.Record) (match.Timer, bool) {
	if !r.Timed() || r.Clock.Players == 0 || !turnOf(r).playing {
		return match.Timer{}, false
	}
	return match.Timer{Kind: match.TimerFlag, Due: r.Clock.FlagAt()}, true
}

// flag decides r's game on time at now, when the flag of the player to
// move has fallen: lost on time, or a draw when the other player could no
// longer connect (clock.FlagVerdict). ok is false when there is nothing to
// decide (the game is over, or the flag has not fallen: a move came first).
func flag(r *match.Record, now time.Time) (tally match.Tally, text speech, ok bool) {
	if !turnOf(r).playing || !r.Clock.Fallen(now) {
		return match.Tally{}, nil, false
	}
	g := r.Game
	flagged := engine.Player(r.Clock.Turn + 1)
	if g.Turn() != flagged {
		return match.Tally{}, nil, false
	}
	loser := r.PlayerOf(flagged)
	r.Offer, r.Takeback, r.DrawOffer = nil, nil, ""
	r.Timers = nil // the game is over: no reminder, no abandon (Fire keeps the flag's, fired)
	switch clock.FlagVerdict(g, flagged) {
	case clock.Lost:
		if err := g.Resign(flagged); err != nil {
			return match.Tally{}, nil, false
		}
		tally, _ := settle(r, match.FinishTimeout, true) // its words are for a claim
		text = words("clock.flag.lost", lang.Args{"Loser": mention(loser), "Winner": mention(tally.Winner)})
		if r.FirstTo > 1 {
			text = text.then(speech{{p: matchText(r, tally.Winner.ID, true)}})
		}
		return tally, text, true
	case clock.Drawn:
		red, yellow := r.Colors()
		r.Rounds = append(r.Rounds, match.RoundResult{Finish: match.FinishDraw})
		r.Status, r.Finish = match.StatusFinished, match.FinishDraw
		return match.Tally{Winner: red, Loser: yellow, Draw: true, Rated: true},
			words("clock.flag.drawn", lang.Args{"Player": mention(loser)}), true
	}
	return match.Tally{}, nil, false
}

// clockLine says each player's time left as of the last move, in l:
// "Ann: 2:41 left · Ben: 3:00 left"; "" without a running clock.
func clockLine(l lang.Lang, r *match.Record) string {
	k := r.Clock
	if !r.Timed() || k.Players == 0 {
		return ""
	}
	parts := make([]string, 0, k.Players)
	for i := range k.Players {
		p := r.PlayerOf(engine.Player(i + 1))
		parts = append(parts, l.Say("clock.left", lang.Args{"Player": mention(p), "Time": clock.Format(k.Left[i])}))
	}
	return strings.Join(parts, " · ")
}

// clockProblem is the refusal of a time control cmd asked for.
func clockProblem(err error) error {
	var ce *clock.Error
	if !errors.As(err, &ce) {
		return err
	}
	args := lang.Args{"Value": strconv.Quote(ce.Input), "Min": ce.Min, "Max": ce.Max}
	switch ce.Reason {
	case clock.ReasonZero:
		return &UserError{Problem: ProblemBadVariant, ID: "clock.problem.noTime", Args: args}
	case clock.ReasonMinutes:
		return &UserError{Problem: ProblemBadVariant, ID: "clock.problem.minutes", Args: args}
	case clock.ReasonSeconds:
		return &UserError{Problem: ProblemBadVariant, ID: "clock.problem.seconds", Args: args}
	case clock.ReasonDays:
		args["Value"] = ce.Input // digits only (clock.ParseDays): "days 99", not "days \"99\""
		return &UserError{Problem: ProblemBadVariant, ID: "clock.problem.days", Args: args}
	}
	return &UserError{Problem: ProblemBadVariant, ID: "clock.problem.syntax", Args: args}
}

// checkControl reads the time control typed or picked (see
// Variant.Control), and refuses it where it does not apply: a game of 3
// or 4 players, or against the AI.
func checkControl(typed string, others int, ai bool) (clock.Control, error) {
	if typed == "" {
		return clock.Control{}, nil
	}
	w, v, _ := strings.Cut(typed, " ")
	var c clock.Control
	var err error
	switch strings.ToLower(w) {
	case "days":
		c, err = clock.ParseDays(v)
	case "clock":
		c, err = clock.ParseLive(v)
	default:
		return clock.Control{}, clockProblem(&clock.Error{Reason: clock.ReasonSyntax, Input: typed})
	}
	switch {
	case err != nil:
		return clock.Control{}, clockProblem(err)
	case others > 0:
		return clock.Control{}, &UserError{Problem: ProblemBadVariant, ID: "clock.problem.multi"}
	case ai:
		return clock.Control{}, &UserError{Problem: ProblemBadVariant, ID: "clock.problem.ai"}
	}
	return c, nil
}

// flagNotice is the edit of r's game message once its flag fell, with
// what flag said; nothing said (the flag fell before, and the worker that
// fired it died before its notice) says the game was decided on time.
func flagNotice(l lang.Lang, r *match.Record, text speech) *Reply {
	if len(text) == 0 {
		text = words("clock.flag.again", nil)
	}
	v := gameView(l, r, Update, text.in(l))
	v.Finished = r.Status == match.StatusFinished
	return &v
}

// checkKeep refuses a correspondence control whose time per move is not
// shorter than the time the store keeps an idle game (Options.IdleAfter,
// a little under CONNECT4_GAME_TTL): the game would be closed as
// abandoned before its flag could fall.
func (s *Service) checkKeep(c clock.Control) error {
	if c.Kind != clock.Correspondence || s.opt.IdleAfter <= 0 || c.PerMove < s.opt.IdleAfter {
		return nil
	}
	return &UserError{Problem: ProblemBadVariant, ID: "clock.problem.keep",
		Args: lang.Args{"Days": int(c.PerMove / (24 * time.Hour)), "Time": duration(s.opt.IdleAfter)}}
}
