package discord

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"math"
	"strconv"

	"github.com/connect4/connect4/bot/match"
	"github.com/connect4/connect4/engine/solver"

	discordgo "github.com/bwmarrin/discordgo"

	"github.com/connect4/connect4/bot"
	"github.com/connect4/connect4/bot/lang"
)

// Why an interaction is not a command.
var (
	// errMalformed: no user or channel, or data of the wrong shape. Only a
	// broken or forged request looks like this.
	errMalformed = errors.New("discord: malformed interaction")
	// errForeignButton: a custom_id this bot did not make.
	errForeignButton = errors.New("discord: button not made by this bot")
	// errUnknownCommand: a command or subcommand this bot does not have.
	errUnknownCommand = errors.New("discord: unknown command")
)

// dmWorkspace is the workspace part of the key of a direct-message channel.
const dmWorkspace = "dm"

// maxRefLen is the longest message id kept as a MessageRef; Discord's
// snowflakes are at most 20 digits.
const maxRefLen = 64

// command turns an application command or a button click into a
// bot.Command from user to channel (keyed as placeOf says), with self as
// the bot's own user. It returns errMalformed, errUnknownContext,
// errForeignButton or errUnknownCommand for interactions it cannot run.
func command(in *interaction, self match.Player) (bot.Command, error) {
	var u *user
	switch {
	case in.Member != nil && in.Member.User != nil:
		u = in.Member.User
	case in.User != nil:
		u = in.User
	}
	if u == nil || u.ID == "" || in.Data == nil {
		return bot.Command{}, errMalformed
	}
	at, err := placeOf(in)
	if err != nil {
		return bot.Command{}, err
	}
	cmd := bot.Command{
		Key:   at.key,
		User:  player(u),
		Self:  self,
		Nonce: nonce(in.ID),
		// Only some commands need it, but it costs a field read.
		CanManage: canManage(in),
		// The user's language for replies to them alone, the server's for
		// what the channel sees; bot.Service parses them (an unknown one
		// reads as English).
		Locale:        lang.Clean(in.Locale),
		ChannelLocale: lang.Clean(in.GuildLocale),
	}
	if cmd.Key.Validate() != nil {
		return bot.Command{}, errMalformed
	}
	switch in.Type {
	case discordgo.InteractionApplicationCommand:
		req, err := request(in.Data, self)
		if err != nil {
			return bot.Command{}, err
		}
		cmd.Request = req
	case discordgo.InteractionMessageComponent:
		req, err := bot.ParseAction(in.Data.CustomID)
		if err != nil {
			return bot.Command{}, errForeignButton
		}
		cmd.Request = req
		if in.Message != nil && in.Message.ID != "" && len(in.Message.ID) <= maxRefLen {
			cmd.Message = match.MessageRef{Channel: in.ChannelID, MessageID: in.Message.ID}
		}
	default:
		return bot.Command{}, errMalformed
	}
	return cmd, nil
}

// maxNonce is the longest bot.Command.Nonce.
const maxNonce = 128

// nonce is the identity of an interaction, for bot.Command.Nonce: its id
// (a snowflake, all digits), or for an id of any other form the hex of the
// first 16 bytes of its sha256.
func nonce(id string) string {
	digits := id != "" && len(id) <= maxNonce
	for _, c := range []byte(id) {
		digits = digits && '0' <= c && c <= '9'
	}
	if digits {
		return id
	}
	sum := sha256.Sum256([]byte(id))
	return hex.EncodeToString(sum[:16])
}

// player is the bot's view of a Discord user: the display name where set,
// else the username.
func player(u *user) match.Player {
	name := u.GlobalName
	if name == "" {
		name = u.Username
	}
	return match.Player{ID: u.ID, Name: name}
}

