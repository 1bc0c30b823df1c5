package sessions

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"hash/crc32"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/connect4/connect4/bot/match"
)

// The schedule: every timer a record carries that has not fired (see
// match.Timer) is an entry due at its time, written in the same atomic step
// as the record (the record scripts take the change as an argument), so no
// crash leaves a game without its timer nor a timer without its game. A
// worker claims due entries with Claim, leasing each for a while, carries
// them out as normal versioned updates of their record, and removes them
// with Done. An entry whose worker dies is claimed again when its lease
// ends.
//
// On Redis the layout is, for a channel (the same hash tag as its records):
//
//	<prefix>{<platform>:<workspace>:<channel>}:due    sorted set "<game id>/<kind>" → due, Unix ms
//	<prefix>{<platform>:<workspace>:<channel>}:lease  hash "<game id>/<kind>" → "<token>/<lease end ms>"
//
// and, to find the channels with something due without one key holding
// every game, ScheduleBuckets buckets of hints, each under its own tag:
//
//	<prefix>{sched:<n>}      sorted set channel → when to look at it, Unix ms
//	<prefix>{sched:<n>}:gen  hash channel → how many writes have hinted it
//
// Why this is safe on a Cluster: every script touches the keys of one hash
// tag. The entries, which are the truth, live under the channel's tag with
// the records, so the write of a record and of its entries is one script on
// one node, and so is the claim of an entry (a lease taken in the same hash
// slot as the entry), which is what makes it once-only: two workers' claims
// of one entry run one after the other on the node that owns the channel,
// and the second sees the first one's lease. The hints are only hints: a
// worker that follows a hint to a channel with nothing due does nothing.
// On a single server (or Sentinel) the record script writes the hint too,
// in the same step. On a Cluster, where the bucket lives on another node,
// a record write hints its bucket before its script (so that a crash after
// the script still leaves a hint) and again after it; every hint bumps the
// channel's generation. A worker that claimed a hint (moving it to the end
// of its lease, so that another looks if it dies) sets it to when the
// channel next needs a look only if no write hinted since the claim, and
// otherwise only lowers it: a hint is never raised past an entry the worker
// did not see. The one window left, on a Cluster only, is a writer that
// dies between its script and its second hint while a worker is between
// its claim of the first hint and its read of the channel (a few
// milliseconds): that entry then waits for the channel's next write or
// look.

// Lazy timers (Redis only; the memory store keeps its entries exact): a
// plain move (see plainMove) puts the turn's timers off without
// moving their entries, so an entry may be due before its timer. What holds
// instead is that every pending timer of a stored record has an entry due
// no later than the timer, or one under a lease whose Done checks it: a
// write that adds a timer, brings one earlier or removes one writes the
// schedule as above. Claim checks each entry it claims against its record
// and puts an early one off to its timer's time under the lease it just
// took (handing it out at once if that time has come), and Done does the
// same for an entry its worker found stale, where it used to remove it
// (see doneScript): so no timer fires early, and none is lost to a move
// made between a claim and its Done. The game's first write of each slot
// of time (see ttlRefresh) writes its entries where they belong, so an
// entry is early by at most a slot.

// ScheduleBuckets is how many buckets of hints a Redis store spreads the
// schedule's channels over.
const ScheduleBuckets = 16

// member is an entry's name within its channel.
func member(gameID string, k match.TimerKind) string {
	return gameID + "/" + strconv.Itoa(int(k))
}

// parseMember reads a member back; ok is false for one that does not parse.
func parseMember(m string) (gameID string, k match.TimerKind, ok bool) {
	id, ks, found := strings.Cut(m, "/")
	n, err := strconv.Atoi(ks)
	if !found || err != nil || !match.ValidGameID(id) || n <= 0 || n > int(match.LastTimerKind) {
		return "", 0, false
	}
	return id, match.TimerKind(n), true
}

