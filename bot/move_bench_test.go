package bot

import (
	"context"
	"strconv"
	"testing"

	"github.com/connect4/connect4/bot/match"
	"github.com/connect4/connect4/render"
	"github.com/connect4/connect4/sessions"
	"github.com/connect4/connect4/sessions/storetest"
)

// BenchmarkMove is the bot's share of one move in a game between two
// people on the memory store: Handle (the store's compare-and-set, the
// reply said in its language) and the emoji message an adapter formats
// from it. A game of 12 moves (two rows, nobody connects) is played again
// and again in new channels; the figure is per move.
func BenchmarkMove(b *testing.B) {
	st := storetest.NewMemory(b, sessions.Options{})
	svc := New(st, Options{})
	ctx := context.Background()
	alice, bob := match.Player{ID: "UA", Name: "alice"}, match.Player{ID: "UB", Name: "bob"}
	var game int
	var cmd Command
	var r Reply
	next := func() {
		game++
		cmd = Command{Key: match.Key{Platform: "discord", Workspace: "G", Channel: "C" + strconv.Itoa(game)}, User: alice}
		cmd.Kind, cmd.Opponent = KindChallenge, bob
		r = svc.Handle(ctx, cmd)
		cmd.User, cmd.Kind, cmd.Request = bob, KindAccept, Request{Kind: KindAccept, GameID: r.GameID}
		r = svc.Handle(ctx, cmd)
	}
	// Two rows of alternating discs: nobody connects.
	order := []int{0, 1, 1, 0, 2, 3, 3, 2, 4, 5, 5, 4}
	next()
	moves := 0
	for b.Loop() {
		if moves == len(order) {
			next()
			moves = 0
		}
		g := r.Game
		mover := r.playerOf(g.Turn())
		col := order[moves]
		cmd.User = mover
		cmd.Request = Request{Kind: KindDrop, GameID: r.GameID, Move: g.Moves(), Column: col, Human: true}
		r = svc.Handle(ctx, cmd)
		if r.Game == nil {
			b.Fatalf("move %d: %+v", moves, r)
		}
		_ = r.Format(render.Unicode())
		moves++
	}
}
