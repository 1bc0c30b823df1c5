package bot

import (
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/connect4/connect4/bot/match"

	"github.com/connect4/connect4/engine"
	"github.com/connect4/connect4/engine/solver"
)

// Kind is what a command asks for. The zero value KindNone asks for nothing
// and gets the help text.
type Kind uint8

// The kinds of command. New kinds are only ever appended.
const (
	KindNone Kind = iota
	KindHelp
	KindChallenge
	KindAI
	KindAccept
	KindDecline
	KindCancel
	KindDrop
	KindResign
	KindClaim
	KindBoard
	KindLeaderboard
	KindStats
	KindRematch
	KindNextRound
	KindReset
	KindNewSeason
	KindSeasons
	KindOfferAccept
	KindOfferDecline
	KindOfferWithdraw
	KindTakeback
	KindTakebackAccept
	KindTakebackDecline
	KindOpen
	KindSettings
	KindAnalyze
	KindPuzzle
)

var kindNames = [...]string{
	KindNone: "none", KindHelp: "help", KindChallenge: "challenge", KindAI: "ai",
	KindAccept: "accept", KindDecline: "decline", KindCancel: "cancel", KindDrop: "drop",
	KindResign: "resign", KindClaim: "claim", KindBoard: "board", KindLeaderboard: "leaderboard",
	KindStats: "stats", KindRematch: "rematch", KindNextRound: "next", KindReset: "reset",
	KindNewSeason: "season_new", KindSeasons: "seasons",
	KindOfferAccept: "offer_accept", KindOfferDecline: "offer_decline", KindOfferWithdraw: "offer_withdraw",
	KindTakeback: "takeback", KindTakebackAccept: "takeback_accept", KindTakebackDecline: "takeback_decline",
	KindOpen: "open", KindSettings: "settings", KindAnalyze: "analyze", KindPuzzle: "puzzle",
}

// String returns the kind's lower-case name, as used in logs and metrics.
func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "kind(" + strconv.Itoa(int(k)) + ")"
}

// Variant is the board and match chosen in a challenge. A zero field means
// the default: 6 rows, 7 columns, connect 4, first to 1 win.
type Variant struct {
	Rows, Cols, Connect int
	FirstTo             int
	Players             int // 2, 3 or 4; 0 means 2 (set from the players named, not typed)
}

// MaxFirstTo is the longest match a challenge may ask for.
const MaxFirstTo = 9

// withDefaults fills the zero fields of v.
func (v Variant) withDefaults() Variant {
	d := engine.DefaultConfig()
	if v.Rows == 0 {
		v.Rows = d.Rows
	}
	if v.Cols == 0 {
		v.Cols = d.Cols
	}
	if v.Connect == 0 {
		v.Connect = min(d.Connect, max(v.Rows, v.Cols))
	}
	if v.FirstTo == 0 {
		v.FirstTo = 1
	}
	return v
}

// config returns the engine size of v (with defaults filled).
func (v Variant) config() engine.Config {
	cfg := engine.Config{Rows: v.Rows, Cols: v.Cols, Connect: v.Connect}
	if v.Players > 2 {
		cfg.Players = v.Players
	}
	return cfg
}

// validate returns a *UserError naming the allowed range of the first bad
// value of v (with defaults filled).
func (v Variant) validate() error {
	if err := v.config().Validate(); err != nil {
		var ce *engine.ConfigError
		if errors.As(err, &ce) && ce.Rule != "" {
			return userErr(ProblemBoardTooSmall, ce.Rule)
		}
		if errors.As(err, &ce) {
			return userErr(ProblemBadVariant, ce.Field, ce.Value, ce.Min, ce.Max)
		}
		return err
	}
	if v.FirstTo < 1 || v.FirstTo > MaxFirstTo {
		return userErr(ProblemBadVariant, "first-to", v.FirstTo, 1, MaxFirstTo)
	}
	if v.Players > 2 && v.FirstTo > 1 {
		return userErr(ProblemMultiMatch)
	}
	return nil
}

