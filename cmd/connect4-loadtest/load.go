package main

import (
	"bytes"
	"context"
	"crypto/ed25519"
	crand "crypto/rand"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/connect4/connect4/bot/discord/discordtest"
)

// options are the flags of a run.
type options struct {
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
	Pictures bool               // play with picture boards, delivered to the fake REST API
}

// interactionsPath is where connect4 serve mounts the Discord endpoint
// (discord.InteractionsPath; this command does not import the adapter).
const interactionsPath = "/discord/interactions"

// appID is the application id of the interactions: the bot's own user as
// far as the server can tell, unlike every player.
const appID = "900000000000000001"

// loadtester plays the games of one run. Its counters are safe for
// concurrent use by the games.
type loadtester struct {
	opt    options
	base   string
	client *discordtest.Client
	run0   string // distinguishes this run's channel and user ids from other runs'

	api *fakeAPI // with Pictures: where the server delivers them

	mu   sync.Mutex
	rep  report
	next atomic.Int64 // games started
}

func newLoadtester(opt options) *loadtester {
	tr := http.DefaultTransport.(*http.Transport).Clone()
	tr.MaxIdleConns = opt.Games * 2
	tr.MaxIdleConnsPerHost = opt.Games * 2
	var b [4]byte
	crand.Read(b[:])
	base := strings.TrimSuffix(opt.URL, "/")
	var api *fakeAPI
	if opt.Pictures {
		api = newFakeAPI()
	}
	return &loadtester{
		opt:  opt,
		api:  api,
		base: base,
		client: &discordtest.Client{URL: base + interactionsPath, Signer: discordtest.Signer{Key: opt.Key},
			HTTP: &http.Client{Transport: tr, Timeout: opt.Timeout}},
		run0: strconv.FormatUint(uint64(binary.BigEndian.Uint32(b[:])), 10),
	}
}

// waitReady sends signed PINGs until the server answers one with a PONG.
// Connection failures are retried until opt.Wait has passed; so is a 401
// when the key was just generated (the server is still to be started with
// it), but with a given key a 401 fails at once.
func (lt *loadtester) waitReady(ctx context.Context, generated bool, stderr io.Writer) error {
	ctx, cancel := context.WithTimeout(ctx, lt.opt.Wait)
	defer cancel()
	endpoint := lt.client.URL
	said := false
	for {
		resp, status, err := lt.client.Send(ctx, discordtest.Ping(appID))
		switch {
		case err == nil && status == http.StatusOK && resp.Type == discordtest.ResponsePong:
			return nil
		case err == nil && status == http.StatusUnauthorized && !generated:
			return fmt.Errorf("%s refused the signature (401): start the server with DISCORD_PUBLIC_KEY=%s",
				endpoint, hex.EncodeToString(lt.opt.Key.Public().(ed25519.PublicKey)))
		case err == nil && status == http.StatusNotFound:
			return fmt.Errorf("%s: 404: the server has no Discord endpoint (is DISCORD_PUBLIC_KEY set?)", endpoint)
		case err == nil && status == http.StatusOK:
			return fmt.Errorf("%s answered a PING with type %d, want %d", endpoint, resp.Type, discordtest.ResponsePong)
		}
		if !said {
			fmt.Fprintf(stderr, "connect4-loadtest: waiting for %s to accept a signed PING...\n", endpoint)
			said = true
		}
		select {
		case <-ctx.Done():
			if err == nil {
				err = fmt.Errorf("HTTP %d", status)
			}
			return fmt.Errorf("%s not ready after %v: %w", endpoint, lt.opt.Wait, err)
		case <-time.After(250 * time.Millisecond):
		}
	}
}

