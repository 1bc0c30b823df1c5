package discord

import (
	"context"
	"errors"
	"fmt"

	discordgo "github.com/bwmarrin/discordgo"

	"github.com/connect4/connect4/bot"
	"github.com/connect4/connect4/bot/clock"
	"github.com/connect4/connect4/bot/lang"
	"github.com/connect4/connect4/bot/match"
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
// settings, reset and help. Names and descriptions are the catalogue's
// (ids command.name.*, command.desc.*, command.choice.*): English as the
// default, and every other language's under each of its Discord locales
// (name_localizations, description_localizations), so that a player sees
// the command in their own language. The names a command is typed with
// stay the English ones in what Discord sends back. Each call returns a
// new value.
func Commands() []*discordgo.ApplicationCommand {
	num := func(f float64) *float64 { return &f }
	opt := func(typ discordgo.ApplicationCommandOptionType, name, nameID, descID string) *discordgo.ApplicationCommandOption {
		return &discordgo.ApplicationCommandOption{Type: typ, Name: name, Description: english(descID),
			NameLocalizations: localized(nameID), DescriptionLocalizations: localized(descID)}
	}
	intOpt := func(name, nameID, descID string, lo, hi int) *discordgo.ApplicationCommandOption {
		o := opt(discordgo.ApplicationCommandOptionInteger, name, nameID, descID)
		o.MinValue, o.MaxValue = num(float64(lo)), float64(hi)
		return o
	}
	user := func(name, nameID, descID string) *discordgo.ApplicationCommandOption {
		return opt(discordgo.ApplicationCommandOptionUser, name, nameID, descID)
	}
	str := func(name, nameID, descID string, choices ...*discordgo.ApplicationCommandOptionChoice) *discordgo.ApplicationCommandOption {
		o := opt(discordgo.ApplicationCommandOptionString, name, nameID, descID)
		o.Choices = choices
		return o
	}
	choice := func(value, nameID string) *discordgo.ApplicationCommandOptionChoice {
		return &discordgo.ApplicationCommandOptionChoice{Name: english(nameID), Value: value, NameLocalizations: localized(nameID)}
	}
	sub := func(name, nameID, descID string, opts ...*discordgo.ApplicationCommandOption) *discordgo.ApplicationCommandOption {
		o := opt(discordgo.ApplicationCommandOptionSubCommand, name, nameID, descID)
		o.Options = opts
		return o
	}
	// The board options of challenge and open.
	sizes := func() []*discordgo.ApplicationCommandOption {
		return []*discordgo.ApplicationCommandOption{
			intOpt("rows", "command.name.opt.rows", "command.desc.opt.rows", minSize, maxSize),
			intOpt("cols", "command.name.opt.cols", "command.desc.opt.cols", minSize, maxSize),
			intOpt("connect", "command.name.opt.connect", "command.desc.opt.connect", minConnect, maxConnect),
			intOpt("first_to", "command.name.opt.first_to", "command.desc.opt.first_to", 1, bot.MaxFirstTo),
			str("clock", "command.name.opt.clock", "command.desc.opt.clock"),
			intOpt("days", "command.name.opt.days", "command.desc.opt.days", clock.MinDays, clock.MaxDays),
		}
	}
	// Who moves first in a game of two; descID says the default.
	first := func(descID string) *discordgo.ApplicationCommandOption {
		return str("first", "command.name.opt.first", descID,
			choice("me", "command.choice.firstMe"), choice("them", "command.choice.firstThem"), choice("random", "command.choice.firstRandom"))
	}
	// Installed to a server or to a user; used in servers, the bot's DM,
	// and any other DM or group DM (where only a user install reaches).
	contexts := []discordgo.InteractionContextType{discordgo.InteractionContextGuild, discordgo.InteractionContextBotDM,
		discordgo.InteractionContextPrivateChannel}
	installs := []discordgo.ApplicationIntegrationType{discordgo.ApplicationIntegrationGuildInstall, discordgo.ApplicationIntegrationUserInstall}
	nameLoc, descLoc := localized("command.name.connect4"), localized("command.desc.connect4")
	return []*discordgo.ApplicationCommand{{
		Name:                     commandName,
		NameLocalizations:        &nameLoc,
		Description:              english("command.desc.connect4"),
		DescriptionLocalizations: &descLoc,
		Contexts:                 &contexts,
		IntegrationTypes:         &installs,
		Options: []*discordgo.ApplicationCommandOption{
			sub("challenge", "command.name.sub.challenge", "command.desc.sub.challenge", append([]*discordgo.ApplicationCommandOption{
				func() *discordgo.ApplicationCommandOption {
					o := user("opponent", "command.name.opt.opponent", "command.desc.opt.opponent")
					o.Required = true
					return o
				}(),
				user("opponent2", "command.name.opt.opponent2", "command.desc.opt.opponent2"),
				user("opponent3", "command.name.opt.opponent3", "command.desc.opt.opponent3"),
				first("command.desc.opt.first"),
			}, sizes()...)...),
			sub("open", "command.name.sub.open", "command.desc.sub.open",
				append([]*discordgo.ApplicationCommandOption{first("command.desc.opt.openFirst")}, sizes()...)...),
			sub("ai", "command.name.sub.ai", "command.desc.sub.ai",
				str("level", "command.name.opt.level", "command.desc.opt.aiLevel",
					choice("easy", "command.choice.easy"), choice("medium", "command.choice.medium"), choice("hard", "command.choice.hard")),
				intOpt("rows", "command.name.opt.rows", "command.desc.opt.rows", minSize, maxSize),
				intOpt("cols", "command.name.opt.cols", "command.desc.opt.cols", minSize, maxSize),
				intOpt("connect", "command.name.opt.connect", "command.desc.opt.connect", minConnect, maxConnect),
				intOpt("first_to", "command.name.opt.first_to", "command.desc.opt.first_to", 1, bot.MaxFirstTo),
				first("command.desc.opt.aiFirst")),
			sub("resign", "command.name.sub.resign", "command.desc.sub.resign",
				opt(discordgo.ApplicationCommandOptionBoolean, "match", "command.name.opt.match", "command.desc.opt.match")),
			sub("takeback", "command.name.sub.takeback", "command.desc.sub.takeback"),
			sub("abort", "command.name.sub.abort", "command.desc.sub.abort"),
			sub("draw", "command.name.sub.draw", "command.desc.sub.draw"),
			sub("claim", "command.name.sub.claim", "command.desc.sub.claim"),
			sub("cancel", "command.name.sub.cancel", "command.desc.sub.cancel"),
			sub("analyze", "command.name.sub.analyze", "command.desc.sub.analyze"),
			sub("puzzle", "command.name.sub.puzzle", "command.desc.sub.puzzle",
				str("level", "command.name.opt.level", "command.desc.opt.puzzleLevel",
					choice("easy", "command.choice.puzzleEasy"), choice("medium", "command.choice.puzzleMedium"), choice("hard", "command.choice.puzzleHard")),
				str("action", "command.name.opt.action", "command.desc.opt.puzzleAction",
					choice("hint", "command.choice.hint"), choice("give_up", "command.choice.giveUp"))),
			sub("board", "command.name.sub.board", "command.desc.sub.board"),
			sub("leaderboard", "command.name.sub.leaderboard", "command.desc.sub.leaderboard"),
			sub("stats", "command.name.sub.stats", "command.desc.sub.stats",
				user("player", "command.name.opt.player", "command.desc.opt.player"),
				user("versus", "command.name.opt.versus", "command.desc.opt.versus")),
			sub("seasons", "command.name.sub.seasons", "command.desc.sub.seasons"),
			sub("new_season", "command.name.sub.new_season", "command.desc.sub.new_season"),
			sub("settings", "command.name.sub.settings", "command.desc.sub.settings",
				str("board", "command.name.opt.board", "command.desc.opt.board",
					choice("image", "command.choice.image"), choice("emoji", "command.choice.emoji")),
				str("palette", "command.name.opt.palette", "command.desc.opt.palette",
					choice("standard", "command.choice.standard"), choice("colourblind", "command.choice.colourblind")),
				str("language", "command.name.opt.language", "command.desc.opt.language", languages(choice)...)),
			tournamentCommand(sub, str, choice, intOpt, opt),
			sub("reset", "command.name.sub.reset", "command.desc.sub.reset"),
			sub("help", "command.name.sub.help", "command.desc.sub.help"),
		},
	}}
}

// languages are the choices of the settings' language option: the
// channel's platform default (localized), then each language by its own
// name, which is the same in every locale.
func languages(choice func(value, nameID string) *discordgo.ApplicationCommandOptionChoice) []*discordgo.ApplicationCommandOptionChoice {
	cs := []*discordgo.ApplicationCommandOptionChoice{choice(match.LanguageDefault, "command.choice.languageDefault")}
	for _, l := range lang.All {
		same := make(map[discordgo.Locale]string)
		for _, other := range lang.All[1:] {
			for _, loc := range other.DiscordLocales() {
				same[discordgo.Locale(loc)] = l.Name()
			}
		}
		cs = append(cs, &discordgo.ApplicationCommandOptionChoice{Name: l.Name(), Value: l.String(), NameLocalizations: same})
	}
	return cs
}

// english is the catalogue's English for id: a command's default name or
// description.
func english(id string) string { return lang.English.Say(id, nil) }

// localized returns id in every language but English, under each of the
// language's Discord locales. A language whose catalogue lacks id yet
// says it in English, which Discord accepts as the same text.
func localized(id string) map[discordgo.Locale]string {
	m := make(map[discordgo.Locale]string)
	for _, l := range lang.All {
		if l == lang.English {
			continue
		}
		s := l.Say(id, nil)
		for _, loc := range l.DiscordLocales() {
			m[discordgo.Locale(loc)] = s
		}
	}
	return m
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
