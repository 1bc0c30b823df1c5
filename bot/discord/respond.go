package discord

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/connect4/connect4/bot/match"

	discordgo "github.com/bwmarrin/discordgo"

	"github.com/connect4/connect4/bot"
	"github.com/connect4/connect4/render"
)

// Discord's limits on a legacy (non-Components-V2) message.
const (
	maxContent       = 2000 // characters of content
	maxRows          = 5    // action rows
	maxButtonsPerRow = 5
	maxLabel         = 80
	maxCustomID      = 100
)

// answer works out the initial response to in, an interaction that
// arrived over HTTP or the Gateway; s makes the REST calls of a deferred
// reply. When the command is still running after deferAfter (it may run
// the AI), the response is a deferral and later is the rest of the work:
// the caller runs it once the response has been sent. kind and outcome
// are for Config.Observe and the log; outcome is bot.OutcomeBadRequest for an
// interaction without a user or channel (resp then apologises, for the
// Gateway; HTTP answers 400).
func (a *Adapter) answer(ctx context.Context, s *discordgo.Session, in *discordgo.Interaction) (resp *discordgo.InteractionResponse, later laterFunc, kind, outcome string) {
	switch in.Type {
	case discordgo.InteractionPing:
		return &discordgo.InteractionResponse{Type: discordgo.InteractionResponsePong}, nil, kindPing, bot.OutcomeOK
	case discordgo.InteractionApplicationCommandAutocomplete:
		// /connect4 has no autocompleted options.
		return &discordgo.InteractionResponse{Type: discordgo.InteractionApplicationCommandAutocompleteResult,
			Data: &discordgo.InteractionResponseData{Choices: []*discordgo.ApplicationCommandOptionChoice{}}}, nil, kindUnknown, bot.OutcomeRefused
	}
	cmd, err := command(in, a.self(s, in))
	switch {
	case err == nil:
	case errors.Is(err, errForeignButton):
		return note(textForeignButton), nil, kindUnknown, bot.OutcomeRefused
	case errors.Is(err, errUnknownCommand):
		return note(textUnknownCommand + "\n\n" + textHelp), nil, kindUnknown, bot.OutcomeRefused
	default:
		return note(bot.ProblemInternal.Sentence()), nil, kindUnknown, bot.OutcomeBadRequest
	}
	kind = cmd.Kind.String()
	if cmd.Kind == bot.KindHelp || cmd.Kind == bot.KindNone {
		return note(textHelp), nil, kind, bot.OutcomeOK
	}
	fromButton := in.Type == discordgo.InteractionMessageComponent

	if !a.svc.Slow(cmd) {
		ctx, cancel := context.WithTimeout(ctx, handleTimeout)
		defer cancel()
		r := a.svc.Handle(ctx, cmd)
		return response(r, fromButton), nil, kind, r.Outcome()
	}

	// A slow command runs in a goroutine of the Adapter's; if it is done
	// within deferAfter its reply is the response, otherwise the response
	// acknowledges it and later delivers the reply.
	work, cancel := context.WithTimeout(context.WithoutCancel(ctx), workTimeout)
	replies := make(chan bot.Reply, 1)
	if !a.spawn(func() { replies <- a.svc.Handle(work, cmd) }) {
		cancel() // shutting down: answer within the deadline or not at all
		ctx, cancel := context.WithTimeout(ctx, handleTimeout)
		defer cancel()
		r := a.svc.Handle(ctx, cmd)
		return response(r, fromButton), nil, kind, r.Outcome()
	}
	timer := time.NewTimer(a.deferAfter)
	defer timer.Stop()
	select {
	case r := <-replies:
		cancel()
		return response(r, fromButton), nil, kind, r.Outcome()
	case <-timer.C:
	}
	resp = &discordgo.InteractionResponse{Type: discordgo.InteractionResponseDeferredChannelMessageWithSource}
	if fromButton {
		resp.Type = discordgo.InteractionResponseDeferredMessageUpdate
	}
	later = func(send bool) string {
		defer cancel()
		var r bot.Reply
		select {
		case r = <-replies:
		case <-work.Done():
			a.log.Error("deferred command timed out", "platform", "discord", "channel", in.ChannelID, "kind", kind)
			return bot.OutcomeError
		}
		if !send {
			return bot.OutcomeError
		}
		if err := deliver(work, s, in, r, fromButton); err != nil {
			a.log.Error("deliver deferred reply", "platform", "discord", "channel", in.ChannelID, "kind", kind, "err", err)
			return bot.OutcomeError
		}
		return r.Outcome()
	}
	return resp, later, kind, bot.OutcomeOK
}

