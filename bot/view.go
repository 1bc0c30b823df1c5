package bot

import (
	"strconv"
	"strings"
	"time"

	"github.com/connect4/connect4/bot/lang"
	"github.com/connect4/connect4/bot/match"
	"github.com/connect4/connect4/engine/solver"

	"github.com/connect4/connect4/engine"
)

// score is the match score line of rec in l, or "" for a single game.
func score(l lang.Lang, r *match.Record) string {
	if r.FirstTo <= 1 {
		return ""
	}
	a, b := r.Score()
	return l.Say("game.score", lang.Args{"FirstTo": r.FirstTo, "Challenger": "<@" + r.Challenger.ID + ">",
		"ChallengerWins": a, "OpponentWins": b, "Opponent": "<@" + r.Opponent.ID + ">"})
}

// variant describes a non-default variant: a board, a match, both, or
// nothing.
func variant(r *match.Record) phrase {
	cfg := r.Config()
	board := !isDefaultBoard(cfg)
	switch {
	case board && r.FirstTo > 1:
		return phrase{"game.variant.boardMatch", lang.Args{"Size": size(cfg), "FirstTo": r.FirstTo}}
	case board:
		return phrase{"game.variant.board", lang.Args{"Size": size(cfg)}}
	case r.FirstTo > 1:
		return phrase{"game.variant.match", lang.Args{"FirstTo": r.FirstTo}}
	}
	return phrase{} // said as nothing
}

// challengeView is the reply in l showing rec's pending challenge, which
// expires in ttl.
func challengeView(l lang.Lang, r *match.Record, vis Visibility, ttl time.Duration) Reply {
	act := func(k Kind) string { return Action{Kind: k, GameID: r.ID}.String() }
	if r.Opponent.ID == "" {
		// An open challenge pings nobody.
		return Reply{Visibility: vis, People: []match.Player{r.Challenger}, Lang: l,
			Text: say(l, "offer.challenge.open", lang.Args{"Challenger": mention(r.Challenger), "Variant": variant(r), "Time": duration(ttl)}),
			Buttons: []Button{
				{Label: l.Say("button.accept", nil), Value: act(KindAccept), Style: StylePrimary},
				{Label: l.Say("button.cancel", nil), Value: act(KindCancel)},
			}}
	}
	if r.Multi() {
		return multiChallengeView(l, r, vis, ttl)
	}
	text := say(l, "offer.challenge.direct", lang.Args{"Challenger": "<@" + r.Challenger.ID + ">", "Opponent": "<@" + r.Opponent.ID + ">",
		"Variant": variant(r), "Time": duration(ttl)})
	return Reply{Visibility: vis, Text: text, Notify: []string{r.Opponent.ID}, Lang: l,
		People: []match.Player{r.Challenger, r.Opponent}, Buttons: []Button{
			{Label: l.Say("button.accept", nil), Value: act(KindAccept), Style: StylePrimary},
			{Label: l.Say("button.decline", nil), Value: act(KindDecline), Style: StyleDanger},
			{Label: l.Say("button.cancel", nil), Value: act(KindCancel)},
		}}
}

// multiChallengeView is challengeView for a challenge of 3 or 4 players:
// who is invited, who has accepted, who the game still waits for.
func multiChallengeView(l lang.Lang, r *match.Record, vis Visibility, ttl time.Duration) Reply {
	act := func(k Kind) string { return Action{Kind: k, GameID: r.ID}.String() }
	invited := othersOf(r, r.Challenger.ID)
	waiting := r.Invited()
	sp := words("offer.challenge.multi", lang.Args{"Challenger": mention(r.Challenger), "Players": people(invited),
		"Count": r.NumPlayers(), "Variant": variant(r)})
	var next speech
	if len(r.Accepted) > 0 {
		in := make([]match.Player, 0, len(r.Accepted))
		for _, id := range r.Accepted {
			p, _ := r.PlayerByID(id)
			in = append(in, p)
		}
		next = words("offer.challenge.accepted", lang.Args{"Players": people(in)})
	}
	next = next.then(words("offer.challenge.waiting", lang.Args{"Players": people(waiting), "Time": duration(ttl)}))
	text := sp.in(l) + "\n" + next.in(l)
	return Reply{Visibility: vis, Text: text, Notify: ids(waiting), Lang: l,
		People: r.Seats(), Buttons: []Button{
			{Label: l.Say("button.accept", nil), Value: act(KindAccept), Style: StylePrimary},
			{Label: l.Say("button.decline", nil), Value: act(KindDecline), Style: StyleDanger},
			{Label: l.Say("button.cancel", nil), Value: act(KindCancel)},
		}}
}