// scheduleChange is what a write from cur (nil for a create) to next does to
// the schedule: the entries of cur's pending timers that next does not carry
// (or carries fired), and next's pending timers that cur did not carry as
// they are (a timer carried over unchanged keeps its entry, or, once its
// entry was handled, stays without one).
type scheduleChange struct {
	Remove []string      // members
	id     string        // next's game id, whose entries adds are
	adds   []match.Timer // next's timers to write
	// hint is set when an add does not put off a pending timer of cur,
	// so the bucket needs a hint (see scheduleLua).
	hint bool
	// pending is the earliest due time of next's pending timers, zero for
	// none: what a write that adds no entry hints when the bucket's
	// expiry is due a refresh.
	pending time.Time
}

func newScheduleChange(cur, next *match.Record) scheduleChange {
	c := scheduleChange{id: next.ID}
	for _, t := range next.Timers {
		if t.Fired {
			continue
		}
		if c.pending.IsZero() || t.Due.Before(c.pending) {
			c.pending = t.Due
		}
		var ct match.Timer
		var ok bool
		if cur != nil {
			if ct, ok = cur.Timer(t.Kind); ok && ct == t {
				continue
			}
		}
		if !ok || ct.Fired || t.Due.Before(ct.Due) {
			c.hint = true
		}
		c.adds = append(c.adds, t)
	}
	if cur != nil {
		for _, t := range cur.Timers {
			if nt, ok := next.Timer(t.Kind); !t.Fired && (!ok || nt.Fired) {
				c.Remove = append(c.Remove, member(cur.ID, t.Kind))
			}
		}
	}
	return c
}

// appendArgs appends the change to args as the record scripts read it
// (see scheduleLua): the counts, whether it needs a hint, the members
// removed, the members added, their due times.
func (c scheduleChange) appendArgs(args []any) []any {
	args = append(args, len(c.Remove), len(c.adds), flag(c.hint))
	for _, m := range c.Remove {
		args = append(args, m)
	}
	for _, t := range c.adds {
		args = append(args, member(c.id, t.Kind))
	}
	for _, t := range c.adds {
		args = append(args, strconv.FormatInt(t.Due.UnixMilli(), 10))
	}
	return args
}

// earliest returns the first due time the change adds, and whether it adds any.
func (c scheduleChange) earliest() (time.Time, bool) {
	if len(c.adds) == 0 {
		return time.Time{}, false
	}
	return slices.MinFunc(c.adds, func(a, b match.Timer) int { return a.Due.Compare(b.Due) }).Due, true
}

func (s *Redis) dueKey(k match.Key) string   { return s.tagged(k, "due") }
func (s *Redis) leaseKey(k match.Key) string { return s.tagged(k, "lease") }

// bucket returns the keys of the bucket of hints for channel k.
func (s *Redis) bucket(k match.Key) (zset, gen string) {
	return s.bucketKeys(bucketOf(k))
}

// bucketOf is the bucket of channel k: the CRC-32 (IEEE) of k.String()
// modulo ScheduleBuckets, computed over k's parts without building the
// string (TestBucketOf holds it to crc32.ChecksumIEEE).
func bucketOf(k match.Key) int {
	c := ^uint32(0)
	for i, part := range [...]string{k.Platform, k.Workspace, k.Channel} {
		if i > 0 {
			c = crc32.IEEETable[byte(c)^':'] ^ c>>8
		}
		for j := 0; j < len(part); j++ {
			c = crc32.IEEETable[byte(c)^part[j]] ^ c>>8
		}
	}
	return int(^c % ScheduleBuckets)
}

// bucketKeys returns the keys of bucket n, made once by NewRedis.
func (s *Redis) bucketKeys(n int) (zset, gen string) {
	return s.buckets[n][0], s.buckets[n][1]
}

// hintArgs are hintScript's keys and arguments for an entry of k due at due.
func (s *Redis) hintArgs(k match.Key, due time.Time) ([]string, []any) {
	z, g := s.bucket(k)
	return []string{z, g}, []any{k.String(), due.UnixMilli(), "1", s.bucketTTL().Milliseconds()}
}

