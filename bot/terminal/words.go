package terminal

import "github.com/connect4/connect4/bot/lang"

// What people are told by this adapter (the catalogue's terminal.* ids),
// in the language of the terminal (Config.Locale); everything else comes
// from package bot. Each is one line, but the banner (two).

// say is the message id in a's language, with args.
func (a *Adapter) say(id string, args lang.Args) string { return a.lang.Say(id, args) }
