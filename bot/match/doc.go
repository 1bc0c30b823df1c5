// Package match holds the domain types that the bot, its adapters and the
// stores share: who plays where (Key, Player, MessageRef), a channel's
// challenge or match as a Record holding its *engine.Game, leaderboard
// changes and standings (Tally, Standing), and the errors of the store
// contract (ErrNoGame, *BusyError, *CorruptError, ErrUnavailable, ...).
//
// It is the middle of the layout: it imports only the engine (and the
// solver's Level), and knows nothing of chat platforms, Redis or wording.
// The adapters build Keys and Players; package sessions makes Records
// durable; package bot decides what a change means.
package match
