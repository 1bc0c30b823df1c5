package discord

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"strconv"
	"testing"
	"time"

	"github.com/connect4/connect4/bot"
	"github.com/connect4/connect4/bot/discord/discordtest"
	"github.com/connect4/connect4/bot/ops"
	"github.com/connect4/connect4/sessions"
	"github.com/connect4/connect4/sessions/storetest"
)

// benchWriter is a ResponseWriter that keeps only the status and the
// body, reset for every request, so that the benchmark's own allocations
// per move are none.
type benchWriter struct {
	h    http.Header
	code int
	body bytes.Buffer
}

func (w *benchWriter) Header() http.Header { return w.h }

func (w *benchWriter) WriteHeader(code int) {
	if w.code == 0 {
		w.code = code
	}
}

func (w *benchWriter) Write(p []byte) (int, error) {
	w.WriteHeader(http.StatusOK)
	return w.body.Write(p)
}

// SetReadDeadline is what http.ResponseController calls, as a server's
// connection has it.
func (w *benchWriter) SetReadDeadline(time.Time) error { return nil }

// Flush is a server connection's.
func (w *benchWriter) Flush() {}

func (w *benchWriter) reset() {
	clear(w.h)
	w.code = 0
	w.body.Reset()
}

// BenchmarkInteractionMove is the server's share of one move on the
// Discord HTTP path with the memory store and emoji boards, as the load
// test plays it: a signed click on a column button, verified, decoded,
// played through the bot and the store, and answered with the updated
// message's JSON. Only net/http's reading of the request off the wire is
// left out. A game of 12 moves (two rows, nobody connects) is played
// again and again in new channels; the clicks of a game are built and
// signed before its moves are timed, so the figures (allocations
// included) are the server's alone; cpu-ns/op is the process's CPU time
// over the timed moves.
func BenchmarkInteractionMove(b *testing.B) {
	pub, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		b.Fatal(err)
	}
	// As connect4 serve runs under the load test: LOG_LEVEL=warn, pictures
	// on (the channels choose emoji), no bot token.
	log := slog.New(slog.NewTextHandler(io.Discard, &slog.HandlerOptions{Level: slog.LevelWarn}))
	a, err := New(bot.New(storetest.NewMemory(b, sessions.Options{}), bot.Options{Logger: log}),
		Config{PublicKey: hex.EncodeToString(pub), ApplicationID: appID, APIURL: "http://127.0.0.1:9", Pictures: true}, log)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = a.Close(context.Background()) })
	mux := http.NewServeMux()
	a.Register(mux)
	signer := discordtest.Signer{Key: priv}
	ctx := b.Context()
	target, err := url.Parse(InteractionsPath)
	if err != nil {
		b.Fatal(err)
	}
	var seq, game int
	interaction := func(channel string, typ int, u discordtest.User, data any) discordtest.Interaction {
		seq++
		in := discordtest.Interaction{ID: strconv.Itoa(400000000000 + seq), ApplicationID: appID, Type: typ,
			Token: "bench-" + strconv.Itoa(seq), Version: 1, GuildID: guildID, ChannelID: channel,
			Member: &discordtest.Member{User: u}, Data: data}
		if typ == discordtest.TypeMessageComponent {
			in.Message = &discordtest.MessageRef{ID: "3" + channel, ChannelID: channel}
		}
		return in
	}
	type signed struct {
		body []byte
		h    http.Header
	}
	sign := func(in discordtest.Interaction) signed {
		body, err := json.Marshal(in)
		if err != nil {
			b.Fatal(err)
		}
		h := http.Header{}
		signer.Sign(h, body)
		return signed{body, h}
	}
	w := &benchWriter{h: http.Header{}}
	var body bytes.Reader
	req := (&http.Request{Method: http.MethodPost, URL: target, Body: io.NopCloser(&body), RemoteAddr: "127.0.0.1:40000"}).WithContext(ctx)
	serve := func(s signed) []byte {
		w.reset()
		body.Reset(s.body)
		req.Header = s.h
		req.ContentLength = int64(len(s.body))
		mux.ServeHTTP(w, req)
		if w.code != http.StatusOK {
			b.Fatalf("status %d: %s", w.code, w.body.Bytes())
		}
		return w.body.Bytes()
	}
	// Two rows of alternating discs: nobody connects.
	order := []int{0, 1, 1, 0, 2, 3, 3, 2, 4, 5, 5, 4}
	var moves []signed
	next := func() {
		game++
		channel := "7" + strconv.Itoa(100000+game)
		red := discordtest.User{ID: "1" + strconv.Itoa(100000+game), Username: "red"}
		yellow := discordtest.User{ID: "2" + strconv.Itoa(100000+game), Username: "yellow"}
		set := interaction(channel, discordtest.TypeApplicationCommand, red,
			discordtest.Slash("settings", []discordtest.Option{{Name: "board", Type: 3, Value: "emoji"}}))
		set.Member.Permissions = "16"
		serve(sign(set))
		r, err := discordtest.DecodeResponse("application/json", serve(sign(interaction(channel, discordtest.TypeApplicationCommand, red,
			discordtest.Slash("challenge", []discordtest.Option{discordtest.UserOption("opponent", yellow)}, yellow)))))
		if err != nil {
			b.Fatal(err)
		}
		accept, ok := r.Button("Accept")
		if !ok {
			b.Fatalf("no Accept button: %q", r.Content())
		}
		if r, err = discordtest.DecodeResponse("application/json", serve(sign(interaction(channel, discordtest.TypeMessageComponent, yellow, discordtest.Click(accept.CustomID))))); err != nil {
			b.Fatal(err)
		}
		g, ok := r.Game()
		if !ok {
			b.Fatalf("accept shows no game: %q", r.Content())
		}
		moves = moves[:0]
		for i, col := range order {
			who := red
			if i%2 == 1 {
				who = yellow
			}
			a := bot.Action{Kind: bot.KindDrop, GameID: g.ID, Move: i, Column: col, Human: true}
			moves = append(moves, sign(interaction(channel, discordtest.TypeMessageComponent, who, discordtest.Click(a.String()))))
		}
	}
	want := []byte(`{"type":7,`)
	i := len(order)
	// The CPU time of the timed moves alone, beside the wall time that
	// a busy machine stretches.
	processCPU := func() time.Duration { d, _ := ops.ProcessCPU(); return d }
	var cpu, cpu0 time.Duration
	for b.Loop() {
		if i == len(order) {
			b.StopTimer()
			if cpu0 != 0 {
				cpu += processCPU() - cpu0
			}
			next()
			i = 0
			cpu0 = processCPU()
			b.StartTimer()
		}
		if out := serve(moves[i]); !bytes.HasPrefix(out, want) {
			b.Fatalf("move %d of game %d: %.300s", i, game, out)
		}
		i++
	}
	cpu += processCPU() - cpu0
	b.ReportMetric(float64(cpu)/float64(b.N), "cpu-ns/op")
}
