package match

import (
	"errors"
	"fmt"
)

// Sentinel errors of the store contract. Check them with errors.Is: stores
// wrap them with the operation and the channel.
var (
	// ErrNoGame means there is no such record (none was created, or it
	// expired or was deleted), or the player has no active game.
	ErrNoGame = errors.New("match: no game in this channel")
	// ErrBusy means a player of a new game (or one an update binds) is
	// already in another active game or open challenge in the channel; the
	// error is a *BusyError.
	ErrBusy = errors.New("match: player is busy")
	// ErrFull means the channel already holds as many active games as it
	// may; the error is a *FullError.
	ErrFull = errors.New("match: channel is full")
	// ErrConflict means an update lost the compare-and-set race on every retry.
	ErrConflict = errors.New("match: too many concurrent updates")
	// ErrCorrupt means a stored record could not be read back; the error is a
	// *CorruptError.
	ErrCorrupt = errors.New("match: corrupt record")
	// ErrNewerSchema means a stored record was written by a newer version
	// of the program (during a rolling upgrade): this version cannot read
	// it, but it is not damaged and must be kept. Stores return it inside a
	// *CorruptError, so errors.Is(err, ErrCorrupt) holds too: a caller that
	// words the two differently checks ErrNewerSchema first.
	ErrNewerSchema = errors.New("match: written by a newer version")
	// ErrUnavailable means the store could not be reached in time (connection
	// refused or lost, timeout, server loading or failing over, deadline
	// exceeded). Trying again later may succeed.
	ErrUnavailable = errors.New("match: store unavailable")
	// ErrNoChange, returned (possibly wrapped) by an update function, makes
	// the store write nothing and return the record with a nil error.
	ErrNoChange = errors.New("match: no change")
	// ErrInvalid means a record or tally handed to the store breaks the rules
	// of a stored record; nothing was written.
	ErrInvalid = errors.New("match: invalid record")
	// ErrLeaseLost means a schedule entry's lease is no longer the
	// caller's: it ran out and another worker claimed the entry, or a
	// record write moved the entry. The caller must leave the entry alone.
	ErrLeaseLost = errors.New("match: schedule lease lost")
)

// BusyError is returned by a store's Create (and by an Update that binds a
// player) when a player is already in another active game or open
// challenge of the channel. It matches errors.Is(err, ErrBusy).
type BusyError struct {
	Existing *Record // the active record the player is in
	Player   string  // the id of the busy player, "" when not known
}

func (e *BusyError) Error() string {
	r := e.Existing
	if r == nil {
		return ErrBusy.Error()
	}
	what := "a game"
	if r.Status == StatusPending {
		what = "a challenge"
	}
	who := "a player"
	if p, ok := r.PlayerByID(e.Player); ok {
		who = playerLabel(p)
	}
	others := playerLabel(r.Opponent)
	for _, p := range r.Others {
		others += " and " + playerLabel(p)
	}
	return fmt.Sprintf("match: %s is busy in channel %s: %s between %s and %s", who, r.Key, what, playerLabel(r.Challenger), others)
}

// Is reports whether target is ErrBusy.
func (e *BusyError) Is(target error) bool { return target == ErrBusy }

func playerLabel(p Player) string {
	switch {
	case p.ID == "":
		return "anyone"
	case p.Name == "":
		return p.ID
	}
	return fmt.Sprintf("%s (%s)", p.Name, p.ID)
}

// FullError is returned by a store's Create when the channel already holds
// Max active games. It matches errors.Is(err, ErrFull).
type FullError struct {
	Key Key
	Max int // the channel's limit
}

func (e *FullError) Error() string {
	return fmt.Sprintf("match: channel %s is full: %d active games", e.Key, e.Max)
}

// Is reports whether target is ErrFull.
func (e *FullError) Is(target error) bool { return target == ErrFull }

// CorruptError is returned when a stored value cannot be read back: it does
// not parse, has an unknown schema, is of the wrong type, or breaks a rule of
// a stored record. It matches errors.Is(err, ErrCorrupt).
type CorruptError struct {
	Key Key   // the channel whose data is corrupt
	Err error // what is wrong with it
}

func (e *CorruptError) Error() string {
	return fmt.Sprintf("match: corrupt data for channel %s: %v", e.Key, e.Err)
}

// Is reports whether target is ErrCorrupt.
func (e *CorruptError) Is(target error) bool { return target == ErrCorrupt }

// Unwrap returns the reason.
func (e *CorruptError) Unwrap() error { return e.Err }

// Repair is what a store's Repair did to a channel's data.
type Repair struct {
	// Record says what became of the channel's record.
	Record RecordRepair
	// EntriesDropped counts leaderboard entries removed because they could
	// not be read; the others were kept.
	EntriesDropped int
	// LeaderboardCleared is set when the leaderboard was of the wrong type
	// and was removed as a whole.
	LeaderboardCleared bool
	// IndexDropped counts entries removed from the channel's index of
	// active games and its per-player index because they pointed at a
	// record that is missing, finished, expired or unreadable (an index
	// of the wrong type counts as one).
	IndexDropped int
	// TournamentCleared is set when the channel's tournament could not be
	// read back (or its key was of the wrong type) and was removed.
	TournamentCleared bool
}

// Changed reports whether the repair removed anything.
func (r Repair) Changed() bool {
	return r.Record == RecordCleared || r.EntriesDropped > 0 || r.LeaderboardCleared || r.IndexDropped > 0 || r.TournamentCleared
}

// RecordRepair is what a repair did to a channel's records: the worst
// case over them. The zero value means there was none.
type RecordRepair uint8

// What a repair can do to a record.
const (
	RecordNone    RecordRepair = iota // the channel had no active record
	RecordFine                        // every record was readable and was kept
	RecordNewer                       // a record written by a newer version was kept unread
	RecordCleared                     // a record was damaged and was removed
)
