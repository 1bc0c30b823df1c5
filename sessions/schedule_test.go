package sessions_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/connect4/connect4/bot/match"

	"github.com/redis/go-redis/v9"

	"github.com/connect4/connect4/sessions"
	"github.com/connect4/connect4/sessions/storetest"
)

// TestMemorySchedule runs the schedule suite on Memory, on a fake clock.
func TestMemorySchedule(t *testing.T) {
	storetest.Schedule(t, func(t *testing.T) storetest.ScheduleEnv {
		clk := storetest.NewClock(time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC))
		m := storetest.NewMemory(t, sessions.Options{Now: clk.Now})
		return storetest.ScheduleEnv{New: func() storetest.ScheduleStore { return m }, Now: clk.Now, Wait: clk.Advance}
	})
}

// TestRedisSchedule runs the schedule suite on Redis, in real time, each
// replica a store of its own on the same prefix.
func TestRedisSchedule(t *testing.T) {
	t.Parallel() // its own servers or key prefix: it waits, mostly, and shares nothing
	c := storetest.Redis(t)
	storetest.Schedule(t, redisScheduleEnv(c))
}

// clusterSchedule runs the schedule suite (in TestCluster) on a three-master Cluster:
// the entries live under their channels' tags, the hints under their
// buckets', and no script touches two.
func clusterSchedule(t *testing.T, c redis.UniversalClient) {
	storetest.Schedule(t, redisScheduleEnv(c))
}

func redisScheduleEnv(c redis.UniversalClient) func(t *testing.T) storetest.ScheduleEnv {
	return func(t *testing.T) storetest.ScheduleEnv {
		prefix := storetest.Prefix(t, c)
		return storetest.ScheduleEnv{
			New:  func() storetest.ScheduleStore { return storetest.NewRedis(t, c, sessions.Options{Prefix: prefix}) },
			Now:  time.Now,
			Wait: time.Sleep,
		}
	}
}

// dying is a go-redis hook that lets commands through until the first
// record script (a script with a ":game:" key) has run (not refused with
// NOSCRIPT), then fails every later
// command without sending it, as if the process had died right after the
// write; with before set, it fails the record script itself instead.
type dying struct {
	before bool
	dead   atomic.Bool
}

var errDied = errors.New("process died")

func (h *dying) DialHook(next redis.DialHook) redis.DialHook { return next }

// isRecordScript reports whether cmd runs a script on a record key.
func isRecordScript(cmd redis.Cmder) bool {
	if n := cmd.Name(); n != "evalsha" && n != "eval" {
		return false
	}
	for _, a := range cmd.Args() {
		if s, ok := a.(string); ok && strings.Contains(s, ":game:") {
			return true
		}
	}
	return false
}

func (h *dying) ProcessHook(next redis.ProcessHook) redis.ProcessHook {
	return func(ctx context.Context, cmd redis.Cmder) error {
		if h.dead.Load() {
			cmd.SetErr(errDied)
			return errDied
		}
		record := isRecordScript(cmd)
		if record && h.before {
			h.dead.Store(true)
			cmd.SetErr(errDied)
			return errDied
		}
		err := next(ctx, cmd)
		if record && (err == nil || !strings.HasPrefix(err.Error(), "NOSCRIPT")) { // NOSCRIPT: the EVAL follows
			h.dead.Store(true)
		}
		return err
	}
}

// ProcessPipelineHook does the same to a pipeline: with before set nothing
// of a pipeline holding the record script is sent; otherwise it is sent up
// to the record script, and the rest fails.
func (h *dying) ProcessPipelineHook(next redis.ProcessPipelineHook) redis.ProcessPipelineHook {
	return func(ctx context.Context, cmds []redis.Cmder) error {
		send := len(cmds)
		if h.dead.Load() {
			send = 0
		}
		for i, cmd := range cmds {
			if isRecordScript(cmd) && send == len(cmds) {
				send = i + 1
				if h.before {
					send = 0
				}
				h.dead.Store(true)
			}
		}
		var err error
		if send > 0 {
			err = next(ctx, cmds[:send])
		}
		for _, cmd := range cmds[send:] {
			cmd.SetErr(errDied)
			err = errDied
		}
		return err
	}
}