// request reads the options of /connect4 (see Commands) into a bot.Request.
func request(d *interactionData, self match.Player) (bot.Request, error) {
	if d.Name != commandName {
		return bot.Request{}, errUnknownCommand
	}
	if len(d.Options) == 0 || d.Options[0] == nil {
		return bot.Request{Kind: bot.KindHelp}, nil
	}
	sub := d.Options[0]
	if sub.Type != discordgo.ApplicationCommandOptionSubCommand {
		return bot.Request{}, errUnknownCommand
	}
	opts := sub.Options
	switch sub.Name {
	case "challenge", "open":
		req := bot.Request{Kind: bot.KindChallenge}
		if sub.Name == "open" {
			req.Kind = bot.KindOpen
		} else if id, ok := stringOption(opts, "opponent"); ok {
			u := resolvedUser(d.Resolved, id)
			req.Opponent = player(u)
			req.OpponentIsBot = u.Bot && u.ID != self.ID
			for i, name := range [...]string{"opponent2", "opponent3"} {
				if id, ok := stringOption(opts, name); ok {
					u := resolvedUser(d.Resolved, id)
					req.Others[i], req.OtherIsBot[i] = player(u), u.Bot && u.ID != self.ID
				}
			}
		}
		req.Variant.Rows, _ = intOption(opts, "rows")
		req.Variant.Cols, _ = intOption(opts, "cols")
		req.Variant.Connect, _ = intOption(opts, "connect")
		req.Variant.FirstTo, _ = intOption(opts, "first_to")
		req.Variant.Control = timeControl(opts)
		var ok bool
		if req.Variant.First, ok = starter(opts); !ok {
			return bot.Request{}, errMalformed
		}
		return req, nil
	case "ai", "puzzle":
		req := bot.Request{Kind: bot.KindAI}
		if sub.Name == "puzzle" {
			req.Kind = bot.KindPuzzle
		}
		if name, ok := stringOption(opts, "level"); ok {
			// The command offers the levels as choices: anything else is forged.
			l, err := solver.ParseLevel(name)
			if err != nil {
				return bot.Request{}, errMalformed
			}
			req.Level = l
		}
		if sub.Name == "ai" {
			req.Variant.Rows, _ = intOption(opts, "rows")
			req.Variant.Cols, _ = intOption(opts, "cols")
			req.Variant.Connect, _ = intOption(opts, "connect")
			req.Variant.FirstTo, _ = intOption(opts, "first_to")
			var ok bool
			if req.Variant.First, ok = starter(opts); !ok {
				return bot.Request{}, errMalformed
			}
		}
		switch a, _ := stringOption(opts, "action"); a {
		case "":
		case "hint":
			req.PuzzleAsk = bot.PuzzleHint
		case "give_up":
			req.PuzzleAsk = bot.PuzzleGiveUp
		default:
			return bot.Request{}, errMalformed // the command offers these as choices
		}
		return req, nil
	case "stats":
		req := bot.Request{Kind: bot.KindStats}
		if id, ok := stringOption(opts, "player"); ok {
			req.Target = player(resolvedUser(d.Resolved, id))
		}
		if id, ok := stringOption(opts, "versus"); ok {
			req.Versus = player(resolvedUser(d.Resolved, id))
			if req.Target.ID == "" {
				return bot.Request{}, errMalformed // head to head needs both players
			}
		}
		return req, nil
	case "settings":
		return settingsRequest(opts)
	case "tournament":
		return tournamentRequest(opts)
	case "resign":
		whole, _ := boolOption(opts, "match")
		return bot.Request{Kind: bot.KindResign, WholeMatch: whole}, nil
	}
	if k, ok := simpleSubcommands[sub.Name]; ok {
		return bot.Request{Kind: k}, nil
	}
	return bot.Request{}, errUnknownCommand
}

// simpleSubcommands are the subcommands without options.
var simpleSubcommands = map[string]bot.Kind{
	"claim": bot.KindClaim, "board": bot.KindBoard,
	"leaderboard": bot.KindLeaderboard, "help": bot.KindHelp,
	"cancel": bot.KindCancel, "reset": bot.KindReset, "takeback": bot.KindTakeback,
	"seasons": bot.KindSeasons, "new_season": bot.KindNewSeason, "analyze": bot.KindAnalyze,
	"abort": bot.KindAbort, "draw": bot.KindDraw,
}

// boolOption returns the boolean value of option name.
func boolOption(opts []*option, name string) (bool, bool) {
	o := findOption(opts, name)
	if o == nil {
		return false, false
	}
	b, ok := o.Value.(bool)
	return b, ok
}

// The permission bits that let a member manage a channel's seasons.
const (
	permAdministrator  = 1 << 3
	permManageChannels = 1 << 4
	permManageGuild    = 1 << 5
)

// canManage reports whether the member may manage the channel: their
// permissions in it (a decimal bit set) include Administrator, Manage
// Channels or Manage Server. In a direct message, with no member, the user
// manages their own channel with the bot.
func canManage(in *interaction) bool {
	if in.Member == nil {
		return in.GuildID == ""
	}
	if in.Member.Permissions == "" { // no error to build and drop
		return false
	}
	p, err := strconv.ParseUint(in.Member.Permissions, 10, 64)
	return err == nil && p&(permAdministrator|permManageChannels|permManageGuild) != 0
}

// resolvedUser returns the user id from the command's resolved data, or a
// user with only that id.
func resolvedUser(r *resolved, id string) *user {
	if r != nil {
		if u := r.Users[id]; u != nil && u.ID == id {
			return u
		}
	}
	return &user{ID: id}
}

// findOption returns the option called name, or nil.
func findOption(opts []*option, name string) *option {
	for _, o := range opts {
		if o != nil && o.Name == name {
			return o
		}
	}
	return nil
}

// stringOption returns the string (or user id) value of option name, if
// it is a non-empty string.
func stringOption(opts []*option, name string) (string, bool) {
	o := findOption(opts, name)
	if o == nil {
		return "", false
	}
	s, ok := o.Value.(string)
	return s, ok && s != ""
}

// maxIntOption bounds integer options, far outside every allowed range, so
// that conversion to int is exact; bot.Service refuses them by range.
const maxIntOption = 1 << 20

// intOption returns the integer value of option name, if it is a number.
func intOption(opts []*option, name string) (int, bool) {
	o := findOption(opts, name)
	if o == nil {
		return 0, false
	}
	f, ok := o.Value.(float64)
	if !ok || math.IsNaN(f) {
		return 0, false
	}
	return int(max(-maxIntOption, min(maxIntOption, math.Trunc(f)))), true
}

// starter reads the option first (me, them, random); false for a value
// the command does not offer, which is forged.
func starter(opts []*option) (bot.Starter, bool) {
	switch v, _ := stringOption(opts, "first"); v {
	case "":
		return bot.StarterDefault, true
	case "me":
		return bot.StarterMe, true
	case "them":
		return bot.StarterThem, true
	case "random":
		return bot.StarterRandom, true
	}
	return bot.StarterDefault, false
}
