package sessions

import (
	"context"
	"errors"
	"time"

	"github.com/redis/go-redis/v9"
)

// The writes of a game (createScript and casScript, one round trip each)
// share round trips through go-redis's automatic pipeliner: concurrent
// writes of different games go to Redis as one pipeline, in one write and
// one read, instead of one connection's write and read each, so Redis
// wakes and reads once for several scripts (what that saves under load:
// sessions/README.md). A lone write still goes at once, in its own round
// trip: the pipeliner sends what is queued whenever no batch is in flight.
//
// The pipeliner does not cancel a command when its caller's context ends
// (it may be written already), and a write queued behind a batch in flight
// waits for that batch first. So runScript waits for its command only as
// long as its context lets it and no longer than the client's read timeout,
// the longest a plain client waits: on a hung Redis the move is answered
// with ErrUnavailable in time, as without the pipeliner. A write that lands
// after its caller gave up is one whose reply was lost, which the write
// token tells apart (casScript's reply {2}).

// pipelineQueue is the most writes the pipeliner holds at once: queued,
// in flight, or given up by their callers and not yet answered. A write
// beyond it fails at once as unavailable (redis.ErrAutoPipelineQueueFull)
// instead of waiting, so that a hung Redis under a flood of requests holds
// the memory of at most this many writes (each up to a record's JSON, about
// 2 KB), as a plain client's pool holds at most its connections.
var pipelineQueue = 1024

// newPipeline returns c's deferred-face pipeliner, or nil when c has none
// (a closed client): the store then sends each write on its own. wait is
// the longest a write waits for its reply when its context allows more:
// c's read timeout, which bounds a plain client's wait.
func newPipeline(c redis.UniversalClient) (ap *redis.AutoPipeliner, wait time.Duration) {
	opt := redis.DefaultAutoPipelineOptions()
	opt.MaxQueuedCommands = pipelineQueue
	ap, err := c.AsyncAutoPipelineWithOptions(opt)
	if err != nil {
		return nil, 0
	}
	wait = 3 * time.Second // go-redis's default
	switch c := c.(type) {
	case *redis.Client:
		wait = c.Options().ReadTimeout
	case *redis.ClusterClient:
		wait = c.Options().ReadTimeout
	}
	return ap, wait
}

// runScript runs script like Script.Run: EVALSHA, then EVAL when Redis
// does not hold the script yet (NOSCRIPT), through the pipeliner when the
// store has one.
func (s *Redis) runScript(ctx context.Context, script *redis.Script, keys []string, args ...any) *redis.Cmd {
	if s.pipe == nil {
		return script.Run(ctx, s.c, keys, args...)
	}
	a := make([]any, 0, 3+len(keys)+len(args))
	a = append(a, "evalsha", script.Hash(), len(keys))
	for _, k := range keys {
		a = append(a, k)
	}
	a = append(a, args...)
	cmd := redis.NewCmd(ctx, a...)
	if err := ctx.Err(); err != nil {
		// A plain client sends nothing past its deadline, nor does
		// this: the pipeliner would.
		cmd.SetErr(err)
		return cmd
	}
	f := s.pipe.Submit(ctx, cmd)
	s.waiting.Add(1)
	defer s.waiting.Add(-1)
	// The wait follows ctx's deadline, not its Done channel: the
	// Discord adapter's context makes its timer only when asked for
	// that channel (bot/discord/deadline.go), and this one is needed
	// anyway.
	dl, ok := ctx.Deadline()
	if s.wait > 0 && (!ok || time.Until(dl) > s.wait) {
		dl, ok = time.Now().Add(s.wait), true
	}
	wctx := context.WithoutCancel(ctx)
	if ok {
		var cancel context.CancelFunc
		wctx, cancel = context.WithDeadline(wctx, dl)
		defer cancel()
	}
	err := f.WaitContext(wctx)
	if cerr := wctx.Err(); cerr != nil && errors.Is(err, cerr) {
		// Abandoned: the pipeliner may still fill cmd in, so it is
		// not read again; its outcome, if it lands, is a write whose
		// reply was lost.
		gone := redis.NewCmd(ctx, a...)
		gone.SetErr(err)
		return gone
	}
	if err != nil && redis.HasErrorPrefix(err, "NOSCRIPT") { // it allocates, even for nil
		return script.Eval(ctx, s.c, keys, args...)
	}
	return cmd
}
