package bot

import "github.com/connect4/connect4/sessions"

// Both stores keep tournaments as the use cases need them.
var (
	_ TournamentStore = (*sessions.Redis)(nil)
	_ TournamentStore = (*sessions.Memory)(nil)
)