// bucketTTL is the expiry a hint sets on its bucket's keys.
func (s *Redis) bucketTTL() time.Duration {
	return s.cfg.idleTTL + s.cfg.finishedTTL + 2*s.ttlSlot()
}

// hint tells k's bucket that k has an entry due at due.
func (s *Redis) hint(ctx context.Context, k match.Key, due time.Time) error {
	keys, args := s.hintArgs(k, due)
	return s.hinted(k, keys[0], hintScript.Run(ctx, s.c, keys, args...))
}

// hinted checks the reply of a hintScript call.
func (s *Redis) hinted(k match.Key, bucket string, cmd *redis.Cmd) error {
	n, err := cmd.Int()
	switch {
	case err != nil:
		return s.fail("schedule", k, err)
	case n != 1:
		return s.fail("schedule", k, fmt.Errorf("unexpected reply %d hinting bucket %s", n, bucket))
	}
	return nil
}

// writeScript runs a record script (createScript or casScript) on keys
// and args and returns its reply, with k's bucket hinted when the write
// adds schedule entries (see the top of this file). On a single server or
// Sentinel the bucket is on the same node as the channel, and the record
// script hints it in the same step (hintedCreateScript, hintedCasScript):
// one round trip, and no window at all. On a Cluster it is on another
// node: the hint goes before the script (a failure fails the write, before
// anything is written) and again after it (a failure only goes to the
// Error hook, the first hint standing), three round trips. refresh says
// whether the write sets the expiries of the channel's keys and the
// bucket's (see ttlRefresh).
func (s *Redis) writeScript(ctx context.Context, k match.Key, c scheduleChange, refresh bool, script *redis.Script, keys []string, args []any) ([]any, error) {
	op := "update"
	if script == createScript {
		op = "create"
	}
	due, ok := c.earliest()
	_, cluster := s.c.(*redis.ClusterClient)
	if !ok && refresh && !cluster && !c.pending.IsZero() {
		due, ok = c.pending, true // the refresh's hint (see hintedLua)
	}
	if ok && !cluster {
		script = hintedCasScript
		if op == "create" {
			script = hintedCreateScript
		}
		z, g := s.bucket(k)
		keys = append(keys, z, g)
		args = append(args, k.String(), due.UnixMilli(), s.bucketTTL().Milliseconds(), flag(refresh))
	}
	if ok && cluster {
		if err := s.hint(ctx, k, due); err != nil {
			return nil, err
		}
	}
	res, err := s.runScript(ctx, script, keys, args...).Slice()
	if slotMoving(err) {
		res, err = s.resendWhileSlotMoves(ctx, err, script, keys, args)
	}
	if err != nil {
		return nil, s.fail(op, k, err)
	}
	if ok && cluster {
		s.hint(context.WithoutCancel(ctx), k, due)
	}
	return res, nil
}

// A record script that Redis refuses because its channel's slot is moving
// (see slotMoving) goes again, after go-redis's own retries (about 100 ms),
// waiting from tryAgainFirst doubling to tryAgainMax, until tryAgainLeft
// before the caller's deadline (tryAgainLongest without one): so a move
// during a short migration lands instead of being answered "try again".
const (
	tryAgainFirst   = 20 * time.Millisecond
	tryAgainMax     = 200 * time.Millisecond
	tryAgainLeft    = 250 * time.Millisecond // what the deadline keeps for answering
	tryAgainLongest = 2 * time.Second
)

// resendWhileSlotMoves sends script again while Redis refuses it because
// its slot is moving (err, the first refusal) and time allows, and returns
// the last reply.
func (s *Redis) resendWhileSlotMoves(ctx context.Context, err error, script *redis.Script, keys []string, args []any) ([]any, error) {
	until := time.Now().Add(tryAgainLongest)
	if dl, ok := ctx.Deadline(); ok {
		until = dl.Add(-tryAgainLeft)
	}
	var res []any
	for wait := tryAgainFirst; slotMoving(err) && time.Now().Add(wait).Before(until); wait = min(2*wait, tryAgainMax) {
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return nil, err
		case <-t.C:
		}
		res, err = s.runScript(ctx, script, keys, args...).Slice()
	}
	return res, err
}

