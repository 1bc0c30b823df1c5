package discord

import (
	discordgo "github.com/bwmarrin/discordgo"

	"github.com/connect4/connect4/bot"
	"github.com/connect4/connect4/bot/clock"
	"github.com/connect4/connect4/bot/tournament"
)

// tournamentCommand is the subcommand tournament: an action (new, join,
// start, withdraw, cancel; the table without one) and, for new, the
// format, a Swiss's rounds, double, the board and the time control.
func tournamentCommand(
	sub func(name, nameID, descID string, opts ...*discordgo.ApplicationCommandOption) *discordgo.ApplicationCommandOption,
	str func(name, nameID, descID string, choices ...*discordgo.ApplicationCommandOptionChoice) *discordgo.ApplicationCommandOption,
	choice func(value, nameID string) *discordgo.ApplicationCommandOptionChoice,
	intOpt func(name, nameID, descID string, lo, hi int) *discordgo.ApplicationCommandOption,
	opt func(typ discordgo.ApplicationCommandOptionType, name, nameID, descID string) *discordgo.ApplicationCommandOption,
) *discordgo.ApplicationCommandOption {
	return sub("tournament", "command.name.sub.tournament", "command.desc.sub.tournament",
		str("action", "command.name.opt.action", "command.desc.opt.action",
			choice("new", "command.choice.tournamentNew"), choice("join", "command.choice.tournamentJoin"),
			choice("start", "command.choice.tournamentStart"), choice("withdraw", "command.choice.tournamentWithdraw"),
			choice("cancel", "command.choice.tournamentCancel"), choice("standings", "command.choice.tournamentStandings"),
			choice("history", "command.choice.tournamentHistory")),
		str("format", "command.name.opt.format", "command.desc.opt.format",
			choice("round-robin", "command.choice.roundRobin"), choice("swiss", "command.choice.swiss")),
		intOpt("rounds", "command.name.opt.rounds", "command.desc.opt.rounds", 1, tournament.MaxRounds),
		opt(discordgo.ApplicationCommandOptionBoolean, "double", "command.name.opt.double", "command.desc.opt.double"),
		intOpt("rows", "command.name.opt.rows", "command.desc.opt.rows", minSize, maxSize),
		intOpt("cols", "command.name.opt.cols", "command.desc.opt.cols", minSize, maxSize),
		intOpt("connect", "command.name.opt.connect", "command.desc.opt.connect", minConnect, maxConnect),
		str("clock", "command.name.opt.clock", "command.desc.opt.clock"),
		intOpt("days", "command.name.opt.days", "command.desc.opt.days", clock.MinDays, clock.MaxDays),
		str("round", "command.name.opt.roundLimit", "command.desc.opt.roundLimit"),
		str("start", "command.name.opt.start", "command.desc.opt.start"))
}

// tournamentActions are the choices of the tournament subcommand's action.
var tournamentActions = map[string]bot.Kind{
	"": bot.KindTournament, "standings": bot.KindTournament, "new": bot.KindTournamentNew,
	"join": bot.KindTournamentJoin, "start": bot.KindTournamentStart,
	"withdraw": bot.KindTournamentWithdraw, "cancel": bot.KindTournamentCancel,
	"history": bot.KindTournament, // with Request.Tournament.History
}

// tournamentRequest reads the options of the tournament subcommand.
func tournamentRequest(opts []*option) (bot.Request, error) {
	act, _ := stringOption(opts, "action")
	k, ok := tournamentActions[act]
	if !ok {
		return bot.Request{}, errMalformed // the command offers the actions as choices
	}
	req := bot.Request{Kind: k}
	req.Tournament.History = act == "history"
	if k != bot.KindTournamentNew {
		return req, nil
	}
	switch f, _ := stringOption(opts, "format"); f {
	case "", "round-robin":
		req.Tournament.Format = tournament.RoundRobin
	case "swiss":
		req.Tournament.Format = tournament.Swiss
	default:
		return bot.Request{}, errMalformed
	}
	req.Tournament.Rounds, _ = intOption(opts, "rounds")
	req.Tournament.Double, _ = boolOption(opts, "double")
	req.Variant.Rows, _ = intOption(opts, "rows")
	req.Variant.Cols, _ = intOption(opts, "cols")
	req.Variant.Connect, _ = intOption(opts, "connect")
	req.Variant.Control = timeControl(opts)
	req.Tournament.RoundText, _ = stringOption(opts, "round") // read, and refused if bad, by the bot
	req.Tournament.StartText, _ = stringOption(opts, "start")
	return req, nil
}
