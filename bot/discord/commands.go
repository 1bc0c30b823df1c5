package discord

import (
	"context"
	"errors"
	"fmt"

	discordgo "github.com/bwmarrin/discordgo"

	"github.com/connect4/connect4/bot"
)

// commandName is the one application command.
const commandName = "connect4"

// The ranges Discord enforces on the challenge options; they mirror the
// engine's limits (4 to 10 rows and columns, connect 3 to 10) and
// bot.MaxFirstTo. bot.Service checks them again.
const (
	minSize, maxSize       = 4, 10
	minConnect, maxConnect = 3, 10
)

// Commands returns the /connect4 application command with its subcommands
// challenge, ai, resign, claim, cancel, board, leaderboard, stats,
// settings, reset and help. Each call returns a new value.
func Commands() []*discordgo.ApplicationCommand {
	num := func(f float64) *float64 { return &f }
	intOpt := func(name, desc string, lo, hi int) *discordgo.ApplicationCommandOption {
		return &discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionInteger,
			Name: name, Description: desc, MinValue: num(float64(lo)), MaxValue: float64(hi)}
	}
	sub := func(name, desc string, opts ...*discordgo.ApplicationCommandOption) *discordgo.ApplicationCommandOption {
		return &discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionSubCommand,
			Name: name, Description: desc, Options: opts}
	}
	contexts := []discordgo.InteractionContextType{discordgo.InteractionContextGuild, discordgo.InteractionContextBotDM}
	return []*discordgo.ApplicationCommand{{
		Name:        commandName,
		Description: "Play Connect Four in this channel",
		Contexts:    &contexts,
		Options: []*discordgo.ApplicationCommandOption{
			sub("challenge", "Challenge someone to a game",
				&discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionUser,
					Name: "opponent", Description: "Who to play", Required: true},
				&discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionUser,
					Name: "opponent2", Description: "A third player (all must accept)"},
				&discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionUser,
					Name: "opponent3", Description: "A fourth player (all must accept)"},
				intOpt("rows", "Rows on the board (default 6)", minSize, maxSize),
				intOpt("cols", "Columns on the board (default 7)", minSize, maxSize),
				intOpt("connect", "Discs in a row to win (default 4)", minConnect, maxConnect),
				intOpt("first_to", "Wins needed to take the match (default 1)", 1, bot.MaxFirstTo)),
			sub("open", "An open challenge anyone in the channel may accept",
				intOpt("rows", "Rows on the board (default 6)", minSize, maxSize),
				intOpt("cols", "Columns on the board (default 7)", minSize, maxSize),
				intOpt("connect", "Discs in a row to win (default 4)", minConnect, maxConnect),
				intOpt("first_to", "Wins needed to take the match (default 1)", 1, bot.MaxFirstTo)),
			sub("ai", "Play against me",
				&discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionString,
					Name: "level", Description: "How hard I try (default medium)",
					Choices: []*discordgo.ApplicationCommandOptionChoice{
						{Name: "easy", Value: "easy"}, {Name: "medium", Value: "medium"}, {Name: "hard", Value: "hard"},
					}}),
			sub("resign", "Give up your current game",
				&discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionBoolean,
					Name: "match", Description: "Give up the whole match, not only this game"}),
			sub("takeback", "Ask to take back your last move, until your opponent moves"),
			sub("claim", "Win a game your opponent has left idle for a day"),
			sub("cancel", "Withdraw your open challenge"),
			sub("analyze", "The solver's verdict on each move of your last finished game here"),
			sub("puzzle", "A position where you have a forced win: find it against my perfect defence",
				&discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionString,
					Name: "level", Description: "How long the win is (default medium)",
					Choices: []*discordgo.ApplicationCommandOptionChoice{
						{Name: "easy (3-4 moves)", Value: "easy"}, {Name: "medium (5-6 moves)", Value: "medium"}, {Name: "hard (7-9 moves)", Value: "hard"},
					}}),
			sub("board", "Show your game again at the bottom (or the games running here)"),
			sub("leaderboard", "This channel's top 10 by rating"),
			sub("stats", "A player's rating, record and form here, or two players' head to head",
				&discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionUser,
					Name: "player", Description: "Whose record (default yours)"},
				&discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionUser,
					Name: "versus", Description: "Their head-to-head record against this player"}),
			sub("seasons", "This channel's past seasons and their podiums"),
			sub("new_season", "Archive this season and start everyone afresh (Manage Channels)"),
			sub("settings", "How this channel shows boards: pictures or emoji, and the colours",
				&discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionString,
					Name: "board", Description: "Pictures or emoji (Manage Channels)",
					Choices: []*discordgo.ApplicationCommandOptionChoice{
						{Name: "image", Value: "image"}, {Name: "emoji", Value: "emoji"},
					}},
				&discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionString,
					Name: "palette", Description: "The colours of the pictures (anyone)",
					Choices: []*discordgo.ApplicationCommandOptionChoice{
						{Name: "standard", Value: "standard"}, {Name: "colourblind", Value: "colourblind"},
					}}),
			sub("reset", "Repair damaged saved data"),
			sub("help", "How to play"),
		},
	}}
}

// RegisterCommands replaces the application's commands with Commands():
// in Config.GuildID when set (they appear at once), else globally (they
// may take a while to appear). It needs Config.ApplicationID and
// Config.BotToken and returns an error naming the missing variables, or
// the REST error.
func (a *Adapter) RegisterCommands(ctx context.Context) error {
	var errs []error
	if a.cfg.ApplicationID == "" {
		errs = append(errs, errors.New("discord: DISCORD_APPLICATION_ID is not set"))
	}
	if a.cfg.BotToken == "" {
		errs = append(errs, errors.New("discord: DISCORD_BOT_TOKEN is not set"))
	}
	if len(errs) > 0 {
		return errors.Join(errs...)
	}
	if _, err := a.rest.ApplicationCommandBulkOverwrite(a.cfg.ApplicationID, a.cfg.GuildID, Commands(), discordgo.WithContext(ctx)); err != nil {
		return fmt.Errorf("discord: register commands: %w", err)
	}
	return nil
}