// Request is what a person asked for, whatever the platform.
type Request struct {
	Kind Kind

	// Challenge: whom, whether the platform marks them as a bot user, and the
	// variant.
	Opponent      match.Player
	OpponentIsBot bool
	Variant       Variant
	// Others are the third and fourth players of a challenge for 3 or 4,
	// in the order named (zero Players where fewer are named), and
	// OtherIsBot says which of them the platform marks as bot users.
	Others     [MaxOthers]match.Player
	OtherIsBot [MaxOthers]bool

	// AI: the level; solver.LevelNone for the default.
	Level solver.Level

	// Resign: give up the whole match, not only the current game.
	WholeMatch bool

	// Stats: whose; the zero Player means the person asking. With Versus
	// set too, the head-to-head record of Target against Versus.
	Target, Versus match.Player

	// Buttons: the game the button was drawn for, the move number it was
	// drawn at, and for a drop the 0-based column.
	GameID string
	Move   int
	Column int
	// Human: the drop button was drawn for a game between two people.
	Human bool

	// Settings: the change asked for (zero fields stay as they are; all
	// zero shows the channel's settings).
	Settings match.Settings
}

// Command is one request from one person in one channel.
type Command struct {
	Key  match.Key    // the channel
	User match.Player // who asked
	// Self is this bot's own user on the platform: challenging it starts a
	// game against the AI, which plays under this identity. Its ID may be
	// empty where the platform does not tell.
	Self match.Player
	// Message is the message a button was clicked on, if any.
	Message match.MessageRef
	// CanManage says the platform lets User manage the channel (Discord:
	// Manage Channels or Manage Server; Slack: a workspace admin or
	// owner; the terminal: always). Starting a new season needs it.
	CanManage bool
	// Nonce identifies the signed request this command came from (Discord:
	// the interaction id; Slack: a hash of the request's timestamp and
	// signature), so that a replay of the same request within the
	// platforms' 5-minute window changes nothing, on any replica. Empty
	// where there is no signed request (the terminal); at most 128
	// URL-safe characters.
	Nonce string
	Request
}

// FromButton reports whether the command came from a button on a message,
// so that the reply can update that message in place.
func (c Command) FromButton() bool { return c.GameID != "" }

// MaxOthers is the most players a challenge may invite beside the
// opponent: a game has at most engine.MaxPlayers.
const MaxOthers = engine.MaxPlayers - 2

// invited returns the Others named, in order.
func (r Request) invited() []match.Player {
	var ps []match.Player
	for _, p := range r.Others {
		if p != (match.Player{}) {
			ps = append(ps, p)
		}
	}
	return ps
}

// mention is <@ID> or <@ID|name>, the escaped form Slack sends; Discord and
// the terminal adapter use <@ID> too.
var mentionToken = regexp.MustCompile(`^<@([A-Za-z0-9_.\-]{1,128})(?:\|([^<>]{0,256}))?>$`)

// ParseMention returns the player named by a <@ID> or <@ID|name> token.
func ParseMention(s string) (match.Player, bool) {
	m := mentionToken.FindStringSubmatch(s)
	if m == nil {
		return match.Player{}, false
	}
	return match.Player{ID: m[1], Name: m[2]}, true
}

var sizeWord = regexp.MustCompile(`^(\d{1,2})\s*[x×]\s*(\d{1,2})$`)

