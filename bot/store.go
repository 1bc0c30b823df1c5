package bot

import (
	"context"

	"github.com/connect4/connect4/bot/match"
)

// Store is what the bot needs of its storage: the records of a channel's
// games, each addressed by its id, with an index of the active ones, and a
// leaderboard per channel. package sessions implements it on Redis and in
// memory; both are safe for concurrent use. Errors match the match
// sentinels (match.ErrNoGame, match.ErrBusy, match.ErrFull,
// match.ErrCorrupt, match.ErrUnavailable, match.ErrConflict,
// match.ErrInvalid, match.ErrReplay) through errors.Is.
type Store interface {
	// Create stores rec as a new record of its channel, atomically, only
	// when none of the players it binds (see match.Record.Bound) is in
	// another active game or open challenge of the channel and the
	// channel holds fewer active games than its limit. On success it sets
	// rec.ID (new, random), rec.Version = 1 and rec.Created = rec.Updated.
	// When a player is busy it returns a *match.BusyError naming the game
	// they are in; on a full channel a *match.FullError.
	Create(ctx context.Context, rec *match.Record) error

	// Load returns a copy of record gameID of the channel: match.ErrNoGame
	// when there is none, a *match.CorruptError when it cannot be read
	// back.
	Load(ctx context.Context, k match.Key, gameID string) (*match.Record, error)

	// Update runs fn on a copy of record gameID and compare-and-sets the
	// result on the record's game id and version, so no stale writer ever
	// replaces a newer record. On a conflict fn runs again on the fresh
	// record, a bounded number of times, then Update returns
	// match.ErrConflict; fn may therefore run more than once and must only
	// change the record it is given. An error from fn aborts the update
	// and is returned as is; match.ErrNoChange writes nothing and returns
	// the record. The Tally fn returns is added to the channel leaderboard
	// in the same atomic step as the write, and so is the change to the
	// channel's index of active games: a record that stops being active
	// frees its players; one that binds a player who is in another active
	// game is refused with a *match.BusyError.
	Update(ctx context.Context, k match.Key, gameID string, fn func(r *match.Record) (match.Tally, error)) (*match.Record, error)

	// Active returns copies of the channel's active records (games being
	// played, challenges not yet expired), oldest first.
	Active(ctx context.Context, k match.Key) ([]*match.Record, error)

	// PlayerGame returns a copy of the active record that binds userID in
	// the channel (their game or open challenge, made or received), or
	// match.ErrNoGame when there is none.
	PlayerGame(ctx context.Context, k match.Key, userID string) (*match.Record, error)

	// LastFinished returns a copy of the record that userID most recently
	// finished playing in the channel (a game played to its end, resigned
	// or claimed; not a declined or cancelled challenge), while it is
	// kept, or match.ErrNoGame when there is none.
	LastFinished(ctx context.Context, k match.Key, userID string) (*match.Record, error)

	// Leaderboard returns the channel's top n players (all when n ≤ 0) by
	// wins; ties go to fewer losses, then more games, then the lower id.
	Leaderboard(ctx context.Context, k match.Key, n int) ([]match.Standing, error)

	// Stats returns one player's standing in the channel: a zero Standing
	// with Player.ID set when the player has none.
	Stats(ctx context.Context, k match.Key, userID string) (match.Standing, error)

	// Ratings returns the channel's top n rated players this season (all
	// when n ≤ 0), highest rating first, with their counts: one read of a
	// sorted set. Players without a rated game are not in it.
	Ratings(ctx context.Context, k match.Key, n int) ([]match.Standing, error)

	// HeadToHead returns the season's record of a against b.
	HeadToHead(ctx context.Context, k match.Key, a, b string) (match.HeadToHead, error)

	// NewSeason archives the channel's current season (its rated
	// standings) and starts a new one in which everyone starts afresh:
	// leaderboard, ratings, histories and head-to-head records. It
	// returns the archived season, or match.ErrEmptySeason when nobody
	// has a rated game yet. Archived seasons never expire.
	NewSeason(ctx context.Context, k match.Key) (match.Season, error)

	// Seasons returns the channel's archived seasons, newest first.
	Seasons(ctx context.Context, k match.Key) ([]match.Season, error)

	// Repair clears what cannot be read back in the channel: records
	// that do not parse or are of the wrong type, index entries that point
	// at records missing, finished or unreadable, and leaderboard entries
	// that are not counts (or the whole leaderboard when it is of the
	// wrong type), keeping everything readable. It never removes a
	// readable record, and reports what it did.
	Repair(ctx context.Context, k match.Key) (match.Repair, error)

	// Settings returns the channel's display settings (board style and
	// palette); the zero Settings for a channel that has chosen nothing.
	// A stored value this version does not know reads as the default.
	Settings(ctx context.Context, k match.Key) (match.Settings, error)

	// SetSettings applies the non-zero fields of change to the channel's
	// settings in one atomic step and returns the settings now in force.
	// Settings never expire. A change with an unknown value returns an
	// error matching match.ErrInvalid and writes nothing.
	SetSettings(ctx context.Context, k match.Key, change match.Settings) (match.Settings, error)
}
