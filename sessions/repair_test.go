package sessions_test

import (
	"errors"
	"hash/crc32"
	"strconv"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/connect4/connect4/bot/match"
	"github.com/connect4/connect4/sessions"
	"github.com/connect4/connect4/sessions/storetest"
)

// TestRedisRepairSchedule (and TestCluster's RepairSchedule): every key of the
// schedule, damaged (a string where a sorted set or a hash belongs), is
// mended by Repair, and the damaged bucket of hints, which many channels
// share, blocks none of them even before a Repair.
func TestRedisRepairSchedule(t *testing.T) {
	t.Parallel() // its own key prefix: it waits, mostly, and shares nothing
	testRepairSchedule(t, storetest.Redis(t))
}

func testRepairSchedule(t *testing.T, c redis.UniversalClient) {
	k := storetest.Channel
	tag := "{" + k.String() + "}:"
	bucket := "{sched:" + strconv.Itoa(int(crc32.ChecksumIEEE([]byte(k.String()))%sessions.ScheduleBuckets)) + "}"
	for _, tc := range []struct {
		name, key string
		blocks    bool // whether the channel's writes refuse the damage until Repair
	}{
		{"entries", tag + "due", true},
		{"leases", tag + "lease", true},
		{"bucket", bucket, false},
		{"bucket generations", bucket + ":gen", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			prefix := storetest.Prefix(t, c)
			s := storetest.NewRedis(t, c, sessions.Options{Prefix: prefix})
			ctx := t.Context()
			rec := storetest.Playing(t, k, 3)
			rec.Timers = []match.Timer{{Kind: match.TimerRemind, Due: time.Now().Add(time.Hour)}}
			if err := s.Create(ctx, rec); err != nil {
				t.Fatal(err)
			}
			if err := c.Set(ctx, prefix+tc.key, "damaged", time.Hour).Err(); err != nil {
				t.Fatal(err)
			}
			other := storetest.Challenge(k)
			other.Challenger, other.Opponent = match.Player{ID: "U8", Name: "Hal"}, match.Player{ID: "U9", Name: "Ivy"}
			other.Timers = []match.Timer{{Kind: match.TimerExpire, Due: time.Now().Add(time.Hour)}}
			err := s.Create(ctx, other)
			if tc.blocks && !errors.Is(err, match.ErrCorrupt) || !tc.blocks && err != nil {
				t.Fatalf("Create with damaged %s = %v, want corrupt: %v", tc.name, err, tc.blocks)
			}
			// A move that sets a reminder.
			due := time.Now().Add(3 * storetest.Tick)
			move := func(r *match.Record) (match.Tally, error) {
				r.SetTimer(match.Timer{Kind: match.TimerRemind, Due: due})
				return match.Tally{}, r.Game.Play(r.Game.Turn(), 0)
			}
			if !tc.blocks {
				if _, err := s.Update(ctx, k, rec.ID, move); err != nil {
					t.Fatalf("move with damaged %s: %v", tc.name, err)
				}
			}
			// Damaged again (a write may have mended it): Repair mends it.
			if err := c.Set(ctx, prefix+tc.key, "damaged", time.Hour).Err(); err != nil {
				t.Fatal(err)
			}
			rep, err := s.Repair(ctx, k)
			if err != nil || !rep.Changed() {
				t.Fatalf("Repair with damaged %s = %+v, %v; want a change", tc.name, rep, err)
			}
			if typ, err := c.Type(ctx, prefix+tc.key).Result(); err != nil || typ == "string" {
				t.Fatalf("after Repair %s is a %s, %v; want it mended", tc.name, typ, err)
			}
			if tc.name == "entries" {
				if _, err := c.ZScore(ctx, prefix+tc.key, rec.ID+"/"+strconv.Itoa(int(match.TimerRemind))).Result(); err != nil {
					t.Fatalf("after Repair the entries lack game %s's reminder: %v", rec.ID, err)
				}
			}
			if tc.blocks {
				if err := s.Create(ctx, other); err != nil {
					t.Fatalf("Create after Repair: %v", err)
				}
				if _, err := s.Update(ctx, k, rec.ID, move); err != nil {
					t.Fatalf("move after Repair: %v", err)
				}
			}
			// The reminder the move set is delivered.
			time.Sleep(time.Until(due) + storetest.Tick)
			got, err := s.Claim(ctx, 10, time.Minute)
			if err != nil || len(got) != 1 || got[0].GameID != rec.ID || got[0].Kind != match.TimerRemind {
				t.Fatalf("Claim after Repair = %+v, %v; want the reminder of game %s", got, err, rec.ID)
			}
		})
	}
}

// TestRedisClaimMendsBucket: the worker, finding a bucket of hints of the
// wrong type, removes it, and the bucket serves its channels again from
// their next write, without a Repair.
func TestRedisClaimMendsBucket(t *testing.T) {
	t.Parallel() // its own key prefix: it waits, mostly, and shares nothing
	c := storetest.Redis(t)
	prefix := storetest.Prefix(t, c)
	s := storetest.NewRedis(t, c, sessions.Options{Prefix: prefix})
	ctx := t.Context()
	k := storetest.Channel
	bucket := prefix + "{sched:" + strconv.Itoa(int(crc32.ChecksumIEEE([]byte(k.String()))%sessions.ScheduleBuckets)) + "}"
	rec := storetest.Playing(t, k, 3)
	if err := s.Create(ctx, rec); err != nil {
		t.Fatal(err)
	}
	if err := c.Set(ctx, bucket, "damaged", time.Hour).Err(); err != nil {
		t.Fatal(err)
	}
	if got, err := s.Claim(ctx, 10, time.Minute); err != nil || len(got) != 0 {
		t.Fatalf("Claim with a damaged bucket = %+v, %v; want nothing", got, err)
	}
	if typ, err := c.Type(ctx, bucket).Result(); err != nil || typ == "string" {
		t.Fatalf("after Claim the bucket is a %s, %v; want it removed", typ, err)
	}
	due := time.Now().Add(2 * storetest.Tick)
	if _, err := s.Update(ctx, k, rec.ID, func(r *match.Record) (match.Tally, error) {
		r.SetTimer(match.Timer{Kind: match.TimerRemind, Due: due})
		return match.Tally{}, r.Game.Play(r.Game.Turn(), 0)
	}); err != nil {
		t.Fatal(err)
	}
	time.Sleep(time.Until(due) + storetest.Tick)
	if got, err := s.Claim(ctx, 10, time.Minute); err != nil || len(got) != 1 || got[0].GameID != rec.ID {
		t.Fatalf("Claim after the bucket was mended = %+v, %v; want the reminder of %s", got, err, rec.ID)
	}
}
