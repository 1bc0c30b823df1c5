package discord

import (
	discordgo "github.com/bwmarrin/discordgo"

	"github.com/connect4/connect4/bot/lang"
)

// What people are told by this adapter (the catalogue's onDiscord.* ids);
// everything else comes from package bot.

// textHelp is the help, in l.
func textHelp(l lang.Lang) string { return l.Say("onDiscord.help", nil) }

// helpResponse is /connect4 help in l: the commands of a game as the
// message (at most 2,000 characters), clocks, draws, aborts, tournaments
// and the channel's language in an embed under it (its description takes
// 4,096), only the sender sees.
func helpResponse(l lang.Lang) *discordgo.InteractionResponse {
	resp := note(textHelp(l))
	resp.Data.Embeds = []*discordgo.MessageEmbed{{Description: l.Say("onDiscord.helpMore", nil)}}
	return resp
}

// textUnknownCommand is the answer to a command this version does not
// know, with the help, in l.
func textUnknownCommand(l lang.Lang) string {
	return l.Say("onDiscord.unknownCommand", nil) + "\n\n" + textHelp(l)
}

// userLang is the language of the person who sent in, for the adapter's
// own replies to them alone: their Discord locale, else English.
func userLang(in *interaction) lang.Lang {
	l, _ := lang.Parse(lang.Clean(in.Locale))
	return l.Or(lang.English)
}

// textForcedEphemeral says, in one line, that the server shows the app's
// answers to the sender alone, so a game there would be invisible.
func textForcedEphemeral(l lang.Lang) string { return l.Say("dm.forcedEphemeral", nil) }

// textUnknownContext refuses an interaction from a kind of conversation
// this version does not know.
func textUnknownContext(l lang.Lang) string { return l.Say("dm.unknownContext", nil) }
