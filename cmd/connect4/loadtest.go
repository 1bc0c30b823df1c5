package main

import (
	"bufio"
	"bytes"
	"context"
	"crypto/ed25519"
	crand "crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/redis/go-redis/v9"
)

// loadOptions are the flags of `connect4 loadtest`.
type loadOptions struct {
	URL      string             // base URL of the server
	Games    int                // games in flight
	Total    int                // games to play in all; 0: as many as fit in Duration
	Duration time.Duration      // no game starts after this; 0: until Total
	Key      ed25519.PrivateKey // signs the interactions
	Redis    string             // Redis URL for INFO commandstats, or ""
	Guild    string             // guild id of every game; channels are unique per game
	Seed     uint64             // seeds the column choices
	Wait     time.Duration      // how long to wait for the server to answer a signed PING
	Timeout  time.Duration      // per request
}

// loadReport is what a load test measured.
type loadReport struct {
	Games     int           // games played to the end
	Abandoned int           // games given up after an error
	Moves     int           // column clicks answered with the updated board
	Requests  int           // interactions sent, the PING excluded
	Elapsed   time.Duration // from the first challenge to the last answer
	Latencies []time.Duration

	Errors   int // all of the below
	HTTP     int // transport failures and non-2xx answers
	Refused  int // ephemeral notes where a board was expected
	Protocol int // answers without the expected buttons or turn

	// Deferred counts moves answered with a deferred update (type 6): the
	// server took longer than its deferral threshold and would edit the
	// message through Discord's REST API. The game goes on from the
	// board that /connect4 board posts. Not an error.
	Deferred int
	Boards   int // /connect4 board requests after deferred moves

	// Redis's counters, the difference over the run, when Options.Redis
	// is set. They count every client of that Redis, so run the test where
	// the server is its only other client.
	RedisCalls      int64            // commands but our own INFO, those run by scripts included (INFO commandstats)
	RedisCommands   map[string]int64 // calls by command
	RedisRoundTrips int64            // replies written to clients (INFO stats total_writes_processed)
	Samples         []string         // the first few error descriptions
}

// Defaults of the loadtest flags.
const (
	defaultLoadURL      = "http://127.0.0.1:8080"
	defaultLoadGames    = 32
	defaultLoadDuration = time.Minute
)

