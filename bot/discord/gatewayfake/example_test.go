package gatewayfake_test

import (
	"context"
	"encoding/json"
	"fmt"
	"log"
	"time"

	discordgo "github.com/bwmarrin/discordgo"

	"github.com/connect4/connect4/bot/discord/gatewayfake"
)

// Example opens a discordgo session on the fake, receives one interaction
// from the Gateway and answers it over REST.
func Example() {
	f, err := gatewayfake.New()
	if err != nil {
		log.Fatal(err)
	}
	defer f.Close()

	s, err := f.Session("secret") // or: DISCORD_API_URL=f.URL() for the binary
	if err != nil {
		log.Fatal(err)
	}
	got := make(chan string, 1)
	s.AddHandler(func(s *discordgo.Session, ic *discordgo.InteractionCreate) {
		err := s.InteractionRespond(ic.Interaction, &discordgo.InteractionResponse{
			Type: discordgo.InteractionResponseChannelMessageWithSource,
			Data: &discordgo.InteractionResponseData{Content: "hello"},
		})
		got <- fmt.Sprint(ic.ApplicationCommandData().Name, " ", err)
	})
	if err := s.Open(); err != nil {
		log.Fatal(err)
	}
	defer s.Close()

	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := f.WaitConnected(ctx); err != nil {
		log.Fatal(err)
	}
	err = f.SendInteraction(json.RawMessage(`{"id":"1","application_id":"2","type":2,"token":"t",
		"channel_id":"3","data":{"id":"4","name":"connect4","type":1}}`))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(<-got)
	for _, r := range f.Requests() {
		fmt.Println(r.Method, r.Path)
	}
	fmt.Println(f.Tokens())
	// Output:
	// connect4 <nil>
	// GET /api/v9/gateway
	// POST /api/v9/interactions/1/t/callback
	// [Bot secret]
}
