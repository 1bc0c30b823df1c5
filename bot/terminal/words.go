package terminal

// What people are told by this adapter; everything else comes from package
// bot. Each is one line; the %-verbs are filled in where they are used.
const (
	textBanner = "Connect Four in #general. You are %s. Try: /connect4 @bob   or   /connect4 ai\n" +
		"Type a button's label to click it, `as bob` to switch players, `quit` (or Ctrl-D) to leave.\n"
	textBadName     = "(a name is 1 to 32 letters, digits, '.', '_' or '-')"
	textYouAre      = "(you are now %s)"
	textTooLong     = "(that line was too long: %d bytes, more than the %d I read; it was ignored)"
	textNoBoard     = "(there's no board to drop a disc in: start a game with /connect4 @bob or /connect4 ai)"
	textNoColumn    = "(there is no column %d: this board has columns 1 to %d)"
	textUnknownWord = "(I don't know %q: type /connect4 help, a button label like %s, `as <name>`, or quit)"
	textBrokenBtn   = "(that button is broken: %v)"
	textOnlyYou     = "(only %s can see this) %s"
	textUpdated     = "── message updated ──"
	textChannel     = "── #general ──"
)