// runLoadtest is `connect4 loadtest`: it plays games against a running
// server through its signed Discord interactions endpoint and reports
// games, moves, moves per second, move latencies and, given -redis, Redis
// commands per move. It stops by itself after -total games or once
// -duration has passed (the games in flight then finish). It returns an
// error when the server cannot be reached or any request failed.
func runLoadtest(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("loadtest", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprint(stderr, `usage: connect4 loadtest [flags]

Plays many games at once against a running connect4 serve through its
signed Discord endpoint, POST <url>/discord/interactions, and reports
games, moves, moves per second, move latency percentiles and, with
-redis, Redis commands per move. Start the server with the public key of
-key as DISCORD_PUBLIC_KEY (connect4 loadtest -keygen makes a pair), and
on a REDIS_PREFIX of its own: every game leaves a channel leaderboard.

flags:
`)
		fs.PrintDefaults()
	}
	opt := loadOptions{Timeout: 10 * time.Second}
	var keyHex string
	var keygen bool
	fs.StringVar(&opt.URL, "url", defaultLoadURL, "base URL of the running server")
	fs.IntVar(&opt.Games, "games", defaultLoadGames, "games in flight at once")
	fs.IntVar(&opt.Total, "total", 0, "games to play in all (0: as many as -duration allows)")
	fs.DurationVar(&opt.Duration, "duration", defaultLoadDuration, "start no game after this long (0: until -total)")
	fs.StringVar(&keyHex, "key", "", "hex Ed25519 private key seed (32 bytes) to sign with; empty: make a key pair and wait for a server started with its public key")
	fs.BoolVar(&keygen, "keygen", false, "only print a new key pair")
	fs.StringVar(&opt.Redis, "redis", "", "redis:// URL of the server's Redis, to count its commands per move (INFO commandstats)")
	fs.StringVar(&opt.Guild, "guild", "loadtest", "guild id of the games; each game gets a channel of its own")
	fs.Uint64Var(&opt.Seed, "seed", 1, "seed of the random column choices")
	fs.DurationVar(&opt.Wait, "wait", 2*time.Minute, "how long to wait for the server to accept a signed PING")
	if err := fs.Parse(args); err != nil {
		return errUsage
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "loadtest: unexpected argument %q\n", fs.Arg(0))
		return errUsage
	}
	if keygen {
		pub, priv, err := ed25519.GenerateKey(crand.Reader)
		if err != nil {
			return fmt.Errorf("make key pair: %w", err)
		}
		fmt.Fprintf(stdout, "DISCORD_PUBLIC_KEY=%s\n# connect4 loadtest -key %s\n", hex.EncodeToString(pub), hex.EncodeToString(priv.Seed()))
		return nil
	}
	var errs []error
	switch {
	case opt.Games < 1:
		errs = append(errs, fmt.Errorf("-games %d: want at least 1", opt.Games))
	case opt.Total < 0:
		errs = append(errs, fmt.Errorf("-total %d: want 0 or more", opt.Total))
	case opt.Duration < 0:
		errs = append(errs, fmt.Errorf("-duration %v: want 0 or more", opt.Duration))
	case opt.Total == 0 && opt.Duration == 0:
		errs = append(errs, errors.New("-total and -duration are both 0: give one, so that the test stops"))
	}
	if u, err := url.Parse(opt.URL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		errs = append(errs, fmt.Errorf("-url %q: want an http(s) URL", opt.URL))
	}
	if err := (keyPart(opt.Guild)); err != nil {
		errs = append(errs, fmt.Errorf("-guild %q: %w", opt.Guild, err))
	}
	generated := keyHex == ""
	if generated {
		pub, priv, err := ed25519.GenerateKey(crand.Reader)
		if err != nil {
			return fmt.Errorf("make key pair: %w", err)
		}
		opt.Key = priv
		fmt.Fprintf(stderr, "loadtest: start the server with DISCORD_PUBLIC_KEY=%s\n", hex.EncodeToString(pub))
	} else if k, err := parseSeed(keyHex); err != nil {
		errs = append(errs, fmt.Errorf("-key: %w", err))
	} else {
		opt.Key = k
	}
	if len(errs) > 0 {
		return errors.Join(errs...)
	}

	lt := newLoadtester(opt)
	if err := lt.waitReady(ctx, generated, stderr); err != nil {
		return err
	}
	rep, err := lt.run(ctx)
	if err != nil {
		return err
	}
	rep.print(stdout)
	for _, s := range rep.Samples {
		fmt.Fprintln(stderr, "loadtest: error:", s)
	}
	if rep.Errors > 0 {
		return fmt.Errorf("loadtest: %d errors", rep.Errors)
	}
	return nil
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

// loadtester plays the games of one run. Its counters are safe for
// concurrent use by the games.
type loadtester struct {
	opt      loadOptions
	endpoint string
	client   *http.Client
	run0     string // distinguishes this run's channel and user ids from other runs'

	mu   sync.Mutex
	rep  loadReport
	next atomic.Int64 // games started
}

func newLoadtester(opt loadOptions) *loadtester {
	tr := http.DefaultTransport.(*http.Transport).Clone()
	tr.MaxIdleConns = opt.Games * 2
	tr.MaxIdleConnsPerHost = opt.Games * 2
	var b [4]byte
	crand.Read(b[:])
	return &loadtester{
		opt:      opt,
		endpoint: strings.TrimSuffix(opt.URL, "/") + "/discord/interactions",
		client:   &http.Client{Transport: tr, Timeout: opt.Timeout},
		run0:     strconv.FormatUint(uint64(b[0])<<24|uint64(b[1])<<16|uint64(b[2])<<8|uint64(b[3]), 10),
	}
}

