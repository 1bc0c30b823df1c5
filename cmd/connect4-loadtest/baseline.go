package main

import (
	"context"
	"crypto/ed25519"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/connect4/connect4/bot"
	"github.com/connect4/connect4/bot/discord/discordtest"
	"github.com/connect4/connect4/engine"
	"github.com/connect4/connect4/render"
)

// baseline is the least a server can do for the load test's games: check
// the Ed25519 signature, decode the few JSON fields a move needs, play the
// move on an in-memory engine.Game, and answer with the board and its
// buttons (custom_ids made by bot.Action, as the bot makes them). It has
// no store (unless given Redis: baselineStore), no bot.Service, no logging
// and no metrics but the process's CPU time, so that `connect4 serve`'s CPU
// per move can be measured side by side with it. It is safe for concurrent
// use.
type baseline struct {
	pub ed25519.PublicKey

	mu    sync.Mutex
	games map[string]*baselineGame // by channel
	n     int                      // games made, for their ids

	store *baselineStore // nil: the games live in memory only
}

// baselineGame is one channel's game.
type baselineGame struct {
	id                string
	challenger, other string       // user ids; the challenger is red
	game              *engine.Game // nil while the challenge is pending
	version           int          // writes so far, as the store counts them
}

// written returns the write of g's change, when b has a store, and counts
// it: the caller holds b.mu.
func (b *baseline) written(channel string, g *baselineGame) *baselineWrite {
	if b.store == nil {
		return nil
	}
	g.version++
	v := []byte(g.id + "\n" + g.challenger + "\n" + g.other + "\n")
	if g.game != nil {
		enc, err := g.game.MarshalBinary()
		if err != nil {
			panic(err) // a game the engine played always encodes
		}
		v = append(v, enc...)
	}
	return &baselineWrite{key: "{" + channel + "}:" + g.id, from: g.version - 1, to: g.version, value: v}
}

// baselineIn is the part of an interaction the baseline reads.
type baselineIn struct {
	Type      int    `json:"type"`
	ChannelID string `json:"channel_id"`
	Member    struct {
		User struct {
			ID string `json:"id"`
		} `json:"user"`
	} `json:"member"`
	Data struct {
		CustomID string `json:"custom_id"`
		Options  []struct {
			Name    string `json:"name"`
			Options []struct {
				Value any `json:"value"`
			} `json:"options"`
		} `json:"options"`
	} `json:"data"`
}

// maxBaselineBody bounds the body read, as the real endpoint does.
const maxBaselineBody = 64 << 10

// ServeHTTP answers one interaction: 401 unless signed, 400 unless an
// interaction of the load test, else 200 with the response.
func (b *baseline) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(io.LimitReader(r.Body, maxBaselineBody))
	if err != nil {
		http.Error(w, "cannot read body", http.StatusBadRequest)
		return
	}
	sig, err := hex.DecodeString(r.Header.Get("X-Signature-Ed25519"))
	ts := r.Header.Get("X-Signature-Timestamp")
	if err != nil || len(sig) != ed25519.SignatureSize || !ed25519.Verify(b.pub, append([]byte(ts), body...), sig) {
		http.Error(w, "invalid request signature", http.StatusUnauthorized)
		return
	}
	var in baselineIn
	if err := json.Unmarshal(body, &in); err != nil {
		http.Error(w, "malformed interaction", http.StatusBadRequest)
		return
	}
	resp, write, ok := b.answer(in)
	if !ok {
		http.Error(w, "not an interaction of the load test", http.StatusBadRequest)
		return
	}
	if write != nil {
		if err := b.store.write(r.Context(), write); errors.Is(err, errVersion) {
			http.Error(w, "store: "+err.Error(), http.StatusConflict)
			return
		} else if err != nil {
			http.Error(w, "store: "+err.Error(), http.StatusServiceUnavailable)
			return
		}
	}
	out, _ := json.Marshal(resp)
	w.Header().Set("Content-Type", "application/json")
	w.Write(out)
}

