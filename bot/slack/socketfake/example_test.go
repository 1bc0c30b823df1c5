package socketfake_test

import (
	"context"
	"fmt"
	"io"
	"log"
	"time"

	slackapi "github.com/slack-go/slack"
	"github.com/slack-go/slack/socketmode"

	"github.com/connect4/connect4/bot/slack/socketfake"
)

// Example points a socketmode client at the fake, answers one slash command
// with an ack and reads the ack back from the fake.
func Example() {
	f, err := socketfake.New()
	if err != nil {
		log.Fatal(err)
	}
	defer f.Close()

	api := slackapi.New("xoxb-bot", slackapi.OptionAppLevelToken("xapp-app"), slackapi.OptionAPIURL(f.APIURL()))
	sm := socketmode.New(api, socketmode.OptionLog(log.New(io.Discard, "", 0)))
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- sm.RunContext(ctx) }()
	go func() { // socketmode never closes Events: stop with ctx
		for {
			select {
			case evt := <-sm.Events:
				if cmd, ok := evt.Data.(slackapi.SlashCommand); ok {
					_ = sm.Ack(*evt.Request, map[string]string{"text": "you said " + cmd.Text})
				}
			case <-ctx.Done():
				return
			}
		}
	}()

	if err := f.WaitConnected(ctx); err != nil {
		log.Fatal(err)
	}
	id, err := f.SendSlashCommand(slackapi.SlashCommand{Command: "/connect4", Text: "help", ChannelID: "C1", UserID: "U1"})
	if err != nil {
		log.Fatal(err)
	}
	ack, err := f.WaitAck(ctx, id)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(ack.EnvelopeID, string(ack.Payload))
	cancel()
	fmt.Println(<-done)
	// Output:
	// env-1 {"text":"you said help"}
	// context canceled
}
