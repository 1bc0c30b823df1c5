package storetest

import (
	"fmt"
	"os"
	"slices"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/redis/go-redis/v9"
)

// SharedCluster returns the test binary's one three-master Redis Cluster,
// started by the first test that asks and stopped when the package's
// tests end (by Main or RunParallel): starting a cluster takes seconds, and
// tests under their own key prefixes can share one. A package without
// storetest's TestMain gets a cluster of t's own (Cluster), so that no
// server outlives the tests. A test that stops, kills or reconfigures
// nodes must use Cluster.
func SharedCluster(t testing.TB) redis.UniversalClient {
	t.Helper()
	if !mainRuns.Load() {
		return Cluster(t)
	}
	if !HaveRedisServer() {
		skip(t, "redis-server and redis-cli not on PATH: install Redis (apt-get install redis-server) to run this test")
	}
	shared.once.Do(startShared)
	if shared.err != nil {
		t.Fatalf("the shared cluster did not start: %v", shared.err)
	}
	return shared.c
}

var (
	// mainRuns is set by RunParallel: SharedCluster's servers are stopped
	// after the tests.
	mainRuns atomic.Bool
	shared   struct {
		once sync.Once
		c    redis.UniversalClient
		p    *process
		err  error
	}
)

// startShared starts the shared cluster, once (shared.once).
func startShared() {
	p := &process{}
	shared.p = p
	defer func() {
		if r := recover(); r != nil {
			f, ok := r.(fatal)
			if !ok {
				panic(r)
			}
			shared.err = f
		}
	}()
	shared.c = Cluster(p)
}

// stopShared stops the shared cluster, if one was started, once a start
// under way (see Main) has ended.
func stopShared() {
	shared.once.Do(func() {})
	if shared.p != nil {
		shared.p.end()
	}
}

// process is the test binary as the owner of the shared cluster's servers:
// their temporary directories and cleanups last until stopShared. Only the
// methods Cluster and StartServer call are implemented; the embedded nil
// testing.TB panics on any other.
type process struct {
	testing.TB
	mu       sync.Mutex
	dirs     []string
	cleanups []func()
}

// fatal is process's Fatal, recovered by SharedCluster.
type fatal string

func (f fatal) Error() string { return string(f) }

func (p *process) Helper()                           {}
func (p *process) Logf(format string, args ...any)   {}
func (p *process) Fatal(args ...any)                 { panic(fatal(fmt.Sprint(args...))) }
func (p *process) Fatalf(format string, args ...any) { panic(fatal(fmt.Sprintf(format, args...))) }
func (p *process) Skipf(format string, args ...any)  { p.Fatalf(format, args...) }

func (p *process) Cleanup(f func()) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.cleanups = append(p.cleanups, f)
}

func (p *process) TempDir() string {
	dir, err := os.MkdirTemp("", "storetest-cluster-")
	if err != nil {
		p.Fatalf("temp dir: %v", err)
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.dirs = append(p.dirs, dir)
	return dir
}

// end runs the cleanups, last first, and removes the directories.
func (p *process) end() {
	p.mu.Lock()
	cleanups, dirs := p.cleanups, p.dirs
	p.cleanups, p.dirs = nil, nil
	p.mu.Unlock()
	for _, f := range slices.Backward(cleanups) {
		f()
	}
	for _, d := range dirs {
		os.RemoveAll(d)
	}
}
