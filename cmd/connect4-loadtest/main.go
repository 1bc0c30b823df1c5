// Command connect4-loadtest plays many games at once against a running
// `connect4 serve` through its signed Discord interactions endpoint, the
// way Discord would send them, and reports games, moves, moves per second,
// move latency percentiles, the server's CPU per move (from its /metrics)
// and, given the server's Redis, Redis round trips, commands and CPU per
// move.
//
//	go run ./cmd/connect4-loadtest -keygen
//	go run ./cmd/connect4-loadtest -url http://127.0.0.1:8099 -key <seed> -games 32 -duration 30s -redis redis://127.0.0.1:6379/0
//
// With -pictures the games show picture boards, and the load test serves
// the fake of Discord's REST API (-api) that the server, started with
// DISCORD_API_URL pointing there, delivers each move's PNG and each game's
// replay GIF to; a move is timed until its picture has arrived.
//
// It reads the game from the buttons' custom_ids (package
// bot/discord/discordtest), not from the message text.
package main

import (
	"bytes"
	"context"
	"crypto/ed25519"
	crand "crypto/rand"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	if err != nil {
		if !errors.Is(err, errUsage) {
			fmt.Fprintln(os.Stderr, "connect4-loadtest:", err)
		}
		os.Exit(1)
	}
}

// errUsage is returned after a usage problem and the usage have been
// printed.
var errUsage = errors.New("usage")

// Defaults of the flags.
const (
	defaultURL      = "http://127.0.0.1:8080"
	defaultGames    = 32
	defaultDuration = time.Minute
)

const about = `usage: connect4-loadtest [flags]

Plays many games at once against a running connect4 serve through its
signed Discord endpoint, POST <url>/discord/interactions, and reports
games, moves, moves per second, move latency percentiles, the server's CPU
per move (process_cpu_seconds_total from <url>/metrics, when it serves
one) and, with -redis, Redis round trips, commands and CPU per move. Start the
server with the public key of -key as DISCORD_PUBLIC_KEY (-keygen makes a
pair), and on a REDIS_PREFIX of its own: every game leaves a channel
leaderboard.

With -pictures each game's channel shows picture boards (the default look
on Discord) instead of emoji: the server defers each move and delivers the
PNG through Discord's REST API, which the load test then serves itself on
-api (start the server with DISCORD_API_URL=http://<-api>). A move is timed
until its picture has arrived there.

With -baseline it serves instead the least a server can do for these games
(the signature check, the JSON fields a move needs, an in-memory move and
the board in the answer), with the same /metrics CPU counter, so that
connect4 serve's CPU per move can be compared with it side by side. With
-redis too it also keeps each game in that Redis, waiting for one
compare-and-set script per challenge, accept and move (the least a server
on Redis can do), and deletes its keys when it stops.

With -compare the load test loads a second server too (the baseline,
say, started beside the server), in -rounds rounds, the two in turn and
the order alternating, and ends with both servers' CPU per move by round
and the ratio in each round, with the least and the median: each ratio
from one round, so that both servers saw the same machine; with -redis,
also Redis's CPU and commands per move by round, with their least and
median. The second server's games never ask for pictures.

flags:
`

// cmdline is what the flags say.
type cmdline struct {
	opt                           options
	keyHex, baselineAddr, apiAddr string
	compare                       string // base URL of the second server, or ""
	rounds                        int
	keygen                        bool
}