// Claim leases to the caller up to max entries that are due (across every
// channel), each for lease, and returns them, oldest first. The caller
// carries each out and then calls Done; an entry not done by the end of its
// lease is claimed again. Errors of some channels are returned joined,
// beside the entries of the others. It is safe for concurrent use, by any
// number of processes.
func (s *Redis) Claim(ctx context.Context, max int, lease time.Duration) ([]match.Due, error) {
	if max <= 0 || lease < time.Millisecond {
		return nil, fmt.Errorf("sessions: claim: max %d and lease %v must be positive", max, lease)
	}
	now := s.cfg.now().UnixMilli()
	// The first bucket alone, by Run, which loads the script where the
	// server lacks it; then the rest in one pipeline.
	cmds := make([]*redis.Cmd, ScheduleBuckets)
	z0, g0 := s.bucketKeys(0)
	cmds[0] = claimBucketScript.Run(ctx, s.c, []string{z0, g0}, now, lease.Milliseconds(), max)
	_, err := s.c.Pipelined(ctx, func(p redis.Pipeliner) error {
		for i := 1; i < len(cmds); i++ {
			z, g := s.bucketKeys(i)
			cmds[i] = claimBucketScript.EvalSha(ctx, p, []string{z, g}, now, lease.Milliseconds(), max)
		}
		return nil
	})
	if err != nil && !errors.Is(err, redis.Nil) && !isNoScript(err) {
		return nil, s.fail("claim", match.Key{}, err)
	}
	for i, cmd := range cmds {
		if isNoScript(cmd.Err()) { // a pipeline does not fall back to EVAL: Run does, and loads it for the rest
			z, g := s.bucketKeys(i)
			cmds[i] = claimBucketScript.Run(ctx, s.c, []string{z, g}, now, lease.Milliseconds(), max)
		}
	}
	token := newID()
	var out []match.Due
	var errs []error
	for i, cmd := range cmds {
		pairs, err := cmd.StringSlice()
		if err != nil {
			errs = append(errs, s.fail("claim", match.Key{}, err))
			continue
		}
		z, g := s.bucketKeys(i)
		for j := 0; j+1 < len(pairs); j += 2 {
			ch, gen := pairs[j], pairs[j+1]
			k, ok := parseKey(ch)
			if !ok {
				s.c.ZRem(ctx, z, ch) // not a channel: nothing to look at
				continue
			}
			if len(out) >= max { // look again at once: settle lowers the hint to now
				s.settle(ctx, z, g, ch, gen, now)
				continue
			}
			got, next, err := s.claimChannel(ctx, k, now, lease, token, max-len(out))
			if err != nil {
				errs = append(errs, err)
				continue // the hint stays at the end of the lease: a look then
			}
			out = append(out, got...)
			s.settle(ctx, z, g, ch, gen, next)
		}
	}
	slices.SortFunc(out, func(a, b match.Due) int { return a.Due.Compare(b.Due) })
	return out, errors.Join(errs...)
}

func isNoScript(err error) bool {
	return err != nil && strings.HasPrefix(err.Error(), "NOSCRIPT")
}

// settle sets channel ch's hint after a look (see settleScript); a failure
// leaves the hint at the end of the lease, which only costs a look.
func (s *Redis) settle(ctx context.Context, z, g, ch, gen string, next int64) {
	if err := settleScript.Run(ctx, s.c, []string{z, g}, ch, gen, next).Err(); err != nil {
		s.fail("claim", match.Key{}, err)
	}
}