// run plays the games: opt.Games at a time, until opt.Total have started
// or opt.Duration has passed, and waits for the games in flight. Around
// them it reads the server's CPU time (its /metrics) and, with opt.Redis,
// Redis's counters.
func (lt *loadtester) run(ctx context.Context) (report, error) {
	var before redisStats
	var rdb *redis.Client
	if lt.opt.Redis != "" {
		ropt, err := redis.ParseURL(lt.opt.Redis)
		if err != nil {
			return report{}, fmt.Errorf("-redis: %s", redactErr(err))
		}
		rdb = redis.NewClient(ropt)
		defer rdb.Close()
		if before, err = readRedisStats(ctx, rdb); err != nil {
			return report{}, err
		}
	}
	var api0 apiStats
	if lt.api != nil {
		api0 = lt.api.snapshot()
	}
	cpu0, cpuErr := serverCPU(ctx, lt.client.HTTP, lt.base)
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
	if cpuErr == nil {
		if cpu1, err := serverCPU(context.WithoutCancel(ctx), lt.client.HTTP, lt.base); err == nil {
			rep.ServerCPU = cpu1 - cpu0
			rep.HaveCPU = true
		}
	}
	if lt.api != nil {
		d := lt.api.snapshot().minus(api0)
		rep.API = &d
	}
	if rdb != nil {
		after, err := readRedisStats(context.WithoutCancel(ctx), rdb)
		if err != nil {
			return report{}, err
		}
		rep.RedisCPU, rep.RedisCPUSys = float64(after.cpuUS-before.cpuUS)/1e6, float64(after.sysUS-before.sysUS)/1e6
		for cmd, us := range after.usec {
			switch d := us - before.usec[cmd]; {
			case cmd == "info":
			case isScript(cmd):
				rep.RedisScriptTime += d
			default:
				rep.RedisCommandTime += d
			}
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
		return rep, fmt.Errorf("interrupted: %w", err)
	}
	return rep, nil
}

// game is one game of a run: its channel, its two players and the
// interactions sent so far.
type game struct {
	lt             *loadtester
	id, channel    string
	challenger, op discordtest.User
	seq            int
}

// interaction returns the next interaction of the game by u, with a
// unique id and token.
func (g *game) interaction(typ int, u discordtest.User, data any) discordtest.Interaction {
	g.seq++
	in := discordtest.Interaction{
		ID: "4" + g.id + strconv.Itoa(g.seq), ApplicationID: appID, Type: typ,
		Token: "loadtest-" + g.id + "-" + strconv.Itoa(g.seq), Version: 1,
		GuildID: g.lt.opt.Guild, ChannelID: g.channel, Member: &discordtest.Member{User: u}, Data: data,
	}
	if typ == discordtest.TypeMessageComponent {
		in.Message = &discordtest.MessageRef{ID: "3" + g.id, ChannelID: g.channel}
	}
	return in
}

// click is a click by u on the button with customID.
func (g *game) click(u discordtest.User, customID string) discordtest.Interaction {
	return g.interaction(discordtest.TypeMessageComponent, u, discordtest.Click(customID))
}

// board is /connect4 board by u.
func (g *game) board(u discordtest.User) discordtest.Interaction {
	return g.interaction(discordtest.TypeApplicationCommand, u, discordtest.Slash("board", nil))
}

// toMove returns the player whose turn it is after moves discs: in a
// game's first round the challenger is red and moves first (the bot's
// rule, which the accept announces), and turns alternate.
func (g *game) toMove(moves int) discordtest.User {
	if moves%2 == 0 {
		return g.challenger
	}
	return g.op
}

// playGame plays game n to its end, in a channel of its own: a challenge,
// the opponent's Accept, then random columns by whoever is to move, all
// read from the buttons. It gives the game up at the first error, counted
// in lt.rep.
func (lt *loadtester) playGame(ctx context.Context, n int64, rng *rand.Rand) {
	id := lt.run0 + fmt.Sprintf("%08d", n)
	g := &game{lt: lt, id: id, channel: "7" + id,
		challenger: discordtest.User{ID: "1" + id, Username: "red" + id},
		op:         discordtest.User{ID: "2" + id, Username: "yellow" + id}}
	if !lt.chooseLook(ctx, g) {
		return
	}
	challenge := g.interaction(discordtest.TypeApplicationCommand, g.challenger,
		discordtest.Slash("challenge", []discordtest.Option{discordtest.UserOption("opponent", g.op)}, g.op))
	r, ok := lt.exchange(ctx, challenge, "challenge", discordtest.ResponseChannelMessage)
	if !ok {
		return
	}
	accept, ok := r.Button("Accept")
	if !ok {
		lt.fail(&lt.rep.Protocol, "challenge answer has no Accept button: %.200q", r.Content())
		return
	}
	if r, ok = lt.exchange(ctx, g.click(g.op, accept.CustomID), "accept",
		discordtest.ResponseUpdateMessage, discordtest.ResponseChannelMessage, discordtest.ResponseDeferredUpdate); !ok {
		return
	}
	state, ok := r.Game()
	if !ok {
		lt.fail(&lt.rep.Protocol, "accept answer shows no game: %.200q", r.Content())
		return
	}
	for {
		if state.Over || len(state.Columns) == 0 {
			lt.mu.Lock()
			lt.rep.Games++
			lt.mu.Unlock()
			return
		}
		who := g.toMove(state.Moves)
		col := state.Columns[rng.IntN(len(state.Columns))]
		t0 := time.Now()
		r, ok = lt.exchange(ctx, g.click(who, col.CustomID), "move",
			discordtest.ResponseUpdateMessage, discordtest.ResponseDeferredUpdate)
		if !ok {
			return
		}
		deferred := r.Type == discordtest.ResponseDeferredUpdate
		lt.mu.Lock()
		lt.rep.Moves++
		lt.rep.Latencies = append(lt.rep.Latencies, time.Since(t0))
		if deferred {
			lt.rep.Deferred++
		} else if r.delivered {
			lt.rep.Delivered++
		} else if r.inPlace {
			lt.rep.InPlace++
		}
		lt.mu.Unlock()
		var next discordtest.Game
		if deferred {
			// The updated board went to Discord's REST API, which is not
			// here: ask for it until it shows the move.
			if next, ok = lt.boardAfter(ctx, g, who, state); !ok {
				return
			}
		} else if next, ok = r.Game(); !ok {
			lt.fail(&lt.rep.Protocol, "move answer shows no game: %.200q", r.Content())
			return
		}
		if next.ID != state.ID || next.Moves != state.Moves+1 {
			lt.fail(&lt.rep.Protocol, "after move %d of game %s the board shows game %s at move %d",
				state.Moves+1, state.ID, next.ID, next.Moves)
			return
		}
		state = next
	}
}

// chooseLook sets the look of g's channel: emoji boards, as the baseline
// draws them (a picture is a deferral and an upload to Discord's REST API,
// which is here only with -pictures), or pictures with -pictures. The
// settings command takes Manage Channels (1 << 4). It reports false after
// counting an error.
func (lt *loadtester) chooseLook(ctx context.Context, g *game) bool {
	look := "emoji"
	if lt.api != nil {
		look = "image"
	}
	set := g.interaction(discordtest.TypeApplicationCommand, g.challenger,
		discordtest.Slash("settings", []discordtest.Option{{Name: "board", Type: 3, Value: look}}))
	set.Member.Permissions = "16"
	_, ok := lt.exchange(ctx, set, "settings", discordtest.ResponseChannelMessage)
	return ok
}

// boardAfter sends /connect4 board by u until the answer shows the game
// past state (the move after it made), for at most 10 s.
func (lt *loadtester) boardAfter(ctx context.Context, g *game, u discordtest.User, state discordtest.Game) (discordtest.Game, bool) {
	deadline := time.Now().Add(10 * time.Second)
	for {
		lt.mu.Lock()
		lt.rep.Boards++
		lt.mu.Unlock()
		r, ok := lt.exchange(ctx, g.board(u), "board", discordtest.ResponseChannelMessage)
		if !ok {
			return discordtest.Game{}, false
		}
		next, ok := r.Game()
		if ok && (next.ID != state.ID || next.Moves > state.Moves) {
			return next, true
		}
		if time.Now().After(deadline) {
			lt.fail(&lt.rep.Protocol, "board: move %d still not made 10 s after its deferred answer", state.Moves+1)
			return discordtest.Game{}, false
		}
		select {
		case <-ctx.Done():
			lt.fail(&lt.rep.HTTP, "board: %v", ctx.Err())
			return discordtest.Game{}, false
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// exchange sends one interaction of a game and checks that the answer is
// of one of the want types and not an ephemeral note. On anything else it
// counts the error and the abandoned game and reports false.
//
// With -pictures, a deferred answer (type 5 or 6) is followed by the
// message the server then sends through the fake REST API, for at most
// opt.Timeout: the answer returned is that message, as an update (type 7),
// marked delivered.
func (lt *loadtester) exchange(ctx context.Context, in discordtest.Interaction, what string, want ...int) (answer, bool) {
	lt.mu.Lock()
	lt.rep.Requests++
	lt.mu.Unlock()
	var sent chan delivery
	if lt.api != nil {
		sent = lt.api.expect(in.Token)
		defer lt.api.forget(in.Token)
	}
	r, status, err := lt.client.Send(ctx, in)
	if lt.api != nil && err == nil && len(r.Files) > 0 {
		return lt.pictureAnswer(r, what)
	}
	if sent != nil && err == nil && status/100 == 2 &&
		(r.Type == discordtest.ResponseDeferredUpdate || r.Type == discordtest.ResponseDeferredChannelMessage) {
		return lt.delivery(ctx, sent, what)
	}
	switch {
	case err != nil:
		lt.fail(&lt.rep.HTTP, "%s: %v", what, err)
	case status/100 != 2:
		lt.fail(&lt.rep.HTTP, "%s: HTTP %d", what, status)
	case r.Ephemeral():
		lt.fail(&lt.rep.Refused, "%s: refused: %.200q", what, r.Content())
	case r.Type == discordtest.ResponseDeferredUpdate && slices.Contains(want, r.Type):
		return answer{Response: r}, true
	case !slices.Contains(want, r.Type) || r.Data == nil:
		lt.fail(&lt.rep.Protocol, "%s: answer of type %d, want %v", what, r.Type, want)
	default:
		return answer{Response: r}, true
	}
	return answer{Response: r}, false
}

// pictureAnswer checks an answer that came with files (a multipart
// update in place): one PNG, counted with the pictures the fake API
// received.
func (lt *loadtester) pictureAnswer(r discordtest.Response, what string) (answer, bool) {
	f := r.Files[0]
	if len(r.Files) != 1 || r.Type != discordtest.ResponseUpdateMessage || r.Data == nil ||
		!strings.HasSuffix(f.Name, ".png") || !bytes.HasPrefix(f.Data, []byte("\x89PNG\r\n\x1a\n")) {
		lt.api.answered(0, true)
		lt.fail(&lt.rep.Protocol, "%s: answer of type %d with %d files (%q first), want an update with one PNG", what, r.Type, len(r.Files), f.Name)
		return answer{}, false
	}
	lt.api.answered(len(f.Data), false)
	return answer{Response: r, inPlace: true}, true
}

// answer is the answer to an interaction: the HTTP response, or the
// message delivered through the REST API after a deferral.
type answer struct {
	discordtest.Response
	delivered bool
	inPlace   bool // the response itself carried the picture
}

// delivery waits for the first message sent on a deferred interaction's
// webhook, for at most opt.Timeout, and returns it as an update.
func (lt *loadtester) delivery(ctx context.Context, sent chan delivery, what string) (answer, bool) {
	t := time.NewTimer(lt.opt.Timeout)
	defer t.Stop()
	select {
	case d := <-sent:
		if d.file != "" && !strings.HasSuffix(d.file, ".png") {
			lt.fail(&lt.rep.Protocol, "%s: delivered %q, want a PNG", what, d.file)
			return answer{}, false
		}
		return answer{Response: discordtest.Response{Type: discordtest.ResponseUpdateMessage, Data: &d.msg}, delivered: true}, true
	case <-t.C:
		lt.fail(&lt.rep.HTTP, "%s: deferred, and no message through the REST API within %v", what, lt.opt.Timeout)
	case <-ctx.Done():
		lt.fail(&lt.rep.HTTP, "%s: %v", what, ctx.Err())
	}
	return answer{}, false
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
