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
//
// It connects, and reconnects after every lost connection, for as long as
// ctx lasts: a failed attempt is logged at Warn with its reason and tried
// again after a wait that starts at 500 ms and doubles up to
// Config.ReconnectMax, with full jitter; a success is logged at Info with
// how long the connection was down. Connection reports the state meanwhile.
//
// It returns nil after a clean shutdown, an error when the token is
// missing, and an error wrapping ErrTokenRefused when Discord refuses the
// token (close code 4004), at the first connection or at a later one:
// retrying cannot help then. Call it at most once at a time.
func (a *Adapter) RunGateway(ctx context.Context) error {
	if a.cfg.BotToken == "" {
		return errors.New("discord: DISCORD_BOT_TOKEN is not set")
	}
	s := a.session
	// discordgo's own reconnect loop never gives up, not even on a refused
	// token, and tells nobody; keepGateway runs its own.
	s.ShouldReconnectOnError = false
	// Open reads Hello and READY without a deadline: a Gateway that
	// accepts the connection and says nothing would hold it forever.
	guard := &openGuard{}
	s.Dialer = guard.dialer(s.Dialer)
	// Interactions in flight finish after ctx is done, under the work
	// context; Close waits for them.
	remove := s.AddHandler(func(s *discordgo.Session, ic *discordgo.InteractionCreate) {
		if !a.work.Go(func(wctx context.Context) { a.gatewayInteraction(wctx, s, ic) }) {
			a.gatewayInteraction(context.WithoutCancel(ctx), s, ic)
		}
	})
	defer remove()
	lost := make(chan time.Time, 1)
	removeLost := s.AddHandler(func(*discordgo.Session, *discordgo.Disconnect) {
		select {
		case lost <- time.Now():
		default: // one wake-up is enough: keepGateway asks Open what is true
		}
	})
	defer removeLost()
	err := a.keepGateway(ctx, s, guard, lost)
	if cerr := s.Close(); cerr != nil && err == nil {
		err = fmt.Errorf("discord: close gateway: %w", cerr)
	}
	return err
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
	if err := gatewayRespond(respondCtx, s, in.ref(), resp); err != nil {
		a.log.Error("respond to interaction", "channel", in.ChannelID, "kind", rep.Kind, "err", err)
		if later != nil {
			// The command goes on, but its reply has nowhere to go.
			a.runLater(rep, later, false)
			return
		}
		rep.Outcome = bot.OutcomeError
		a.done(rep)
		return
	}
	if later != nil {
		a.runLater(rep, later, true)
		return
	}
	a.done(rep)
	a.attach(s, in, rep.attachKey, rep.attachGame)
}

// gatewayRespond sends resp to in's interaction callback: its JSON, or the
// multipart body of a response carrying a picture as it is.
func gatewayRespond(ctx context.Context, s *discordgo.Session, in *discordgo.Interaction, resp initial) error {
	if resp.body == nil {
		return s.InteractionRespond(in, resp.response(), discordgo.WithContext(ctx))
	}
	uri := discordgo.EndpointInteractionResponse(in.ID, in.Token)
	_, err := s.RequestRaw("POST", uri, resp.contentType, resp.body, uri, 0, discordgo.WithContext(ctx))
	return err
}
