package discord

import (
	"context"
	"errors"
	"fmt"

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
	// Interactions in flight finish after ctx is done, under the work
	// context; Close waits for them.
	remove := s.AddHandler(func(s *discordgo.Session, ic *discordgo.InteractionCreate) {
		if !a.work.goCtx(func(wctx context.Context) { a.gatewayInteraction(wctx, s, ic) }) {
			a.gatewayInteraction(context.WithoutCancel(ctx), s, ic)
		}
	})
	defer remove()
	if err := s.Open(); err != nil {
		return fmt.Errorf("discord: open gateway: %w", err)
	}
	a.log.Info("discord gateway connected")
	<-ctx.Done()
	if err := s.Close(); err != nil {
		return fmt.Errorf("discord: close gateway: %w", err)
	}
	return nil
}

// gatewayInteraction answers an interaction from the Gateway with
// InteractionRespond through s, then finishes any deferred work.
func (a *Adapter) gatewayInteraction(ctx context.Context, s *discordgo.Session, ic *discordgo.InteractionCreate) {
	rep := newReport("gateway")
	if ic == nil || ic.Interaction == nil {
		return
	}
	in := fromGateway(ic.Interaction)
	resp, later := a.answer(ctx, s, in, rep)
	respondCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), discordgo.InteractionDeadline)
	defer cancel()
	if err := s.InteractionRespond(in.ref(), resp, discordgo.WithContext(respondCtx)); err != nil {
		a.log.Error("respond to interaction", "channel", in.ChannelID, "kind", rep.kind, "err", err)
		if later != nil {
			// The command goes on, but its reply has nowhere to go.
			a.runLater(rep, later, false)
			return
		}
		rep.outcome = bot.OutcomeError
		a.done(rep)
		return
	}
	if later != nil {
		a.runLater(rep, later, true)
		return
	}
	a.done(rep)
}