// waitReady sends signed PINGs until the server answers one with a PONG.
// Connection failures are retried until opt.Wait has passed; so is a 401
// when the key was just generated (the server is still to be started with
// it), but with a given key a 401 fails at once.
func (lt *loadtester) waitReady(ctx context.Context, generated bool, stderr io.Writer) error {
	ctx, cancel := context.WithTimeout(ctx, lt.opt.Wait)
	defer cancel()
	said := false
	for {
		resp, status, err := lt.post(ctx, map[string]any{"type": 1, "id": "1", "application_id": loadApp, "token": "ping", "version": 1})
		switch {
		case err == nil && status == http.StatusOK && resp.Type == 1:
			return nil
		case err == nil && status == http.StatusUnauthorized && !generated:
			return fmt.Errorf("loadtest: %s refused the signature (401): start the server with DISCORD_PUBLIC_KEY=%s",
				lt.endpoint, hex.EncodeToString(lt.opt.Key.Public().(ed25519.PublicKey)))
		case err == nil && status == http.StatusNotFound:
			return fmt.Errorf("loadtest: %s: 404: the server has no Discord endpoint (is DISCORD_PUBLIC_KEY set?)", lt.endpoint)
		case err == nil && status == http.StatusOK:
			return fmt.Errorf("loadtest: %s answered a PING with type %d, want 1", lt.endpoint, resp.Type)
		}
		if !said {
			fmt.Fprintf(stderr, "loadtest: waiting for %s to accept a signed PING...\n", lt.endpoint)
			said = true
		}
		select {
		case <-ctx.Done():
			if err == nil {
				err = fmt.Errorf("HTTP %d", status)
			}
			return fmt.Errorf("loadtest: %s not ready after %v: %w", lt.endpoint, lt.opt.Wait, err)
		case <-time.After(250 * time.Millisecond):
		}
	}
}

// loadApp is the application id of the interactions: the bot's own user
// as far as the server can tell, unlike every player.
const loadApp = "900000000000000001"

// run plays the games: opt.Games at a time, until opt.Total have started
// or opt.Duration has passed, and waits for the games in flight.
func (lt *loadtester) run(ctx context.Context) (loadReport, error) {
	var before redisStats
	var rdb *redis.Client
	if lt.opt.Redis != "" {
		ropt, err := redis.ParseURL(lt.opt.Redis)
		if err != nil {
			return loadReport{}, fmt.Errorf("-redis: %s", redactErr(err, lt.opt.Redis))
		}
		rdb = redis.NewClient(ropt)
		defer rdb.Close()
		if before, err = readRedisStats(ctx, rdb); err != nil {
			return loadReport{}, err
		}
	}
	start := time.Now()
	var stopAt time.Time
	if lt.opt.Duration > 0 {
		stopAt = start.Add(lt.opt.Duration)
	}
	var wg sync.WaitGroup
	for w := range lt.opt.Games {
		rng := rand.New(rand.NewPCG(lt.opt.Seed, uint64(w)))
		wg.Go(func() {
			for ctx.Err() == nil && (stopAt.IsZero() || time.Now().Before(stopAt)) {
				n := lt.next.Add(1)
				if lt.opt.Total > 0 && n > int64(lt.opt.Total) {
					return
				}
				lt.playGame(ctx, n, rng)
			}
		})
	}
	wg.Wait()
	lt.mu.Lock()
	rep := lt.rep
	lt.mu.Unlock()
	rep.Elapsed = time.Since(start)
	if rdb != nil {
		after, err := readRedisStats(context.WithoutCancel(ctx), rdb)
		if err != nil {
			return loadReport{}, err
		}
		rep.RedisCommands = map[string]int64{}
		for cmd, n := range after.calls {
			if d := n - before.calls[cmd]; d > 0 && cmd != "info" {
				rep.RedisCommands[cmd] = d
				rep.RedisCalls += d
			}
		}
		// Less the reply to the first INFO, written after it was counted.
		rep.RedisRoundTrips = after.writes - before.writes - 1
	}
	if err := ctx.Err(); err != nil {
		return rep, fmt.Errorf("loadtest: interrupted: %w", err)
	}
	return rep, nil
}

// redisStats are the counters of one INFO reply.
type redisStats struct {
	calls  map[string]int64 // by command, from commandstats
	writes int64            // total_writes_processed: replies written to clients
}

// readRedisStats reads the command counts and the replies written from
// Redis's INFO commandstats and stats, in one command.
func readRedisStats(ctx context.Context, c *redis.Client) (redisStats, error) {
	s, err := c.Info(ctx, "commandstats", "stats").Result()
	if err != nil {
		return redisStats{}, fmt.Errorf("redis INFO commandstats stats: %w", err)
	}
	st := redisStats{calls: parseCommandStats(s)}
	sc := bufio.NewScanner(strings.NewReader(s))
	for sc.Scan() {
		if v, ok := strings.CutPrefix(strings.TrimSpace(sc.Text()), "total_writes_processed:"); ok {
			st.writes, _ = strconv.ParseInt(v, 10, 64)
		}
	}
	return st, nil
}

