package discord

import (
	"errors"
	"math"

	"github.com/connect4/connect4/bot/match"
	"github.com/connect4/connect4/engine/solver"

	discordgo "github.com/bwmarrin/discordgo"

	"github.com/connect4/connect4/bot"
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
// bot.Command from user to channel, with self as the bot's own user. It
// returns errMalformed, errForeignButton or errUnknownCommand for
// interactions it cannot run.
func command(in *discordgo.Interaction, self match.Player) (bot.Command, error) {
	var u *discordgo.User
	switch {
	case in.Member != nil && in.Member.User != nil:
		u = in.Member.User
	case in.User != nil:
		u = in.User
	}
	if u == nil || u.ID == "" {
		return bot.Command{}, errMalformed
	}
	cmd := bot.Command{
		Key:  match.Key{Platform: "discord", Workspace: in.GuildID, Channel: in.ChannelID},
		User: player(u),
		Self: self,
	}
	if cmd.Key.Workspace == "" {
		cmd.Key.Workspace = dmWorkspace
	}
	if cmd.Key.Validate() != nil {
		return bot.Command{}, errMalformed
	}
	switch data := in.Data.(type) {
	case discordgo.ApplicationCommandInteractionData:
		if in.Type != discordgo.InteractionApplicationCommand {
			return bot.Command{}, errMalformed
		}
		req, err := request(data, self)
		if err != nil {
			return bot.Command{}, err
		}
		cmd.Request = req
	case discordgo.MessageComponentInteractionData:
		req, err := bot.ParseAction(data.CustomID)
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

// player is the bot's view of a Discord user: the display name where set,
// else the username.
func player(u *discordgo.User) match.Player {
	name := u.GlobalName
	if name == "" {
		name = u.Username
	}
	return match.Player{ID: u.ID, Name: name}
}

// request reads the options of /connect4 (see Commands) into a bot.Request.
func request(d discordgo.ApplicationCommandInteractionData, self match.Player) (bot.Request, error) {
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
	case "challenge":
		req := bot.Request{Kind: bot.KindChallenge}
		if id, ok := stringOption(opts, "opponent"); ok {
			u := resolvedUser(d.Resolved, id)
			req.Opponent = player(u)
			req.OpponentIsBot = u.Bot && u.ID != self.ID
		}
		req.Variant.Rows, _ = intOption(opts, "rows")
		req.Variant.Cols, _ = intOption(opts, "cols")
		req.Variant.Connect, _ = intOption(opts, "connect")
		req.Variant.FirstTo, _ = intOption(opts, "first_to")
		return req, nil
	case "ai":
		req := bot.Request{Kind: bot.KindAI}
		if name, ok := stringOption(opts, "level"); ok {
			// The command offers the levels as choices: anything else is forged.
			l, err := solver.ParseLevel(name)
			if err != nil {
				return bot.Request{}, errMalformed
			}
			req.Level = l
		}
		return req, nil
	case "stats":
		req := bot.Request{Kind: bot.KindStats}
		if id, ok := stringOption(opts, "player"); ok {
			req.Target = player(resolvedUser(d.Resolved, id))
		}
		return req, nil
	}
	if k, ok := simpleSubcommands[sub.Name]; ok {
		return bot.Request{Kind: k}, nil
	}
	return bot.Request{}, errUnknownCommand
}

// simpleSubcommands are the subcommands without options.
var simpleSubcommands = map[string]bot.Kind{
	"resign": bot.KindResign, "claim": bot.KindClaim, "board": bot.KindBoard,
	"leaderboard": bot.KindLeaderboard, "help": bot.KindHelp,
	"cancel": bot.KindCancel, "reset": bot.KindReset,
}

// resolvedUser returns the user id from the command's resolved data, or a
// user with only that id.
func resolvedUser(r *discordgo.ApplicationCommandInteractionDataResolved, id string) *discordgo.User {
	if r != nil {
		if u := r.Users[id]; u != nil && u.ID == id {
			return u
		}
	}
	return &discordgo.User{ID: id}
}

// option returns the option called name, or nil.
func option(opts []*discordgo.ApplicationCommandInteractionDataOption, name string) *discordgo.ApplicationCommandInteractionDataOption {
	for _, o := range opts {
		if o != nil && o.Name == name {
			return o
		}
	}
	return nil
}

// stringOption returns the string (or user id) value of option name; unlike
// discordgo's StringValue and UserValue it never panics.
func stringOption(opts []*discordgo.ApplicationCommandInteractionDataOption, name string) (string, bool) {
	o := option(opts, name)
	if o == nil {
		return "", false
	}
	s, ok := o.Value.(string)
	return s, ok && s != ""
}

// maxIntOption bounds integer options, far outside every allowed range, so
// that conversion to int is exact; bot.Service refuses them by range.
const maxIntOption = 1 << 20

// intOption returns the integer value of option name; unlike discordgo's
// IntValue it never panics.
func intOption(opts []*discordgo.ApplicationCommandInteractionDataOption, name string) (int, bool) {
	o := option(opts, name)
	if o == nil {
		return 0, false
	}
	f, ok := o.Value.(float64)
	if !ok || math.IsNaN(f) {
		return 0, false
	}
	return int(max(-maxIntOption, min(maxIntOption, math.Trunc(f)))), true
}