// laterFunc waits for a deferred command and, when send is true (the
// deferral reached Discord), delivers its reply. It returns the
// interaction's outcome.
type laterFunc func(send bool) string

// runLater runs later in a goroutine that Close waits for (or at once when
// closing), then records the interaction.
func (a *Adapter) runLater(start time.Time, channel, kind string, later laterFunc, send bool) {
	f := func() { a.done(start, channel, kind, later(send), true) }
	if !a.spawn(f) {
		f()
	}
}

// self is this application's bot user: the Gateway session's user once it
// is connected, else the interaction's application id (a bot user's id is
// its application's id), else Config.ApplicationID.
func (a *Adapter) self(s *discordgo.Session, in *discordgo.Interaction) match.Player {
	if s != nil && s.State != nil {
		s.State.RLock()
		u := s.State.User
		s.State.RUnlock()
		if u != nil && u.ID != "" {
			return player(u)
		}
	}
	if in.AppID != "" {
		return match.Player{ID: in.AppID}
	}
	return match.Player{ID: a.cfg.ApplicationID}
}

// note is an ephemeral message with text and no buttons.
func note(text string) *discordgo.InteractionResponse {
	return response(bot.Reply{Visibility: bot.Ephemeral, Text: text}, false)
}

// response is the initial interaction response carrying r: a new message
// (type 4), the clicked message updated in place (type 7), or a note only
// the person who acted sees (type 4 with flag 64). Content and components
// are always set, so an update replaces both.
func response(r bot.Reply, fromButton bool) *discordgo.InteractionResponse {
	content, comps := layout(r)
	resp := &discordgo.InteractionResponse{Type: discordgo.InteractionResponseChannelMessageWithSource,
		Data: &discordgo.InteractionResponseData{Content: content, Components: comps}}
	switch r.Visibility {
	case bot.Public:
	case bot.Update:
		if fromButton {
			resp.Type = discordgo.InteractionResponseUpdateMessage
		}
	case bot.Ephemeral:
		resp.Data.Flags = discordgo.MessageFlagsEphemeral
	default:
		if fromButton {
			return &discordgo.InteractionResponse{Type: discordgo.InteractionResponseDeferredMessageUpdate}
		}
		resp.Data.Flags = discordgo.MessageFlagsEphemeral
	}
	return resp
}

// unknownRetry is how long deliver waits before its one retry of a call
// answered 404: the edit can overtake the deferral it follows.
const unknownRetry = 500 * time.Millisecond

// deliver sends r after a deferred response to in: it edits the original
// message (the clicked message, or the deferred "thinking" message), or
// for a note replaces the deferred message by an ephemeral follow-up. A
// first 404 (Discord has not yet seen the deferral) is retried once.
func deliver(ctx context.Context, s *discordgo.Session, in *discordgo.Interaction, r bot.Reply, fromButton bool) error {
	err := deliverOnce(ctx, s, in, r, fromButton)
	var re *discordgo.RESTError
	if !errors.As(err, &re) || re.Response == nil || re.Response.StatusCode != http.StatusNotFound {
		return err
	}
	select {
	case <-time.After(unknownRetry):
	case <-ctx.Done():
		return err
	}
	return deliverOnce(ctx, s, in, r, fromButton)
}

