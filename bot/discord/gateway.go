package discord

import (
	"context"
	"errors"
	"fmt"
	"time"

	discordgo "github.com/bwmarrin/discordgo"

	"github.com/connect4/connect4/bot"
)

// RunGateway connects to the Discord Gateway with Config.BotToken and
// answers the interactions it delivers (through the same code as the HTTP
// endpoint, replying over REST with InteractionRespond) until ctx is done.
// It returns nil after a clean shutdown, or an error when the token is
// missing or the connection cannot be opened. discordgo reconnects on its
// own after network errors. Call it at most once at a time.
func (a *Adapter) RunGateway(ctx context.Context) error {
	if a.cfg.BotToken == "" {
		return errors.New("discord: DISCORD_BOT_TOKEN is not set")
	}
	s := a.rest
	// Interactions in flight finish after ctx is done; Close waits for them.
	hctx := context.WithoutCancel(ctx)
	remove := s.AddHandler(func(s *discordgo.Session, ic *discordgo.InteractionCreate) {
		if !a.spawn(func() { a.gatewayInteraction(hctx, s, ic) }) {
			a.gatewayInteraction(hctx, s, ic)
		}
	})
	defer remove()
	if err := s.Open(); err != nil {
		return fmt.Errorf("discord: open gateway: %w", err)
	}
	a.log.Info("discord gateway connected", "platform", "discord")
	<-ctx.Done()
	if err := s.Close(); err != nil {
		return fmt.Errorf("discord: close gateway: %w", err)
	}
	return nil
}

// gatewayInteraction answers an interaction from the Gateway with
// InteractionRespond through s, then finishes any deferred work.
func (a *Adapter) gatewayInteraction(ctx context.Context, s *discordgo.Session, ic *discordgo.InteractionCreate) {
	start := time.Now()
	if ic == nil || ic.Interaction == nil {
		return
	}
	in := ic.Interaction
	resp, later, kind, outcome := a.answer(ctx, s, in)
	respondCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), discordgo.InteractionDeadline)
	defer cancel()
	if err := s.InteractionRespond(in, resp, discordgo.WithContext(respondCtx)); err != nil {
		a.log.Error("respond to interaction", "platform", "discord", "channel", in.ChannelID, "kind", kind, "err", err)
		if later != nil {
			// The command goes on, but its reply has nowhere to go.
			a.runLater(start, in.ChannelID, kind, later, false)
			return
		}
		a.done(start, in.ChannelID, kind, bot.OutcomeError, false)
		return
	}
	if later != nil {
		a.runLater(start, in.ChannelID, kind, later, true)
		return
	}
	a.done(start, in.ChannelID, kind, outcome, false)
}
