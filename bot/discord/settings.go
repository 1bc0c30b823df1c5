package discord

import (
	"github.com/connect4/connect4/bot"
	"github.com/connect4/connect4/bot/lang"
	"github.com/connect4/connect4/bot/match"
)

// settingsRequest reads the settings subcommand's options board and
// palette (offered as choices: anything else is forged) into a request.
func settingsRequest(opts []*option) (bot.Request, error) {
	req := bot.Request{Kind: bot.KindSettings}
	if s, ok := stringOption(opts, "board"); ok {
		b, err := match.ParseBoardStyle(s)
		if err != nil || (s != "image" && s != "emoji") {
			return bot.Request{}, errMalformed
		}
		req.Settings.Board = b
	}
	if s, ok := stringOption(opts, "palette"); ok {
		p, err := match.ParsePalette(s)
		if err != nil || (s != "standard" && s != "colourblind") {
			return bot.Request{}, errMalformed
		}
		req.Settings.Palette = p
	}
	if s, ok := stringOption(opts, "language"); ok {
		l, known := lang.ParseCode(s)
		switch {
		case s == match.LanguageDefault:
			req.Settings.Language = match.LanguageDefault
		case known:
			req.Settings.Language = l.String()
		default:
			return bot.Request{}, errMalformed // not one of the choices registered
		}
	}
	return req, nil
}
