package discordtest_test

import (
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/connect4/connect4/bot"
	"github.com/connect4/connect4/bot/discord"
	"github.com/connect4/connect4/bot/discord/discordtest"
	"github.com/connect4/connect4/sessions"
	"github.com/connect4/connect4/sessions/storetest"
)

// server is the real Discord adapter on the in-memory store, served over
// HTTP, and a client signing with its key.
func server(t *testing.T) *discordtest.Client {
	t.Helper()
	pub, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	rest := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{"id":"1","channel_id":"1"}`))
	}))
	t.Cleanup(rest.Close)
	log := slog.New(slog.DiscardHandler)
	svc := bot.New(storetest.NewMemory(t, sessions.Options{}), bot.Options{Logger: log})
	a, err := discord.New(svc, discord.Config{PublicKey: hex.EncodeToString(pub), APIURL: rest.URL}, log)
	if err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	a.Register(mux)
	srv := httptest.NewServer(mux)
	t.Cleanup(func() {
		srv.Close()
		_ = a.Close(context.Background())
	})
	return &discordtest.Client{URL: srv.URL + discord.InteractionsPath, Signer: discordtest.Signer{Key: priv}}
}

const app = "900000000000000001"

func TestPingAndSignature(t *testing.T) {
	c := server(t)
	r, status, err := c.Send(t.Context(), discordtest.Ping(app))
	if err != nil || status != http.StatusOK || r.Type != discordtest.ResponsePong {
		t.Fatalf("signed PING = %+v, %d, %v; want a PONG", r, status, err)
	}
	_, other, _ := ed25519.GenerateKey(rand.Reader)
	bad := *c
	bad.Signer.Key = other
	if _, status, err := bad.Send(t.Context(), discordtest.Ping(app)); err != nil || status != http.StatusUnauthorized {
		t.Errorf("PING signed with another key = %d, %v; want 401", status, err)
	}
}

// TestGameFromButtons plays a game to its end reading only the buttons'
// custom_ids: the game id, the move number and the open columns.
func TestGameFromButtons(t *testing.T) {
	c := server(t)
	red := discordtest.User{ID: "100000000000000001", Username: "red"}
	yellow := discordtest.User{ID: "100000000000000002", Username: "yellow"}
	n := 0
	in := func(typ int, u discordtest.User, data any) discordtest.Interaction {
		n++
		x := discordtest.Interaction{ID: fmt.Sprintf("4%018d", n), ApplicationID: app, Type: typ,
			Token: "t", Version: 1, GuildID: "g1", ChannelID: "c1", Member: &discordtest.Member{User: u}, Data: data}
		if typ == discordtest.TypeMessageComponent {
			x.Message = &discordtest.MessageRef{ID: "3", ChannelID: "c1"}
		}
		return x
	}
	r, _, err := c.Send(t.Context(), in(discordtest.TypeApplicationCommand, red,
		discordtest.Slash("challenge", []discordtest.Option{discordtest.UserOption("opponent", yellow)}, yellow)))
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := r.Game(); ok {
		t.Errorf("a challenge shows a game: %+v", r)
	}
	accept, ok := r.Button("Accept")
	if !ok {
		t.Fatalf("no Accept on %q", r.Content())
	}
	if req, err := accept.Action(); err != nil || req.Kind != bot.KindAccept {
		t.Errorf("Accept's action = %+v, %v", req, err)
	}
	r, _, err = c.Send(t.Context(), in(discordtest.TypeMessageComponent, yellow, discordtest.Click(accept.CustomID)))
	if err != nil {
		t.Fatal(err)
	}
	g, ok := r.Game()
	if !ok || g.Moves != 0 || len(g.Columns) != 7 || g.Over {
		t.Fatalf("after Accept: %+v, %v; want move 0, 7 open columns", g, ok)
	}
	id := g.ID
	// Red plays column 1, yellow column 2, until red has four in column 1.
	for i := 0; !g.Over; i++ {
		who, col := red, 0
		if i%2 == 1 {
			who, col = yellow, 1
		}
		r, _, err = c.Send(t.Context(), in(discordtest.TypeMessageComponent, who, discordtest.Click(g.Columns[col].CustomID)))
		if err != nil || r.Ephemeral() || r.Type != discordtest.ResponseUpdateMessage {
			t.Fatalf("move %d: %+v, %v", i+1, r, err)
		}
		next, ok := r.Game()
		if !ok || next.ID != id || next.Moves != g.Moves+1 {
			t.Fatalf("move %d: game %+v, %v; want %s at move %d", i+1, next, ok, id, g.Moves+1)
		}
		g = next
	}
	if g.Moves != 7 || len(g.Columns) != 0 {
		t.Errorf("the game ended at move %d with %d open columns, want 7 and none", g.Moves, len(g.Columns))
	}
	if _, ok := r.Button("Rematch"); !ok {
		t.Errorf("no Rematch at the end: %+v", r.Buttons())
	}
	// A refusal is a note.
	r, _, err = c.Send(t.Context(), in(discordtest.TypeMessageComponent, yellow, discordtest.Click(accept.CustomID)))
	if err != nil || !r.Ephemeral() {
		t.Errorf("a stale Accept = %+v, %v; want an ephemeral note", r, err)
	}
}

func TestGameRefusesDisagreeingButtons(t *testing.T) {
	drop := func(game string, move, col int) discordtest.Button {
		return discordtest.Button{Type: discordtest.ComponentButton, Label: "x",
			CustomID: bot.Action{Kind: bot.KindDrop, GameID: game, Move: move, Column: col}.String()}
	}
	resp := func(bs ...discordtest.Button) discordtest.Response {
		return discordtest.Response{Type: 4, Data: &discordtest.Message{Components: []discordtest.Row{{Type: 1, Components: bs}}}}
	}
	tests := []struct {
		name string
		r    discordtest.Response
		ok   bool
	}{
		{"one game", resp(drop("g1", 3, 0), drop("g1", 3, 1)), true},
		{"two games", resp(drop("g1", 3, 0), drop("g2", 3, 1)), false},
		{"two moves", resp(drop("g1", 3, 0), drop("g1", 4, 1)), false},
		{"forged", resp(discordtest.Button{Type: discordtest.ComponentButton, CustomID: "c4:drop:x:y:z"}), false},
		{"no data", discordtest.Response{Type: 6}, false},
	}
	for _, tt := range tests {
		if _, ok := tt.r.Game(); ok != tt.ok {
			t.Errorf("%s: Game() ok = %v, want %v", tt.name, ok, tt.ok)
		}
	}
}