func (s *Redis) claimChannel(ctx context.Context, k match.Key, now int64, lease time.Duration, token string, max int) ([]match.Due, int64, error) {
	res, err := claimChannelScript.Run(ctx, s.c, []string{s.dueKey(k), s.leaseKey(k)}, now, lease.Milliseconds(), token, max).Slice()
	if err != nil {
		return nil, 0, s.fail("claim", k, err)
	}
	code, arg := scriptReply(res[:min(len(res), 2)])
	if code == -2 {
		return nil, 0, s.corrupt("claim", wrongKeyType(k, arg))
	}
	next, perr := strconv.ParseInt(arg, 10, 64)
	if code != 1 || perr != nil {
		return nil, 0, s.fail("claim", k, fmt.Errorf("unexpected script reply %v", res))
	}
	var out []match.Due
	for i := 2; i+1 < len(res); i += 2 {
		m, _ := res[i].(string)
		sc, _ := res[i+1].(string)
		ms, err := strconv.ParseInt(sc, 10, 64)
		id, kind, ok := parseMember(m)
		if !ok || err != nil { // not ours: drop it so that it is not claimed for ever
			s.c.ZRem(ctx, s.dueKey(k), m)
			continue
		}
		out = append(out, match.Due{Key: k, GameID: id, Kind: kind, Due: time.UnixMilli(ms).UTC(), Token: token})
	}
	out, next = s.early(ctx, k, out, now, next)
	return out, next, nil
}

// Done removes entry d, claimed by Claim, if the claim's lease still holds
// and the entry was not moved since; otherwise it does nothing. When the
// record still carries d's timer pending at a later time, it puts the
// entry off to that time instead and hints the channel's bucket (see
// doneScript). It is safe for concurrent use.
func (s *Redis) Done(ctx context.Context, d match.Due) error {
	if err := s.begin(d.Key); err != nil {
		return err
	}
	res, err := s.done(ctx, d, 0).Slice()
	if err != nil {
		return s.fail("done", d.Key, err)
	}
	if due, _, ok := putOff(res); ok {
		return s.hint(ctx, d.Key, due)
	}
	return nil
}

// done runs doneScript on entry d: Done's, or with now > 0 Claim's check.
func (s *Redis) done(ctx context.Context, d match.Due, now int64) *redis.Cmd {
	keys := []string{s.dueKey(d.Key), s.leaseKey(d.Key), s.gameKey(d.Key, d.GameID)}
	args := []any{member(d.GameID, d.Kind), d.Token, d.Due.UnixMilli(), int(d.Kind)}
	if now > 0 {
		args = append(args, now)
	}
	return doneScript.Run(ctx, s.c, keys, args...)
}

// putOff reads doneScript's reply {2 or 4, due ms}: the time the entry was
// put off to, and whether it is still leased (4).
func putOff(res []any) (due time.Time, leased, ok bool) {
	code, arg := scriptReply(res)
	ms, err := strconv.ParseInt(arg, 10, 64)
	if code != 2 && code != 4 || err != nil {
		return time.Time{}, false, false
	}
	return time.UnixMilli(ms).UTC(), code == 4, true
}

// early checks the entries just claimed at now against their records:
// one whose record carries its timer pending at a later time (see
// plainMove) is put off to that time under the lease just taken, and
// handed out due then if that time has come, else kept back. It returns
// the entries to hand out, with when the channel next needs a look given
// next, the claim's.
func (s *Redis) early(ctx context.Context, k match.Key, got []match.Due, now, next int64) ([]match.Due, int64) {
	kept := got[:0]
	for _, d := range got {
		if d.Kind.OfTournament() {
			kept = append(kept, d) // a tournament's, whose entries are never lazy
			continue
		}
		res, err := s.done(ctx, d, now).Slice()
		if err != nil {
			// Handed out unchecked: its worker finds it stale, and its
			// Done puts it off.
			s.fail("claim", k, err)
		}
		due, leased, ok := putOff(res)
		switch {
		case !ok:
			kept = append(kept, d)
		case leased:
			d.Due = due
			kept = append(kept, d)
		default:
			if ms := due.UnixMilli(); next < 0 || ms < next {
				next = ms
			}
		}
	}
	return kept, next
}

