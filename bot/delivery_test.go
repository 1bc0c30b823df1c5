package bot

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"net/http"
	"net/http/httptest"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/connect4/connect4/bot/match"
	"github.com/connect4/connect4/sessions"
	"github.com/connect4/connect4/sessions/storetest"
)

// fakeTimers are the workers' waits measured on a fake clock: a wait ends
// when advance has moved the clock past it. It is safe for concurrent use.
type fakeTimers struct {
	clk   *storetest.Clock
	mu    sync.Mutex
	waits []fakeWait
}

type fakeWait struct {
	at   time.Time
	done chan struct{}
}

func (f *fakeTimers) sleep(ctx context.Context, d time.Duration) error {
	w := fakeWait{at: f.clk.Now().Add(d), done: make(chan struct{})}
	f.mu.Lock()
	f.waits = append(f.waits, w)
	f.mu.Unlock()
	select {
	case <-w.done:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// advance moves the clock by d and ends the waits it passed.
func (f *fakeTimers) advance(d time.Duration) {
	f.clk.Advance(d)
	now := f.clk.Now()
	f.mu.Lock()
	defer f.mu.Unlock()
	keep := f.waits[:0]
	for _, w := range f.waits {
		if w.at.After(now) {
			keep = append(keep, w)
		} else {
			close(w.done)
		}
	}
	f.waits = keep
}

// replicas starts n workers, each a Service with a Redis store of its own
// under one key prefix, on clk, delivering with nf; it returns the first
// Service (to create games with), and stops the workers at the test's end.
func replicas(t *testing.T, n int, clk *storetest.Clock, timers *fakeTimers, nf Notifier, hooks *counter) *Service {
	c := storetest.Redis(t)
	prefix := storetest.Prefix(t, c)
	ctx, cancel := context.WithCancel(t.Context())
	var wg sync.WaitGroup
	t.Cleanup(func() { cancel(); wg.Wait() })
	var first *Service
	for i := range n {
		st := storetest.NewRedis(t, c, sessions.Options{Prefix: prefix, Now: clk.Now})
		svc := New(st, Options{Now: clk.Now, AI: lowestColumn, RemindAfter: time.Hour, TurnTimeout: 24 * time.Hour})
		if i == 0 {
			first = svc
		}
		wg.Go(func() {
			svc.RunSchedule(ctx, st, map[string]Notifier{"test": nf}, WorkerOptions{Poll: 2 * time.Millisecond,
				Hooks: hooks.hooks(), sleep: timers.sleep})
		})
	}
	return first
}

// playing creates games in channels W0..W(n-1), each waiting on a move,
// so that each gets a reminder RemindAfter later.
func playing(t *testing.T, svc *Service, n int) {
	for g := range n {
		rec := storetest.Playing(t, storetest.Channel, 3)
		rec.Key = match.Key{Platform: "test", Workspace: "T1", Channel: fmt.Sprintf("W%d", g)}
		if err := svc.store.Create(t.Context(), rec); err != nil {
			t.Fatal(err)
		}
	}
}

// rateLimited is a platform that answers 429 with a retry-after for a while
// from the first post it gets, then takes posts, a little slowly (as a
// platform does), counting them per channel.
type rateLimited struct {
	clk        *storetest.Clock
	limit      time.Duration // how long it refuses posts
	retryAfter time.Duration
	latency    time.Duration

	mu    sync.Mutex
	first time.Time
	posts map[string]int
}

func (p *rateLimited) Edit(context.Context, match.Key, match.MessageRef, Reply) error {
	return errors.New("rateLimited: no edits expected")
}

func (p *rateLimited) Post(_ context.Context, k match.Key, _ match.MessageRef, _ Reply) error {
	now := p.clk.Now()
	p.mu.Lock()
	if p.first.IsZero() {
		p.first = now
	}
	limited := now.Before(p.first.Add(p.limit))
	p.mu.Unlock()
	if limited {
		return &RateLimitError{After: p.retryAfter, Err: errors.New("HTTP 429")}
	}
	time.Sleep(p.latency)
	p.mu.Lock()
	defer p.mu.Unlock()
	p.posts[k.Channel]++
	return nil
}

func (p *rateLimited) count() map[string]int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return maps.Clone(p.posts)
}

// since returns how long ago on the clock the first post came, 0 before it.
func (p *rateLimited) since() time.Duration {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.first.IsZero() {
		return 0
	}
	return p.clk.Now().Sub(p.first)
}

// all returns a copy of the counts.
func (c *counter) all() map[string]int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return maps.Clone(c.n)
}

// run advances timers by step every tick of real time until total has
// passed on the clock or done says so.
func run(timers *fakeTimers, step, tick, total time.Duration, done func() bool) {
	for passed := time.Duration(0); passed < total && !done(); passed += step {
		timers.advance(step)
		time.Sleep(tick)
	}
}