// ParseText parses the text typed after /connect4 (as on Slack and in the
// terminal): "@user [@user2 [@user3]] [COLSxROWS] [connect N] [first-to
// N]", "challenge @user ...", "ai [easy|medium|hard]", "accept", "decline", "cancel", "resign",
// "claim", "board", "leaderboard", "stats [@user [@user]]", "rematch",
// "reset", "season new", "seasons", "settings [board image|emoji]
// [palette standard|colourblind]", "analyze", "puzzle [easy|medium|hard]", "help". Mentions must already be in the <@ID> form. Anything else
// returns a *UserError (ProblemUsage) whose reply is the help text; a bad
// AI level returns ProblemBadLevel with the Request's Kind still set, so
// that logs can name what was asked for.
func ParseText(text string) (Request, error) {
	words := strings.Fields(text)
	if len(words) == 0 {
		return Request{Kind: KindHelp}, nil
	}
	head := strings.ToLower(words[0])
	if _, ok := ParseMention(words[0]); ok {
		head = "challenge"
	} else {
		words = words[1:]
	}
	simple := map[string]Kind{
		"help": KindHelp, "accept": KindAccept, "decline": KindDecline, "cancel": KindCancel,
		"claim": KindClaim, "board": KindBoard, "leaderboard": KindLeaderboard,
		"top": KindLeaderboard, "rematch": KindRematch, "reset": KindReset, "seasons": KindSeasons,
		"takeback": KindTakeback, "undo": KindTakeback,
		"analyze": KindAnalyze, "analyse": KindAnalyze, "analysis": KindAnalyze,
	}
	if k, ok := simple[head]; ok {
		if len(words) > 0 {
			return Request{}, userErr(ProblemUsage, text)
		}
		return Request{Kind: k}, nil
	}
	switch head {
	case "resign":
		switch {
		case len(words) == 0:
			return Request{Kind: KindResign}, nil
		case len(words) == 1 && strings.EqualFold(words[0], "match"):
			return Request{Kind: KindResign, WholeMatch: true}, nil
		}
	case "season":
		if len(words) == 1 && strings.EqualFold(words[0], "new") {
			return Request{Kind: KindNewSeason}, nil
		}
	case "stats":
		switch len(words) {
		case 0:
			return Request{Kind: KindStats}, nil
		case 1:
			if p, ok := ParseMention(words[0]); ok {
				return Request{Kind: KindStats, Target: p}, nil
			}
		case 2:
			p, ok1 := ParseMention(words[0])
			q, ok2 := ParseMention(words[1])
			if ok1 && ok2 {
				return Request{Kind: KindStats, Target: p, Versus: q}, nil
			}
		}
	case "ai", "bot":
		if ps, _ := leadingMentions(words); len(ps) > 0 {
			// The AI plays two people's games only: keep whom they named,
			// so that the refusal can say why.
			req := Request{Kind: KindAI}
			copy(req.Others[:], ps)
			return req, nil
		}
		switch len(words) {
		case 0:
			return Request{Kind: KindAI}, nil
		case 1:
			l, err := ParseLevel(words[0])
			if err != nil {
				return Request{Kind: KindAI}, err
			}
			return Request{Kind: KindAI, Level: l}, nil
		}
	case "settings", "setting":
		return parseSettings(text, words)
	case "puzzle":
		switch len(words) {
		case 0:
			return Request{Kind: KindPuzzle}, nil
		case 1:
			l, err := ParseLevel(words[0])
			if err != nil {
				return Request{Kind: KindPuzzle}, err
			}
			return Request{Kind: KindPuzzle, Level: l}, nil
		}
	case "open":
		v, err := parseVariant(words)
		if err != nil {
			return Request{Kind: KindOpen}, err
		}
		return Request{Kind: KindOpen, Variant: v}, nil
	case "challenge", "play", "vs":
		if len(words) == 0 {
			break
		}
		ps, rest := leadingMentions(words)
		if len(ps) == 0 {
			break
		}
		if len(ps) > 1+MaxOthers {
			return Request{}, userErr(ProblemTooManyPlayers, engine.MaxPlayers)
		}
		v, err := parseVariant(rest)
		if err != nil {
			return Request{}, err
		}
		req := Request{Kind: KindChallenge, Opponent: ps[0], Variant: v}
		copy(req.Others[:], ps[1:])
		return req, nil
	}
	return Request{}, userErr(ProblemUsage, text)
}