func deliverOnce(ctx context.Context, s *discordgo.Session, in *discordgo.Interaction, r bot.Reply, fromButton bool) error {
	opt := discordgo.WithContext(ctx)
	content, comps := layout(r)
	switch {
	case r.Visibility == bot.Ephemeral || (r.Visibility == bot.VisibilityNone && !fromButton):
		if !fromButton {
			// The deferred response is a public "thinking…" message that
			// cannot be made ephemeral: remove it.
			if err := s.InteractionResponseDelete(in, opt); err != nil {
				return fmt.Errorf("delete deferred response: %w", err)
			}
		}
		if r.Text == "" {
			return nil
		}
		_, err := s.FollowupMessageCreate(in, true, &discordgo.WebhookParams{Content: content, Components: comps,
			Flags: discordgo.MessageFlagsEphemeral}, opt)
		if err != nil {
			return fmt.Errorf("send ephemeral follow-up: %w", err)
		}
	case r.Visibility == bot.VisibilityNone:
	case r.Visibility == bot.Public && fromButton:
		if _, err := s.FollowupMessageCreate(in, true, &discordgo.WebhookParams{Content: content, Components: comps}, opt); err != nil {
			return fmt.Errorf("send follow-up: %w", err)
		}
	default:
		if _, err := s.InteractionResponseEdit(in, &discordgo.WebhookEdit{Content: &content, Components: &comps}, opt); err != nil {
			return fmt.Errorf("edit original response: %w", err)
		}
	}
	return nil
}

// layout is the content and components of a message showing r: the
// announcement, the board in Unicode emoji and whose turn it is, and the
// buttons (none on a note).
func layout(r bot.Reply) (string, []discordgo.MessageComponent) {
	if r.Visibility == bot.Ephemeral {
		return clip(r.Text), []discordgo.MessageComponent{}
	}
	m := r.Format(render.Unicode())
	var parts []string
	for _, p := range []string{m.Header, m.Board, m.Status} {
		if p != "" {
			parts = append(parts, p)
		}
	}
	content := strings.Join(parts, "\n")
	if utf8.RuneCountInString(content) > maxContent {
		content = m.Fallback // the board in words is shorter than in emoji
	}
	return clip(content), components(r.Buttons)
}

// clip shortens s to Discord's content limit.
func clip(s string) string {
	if utf8.RuneCountInString(s) <= maxContent {
		return s
	}
	r := []rune(s)
	return string(r[:maxContent-1]) + "…"
}

// components lays out buttons as action rows: the column buttons spread
// evenly over as few rows of at most 5 as they need (7 columns: 4 + 3, 10:
// 5 + 5), then the other buttons in rows of their own. It never returns
// more than Discord's 5 rows, nor nil.
func components(buttons []bot.Button) []discordgo.MessageComponent {
	var cols, others []discordgo.MessageComponent
	for _, b := range buttons {
		if b.Value == "" || len(b.Value) > maxCustomID {
			continue
		}
		label := b.Label
		if utf8.RuneCountInString(label) > maxLabel {
			label = string([]rune(label)[:maxLabel])
		}
		btn := discordgo.Button{Label: label, CustomID: b.Value, Style: buttonStyle(b.Style), Disabled: b.Disabled}
		if b.Column > 0 {
			cols = append(cols, btn)
		} else {
			others = append(others, btn)
		}
	}
	rows := []discordgo.MessageComponent{}
	if n := len(cols); n > 0 {
		nrows := (n + maxButtonsPerRow - 1) / maxButtonsPerRow
		per := (n + nrows - 1) / nrows
		for i := 0; i < n; i += per {
			rows = append(rows, discordgo.ActionsRow{Components: cols[i:min(i+per, n)]})
		}
	}
	for i := 0; i < len(others); i += maxButtonsPerRow {
		rows = append(rows, discordgo.ActionsRow{Components: others[i:min(i+maxButtonsPerRow, len(others))]})
	}
	return rows[:min(len(rows), maxRows)]
}

// buttonStyle maps the bot's button styles to Discord's.
func buttonStyle(s bot.ButtonStyle) discordgo.ButtonStyle {
	switch s {
	case bot.StylePrimary:
		return discordgo.PrimaryButton
	case bot.StyleDanger:
		return discordgo.DangerButton
	}
	return discordgo.SecondaryButton
}