// parseCommandStats reads lines like
// "cmdstat_get:calls=21,usec=175,usec_per_call=8.33,..." into calls by
// command ("get"; subcommands as "client|setname").
func parseCommandStats(s string) map[string]int64 {
	out := map[string]int64{}
	sc := bufio.NewScanner(strings.NewReader(s))
	for sc.Scan() {
		name, rest, ok := strings.Cut(strings.TrimSpace(sc.Text()), ":")
		if !ok || !strings.HasPrefix(name, "cmdstat_") {
			continue
		}
		for f := range strings.SplitSeq(rest, ",") {
			if v, ok := strings.CutPrefix(f, "calls="); ok {
				if n, err := strconv.ParseInt(v, 10, 64); err == nil {
					out[strings.TrimPrefix(name, "cmdstat_")] = n
				}
			}
		}
	}
	return out
}

// The parts of Discord's interaction response the load test reads.
type (
	ixResponse struct {
		Type int     `json:"type"`
		Data *ixData `json:"data"`
	}
	ixData struct {
		Content    string        `json:"content"`
		Flags      int           `json:"flags"`
		Components []ixComponent `json:"components"`
	}
	ixComponent struct {
		Type       int           `json:"type"`
		Label      string        `json:"label"`
		CustomID   string        `json:"custom_id"`
		Disabled   bool          `json:"disabled"`
		Components []ixComponent `json:"components"`
	}
)

// Interaction and response types, and the ephemeral flag, from Discord's
// documentation.
const (
	ixApplicationCommand = 2
	ixMessageComponent   = 3
	respChannelMessage   = 4
	respDeferredUpdate   = 6
	respUpdateMessage    = 7
	flagEphemeral        = 1 << 6
)

// buttons returns the buttons of d's action rows.
func (d *ixData) buttons() []ixComponent {
	var out []ixComponent
	if d == nil {
		return nil
	}
	for _, row := range d.Components {
		for _, c := range row.Components {
			if c.Type == 2 {
				out = append(out, c)
			}
		}
	}
	return out
}

// button returns the custom_id of the enabled button labelled label.
func (d *ixData) button(label string) (string, bool) {
	for _, b := range d.buttons() {
		if b.Label == label && !b.Disabled {
			return b.CustomID, true
		}
	}
	return "", false
}

// columns returns the custom_ids of the enabled column buttons (labelled
// with a number).
func (d *ixData) columns() []string {
	var out []string
	for _, b := range d.buttons() {
		if _, err := strconv.Atoi(b.Label); err == nil && !b.Disabled {
			out = append(out, b.CustomID)
		}
	}
	return out
}

var yourTurn = regexp.MustCompile(`<@([0-9A-Za-z_-]+)>, it's your turn \(move (\d+)\)`)

// toMove returns the user id whose turn d's board says it is, and the
// number of the move to make.
func (d *ixData) toMove() (user string, move int, ok bool) {
	m := yourTurn.FindStringSubmatch(d.Content)
	if m == nil {
		return "", 0, false
	}
	move, err := strconv.Atoi(m[2])
	return m[1], move, err == nil
}

