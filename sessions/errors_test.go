package sessions

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"syscall"
	"testing"

	"github.com/connect4/connect4/bot/match"

	"github.com/redis/go-redis/v9"
)

type redisErr string

func (e redisErr) Error() string { return string(e) }
func (redisErr) RedisError()     {}

func TestStoreErrorUnavailable(t *testing.T) {
	k := match.Key{Platform: "slack", Workspace: "T1", Channel: "C1"}
	for _, tc := range []struct {
		err  error
		want bool
	}{
		{context.DeadlineExceeded, true},
		{fmt.Errorf("read: %w", io.EOF), true},
		{&net.OpError{Op: "dial", Net: "tcp", Err: syscall.ECONNREFUSED}, true},
		{redis.ErrPoolTimeout, true},
		{redis.ErrClosed, true},
		{redisErr("LOADING Redis is loading the dataset in memory"), true},
		{redisErr("CLUSTERDOWN The cluster is down"), true},
		{redisErr("TRYAGAIN Multiple keys request during rehashing of slot"), true},
		{redisErr("MOVED 4753 127.0.0.1:7001"), true},
		{redisErr("ASK 4753 127.0.0.1:7001"), true},
		{redisErr("READONLY You can't write against a read only replica."), true},
		{redisErr("OOM command not allowed when used memory > 'maxmemory'."), true},
		{context.Canceled, false},
		{redisErr("WRONGTYPE Operation against a key holding the wrong kind of value"), false},
		{errors.New("something else"), false},
	} {
		err := storeError("load", k, tc.err)
		if got := errors.Is(err, match.ErrUnavailable); got != tc.want {
			t.Errorf("storeError(%v): errors.Is(match.ErrUnavailable) = %v, want %v", tc.err, got, tc.want)
		}
		if !errors.Is(err, tc.err) {
			t.Errorf("storeError(%v) = %v, which does not wrap the original", tc.err, err)
		}
	}
	if got, want := storeError("ping", match.Key{}, io.EOF).Error(), "sessions: ping: match: store unavailable: EOF"; got != want {
		t.Errorf("storeError message = %q, want %q", got, want)
	}
}