// answer works out the response to in, with the write of the game it
// changed (nil: none, or no store), and false for an interaction the load
// test does not send.
func (b *baseline) answer(in baselineIn) (discordtest.Response, *baselineWrite, bool) {
	user := in.Member.User.ID
	switch {
	case in.Type == discordtest.TypePing:
		return discordtest.Response{Type: discordtest.ResponsePong}, nil, true
	case in.Type == discordtest.TypeApplicationCommand && len(in.Data.Options) == 1:
		sub := in.Data.Options[0]
		b.mu.Lock()
		defer b.mu.Unlock()
		if sub.Name == "settings" {
			// Boards are emoji here anyway: say so, as the bot does.
			return discordtest.Response{Type: discordtest.ResponseChannelMessage,
				Data: &discordtest.Message{Content: "Boards in this channel are now emoji."}}, nil, true
		}
		if sub.Name == "board" {
			g := b.games[in.ChannelID]
			if g == nil || g.game == nil {
				return note("no game"), nil, true
			}
			return b.view(g, discordtest.ResponseChannelMessage), nil, true
		}
		if sub.Name != "challenge" || len(sub.Options) != 1 {
			return discordtest.Response{}, nil, false
		}
		other, _ := sub.Options[0].Value.(string)
		b.n++
		g := &baselineGame{id: "b" + strconv.Itoa(b.n), challenger: user, other: other}
		b.games[in.ChannelID] = g
		accept := bot.Action{Kind: bot.KindAccept, GameID: g.id}.String()
		return discordtest.Response{Type: discordtest.ResponseChannelMessage, Data: &discordtest.Message{
			Content: "<@" + user + "> challenges <@" + other + ">",
			Components: []discordtest.Row{{Type: 1, Components: []discordtest.Button{
				{Type: discordtest.ComponentButton, Label: "Accept", Style: 1, CustomID: accept}}}},
		}}, b.written(in.ChannelID, g), true
	case in.Type == discordtest.TypeMessageComponent:
		req, err := bot.ParseAction(in.Data.CustomID)
		if err != nil {
			return note("not my button"), nil, true
		}
		b.mu.Lock()
		defer b.mu.Unlock()
		g := b.games[in.ChannelID]
		if g == nil || g.id != req.GameID {
			return note("stale button"), nil, true
		}
		switch req.Kind {
		case bot.KindAccept:
			if user != g.other || g.game != nil {
				return note("not yours"), nil, true
			}
			g.game, _ = engine.New(engine.DefaultConfig())
		case bot.KindDrop:
			if g.game == nil || req.Move != g.game.Moves() {
				return note("stale button"), nil, true
			}
			p := g.game.Turn()
			if (p == engine.Red) != (user == g.challenger) {
				return note("not your turn"), nil, true
			}
			if err := g.game.Play(p, req.Column); err != nil {
				return note(err.Error()), nil, true
			}
		default:
			return note("not in the baseline"), nil, true
		}
		return b.view(g, discordtest.ResponseUpdateMessage), b.written(in.ChannelID, g), true
	}
	return discordtest.Response{}, nil, false
}

// note is an ephemeral answer.
func note(text string) discordtest.Response {
	return discordtest.Response{Type: discordtest.ResponseChannelMessage,
		Data: &discordtest.Message{Content: text, Flags: discordtest.FlagEphemeral}}
}

// view is the message showing g: the board in emoji, whose turn it is,
// and the column buttons (a Rematch at the end), in rows of at most 5.
func (b *baseline) view(g *baselineGame, typ int) discordtest.Response {
	gm := g.game
	content := render.Board(gm, render.Unicode())
	if gm.State().Over() {
		content += "\ngame over"
	} else {
		content += fmt.Sprintf("\nyour turn (move %d)", gm.Moves()+1)
	}
	var buttons []discordtest.Button
	for c := range gm.Config().Cols {
		buttons = append(buttons, discordtest.Button{Type: discordtest.ComponentButton, Label: strconv.Itoa(c + 1), Style: 2,
			CustomID: bot.Action{Kind: bot.KindDrop, GameID: g.id, Move: gm.Moves(), Column: c}.String(), Disabled: !gm.CanPlay(c)})
	}
	if gm.State().Over() {
		buttons = append(buttons, discordtest.Button{Type: discordtest.ComponentButton, Label: "Rematch", Style: 1,
			CustomID: bot.Action{Kind: bot.KindRematch, GameID: g.id, Move: gm.Moves()}.String()})
	}
	var rows []discordtest.Row
	for i := 0; i < len(buttons); i += 5 {
		rows = append(rows, discordtest.Row{Type: 1, Components: buttons[i:min(i+5, len(buttons))]})
	}
	return discordtest.Response{Type: typ, Data: &discordtest.Message{Content: content, Components: rows}}
}

// newBaselineHandler returns the baseline's routes: POST
// /discord/interactions and GET /metrics (the process collector only),
// keeping the games in store too when it is not nil.
func newBaselineHandler(pub ed25519.PublicKey, store *baselineStore) http.Handler {
	reg := prometheus.NewRegistry()
	reg.MustRegister(collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	mux := http.NewServeMux()
	mux.Handle("POST "+interactionsPath, &baseline{pub: pub, games: map[string]*baselineGame{}, store: store})
	mux.Handle("GET /metrics", promhttp.HandlerFor(reg, promhttp.HandlerOpts{}))
	return mux
}

// serveBaseline serves the baseline on addr, for interactions signed with
// key's public half, until ctx ends; with a redisURL it keeps the games in
// that Redis too, and deletes them when it stops.
func serveBaseline(ctx context.Context, addr, redisURL string, key ed25519.PrivateKey, stderr io.Writer) (err error) {
	var store *baselineStore
	if redisURL != "" {
		if store, err = newBaselineStore(ctx, redisURL); err != nil {
			return err
		}
		defer func() {
			dctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			if cerr := store.close(dctx); cerr != nil && err == nil {
				err = fmt.Errorf("-redis: delete the baseline's keys (%s*): %s", store.prefix, redactErr(cerr))
			}
		}()
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("-baseline: %w", err)
	}
	srv := &http.Server{Handler: newBaselineHandler(key.Public().(ed25519.PublicKey), store), ReadHeaderTimeout: 5 * time.Second,
		ErrorLog: slog.NewLogLogger(slog.NewTextHandler(stderr, nil).WithAttrs([]slog.Attr{slog.String("server", "baseline")}), slog.LevelWarn)}
	on := ""
	if store != nil {
		on = ", its games in Redis under " + store.prefix
	}
	fmt.Fprintf(stderr, "connect4-loadtest: baseline server on http://%s (DISCORD_PUBLIC_KEY=%s%s); Ctrl-C stops it\n",
		ln.Addr(), hex.EncodeToString(key.Public().(ed25519.PublicKey)), on)
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	select {
	case err := <-served:
		return err
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}