// boardAfter sends the /connect4 board interactions that board makes until
// the answer shows the game past move moveNo (a later move to make, or the
// end), for at most 10 s.
func (lt *loadtester) boardAfter(ctx context.Context, board func() map[string]any, moveNo int) (ixResponse, bool) {
	deadline := time.Now().Add(10 * time.Second)
	for {
		lt.mu.Lock()
		lt.rep.Boards++
		lt.mu.Unlock()
		r, ok := lt.exchange(ctx, board(), "board", respChannelMessage)
		if !ok {
			return r, false
		}
		_, over := r.Data.button("Rematch")
		if _, n, ok := r.Data.toMove(); over || !ok || n > moveNo {
			return r, true
		}
		if time.Now().After(deadline) {
			lt.fail(&lt.rep.Protocol, "board: move %d still not made 10 s after its deferred answer", moveNo)
			return r, false
		}
		select {
		case <-ctx.Done():
			lt.fail(&lt.rep.HTTP, "board: %v", ctx.Err())
			return r, false
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// ixUser is a Discord user object as interactions carry it.
type ixUser struct {
	ID       string `json:"id"`
	Username string `json:"username"`
}

// playGame plays game n to its end, in a channel of its own: a challenge,
// the opponent's Accept, then random columns by whoever is to move. It
// gives the game up at the first error, counted in lt.rep.
func (lt *loadtester) playGame(ctx context.Context, n int64, rng *rand.Rand) {
	id := lt.run0 + fmt.Sprintf("%08d", n)
	channel := "7" + id
	a := ixUser{ID: "1" + id, Username: "red" + id}
	b := ixUser{ID: "2" + id, Username: "yellow" + id}
	message := map[string]any{"id": "3" + id, "channel_id": channel}
	member := func(u ixUser) map[string]any { return map[string]any{"user": u} }
	seq := 0
	interaction := func(typ int, u ixUser, data map[string]any) map[string]any {
		seq++
		in := map[string]any{
			"id": "4" + id + strconv.Itoa(seq), "application_id": loadApp, "type": typ,
			"token": "loadtest-" + id + "-" + strconv.Itoa(seq), "version": 1,
			"guild_id": lt.opt.Guild, "channel_id": channel, "member": member(u), "data": data,
		}
		if typ == ixMessageComponent {
			in["message"] = message
		}
		return in
	}
	click := func(u ixUser, customID string) map[string]any {
		return interaction(ixMessageComponent, u, map[string]any{"custom_id": customID, "component_type": 2})
	}

	board := func(u ixUser) map[string]any {
		return interaction(ixApplicationCommand, u, map[string]any{
			"id": "5" + id, "name": "connect4", "type": 1,
			"options": []any{map[string]any{"type": 1, "name": "board"}},
		})
	}
	challenge := interaction(ixApplicationCommand, a, map[string]any{
		"id": "5" + id, "name": "connect4", "type": 1,
		"options": []any{map[string]any{"type": 1, "name": "challenge",
			"options": []any{map[string]any{"type": 6, "name": "opponent", "value": b.ID}}}},
		"resolved": map[string]any{"users": map[string]any{b.ID: b}},
	})
	r, ok := lt.exchange(ctx, challenge, "challenge", respChannelMessage)
	if !ok {
		return
	}
	accept, ok := r.Data.button("Accept")
	if !ok {
		lt.fail(&lt.rep.Protocol, "challenge answer has no Accept button: %.200q", r.Data.Content)
		return
	}
	if r, ok = lt.exchange(ctx, click(b, accept), "accept", respUpdateMessage, respChannelMessage); !ok {
		return
	}
	players := map[string]ixUser{a.ID: a, b.ID: b}
	for {
		cols := r.Data.columns()
		if _, over := r.Data.button("Rematch"); over || len(cols) == 0 {
			lt.mu.Lock()
			lt.rep.Games++
			lt.mu.Unlock()
			return
		}
		who, moveNo, ok := r.Data.toMove()
		if !ok || players[who].ID == "" {
			lt.fail(&lt.rep.Protocol, "board without a player to move: %.200q", r.Data.Content)
			return
		}
		t0 := time.Now()
		r, ok = lt.exchange(ctx, click(players[who], cols[rng.IntN(len(cols))]), "move", respUpdateMessage, respDeferredUpdate)
		if !ok {
			return
		}
		lt.mu.Lock()
		lt.rep.Moves++
		lt.rep.Latencies = append(lt.rep.Latencies, time.Since(t0))
		if r.Type == respDeferredUpdate {
			lt.rep.Deferred++
		}
		lt.mu.Unlock()
		if r.Type == respDeferredUpdate {
			// The updated board goes to Discord's REST API, which is not
			// here: ask for it until it shows the move.
			if r, ok = lt.boardAfter(ctx, func() map[string]any { return board(players[who]) }, moveNo); !ok {
				return
			}
		}
	}
}

// exchange sends one interaction of a game and checks that the answer is
// of one of the want types and not an ephemeral note. On anything else it
// counts the error and the abandoned game and reports false.
func (lt *loadtester) exchange(ctx context.Context, in map[string]any, what string, want ...int) (ixResponse, bool) {
	lt.mu.Lock()
	lt.rep.Requests++
	lt.mu.Unlock()
	r, status, err := lt.post(ctx, in)
	switch {
	case err != nil:
		lt.fail(&lt.rep.HTTP, "%s: %v", what, err)
	case status/100 != 2:
		lt.fail(&lt.rep.HTTP, "%s: HTTP %d", what, status)
	case r.Data != nil && r.Data.Flags&flagEphemeral != 0:
		lt.fail(&lt.rep.Refused, "%s: refused: %.200q", what, r.Data.Content)
	case r.Type == respDeferredUpdate && slices.Contains(want, r.Type):
		return r, true
	case !slices.Contains(want, r.Type) || r.Data == nil:
		lt.fail(&lt.rep.Protocol, "%s: answer of type %d, want %v", what, r.Type, want)
	default:
		return r, true
	}
	return r, false
}

// fail counts an error of one class and the game it ends.
func (lt *loadtester) fail(class *int, format string, args ...any) {
	lt.mu.Lock()
	defer lt.mu.Unlock()
	*class++
	lt.rep.Errors++
	lt.rep.Abandoned++
	if len(lt.rep.Samples) < 5 {
		lt.rep.Samples = append(lt.rep.Samples, fmt.Sprintf(format, args...))
	}
}

// post signs in as Discord does (Ed25519 over timestamp and body) and
// sends it. A non-2xx status is not an error; a body that is not JSON on a
// 2xx is.
func (lt *loadtester) post(ctx context.Context, in map[string]any) (ixResponse, int, error) {
	body, err := json.Marshal(in)
	if err != nil {
		return ixResponse{}, 0, err
	}
	ts := strconv.FormatInt(time.Now().Unix(), 10)
	sig := ed25519.Sign(lt.opt.Key, append([]byte(ts), body...))
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, lt.endpoint, bytes.NewReader(body))
	if err != nil {
		return ixResponse{}, 0, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-Signature-Ed25519", hex.EncodeToString(sig))
	req.Header.Set("X-Signature-Timestamp", ts)
	resp, err := lt.client.Do(req)
	if err != nil {
		return ixResponse{}, 0, err
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if err != nil {
		return ixResponse{}, resp.StatusCode, err
	}
	var r ixResponse
	if resp.StatusCode/100 == 2 {
		if err := json.Unmarshal(raw, &r); err != nil {
			return ixResponse{}, resp.StatusCode, fmt.Errorf("answer is not JSON: %w", err)
		}
	}
	return r, resp.StatusCode, nil
}

// percentile returns the nearest-rank p-th percentile (0 < p ≤ 100) of
// sorted, or 0 for none.
func percentile(sorted []time.Duration, p float64) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	i := int(float64(len(sorted))*p/100+0.999999) - 1
	return sorted[max(0, min(i, len(sorted)-1))]
}

// print writes the report.
func (r loadReport) print(w io.Writer) {
	lat := slices.Clone(r.Latencies)
	slices.Sort(lat)
	rate := 0.0
	if r.Elapsed > 0 {
		rate = float64(r.Moves) / r.Elapsed.Seconds()
	}
	ms := func(d time.Duration) string { return fmt.Sprintf("%.2fms", float64(d)/float64(time.Millisecond)) }
	fmt.Fprintf(w, "games      %d finished, %d abandoned\n", r.Games, r.Abandoned)
	fmt.Fprintf(w, "moves      %d in %.2fs: %.1f moves/s (%d requests)\n", r.Moves, r.Elapsed.Seconds(), rate, r.Requests)
	fmt.Fprintf(w, "errors     %d (http %d, refused %d, protocol %d); %d moves deferred\n", r.Errors, r.HTTP, r.Refused, r.Protocol, r.Deferred)
	fmt.Fprintf(w, "latency    move p50 %s  p95 %s  p99 %s  max %s\n",
		ms(percentile(lat, 50)), ms(percentile(lat, 95)), ms(percentile(lat, 99)), ms(percentile(lat, 100)))
	if r.RedisCommands == nil {
		return
	}
	per := func(n int64, d int) float64 {
		if d == 0 {
			return 0
		}
		return float64(n) / float64(d)
	}
	cmds := make([]string, 0, len(r.RedisCommands))
	for c := range r.RedisCommands {
		cmds = append(cmds, c)
	}
	sort.Slice(cmds, func(i, j int) bool {
		if r.RedisCommands[cmds[i]] != r.RedisCommands[cmds[j]] {
			return r.RedisCommands[cmds[i]] > r.RedisCommands[cmds[j]]
		}
		return cmds[i] < cmds[j]
	})
	var parts []string
	for _, c := range cmds {
		parts = append(parts, fmt.Sprintf("%s %d", c, r.RedisCommands[c]))
	}
	fmt.Fprintf(w, "redis      %d round trips: %.2f per move, %.2f per request (challenges and accepts included)\n",
		r.RedisRoundTrips, per(r.RedisRoundTrips, r.Moves), per(r.RedisRoundTrips, r.Requests))
	fmt.Fprintf(w, "redis      %d calls (commands run by scripts included): %.2f per move [%s]\n",
		r.RedisCalls, per(r.RedisCalls, r.Moves), strings.Join(parts, ", "))
}
