package sessions_test

import (
	"github.com/connect4/connect4/bot"
	"github.com/connect4/connect4/sessions"
	"github.com/connect4/connect4/sessions/storetest"
)

// Both stores are what the bot and the conformance suite ask for.
var (
	_ bot.Store       = (*sessions.Redis)(nil)
	_ bot.Store       = (*sessions.Memory)(nil)
	_ storetest.Store = (*sessions.Redis)(nil)
	_ storetest.Store = (*sessions.Memory)(nil)
)
