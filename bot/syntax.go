package bot

import "github.com/connect4/connect4/bot/lang"

// How a message names a command the person can type next. Slack and the
// terminal read typed words (`/connect4 challenge @someone`), Discord a
// subcommand and its options (`/connect4 challenge opponent:@someone`): a
// message that names a command takes it as an argument, filled in here
// for the platform the reply goes to, so that no one is told a syntax
// their platform does not read. The commands stay English in every
// language, as typed; Discord shows its own names for them in the
// player's language in the command picker.
//
// The person in the example is the language's own word for anyone
// (help.someone: `@jemand`, `@alguien`): it is an example, not a keyword.
//
// The placeholders (each a whole `code` span):
//
//	{{.Challenge}}  how to challenge someone
//	{{.NewSeason}}  how to start a new season
//	{{.BoardSetting}}, {{.PaletteSetting}}  how to choose the channel's
//	                boards (pictures or emoji) and their colours
//	{{.Clock}}, {{.Days}}  a time control's option, as an example: 3+2
//	                (live) and 2 days a move (correspondence)
//	{{.RoundLimit}}, {{.StartAt}}, {{.StartIn}}  a new tournament's round
//	                limit and start time, as examples
//	{{.TournamentNew}}  how to open a tournament

// syntax returns the command placeholders in l for platform (match.Key's
// Platform: "slack", "discord", "terminal"); any other reads as typed text.
func syntax(l lang.Lang, platform string) lang.Args {
	someone := l.Say("help.someone", nil)
	if platform == "discord" {
		return lang.Args{
			"Challenge":      "`/connect4 challenge opponent:" + someone + "`",
			"NewSeason":      "`/connect4 new_season`",
			"BoardSetting":   "`/connect4 settings board:image|emoji`",
			"PaletteSetting": "`/connect4 settings palette:standard|colourblind`",
			"Clock":          "`clock:3+2`",
			"Days":           "`days:2`",
			"RoundLimit":     "`round:2h`",
			"StartAt":        "`start:18:00`",
			"StartIn":        "`start:in 2h`",
			"TournamentNew":  "`/connect4 tournament action:new format:swiss`",
		}
	}
	return lang.Args{
		"Challenge":      "`/connect4 challenge " + someone + "`",
		"NewSeason":      "`/connect4 season new`",
		"BoardSetting":   "`/connect4 settings board image|emoji`",
		"PaletteSetting": "`/connect4 settings palette standard|colourblind`",
		"Clock":          "`clock 3+2`",
		"Days":           "`days 2`",
		"RoundLimit":     "`round 2h`",
		"StartAt":        "`start 18:00`",
		"StartIn":        "`start in 2h`",
		"TournamentNew":  "`/connect4 tournament new swiss`",
	}
}

// withSyntax returns args with the command placeholders in l of platform
// added (args' own values win); args is not modified.
func withSyntax(args lang.Args, l lang.Lang, platform string) lang.Args {
	out := syntax(l, platform)
	for k, v := range args {
		out[k] = v
	}
	return out
}