// flags returns the flag set of the command, writing into c.
func flags(c *cmdline, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet("connect4-loadtest", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {}
	opt := &c.opt
	fs.StringVar(&opt.URL, "url", defaultURL, "base URL of the running server")
	fs.IntVar(&opt.Games, "games", defaultGames, "games in flight at once")
	fs.IntVar(&opt.Total, "total", 0, "games to play in all (0: as many as -duration allows)")
	fs.DurationVar(&opt.Duration, "duration", defaultDuration, "start no game after this long (0: until -total)")
	fs.StringVar(&c.keyHex, "key", "", "hex Ed25519 private key seed (32 bytes) to sign with; empty: make a key pair and wait for a server started with its public key")
	fs.BoolVar(&c.keygen, "keygen", false, "only print a new key pair")
	fs.StringVar(&opt.Redis, "redis", "", "redis:// URL of the server's Redis, to count its commands per move (INFO commandstats); with -baseline, the baseline keeps its games there too")
	fs.StringVar(&opt.Guild, "guild", "loadtest", "guild id of the games; each game gets a channel of its own")
	fs.Uint64Var(&opt.Seed, "seed", 1, "seed of the random column choices")
	fs.DurationVar(&opt.Wait, "wait", 2*time.Minute, "how long to wait for the server to accept a signed PING")
	fs.BoolVar(&opt.Pictures, "pictures", false, "play with picture boards, received by a fake of Discord's REST API on -api")
	fs.StringVar(&c.apiAddr, "api", "127.0.0.1:8097", "with -pictures: the address (host:port) to serve the fake REST API on")
	fs.StringVar(&c.compare, "compare", "", "base URL of a second server (the baseline, say) to load in every round too, in turn with -url, for the ratio of their CPU per move")
	fs.IntVar(&c.rounds, "rounds", 1, "runs of -duration (or -total) each; with -compare, each round loads both servers")
	fs.StringVar(&c.baselineAddr, "baseline", "", "instead of testing, serve the baseline server on this address (host:port) for -key, until Ctrl-C")
	return fs
}

// check reports every problem of c at once, and reads the key.
func (c *cmdline) check() error {
	opt := &c.opt
	var errs []error
	if opt.Games < 1 {
		errs = append(errs, fmt.Errorf("-games %d: want at least 1", opt.Games))
	}
	if opt.Total < 0 {
		errs = append(errs, fmt.Errorf("-total %d: want 0 or more", opt.Total))
	}
	if opt.Duration < 0 {
		errs = append(errs, fmt.Errorf("-duration %v: want 0 or more", opt.Duration))
	}
	if opt.Total == 0 && opt.Duration == 0 {
		errs = append(errs, errors.New("-total and -duration are both 0: give one, so that the test stops"))
	}
	if !httpURL(opt.URL) {
		errs = append(errs, fmt.Errorf("-url %q: want an http(s) URL", opt.URL))
	}
	if c.compare != "" && !httpURL(c.compare) {
		errs = append(errs, fmt.Errorf("-compare %q: want an http(s) URL", c.compare))
	}
	if c.rounds < 1 {
		errs = append(errs, fmt.Errorf("-rounds %d: want at least 1", c.rounds))
	}
	if c.baselineAddr != "" && (c.compare != "" || c.rounds != 1) {
		errs = append(errs, errors.New("-baseline serves, it does not load: -compare and -rounds are for the load test"))
	}
	if err := keyPart(opt.Guild); err != nil {
		errs = append(errs, fmt.Errorf("-guild %q: %w", opt.Guild, err))
	}
	if c.keyHex != "" {
		k, err := parseSeed(c.keyHex)
		if err != nil {
			errs = append(errs, fmt.Errorf("-key: %w", err))
		}
		opt.Key = k
	}
	return errors.Join(errs...)
}

// httpURL reports whether s is an http(s) URL with a host.
func httpURL(s string) bool {
	u, err := url.Parse(s)
	return err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != ""
}

// run is the command without the process around it, for tests. It returns
// an error when the flags are wrong, the server cannot be reached, or any
// request failed.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	c := &cmdline{opt: options{Timeout: 10 * time.Second}}
	fs := flags(c, stderr)
	help := func(w io.Writer) {
		fmt.Fprint(w, about)
		fs.SetOutput(w)
		fs.PrintDefaults()
		fs.SetOutput(stderr)
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			help(stdout)
			return nil
		}
		help(stderr)
		return errUsage
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "connect4-loadtest: unexpected argument %q\n\n", fs.Arg(0))
		help(stderr)
		return errUsage
	}
	if c.keygen {
		pub, priv, err := ed25519.GenerateKey(crand.Reader)
		if err != nil {
			return fmt.Errorf("make key pair: %w", err)
		}
		fmt.Fprintf(stdout, "DISCORD_PUBLIC_KEY=%s\n# connect4-loadtest -key %s\n", hex.EncodeToString(pub), hex.EncodeToString(priv.Seed()))
		return nil
	}
	if err := c.check(); err != nil {
		return err
	}
	generated := c.keyHex == ""
	if c.baselineAddr != "" {
		if generated {
			return errors.New("-baseline: give the -key the load test will sign with (-keygen makes one)")
		}
		return serveBaseline(ctx, c.baselineAddr, c.opt.Redis, c.opt.Key, stderr)
	}
	if generated {
		pub, priv, err := ed25519.GenerateKey(crand.Reader)
		if err != nil {
			return fmt.Errorf("make key pair: %w", err)
		}
		c.opt.Key = priv
		fmt.Fprintf(stderr, "connect4-loadtest: start the server with DISCORD_PUBLIC_KEY=%s\n", hex.EncodeToString(pub))
	}
	return playRounds(ctx, c.opt, c.compare, c.rounds, c.apiAddr, generated, stdout, stderr)
}

// serveAPI serves api on addr until the returned func is called, and says
// how to point the server at it.
func serveAPI(ctx context.Context, addr string, api *fakeAPI, stderr io.Writer) (func(), error) {
	ln, err := (&net.ListenConfig{}).Listen(ctx, "tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("-api: %w", err)
	}
	srv := &http.Server{Handler: api, ReadHeaderTimeout: 10 * time.Second}
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = srv.Serve(ln) // ends with Close below
	}()
	fmt.Fprintf(stderr, "connect4-loadtest: Discord's REST API, for the pictures, on http://%s (the server's DISCORD_API_URL)\n", ln.Addr())
	return func() {
		srv.Close()
		<-done
	}, nil
}

// keyPart checks a guild id the way match.Key does, leaving room for
// nothing else: non-empty, at most 64 bytes, no braces, colons or spaces.
func keyPart(s string) error {
	if s == "" || len(s) > 64 || strings.ContainsAny(s, "{}: \t\r\n") {
		return errors.New("want 1-64 characters without braces, colons or spaces")
	}
	return nil
}

// parseSeed decodes a hex Ed25519 seed (32 bytes), or a whole hex private
// key (64 bytes, seed then public key).
func parseSeed(s string) (ed25519.PrivateKey, error) {
	b, err := hex.DecodeString(strings.TrimSpace(s))
	switch {
	case err != nil:
		return nil, fmt.Errorf("not hex: %w", err)
	case len(b) == ed25519.SeedSize:
		return ed25519.NewKeyFromSeed(b), nil
	case len(b) == ed25519.PrivateKeySize:
		k := ed25519.NewKeyFromSeed(b[:ed25519.SeedSize])
		if !bytes.Equal(k, b) {
			return nil, errors.New("the public half does not match the seed")
		}
		return k, nil
	}
	return nil, fmt.Errorf("%d bytes, want a %d-byte seed", len(b), ed25519.SeedSize)
}
