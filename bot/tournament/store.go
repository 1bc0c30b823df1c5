package tournament

import "errors"

// Sentinel errors of a tournament store. Stores wrap them with the
// operation and the channel; check them with errors.Is. A store that
// loses every compare-and-set retry returns match.ErrConflict, and one
// that reads back a damaged value a *match.CorruptError.
var (
	// ErrNotFound means the channel has no tournament (none was made, or
	// a finished one has expired), or not the one asked for.
	ErrNotFound = errors.New("tournament: no tournament in this channel")
	// ErrExists means the channel already has a tournament that is taking
	// players or running: one at a time.
	ErrExists = errors.New("tournament: the channel already has one")
)
