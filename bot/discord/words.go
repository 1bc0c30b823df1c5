package discord

// What people are told by this adapter; everything else comes from package
// bot.
const (
	textForeignButton  = "That button isn't one of mine, so it did nothing."
	textUnknownCommand = "I don't know that command."
	textHelp           = "**Connect Four**: drop discs, line up four to win.\n" +
		"• `/connect4 challenge opponent:@someone` challenges someone; add `rows`, `cols`, `connect` or `first_to` for other boards and matches\n" +
		"• `/connect4 ai level:easy|medium|hard` plays against me (or challenge me)\n" +
		"• Click a column number to drop your disc; Rematch swaps who starts\n" +
		"• `/connect4 board` shows this channel's game again at the bottom\n" +
		"• `/connect4 resign` gives up your game; `/connect4 claim` wins a game your opponent has left idle for a day\n" +
		"• `/connect4 cancel` withdraws your open challenge\n" +
		"• `/connect4 leaderboard` is this channel's top 10; `/connect4 stats player:@someone` one player's record\n" +
		"• `/connect4 reset` clears a damaged saved game"
)
