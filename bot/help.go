package bot

import (
	"strings"
	"time"

	"github.com/connect4/connect4/bot/lang"
)

// helpIDs are the lines of the help, in order.
var helpIDs = [...]string{
	"help.intro",
	"help.challenge",
	"help.multi",
	"help.open",
	"help.ai",
	"help.drop",
	"help.board",
	"help.offers",
	"help.takeback",
	"help.resign",
	"help.claim",
	"help.cancel",
	"help.clock",
	"help.tournament",
	"help.puzzle",
	"help.analyze",
	"help.leaderboard",
	"help.stats",
	"help.seasons",
	"help.settings",
	"help.language",
	"help.reset",
}

// helpText is the help in l, with turnTimeout the idle time after which a
// game can be claimed.
func helpText(l lang.Lang, turnTimeout time.Duration) string {
	lines := make([]string, len(helpIDs))
	args := lang.Args{"Time": duration(turnTimeout)}
	for i, id := range helpIDs {
		lines[i] = say(l, id, args)
	}
	return strings.Join(lines, "\n")
}
