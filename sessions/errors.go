package sessions

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"syscall"

	"github.com/redis/go-redis/v9"

	"github.com/connect4/connect4/bot/match"
)

// ErrNewerSchema marks a record written by a newer version of the program
// (during a rolling upgrade): this version cannot read it, but it is not
// damaged, so Repair keeps it for the replicas that can (and reports
// match.RecordNewer). Load, Active, PlayerGame and Update return it inside a
// *match.CorruptError. It is match.ErrNewerSchema, named here beside the
// schema numbers that decide it.
var ErrNewerSchema = match.ErrNewerSchema

// unavailable reports whether err means the store could not be reached or
// could not serve the request for now.
func unavailable(err error) bool {
	var netErr net.Error
	switch {
	case errors.Is(err, context.DeadlineExceeded),
		errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF),
		errors.Is(err, syscall.ECONNREFUSED), errors.Is(err, syscall.ECONNRESET), errors.Is(err, syscall.EPIPE),
		errors.Is(err, redis.ErrPoolTimeout), errors.Is(err, redis.ErrPoolExhausted), errors.Is(err, redis.ErrClosed),
		errors.Is(err, redis.ErrAutoPipelineQueueFull),
		errors.As(err, &netErr),
		redis.IsLoadingError(err), redis.IsClusterDownError(err), slotMoving(err),
		redis.IsMasterDownError(err), redis.IsReadOnlyError(err), redis.IsMaxClientsError(err),
		redis.IsOOMError(err), redis.IsNoReplicasError(err):
		return true
	}
	return false
}

// slotMoving reports whether err is Redis's refusal, before it ran
// anything, of a command whose slot is moving during a reshard: TRYAGAIN
// (while the slot is on its way, the keys of a write are never all on one
// node: the request's nonce is on neither), or a MOVED or ASK that
// go-redis's redirects did not get past (the masters' views of the slot
// disagree for a moment as the migration ends).
func slotMoving(err error) bool {
	if err == nil {
		return false
	}
	_, moved := redis.IsMovedError(err)
	_, ask := redis.IsAskError(err)
	return moved || ask || redis.IsTryAgainError(err)
}

// storeError wraps an error from the backing store (or the context) for
// operation op on channel k: unavailability also matches
// match.ErrUnavailable, and the original error stays reachable through
// errors.Is. The library's own error types never leave this package
// unwrapped: callers test the match sentinels.
func storeError(op string, k match.Key, err error) error {
	where := op
	if k != (match.Key{}) {
		where += " " + k.String()
	}
	if unavailable(err) {
		return fmt.Errorf("sessions: %s: %w: %w", where, match.ErrUnavailable, err)
	}
	return fmt.Errorf("sessions: %s: %w", where, err)
}
