package bot

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/connect4/connect4/bot/match"
	"github.com/connect4/connect4/engine"
)

// Action is what a button does; its encoded form goes in a button's value
// (Slack) or custom_id (Discord) and carries the game id and the move
// number it was drawn at, so stale and repeated clicks are recognised.
type Action struct {
	Kind   Kind // KindAccept, KindDecline, KindCancel, KindDrop, KindRematch, KindNextRound, or an offer or takeback answer
	GameID string
	Move   int
	Column int // 0-based; drops only
	// Human marks a drop in a game between two people, encoded as the kind
	// "move": no AI move can follow it, so adapters answer it at once
	// instead of preparing to defer (see Service.Slow).
	Human bool
}

// actionPrefix starts every encoded action.
const actionPrefix = "c4"

// humanDrop is the encoded kind of a drop in a game between two people.
const humanDrop = "move"

// MaxActionLen is the longest encoded action, within Discord's 100
// characters for a custom_id.
const MaxActionLen = 100

var buttonKinds = map[string]Kind{
	"accept": KindAccept, "decline": KindDecline, "cancel": KindCancel,
	"drop": KindDrop, humanDrop: KindDrop, "rematch": KindRematch, "next": KindNextRound,
	"offer_accept": KindOfferAccept, "offer_decline": KindOfferDecline, "offer_withdraw": KindOfferWithdraw,
	"takeback_accept": KindTakebackAccept, "takeback_decline": KindTakebackDecline,
	"claim":   KindClaim,
	"analyze": KindAnalyze,
	"draw":    KindDraw, "draw_accept": KindDrawAccept, "draw_decline": KindDrawDecline,
	"tournament_join": KindTournamentJoin, "tournament": KindTournament,
}

// String encodes a as "c4:<kind>:<game>:<move>:<column>".
func (a Action) String() string {
	var buf [MaxActionLen]byte
	return string(a.append(buf[:0]))
}

// append appends a encoded (see String) to b.
func (a Action) append(b []byte) []byte {
	kind := a.Kind.String()
	if a.Kind == KindDrop && a.Human {
		kind = humanDrop
	}
	b = append(append(append(b, actionPrefix...), ':'), kind...)
	b = append(append(append(b, ':'), a.GameID...), ':')
	b = append(strconv.AppendInt(b, int64(a.Move), 10), ':')
	return strconv.AppendInt(b, int64(a.Column), 10)
}

// columnValues sets vals[c], for each of a board's cols columns, to the
// encoded drop in column c (a with Column c, as String encodes it), all
// cut from one string: one allocation for the row rather than one per
// button, on every board a move shows.
func (a Action) columnValues(cols int, vals *[engine.MaxSize]string) {
	var buf [MaxActionLen]byte
	a.Column = 0
	head := a.append(buf[:0])
	head = head[:len(head)-1] // without its column, "0"
	var sb strings.Builder
	sb.Grow(cols * (len(head) + 1))
	var ends [engine.MaxSize]int
	for c := range cols {
		sb.Write(head)
		sb.WriteByte(byte('0' + c)) // columns are 0 to engine.MaxSize-1: one digit
		ends[c] = sb.Len()
	}
	all, start := sb.String(), 0
	for c := range cols {
		vals[c], start = all[start:ends[c]], ends[c]
	}
}

// ParseAction decodes a button value made by Action.String into a Request.
// Anything else (forged, truncated, out of range) returns an error.
func ParseAction(s string) (Request, error) {
	if len(s) > MaxActionLen {
		return Request{}, errors.New("bot: action too long")
	}
	// Cut rather than Split and a regular expression for the game id
	// (match.ValidGameID's letters, digits, '-' and '_', 1 to 64): the same
	// checks without a slice and a regular expression run on every click.
	var parts [5]string
	rest, ok := s, true
	for i := range 4 {
		if parts[i], rest, ok = strings.Cut(rest, ":"); !ok {
			break
		}
	}
	parts[4] = rest
	if !ok || strings.Contains(rest, ":") || parts[0] != actionPrefix {
		return Request{}, fmt.Errorf("bot: malformed action %q", s)
	}
	kind, ok := buttonKinds[parts[1]]
	if !ok {
		return Request{}, fmt.Errorf("bot: unknown action kind %q", parts[1])
	}
	if !match.ValidGameID(parts[2]) {
		return Request{}, fmt.Errorf("bot: malformed game id in action %q", s)
	}
	move, err1 := strconv.Atoi(parts[3])
	col, err2 := strconv.Atoi(parts[4])
	if err1 != nil || err2 != nil || move < 0 || move > engine.MaxSize*engine.MaxSize ||
		col < 0 || col >= engine.MaxSize {
		return Request{}, fmt.Errorf("bot: bad numbers in action %q", s)
	}
	return Request{Kind: kind, GameID: parts[2], Move: move, Column: col, Human: parts[1] == humanDrop}, nil
}
