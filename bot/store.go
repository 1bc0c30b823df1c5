package bot

import (
	"context"

	"github.com/connect4/connect4/bot/match"
)

// Store is what the bot needs of its storage: one record per channel and a
// leaderboard per channel. package sessions implements it on Redis and in
// memory; both are safe for concurrent use. Errors match the match
// sentinels (match.ErrNoGame, match.ErrBusy, match.ErrCorrupt,
// match.ErrUnavailable, match.ErrConflict, match.ErrInvalid) through
// errors.Is.
type Store interface {
	// Create stores rec as the channel's record, atomically, only when the
	// channel has no active record (see match.Record.Active). On success
	// it sets rec.ID, rec.Version = 1 and rec.Created = rec.Updated. On a
	// busy channel it returns a *match.BusyError naming the existing
	// record; when that record is unreadable, a *match.CorruptError.
	Create(ctx context.Context, rec *match.Record) error

	// Load returns a copy of the channel's record: match.ErrNoGame when
	// there is none, a *match.CorruptError when it cannot be read back.
	Load(ctx context.Context, k match.Key) (*match.Record, error)

	// Update runs fn on a copy of the channel's record and
	// compare-and-sets the result on the record's game id and version, so
	// no stale writer ever replaces a newer record or another game. On a
	// conflict fn runs again on the fresh record, a bounded number of
	// times, then Update returns match.ErrConflict; fn may therefore run
	// more than once and must only change the record it is given. An error
	// from fn aborts the update and is returned as is; match.ErrNoChange
	// writes nothing and returns the record. The Tally fn returns is added
	// to the channel leaderboard in the same atomic step as the write.
	Update(ctx context.Context, k match.Key, fn func(r *match.Record) (match.Tally, error)) (*match.Record, error)

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

	// Repair clears what cannot be read back in the channel: a record
	// that does not parse or is of the wrong type, and leaderboard entries
	// that are not counts (or the whole leaderboard when it is of the
	// wrong type), keeping everything readable. It never removes a
	// readable record, and reports what it did.
	Repair(ctx context.Context, k match.Key) (match.Repair, error)
}