// gameView is the reply in l showing rec's current round with text on
// top, and the buttons that fit its state.
func gameView(l lang.Lang, r *match.Record, vis Visibility, text string) Reply {
	g := r.Game
	red, yellow := r.Colors()
	reply := Reply{Visibility: vis, Text: text, Game: g, GameID: r.ID, Red: red, Yellow: yellow, Score: score(l, r), Lang: l}
	if r.Multi() {
		reply.Others = inTurnOrder(r)[2:]
	}
	cfg := g.Config()
	// One allocation for the columns and the two buttons at most that
	// follow them (a draw's Accept and Decline, or Analysis and Rematch),
	// rather than four as the slice grew.
	reply.Buttons = make([]Button, 0, cfg.Cols+2)
	var values [engine.MaxSize]string
	Action{Kind: KindDrop, GameID: r.ID, Move: g.Moves(), Human: r.AILevel == solver.LevelNone}.columnValues(cfg.Cols, &values)
	for c := 0; c < cfg.Cols; c++ {
		reply.Buttons = append(reply.Buttons, Button{
			Label:    strconv.Itoa(c + 1),
			Value:    values[c],
			Column:   c + 1,
			Disabled: !g.CanPlay(c),
		})
	}
	drawButtons(l, r, &reply)
	reply.OnTime = g.State() == engine.Resigned && len(r.Rounds) > 0 && r.Rounds[len(r.Rounds)-1].Finish == match.FinishTimeout
	reply.Clock = clockLine(l, r)
	if t, ok := flagTimer(r); ok {
		reply.FlagAt = t.Due
	}
	if r.Rating != nil && g.State().Over() {
		reply.Text = strings.TrimSpace(reply.Text + "\n" + ratingChangeText(l, r.Rating))
	}
	switch {
	case r.Status == match.StatusPlaying && g.State().Over():
		reply.Buttons = append(reply.Buttons, Button{Label: l.Say("button.nextRound", nil), Style: StylePrimary,
			Value: Action{Kind: KindNextRound, GameID: r.ID, Move: g.Moves()}.String()})
	case r.Status == match.StatusFinished:
		if g.Moves() > 0 && analyzable(g) {
			reply.Buttons = append(reply.Buttons, Button{Label: l.Say("button.analysis", nil),
				Value: Action{Kind: KindAnalyze, GameID: r.ID, Move: g.Moves()}.String()})
		}
		if r.Puzzle == nil { // a new puzzle is /connect4 puzzle
			reply.Buttons = append(reply.Buttons, Button{Label: l.Say("button.rematch", nil), Style: StylePrimary,
				Value: Action{Kind: KindRematch, GameID: r.ID, Move: g.Moves()}.String()})
		}
	}
	return reply
}

// isDefaultBoard reports whether cfg is the standard board, for any number
// of players (a game of 3 or 4 says so in its own words).
func isDefaultBoard(cfg engine.Config) bool {
	cfg.Players = 0
	return cfg == engine.DefaultConfig()
}

// size spells out a board as players say it, columns first: "7 columns ×
// 6 rows, connect 4".
func size(cfg engine.Config) phrase {
	return phrase{"game.size", lang.Args{"Cols": cfg.Cols, "Rows": cfg.Rows, "Connect": cfg.Connect}}
}

// sizeText is size said in l.
func sizeText(l lang.Lang, cfg engine.Config) string { return size(cfg).in(l) }

// moveText announces a disc dropped by p in col (0-based).
func moveText(p match.Player, col int) speech {
	return words("game.dropped", lang.Args{"Player": mention(p), "Column": col + 1})
}
