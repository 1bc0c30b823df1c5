// Package web is the adapter that shows games, channels and players as web
// pages served by `connect4 serve` (and `connect4 play -web`): a game's
// board as inline SVG with its moves to step through and the solver's
// verdicts, a channel's leaderboard, seasons and games, a player's rating
// history, record and head-to-head. Pages are reached only through
// signed, expiring links that the bot hands out in a channel (see Signer):
// a link shows only what that channel already shows, and there is no
// listing, no search and no cookie. Everything a page needs is in it
// (CSS, script, SVG); it makes no request elsewhere.
//
// Like the chat adapters it reads through package bot, never the store,
// and it knows nothing of Slack or Discord beyond the platform name that a
// channel's key carries.
package web
