package bot

import "github.com/connect4/connect4/bot/lang"

// TextForeignButton is told to someone who clicks a button this bot did not
// draw, or whose value was tampered with: it changes nothing.
//
// Deprecated: it is English only; use ForeignButtonText with the
// clicker's language. (Kept until the adapters move over.)
const TextForeignButton = "That button isn't one of mine, so it did nothing."

// ForeignButtonText is TextForeignButton in l.
func ForeignButtonText(l lang.Lang) string { return l.Say("problem.foreignButton", nil) }
