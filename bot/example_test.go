package bot_test

import (
	"context"
	"fmt"

	"github.com/connect4/connect4/bot"
	"github.com/connect4/connect4/bot/match"
	"github.com/connect4/connect4/render"
	"github.com/connect4/connect4/sessions"
)

// An adapter turns what a platform sends into a bot.Command, runs it, and
// turns the bot.Reply into the platform's message. Here a challenge is made
// and accepted and a disc dropped, on the in-memory store, the way the
// Slack, Discord and terminal adapters do it.
func ExampleService() {
	ctx := context.Background()
	store, err := sessions.NewMemory(sessions.Options{})
	if err != nil {
		panic(err)
	}
	svc := bot.New(store, bot.Options{})
	channel := match.Key{Platform: "example", Workspace: "W1", Channel: "C1"}
	ann, ben := match.Player{ID: "U1", Name: "Ann"}, match.Player{ID: "U2", Name: "Ben"}

	// A slash command: the text after /connect4, parsed by the bot.
	r := svc.HandleText(ctx, bot.Command{Key: channel, User: ann}, "<@U2>")
	fmt.Println(r.Visibility, r.Outcome())
	fmt.Println(bot.PlainMentions(r.Text, ann, ben))

	// A click: the button's value decodes into the request; the reply
	// updates the message the button was on.
	click := func(who match.Player, label string, r bot.Reply) bot.Reply {
		for _, b := range r.Buttons {
			if b.Label == label {
				req, err := bot.ParseAction(b.Value)
				if err != nil {
					panic(err)
				}
				return svc.Handle(ctx, bot.Command{Key: channel, User: who, Request: req})
			}
		}
		panic("no button " + label)
	}
	r = click(ben, "Accept", r)
	r = click(ann, "4", r)
	fmt.Println(r.Visibility, r.Game.Moves(), len(r.Buttons))
	m := r.Format(render.Unicode())
	fmt.Println(bot.PlainMentions(m.Status, ann, ben))
	fmt.Println(m.Board)

	// The same button clicked again is out of date and changes nothing.
	stale := svc.Handle(ctx, bot.Command{Key: channel, User: ben, Request: bot.Request{Kind: bot.KindDrop, GameID: mustGame(r), Move: 0, Column: 2}})
	fmt.Println(stale.Visibility, stale.Outcome())
	// Output:
	// public ok
	// @Ann challenges @Ben to Connect Four!
	// @Ben, do you accept? The challenge expires in 10 minutes.
	// update 1 8
	// 🟡 @Ben, it's your turn (move 2).
	// 1️⃣2️⃣3️⃣4️⃣5️⃣6️⃣7️⃣
	// ⚪⚪⚪⚪⚪⚪⚪
	// ⚪⚪⚪⚪⚪⚪⚪
	// ⚪⚪⚪⚪⚪⚪⚪
	// ⚪⚪⚪⚪⚪⚪⚪
	// ⚪⚪⚪⚪⚪⚪⚪
	// ⚪⚪⚪🔴⚪⚪⚪
	// ephemeral refused
}

// mustGame returns the game id the reply's buttons carry.
func mustGame(r bot.Reply) string {
	req, err := bot.ParseAction(r.Buttons[0].Value)
	if err != nil {
		panic(err)
	}
	return req.GameID
}
