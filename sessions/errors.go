package sessions

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"syscall"

	"github.com/redis/go-redis/v9"
)

// Sentinel errors. Check them with errors.Is: the stores wrap them with the
// operation and the channel.
var (
	// ErrNoGame means the channel has no record (none was created, or it expired or was deleted).
	ErrNoGame = errors.New("sessions: no game in this channel")
	// ErrBusy means the channel already has an active record; the error is a *BusyError.
	ErrBusy = errors.New("sessions: channel is busy")
	// ErrConflict means Update lost the compare-and-set race on every retry.
	ErrConflict = errors.New("sessions: too many concurrent updates")
	// ErrCorrupt means a stored record could not be read back; the error is a
	// *CorruptError. Delete clears the record.
	ErrCorrupt = errors.New("sessions: corrupt record")
	// ErrUnavailable means the store could not be reached in time (connection
	// refused or lost, timeout, server loading or failing over, deadline
	// exceeded). Trying again later may succeed.
	ErrUnavailable = errors.New("sessions: store unavailable")
	// ErrNoChange, returned (possibly wrapped) by an Update function, makes
	// Update write nothing and return the loaded record with a nil error.
	ErrNoChange = errors.New("sessions: no change")
	// ErrInvalid means a record or tally handed to the store breaks the rules
	// of a stored record; nothing was written.
	ErrInvalid = errors.New("sessions: invalid record")
)

// BusyError is returned by Create when the channel already has an active
// record. It matches errors.Is(err, ErrBusy).
type BusyError struct {
	Existing *Record // the channel's active record
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
	return fmt.Sprintf("sessions: channel %s is busy: %s between %s and %s", r.Key, what, playerLabel(r.Challenger), playerLabel(r.Opponent))
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

// CorruptError is returned when a stored record cannot be read back: it does
// not parse, has an unknown schema, or breaks a rule of a stored record. It
// matches errors.Is(err, ErrCorrupt); Delete clears the record.
type CorruptError struct {
	Key Key   // the channel whose record is corrupt
	Err error // what is wrong with it
}

func (e *CorruptError) Error() string {
	return fmt.Sprintf("sessions: corrupt record for channel %s: %v", e.Key, e.Err)
}

// Is reports whether target is ErrCorrupt.
func (e *CorruptError) Is(target error) bool { return target == ErrCorrupt }

// Unwrap returns the reason.
func (e *CorruptError) Unwrap() error { return e.Err }

// unavailable reports whether err means the store could not be reached or
// could not serve the request for now.
func unavailable(err error) bool {
	var netErr net.Error
	switch {
	case errors.Is(err, context.DeadlineExceeded),
		errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF),
		errors.Is(err, syscall.ECONNREFUSED), errors.Is(err, syscall.ECONNRESET), errors.Is(err, syscall.EPIPE),
		errors.Is(err, redis.ErrPoolTimeout), errors.Is(err, redis.ErrPoolExhausted), errors.Is(err, redis.ErrClosed),
		errors.As(err, &netErr),
		redis.IsLoadingError(err), redis.IsClusterDownError(err), redis.IsTryAgainError(err),
		redis.IsMasterDownError(err), redis.IsReadOnlyError(err), redis.IsMaxClientsError(err),
		redis.IsOOMError(err), redis.IsNoReplicasError(err):
		return true
	}
	return false
}

// storeError wraps an error from the backing store (or the context) for
// operation op on channel k: unavailability also matches ErrUnavailable, and
// the original error stays reachable through errors.Is.
func storeError(op string, k Key, err error) error {
	where := op
	if k != (Key{}) {
		where += " " + k.String()
	}
	if unavailable(err) {
		return fmt.Errorf("sessions: %s: %w: %w", where, ErrUnavailable, err)
	}
	return fmt.Errorf("sessions: %s: %w", where, err)
}