// parseKey reads a channel key back from its String form.
func parseKey(s string) (match.Key, bool) {
	p := strings.Split(s, ":")
	if len(p) != 3 {
		return match.Key{}, false
	}
	k := match.Key{Platform: p[0], Workspace: p[1], Channel: p[2]}
	return k, k.Validate() == nil
}

// memEntry is a schedule entry of Memory.
type memEntry struct {
	due        time.Time
	token      string
	leaseUntil time.Time
}

type memEntryKey struct {
	key  match.Key
	game string
	kind match.TimerKind
}

// schedule applies the change from cur (nil: none) to next to the
// schedule, as sched_apply does with newScheduleChange's argument: the
// same removals and additions, worked out here without the members and
// JSON values the script needs. Call with mu held.
func (m *Memory) schedule(cur, next *match.Record, now time.Time) {
	if cur != nil {
		for _, t := range cur.Timers {
			if nt, ok := next.Timer(t.Kind); !t.Fired && (!ok || nt.Fired) {
				ek := memEntryKey{next.Key, cur.ID, t.Kind}
				if e, ok := m.entries[ek]; ok && !e.leaseUntil.After(now) {
					delete(m.entries, ek)
				}
			}
		}
	}
	for _, t := range next.Timers {
		if t.Fired {
			continue
		}
		if cur != nil {
			if ct, ok := cur.Timer(t.Kind); ok && ct == t {
				continue
			}
		}
		// A turn's timer moves on every move: its entry, held by the map
		// alone, is made new in place (no second hash of its key, no
		// allocation).
		ek := memEntryKey{next.Key, next.ID, t.Kind}
		if e, ok := m.entries[ek]; !ok {
			m.entries[ek] = &memEntry{due: t.Due}
		} else if !e.due.Equal(t.Due) {
			*e = memEntry{due: t.Due}
		}
	}
}

// Claim implements the schedule's Claim on the store's clock (see
// Redis.Claim).
func (m *Memory) Claim(ctx context.Context, max int, lease time.Duration) ([]match.Due, error) {
	if err := m.begin(ctx, "claim", match.Key{}, false); err != nil {
		return nil, err
	}
	if max <= 0 || lease < time.Millisecond {
		return nil, fmt.Errorf("sessions: claim: max %d and lease %v must be positive", max, lease)
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	now := m.cfg.now()
	var due []memEntryKey
	for ek, e := range m.entries {
		if !e.due.After(now) && !e.leaseUntil.After(now) {
			due = append(due, ek)
		}
	}
	slices.SortFunc(due, func(a, b memEntryKey) int {
		return cmp.Or(m.entries[a].due.Compare(m.entries[b].due), cmp.Compare(a.game, b.game), cmp.Compare(a.kind, b.kind))
	})
	token := newID()
	var out []match.Due
	for _, ek := range due[:min(len(due), max)] {
		e := m.entries[ek]
		e.token, e.leaseUntil = token, now.Add(lease)
		out = append(out, match.Due{Key: ek.key, GameID: ek.game, Kind: ek.kind, Due: e.due, Token: token})
	}
	return out, nil
}

// Done implements the schedule's Done (see Redis.Done).
func (m *Memory) Done(ctx context.Context, d match.Due) error {
	if err := m.begin(ctx, "done", d.Key, true); err != nil {
		return err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	ek := memEntryKey{d.Key, d.GameID, d.Kind}
	e, ok := m.entries[ek]
	if !ok || e.token != d.Token {
		return nil
	}
	if e.due.Equal(d.Due) {
		delete(m.entries, ek)
	} else {
		e.token, e.leaseUntil = "", time.Time{}
	}
	return nil
}

// Pending returns how many schedule entries the store holds, claimed or
// not: for tests and metrics.
func (m *Memory) Pending() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return len(m.entries)
}
