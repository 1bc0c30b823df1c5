package storetest

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
)

// Server is a private redis-server started by a test, on a free loopback port
// and a data directory under t.TempDir(). Its methods are safe for use from
// one goroutine at a time.
type Server struct {
	Addr string // host:port
	Port int
	Dir  string // data directory: kept across Kill and Start

	args []string
	mu   sync.Mutex
	cmd  *exec.Cmd
	done chan struct{} // closed when cmd has exited
}

// HaveRedisServer reports whether redis-server and redis-cli are on PATH.
func HaveRedisServer() bool {
	_, err1 := exec.LookPath("redis-server")
	_, err2 := exec.LookPath("redis-cli")
	return err1 == nil && err2 == nil
}

// StartServer starts a redis-server with persistence off plus the extra
// configuration args (later ones win, e.g. "--appendonly", "yes"), waits until
// it answers, and stops it when t ends. Without redis-server on PATH it skips
// t, or fails it when CI=true.
func StartServer(t testing.TB, args ...string) *Server {
	t.Helper()
	if !HaveRedisServer() {
		skip(t, "redis-server and redis-cli not on PATH: install Redis (apt-get install redis-server) to run this test")
	}
	s := &Server{Dir: t.TempDir()}
	t.Cleanup(s.Stop)
	var err error
	for range 5 { // a port found free may be taken before the server binds it
		s.Port = freePort(t)
		s.Addr = net.JoinHostPort("127.0.0.1", strconv.Itoa(s.Port))
		s.args = append([]string{
			"--port", strconv.Itoa(s.Port), "--bind", "127.0.0.1", "--dir", s.Dir,
			"--save", "", "--appendonly", "no", "--protected-mode", "no", "--daemonize", "no",
			"--logfile", "redis.log",
		}, args...)
		if err = s.Start(); err == nil {
			return s
		}
	}
	t.Fatalf("start redis-server: %v", err)
	return nil
}

// freePort returns a loopback port that is free, as is the port 10000 above
// it (Redis Cluster's bus port).
func freePort(t testing.TB) int {
	for range 100 {
		p := 20000 + rand.IntN(35000)
		l1, err := net.Listen("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(p)))
		if err != nil {
			continue
		}
		l2, err := net.Listen("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(p+10000)))
		l1.Close()
		if err != nil {
			continue
		}
		l2.Close()
		return p
	}
	t.Fatal("no free loopback port")
	return 0
}

// Start (re)starts the server on its port and directory and waits up to 10s
// until it answers PING.
func (s *Server) Start() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cmd != nil {
		return errors.New("storetest: server already running")
	}
	cmd := exec.Command("redis-server", s.args...)
	cmd.Dir = s.Dir
	if err := cmd.Start(); err != nil {
		return err
	}
	done := make(chan struct{})
	go func() { cmd.Wait(); close(done) }()
	s.cmd, s.done = cmd, done

	c := redis.NewClient(&redis.Options{Addr: s.Addr, MaxRetries: -1, DialTimeout: 200 * time.Millisecond})
	defer c.Close()
	deadline := time.Now().Add(10 * time.Second)
	for {
		ctx, cancel := context.WithTimeout(context.Background(), 500*time.Millisecond)
		err := c.Ping(ctx).Err()
		cancel()
		if err == nil {
			return nil
		}
		select {
		case <-done:
			s.cmd = nil
			return fmt.Errorf("redis-server on %s exited: %s", s.Addr, s.logTail())
		default:
		}
		if time.Now().After(deadline) {
			s.stopLocked()
			return fmt.Errorf("redis-server on %s not answering: %v; %s", s.Addr, err, s.logTail())
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func (s *Server) logTail() string {
	b, _ := os.ReadFile(filepath.Join(s.Dir, "redis.log"))
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	return "log: " + strings.Join(lines[max(0, len(lines)-5):], " | ")
}

// Kill sends SIGKILL, as a crash would, and waits for the process to exit.
func (s *Server) Kill() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cmd == nil {
		return
	}
	s.cmd.Process.Kill()
	<-s.done
	s.cmd = nil
}

// Pause stops the server's process (SIGSTOP), as a hung host would: it
// keeps its connections and answers nothing until Resume.
func (s *Server) Pause() { s.signal(syscall.SIGSTOP) }

// Resume lets a paused server go on (SIGCONT).
func (s *Server) Resume() { s.signal(syscall.SIGCONT) }

func (s *Server) signal(sig os.Signal) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cmd != nil {
		s.cmd.Process.Signal(sig)
	}
}

// Stop shuts the server down (SIGTERM, then SIGKILL after 5s) if it runs.
func (s *Server) Stop() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.stopLocked()
}

func (s *Server) stopLocked() {
	if s.cmd == nil {
		return
	}
	s.cmd.Process.Signal(syscall.SIGCONT) // a paused server hears no SIGTERM
	s.cmd.Process.Signal(os.Interrupt)
	select {
	case <-s.done:
	case <-time.After(5 * time.Second):
		s.cmd.Process.Kill()
		<-s.done
	}
	s.cmd = nil
}

// Client returns a single-node client for s, closed when t ends.
func (s *Server) Client(t testing.TB) *redis.Client {
	c := redis.NewClient(&redis.Options{Addr: s.Addr})
	t.Cleanup(func() { c.Close() })
	return c
}

// Cluster starts a Redis Cluster of three masters (no replicas) on free
// loopback ports, waits until it reports cluster_state:ok, and returns a
// cluster client; all are stopped when t ends. Without redis-server on PATH it
// skips t, or fails it when CI=true.
func Cluster(t testing.TB) redis.UniversalClient {
	t.Helper()
	var nodes []*Server
	var addrs []string
	for range 3 {
		s := StartServer(t, "--cluster-enabled", "yes", "--cluster-config-file", "nodes.conf",
			"--cluster-node-timeout", "5000")
		nodes = append(nodes, s)
		addrs = append(addrs, s.Addr)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	args := append([]string{"--cluster", "create"}, addrs...)
	args = append(args, "--cluster-replicas", "0", "--cluster-yes")
	if out, err := exec.CommandContext(ctx, "redis-cli", args...).CombinedOutput(); err != nil {
		t.Fatalf("redis-cli %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	for _, s := range nodes {
		c := redis.NewClient(&redis.Options{Addr: s.Addr})
		for {
			info, err := c.ClusterInfo(ctx).Result()
			if err == nil && strings.Contains(info, "cluster_state:ok") {
				break
			}
			if ctx.Err() != nil {
				c.Close()
				t.Fatalf("cluster node %s never reached cluster_state:ok: %v %q", s.Addr, err, info)
			}
			time.Sleep(50 * time.Millisecond)
		}
		c.Close()
	}
	cc := redis.NewClusterClient(&redis.ClusterOptions{Addrs: addrs})
	t.Cleanup(func() { cc.Close() })
	// The client learns the slot map lazily; make sure every master is known
	// and reachable before handing it out.
	if err := cc.ForEachMaster(ctx, func(ctx context.Context, c *redis.Client) error { return c.Ping(ctx).Err() }); err != nil {
		t.Fatalf("cluster client: %v", err)
	}
	return cc
}