// TestRedisScheduleCrash: a process that dies between a move's write and
// anything after it loses neither the move nor its reminder (on one node
// the hint is in the record's script; on a Cluster it was written before
// it); one that dies before the write leaves neither, and its hint only
// costs a look.
func TestRedisScheduleCrash(t *testing.T) {
	t.Parallel()       // its own servers or key prefix: it waits, mostly, and shares nothing
	storetest.Redis(t) // skips without a server
	opt, err := redis.ParseURL(storetest.RedisURL())
	if err != nil {
		t.Fatal(err)
	}
	testScheduleCrash(t, func() redis.UniversalClient { return redis.NewClient(opt) })
}

// clusterScheduleCrash is TestRedisScheduleCrash on a Cluster (in TestCluster), where
// the bucket's hint and the record's script are separate steps.
func clusterScheduleCrash(t *testing.T, c redis.UniversalClient) {
	opt := c.(*redis.ClusterClient).Options()
	testScheduleCrash(t, func() redis.UniversalClient { o := *opt; return redis.NewClusterClient(&o) })
}

func testScheduleCrash(t *testing.T, newClient func() redis.UniversalClient) {
	for _, before := range []bool{false, true} {
		t.Run(fmt.Sprintf("before=%v", before), func(t *testing.T) {
			healthy := newClient()
			t.Cleanup(func() { healthy.Close() })
			prefix := storetest.Prefix(t, healthy)
			k := storetest.Channel
			rec := storetest.Playing(t, k, 3)
			rec.Timers = []match.Timer{{Kind: match.TimerRemind, Due: time.Now().Add(time.Hour)}}
			if err := storetest.NewRedis(t, healthy, sessions.Options{Prefix: prefix}).Create(t.Context(), rec); err != nil {
				t.Fatal(err)
			}

			sick := newClient()
			t.Cleanup(func() { sick.Close() })
			h := &dying{before: before}
			sick.AddHook(h)
			due := time.Now().Add(3 * storetest.Tick)
			_, err := storetest.NewRedis(t, sick, sessions.Options{Prefix: prefix}).Update(t.Context(), k, rec.ID, func(r *match.Record) (match.Tally, error) {
				if err := r.Game.Play(r.Game.Turn(), 0); err != nil {
					return match.Tally{}, err
				}
				r.Timers = []match.Timer{{Kind: match.TimerRemind, Due: due}}
				return match.Tally{}, nil
			})
			if !h.dead.Load() {
				t.Fatal("the hook never saw the record's script")
			}

			// Another replica, after the crash.
			s := storetest.NewRedis(t, healthy, sessions.Options{Prefix: prefix})
			got, lerr := s.Load(t.Context(), k, rec.ID)
			if lerr != nil {
				t.Fatal(lerr)
			}
			time.Sleep(time.Until(due) + storetest.Tick)
			claimed, cerr := s.Claim(t.Context(), 10, time.Minute)
			if cerr != nil {
				t.Fatal(cerr)
			}
			if before {
				if err == nil || got.Game.Moves() != 1 {
					t.Fatalf("write failed before its script: err %v, %d moves stored; want an error and 1", err, got.Game.Moves())
				}
				if len(claimed) != 0 {
					t.Fatalf("Claim = %v, want nothing: the old reminder is an hour away", claimed)
				}
				return
			}
			if got.Game.Moves() != 2 {
				t.Fatalf("%d moves stored, want the move that landed (2)", got.Game.Moves())
			}
			if len(claimed) != 1 || claimed[0].GameID != rec.ID || claimed[0].Kind != match.TimerRemind || !claimed[0].Due.Equal(due.Truncate(time.Millisecond).UTC()) {
				t.Fatalf("Claim = %+v, want the reminder of the move that landed, due %v", claimed, due)
			}
		})
	}
}
