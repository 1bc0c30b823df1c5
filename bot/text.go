package bot

import "github.com/connect4/connect4/bot/lang"

// ForeignButtonText is told, in l, to someone who clicks a button this bot
// did not draw, or whose value was tampered with: it changes nothing.
func ForeignButtonText(l lang.Lang) string { return l.Say("problem.foreignButton", nil) }