// TestRemindersOnceWhenRateLimited is issue 31's attack on 3 workers
// sharing one Redis: the platform answers 429 with Retry-After: 30 for
// 112 s, so the fifth attempt of each reminder lands 120 s after its
// claim, as its 2-minute lease ends. Each reminder must be posted once:
// the worker that holds it renews its lease before each wait, so no other
// worker claims it and posts it again.
func TestRemindersOnceWhenRateLimited(t *testing.T) {
	t.Parallel() // its own key prefix; it waits on a fake clock
	const games = 6
	clk := storetest.NewClock(time.Now())
	timers := &fakeTimers{clk: clk}
	nf := &rateLimited{clk: clk, limit: 112 * time.Second, retryAfter: 30 * time.Second, latency: 20 * time.Millisecond,
		posts: map[string]int{}}
	var hooks counter
	svc := replicas(t, 3, clk, timers, nf, &hooks)
	playing(t, svc, games)
	timers.advance(time.Hour)
	// A second of the clock every 4 ms: a reminder's 5 attempts take
	// about half a second, the whole run about 2 s.
	run(timers, time.Second, 4*time.Millisecond, 400*time.Second, func() bool {
		return hooks.get("handled:remind") >= games && len(nf.count()) >= games && nf.since() > 300*time.Second
	})
	posts := nf.count()
	for g := range games {
		if ch := fmt.Sprintf("W%d", g); posts[ch] != 1 {
			t.Errorf("channel %s got its reminder %d times, want once (all: %v; hooks %v)", ch, posts[ch], posts, hooks.all())
		}
	}
	if hooks.get("failed:remind") != 0 {
		t.Errorf("hooks %v: a reminder was dropped", hooks.all())
	}
}

// hanging is a platform whose every post hangs past the client's timeout
// (it is received, and may be shown, but never answered): it counts the
// posts it received per channel. Its client gives up on a post only once
// the platform has received it (then after timeout), with the error a
// client's timeout gives: a post that gave up before it arrived would be
// another case, and a loaded machine made the test meet it.
type hanging struct {
	srv     *httptest.Server
	timeout time.Duration

	mu       sync.Mutex
	posts    map[string]int
	arrived  map[string]chan struct{} // by request id: closed once counted
	requests int
}

func newHanging(t *testing.T, timeout time.Duration) *hanging {
	h := &hanging{posts: map[string]int{}, arrived: map[string]chan struct{}{}, timeout: timeout}
	h.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h.mu.Lock()
		h.posts[r.URL.Path[1:]]++
		if c, ok := h.arrived[r.Header.Get("X-Request")]; ok {
			close(c)
		}
		h.mu.Unlock()
		<-r.Context().Done() // hang until the client gives up
	}))
	t.Cleanup(h.srv.Close)
	return h
}

func (h *hanging) Edit(context.Context, match.Key, match.MessageRef, Reply) error {
	return errors.New("hanging: no edits expected")
}

func (h *hanging) Post(ctx context.Context, k match.Key, _ match.MessageRef, _ Reply) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel() // gives up the request
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, h.srv.URL+"/"+k.Channel, nil)
	if err != nil {
		return err
	}
	arrived := make(chan struct{})
	h.mu.Lock()
	h.requests++
	id := strconv.Itoa(h.requests)
	h.arrived[id] = arrived
	h.mu.Unlock()
	req.Header.Set("X-Request", id)
	answered := make(chan error, 1)
	go func() {
		resp, err := http.DefaultClient.Do(req)
		if err == nil {
			resp.Body.Close()
		}
		answered <- err
	}()
	select {
	case <-arrived:
		time.Sleep(h.timeout)
		return fmt.Errorf("hanging: post: %w", context.DeadlineExceeded)
	case err := <-answered:
		return fmt.Errorf("hanging: post answered: %v", err)
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (h *hanging) count() map[string]int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return maps.Clone(h.posts)
}

// TestReminderOnceWhenPlatformHangs: a platform that receives a post and
// never answers it, past the client's timeout, may have shown it; the
// worker must not post it again (it was posted 5 times, once per attempt).
func TestReminderOnceWhenPlatformHangs(t *testing.T) {
	t.Parallel() // its own key prefix and server; it waits on a fake clock
	const games = 3
	clk := storetest.NewClock(time.Now())
	timers := &fakeTimers{clk: clk}
	nf := newHanging(t, 50*time.Millisecond)
	var hooks counter
	svc := replicas(t, 3, clk, timers, nf, &hooks)
	playing(t, svc, games)
	timers.advance(time.Hour)
	// The backoff after a failure is 1 s, 2 s, 4 s, 8 s: a minute of the
	// clock holds every attempt a worker would make.
	run(timers, time.Second, 20*time.Millisecond, 60*time.Second, func() bool { return false })
	waitFor(t, "every reminder handled", func() bool { return hooks.get("handled:remind")+hooks.get("failed:remind") >= games })
	posts := nf.count()
	for g := range games {
		if ch := fmt.Sprintf("W%d", g); posts[ch] != 1 {
			t.Errorf("channel %s received its reminder %d times, want once (all: %v; hooks %v)", ch, posts[ch], posts, hooks.all())
		}
	}
}