// leadingMentions returns the players named by the mentions words start
// with, and the words after them.
func leadingMentions(words []string) ([]match.Player, []string) {
	var ps []match.Player
	for len(words) > 0 {
		p, ok := ParseMention(words[0])
		if !ok {
			break
		}
		ps, words = append(ps, p), words[1:]
	}
	return ps, words
}

// ParseLevel returns the AI level named s ("easy", "medium" or "hard", in
// any case), or a *UserError (ProblemBadLevel) naming it.
func ParseLevel(s string) (solver.Level, error) {
	l, err := solver.ParseLevel(s)
	if err != nil {
		return solver.LevelNone, userErr(ProblemBadLevel, strings.ToLower(s))
	}
	return l, nil
}

// parseVariant reads "8x9", "connect 5" and "first-to 3" (also "first to
// 3") in any order. A value given as 0 is refused rather than taken as the
// default.
func parseVariant(words []string) (Variant, error) {
	var v Variant
	for i := 0; i < len(words); i++ {
		w := strings.ToLower(words[i])
		var field string
		var dst *int
		switch {
		case sizeWord.MatchString(w):
			// Columns first, as Connect Four is named: 7x6 is the
			// standard board of 7 columns and 6 rows.
			m := sizeWord.FindStringSubmatch(w)
			v.Cols, _ = strconv.Atoi(m[1])
			v.Rows, _ = strconv.Atoi(m[2])
			if v.Rows == 0 {
				return Variant{}, userErr(ProblemBadVariant, "rows", 0, engine.MinSize, engine.MaxSize)
			}
			if v.Cols == 0 {
				return Variant{}, userErr(ProblemBadVariant, "cols", 0, engine.MinSize, engine.MaxSize)
			}
			continue
		case w == "connect" || w == "line":
			field, dst = "connect", &v.Connect
		case w == "first-to" || w == "first_to" || w == "firstto" || w == "ft":
			field, dst = "first-to", &v.FirstTo
		case w == "first" && i+1 < len(words) && strings.ToLower(words[i+1]) == "to":
			field, dst = "first-to", &v.FirstTo
			i++
		default:
			return Variant{}, userErr(ProblemUsage, fmt.Sprintf("unknown option %q", words[i]))
		}
		i++
		if i >= len(words) {
			return Variant{}, userErr(ProblemUsage, field+" needs a number")
		}
		n, err := strconv.Atoi(words[i])
		if err != nil || n < 1 || n > 99 {
			if err != nil {
				return Variant{}, userErr(ProblemUsage, fmt.Sprintf("%q is not a number for %s", words[i], field))
			}
			lo, hi := engine.MinConnect, engine.MaxSize
			if field == "first-to" {
				lo, hi = 1, MaxFirstTo
			}
			return Variant{}, userErr(ProblemBadVariant, field, n, lo, hi)
		}
		*dst = n
	}
	return v, nil
}

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
}

var gameIDPattern = regexp.MustCompile(`^[A-Za-z0-9_\-]{1,64}$`)

// String encodes a as "c4:<kind>:<game>:<move>:<column>".
func (a Action) String() string {
	kind := a.Kind.String()
	if a.Kind == KindDrop && a.Human {
		kind = humanDrop
	}
	return actionPrefix + ":" + kind + ":" + a.GameID + ":" + strconv.Itoa(a.Move) + ":" + strconv.Itoa(a.Column)
}

// ParseAction decodes a button value made by Action.String into a Request.
// Anything else (forged, truncated, out of range) returns an error.
func ParseAction(s string) (Request, error) {
	if len(s) > MaxActionLen {
		return Request{}, errors.New("bot: action too long")
	}
	parts := strings.Split(s, ":")
	if len(parts) != 5 || parts[0] != actionPrefix {
		return Request{}, fmt.Errorf("bot: malformed action %q", s)
	}
	kind, ok := buttonKinds[parts[1]]
	if !ok {
		return Request{}, fmt.Errorf("bot: unknown action kind %q", parts[1])
	}
	if !gameIDPattern.MatchString(parts[2]) {
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
