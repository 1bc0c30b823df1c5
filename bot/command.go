package bot

import (
	"errors"
	"strconv"
	"strings"

	"github.com/connect4/connect4/bot/lang"
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
	KindAbort
	KindDraw
	KindDrawAccept
	KindDrawDecline
	KindTournament         // the channel's tournament: its table
	KindTournamentNew      // a manager opens one
	KindTournamentJoin     // join it (typed, or its button)
	KindTournamentStart    // the organiser starts it
	KindTournamentWithdraw // leave it
	KindTournamentCancel   // the organiser calls it off
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
	KindAbort: "abort", KindDraw: "draw", KindDrawAccept: "draw_accept", KindDrawDecline: "draw_decline",
	KindTournament: "tournament", KindTournamentNew: "tournament_new", KindTournamentJoin: "tournament_join",
	KindTournamentStart: "tournament_start", KindTournamentWithdraw: "tournament_withdraw", KindTournamentCancel: "tournament_cancel",
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
	First               Starter
	// Control is the time control asked for: a word ("clock" or "days")
	// and its value ("3+2", "2") as typed or picked; "" is the usual claim
	// after a day without a move. The Service reads and checks it.
	Control string
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
			return userErr(ProblemBoardTooSmall, lang.Args{"Rule": ce.Rule})
		}
		if errors.As(err, &ce) {
			return badVariant(ce.Field, ce.Value, ce.Min, ce.Max)
		}
		return err
	}
	if v.FirstTo < 1 || v.FirstTo > MaxFirstTo {
		return badVariant("first-to", v.FirstTo, 1, MaxFirstTo)
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
	// Puzzle: a new one (of Level), a hint, or giving up.
	PuzzleAsk PuzzleAsk

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

	// Tournament: what a new tournament is to be (its board and time
	// control are in Variant).
	Tournament TournamentAsk

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
	// Locale is the language the person asked in, as the platform gives
	// it (Discord: the interaction's locale; Slack: users.info's locale;
	// the terminal: -lang, LC_ALL or LANG); empty where unknown. Replies to
	// them alone are in it. Malformed or unknown reads as English.
	Locale string
	// ChannelLocale is the language the platform gives for the channel
	// (Discord: the server's guild_locale); empty where it gives none.
	// Messages the whole channel sees are in the channel's language
	// setting, else this, else the game creator's Locale.
	ChannelLocale string
	// Names are players the adapter knows in the channel, by the name a
	// person types after @ (the terminal: everyone who has typed there):
	// a typed command not understood may be suggested with one of them.
	// Nil where the adapter knows none.
	Names []string
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

// clipNames returns c with every display name cut to what a record keeps
// (match.MaxNameLen bytes, whole characters): a platform may send a
// longer one (a Slack real name), which must not turn a challenge into
// an internal error.
func (c Command) clipNames() Command {
	clipName := func(p *match.Player) {
		if len(p.Name) > match.MaxNameLen {
			p.Name = strings.ToValidUTF8(p.Name[:match.MaxNameLen], "")
		}
	}
	clipName(&c.User)
	clipName(&c.Self)
	clipName(&c.Opponent)
	clipName(&c.Target)
	clipName(&c.Versus)
	for i := range c.Others {
		clipName(&c.Others[i])
	}
	return c
}
