package discord

// What people are told by this adapter; everything else comes from package
// bot.
const (
	textUnknownCommand = "I don't know that command."
	textHelp           = "**Connect Four**: drop discs, line up four to win.\n" +
		"• `/connect4 challenge opponent:@someone` challenges someone; add `rows`, `cols`, `connect` or `first_to` for other boards and matches, `opponent2` and `opponent3` for a game of 3 or 4\n" +
		"• `/connect4 open` posts a challenge anyone here may accept (same options)\n" +
		"• `/connect4 ai level:easy|medium|hard` plays against me (or challenge me)\n" +
		"• Click a column number to drop your disc; Rematch and Next round are offers the other player accepts\n" +
		"• `/connect4 board` shows your game again at the bottom (or the games running here)\n" +
		"• `/connect4 takeback` asks to take back your last move, until your opponent moves\n" +
		"• `/connect4 resign` gives up your game (`match:True` the whole match); `/connect4 claim` wins a game your opponent has left idle for a day\n" +
		"• `/connect4 cancel` withdraws your open challenge\n" +
		"• `/connect4 puzzle level:easy|medium|hard` gives you a position with a forced win to find against my perfect defence\n" +
		"• `/connect4 analyze` walks through your last finished game here with the solver's verdict on each move (or click Analysis under a finished game)\n" +
		"• `/connect4 leaderboard` is this channel's top 10 by rating; `/connect4 stats player:@someone [versus:@other]` a rating and record, or head to head\n" +
		"• `/connect4 seasons` lists past seasons; `/connect4 new_season` starts a new one (Manage Channels)\n" +
		"• `/connect4 settings board:image|emoji` shows boards here as pictures or emoji (Manage Channels); `palette:standard|colourblind` picks the colours (anyone)\n" +
		"• `/connect4 reset` repairs damaged saved data"
)
