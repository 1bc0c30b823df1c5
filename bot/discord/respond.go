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
	"github.com/connect4/connect4/bot/internal/clip"
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
// the caller runs it (with runLater) once the response has been sent. It
// fills in rep's channel, kind and outcome; the outcome is
// bot.OutcomeBadRequest for an interaction without a user or channel (resp
// then apologises, for the Gateway; HTTP answers 400).
func (a *Adapter) answer(ctx context.Context, s restAPI, in *interaction, rep *report) (initial, laterFunc) {
	start := time.Now()
	rep.Channel = in.ChannelID
	if resp := notCommand(in, rep); resp != nil {
		return initial{resp: resp}, nil
	}
	cmd, short := a.commandOf(s, in, rep)
	if short != nil {
		return initial{resp: short}, nil
	}
	x := &exchange{a: a, s: s, in: in, cmd: cmd, rep: rep, fromButton: in.Type == discordgo.InteractionMessageComponent, start: start}
	if !a.svc.Slow(cmd) {
		return x.inPlace(ctx)
	}
	return x.deferred(ctx)
}

// notCommand answers the interactions that carry no command (a PING, an
// autocomplete request), or returns nil.
func notCommand(in *interaction, rep *report) *discordgo.InteractionResponse {
	switch in.Type {
	case discordgo.InteractionPing:
		rep.Kind, rep.Outcome = kindPing, bot.OutcomeOK
		return &discordgo.InteractionResponse{Type: discordgo.InteractionResponsePong}
	case discordgo.InteractionApplicationCommandAutocomplete:
		// /connect4 has no autocompleted options.
		rep.Outcome = bot.OutcomeRefused
		return &discordgo.InteractionResponse{Type: discordgo.InteractionApplicationCommandAutocompleteResult,
			Data: &discordgo.InteractionResponseData{Choices: []*discordgo.ApplicationCommandOptionChoice{}}}
	}
	return nil
}

// commandOf returns in's command, or the response to an interaction that
// needs no bot.Service (a foreign button, an unknown command, help, or one
// that cannot be a command).
func (a *Adapter) commandOf(s restAPI, in *interaction, rep *report) (bot.Command, *discordgo.InteractionResponse) {
	cmd, err := command(in, a.self(s, in))
	switch {
	case err == nil:
	case errors.Is(err, errForeignButton):
		rep.Outcome, rep.Reason = bot.OutcomeRefused, "foreign button"
		return cmd, note(bot.ForeignButtonText(userLang(in)))
	case errors.Is(err, errUnknownCommand):
		rep.Outcome, rep.Reason = bot.OutcomeRefused, "unknown command"
		return cmd, note(textUnknownCommand(userLang(in)))
	case errors.Is(err, errUnknownContext):
		rep.Outcome, rep.Reason = bot.OutcomeRefused, "unknown context"
		return cmd, note(textUnknownContext(userLang(in)))
	default:
		rep.Outcome, rep.Reason = bot.OutcomeBadRequest, err.Error()
		return cmd, note(bot.ProblemInternal.In(userLang(in)))
	}
	rep.Kind = cmd.Kind.String()
	if cmd.Kind == bot.KindHelp || cmd.Kind == bot.KindNone {
		rep.Outcome = bot.OutcomeOK
		return cmd, helpResponse(userLang(in))
	}
	if at, _ := placeOf(in); at.forcedEphemeral {
		// Discord would show the game to the sender alone: say so
		// rather than play an invisible game.
		rep.Outcome, rep.Reason = bot.OutcomeRefused, "forced ephemeral"
		return cmd, note(textForcedEphemeral(userLang(in)))
	}
	return cmd, nil
}

// exchange is one command on its way through answer.
type exchange struct {
	a          *Adapter
	s          restAPI
	in         *interaction
	cmd        bot.Command
	rep        *report
	fromButton bool
	// start is when the interaction arrived: a picture goes in the
	// response only when its reply is ready within pictureBudget of it.
	start time.Time
	// extra are the replies to send as follow-ups after the response:
	// what settling a guest channel's timed events needs shown (see
	// handle). Written by handle before its reply is taken.
	extra []bot.Reply
	// timeout is the context inPlace runs the command in, held here to
	// cost no allocation of its own.
	timeout lazyDeadline
}

// inPlace runs the command within handleTimeout and responds with its
// reply.
func (x *exchange) inPlace(ctx context.Context) (initial, laterFunc) {
	x.timeout.parent, x.timeout.deadline = ctx, time.Now().Add(handleTimeout)
	defer x.timeout.stop()
	r := x.handle(&x.timeout)
	x.rep.Outcome = r.Outcome()
	return x.respond(r)
}

// respond is Adapter.respond; a public reply to a command is attached to
// its game once sent, after the delivery of its picture when one follows.
func (x *exchange) respond(r bot.Reply) (initial, laterFunc) {
	if !x.fromButton && r.Visibility == bot.Public {
		x.rep.attachGame, x.rep.attachKey = r.ButtonGame(), x.cmd.Key
	}
	resp, later := x.a.respond(x.s, x.in, r, x.fromButton, time.Since(x.start) < x.a.pictureBudget)
	later = x.withFollowups(later)
	if later == nil || x.rep.attachGame == "" {
		return resp, later
	}
	game, key := x.rep.attachGame, x.rep.attachKey
	x.rep.attachGame = ""
	return resp, func(ctx context.Context, send bool) bot.Outcome {
		out := later(ctx, send)
		if out != bot.OutcomeError {
			x.a.attach(x.s, x.in, key, game)
		}
		return out
	}
}

// deferred runs a slow command in the background within the adapter's
// timeout: if it is done within deferAfter its reply is the response,
// otherwise the response acknowledges it and later delivers the reply.
func (x *exchange) deferred(ctx context.Context) (initial, laterFunc) {
	deadline := time.Now().Add(x.a.timeout)
	replies := make(chan bot.Reply, 1)
	if !x.a.work.Go(func(wctx context.Context) {
		wctx, cancel := context.WithDeadline(wctx, deadline)
		defer cancel()
		replies <- x.handle(wctx)
	}) {
		return x.inPlace(ctx) // shutting down: answer within the deadline or not at all
	}
	timer := time.NewTimer(x.a.deferAfter)
	defer timer.Stop()
	select {
	case r := <-replies:
		x.rep.Outcome = r.Outcome()
		return x.respond(r)
	case <-timer.C:
	}
	resp := &discordgo.InteractionResponse{Type: discordgo.InteractionResponseDeferredChannelMessageWithSource}
	if x.fromButton {
		resp.Type = discordgo.InteractionResponseDeferredMessageUpdate
	}
	x.rep.Outcome = bot.OutcomeOK
	return initial{resp: resp}, func(ctx context.Context, send bool) bot.Outcome { return x.late(ctx, send, deadline, replies) }
}

// late waits for the reply of a deferred command (or says the store is
// unavailable when it overran deadline) and, when send is true, delivers
// it; it returns the interaction's outcome.
func (x *exchange) late(ctx context.Context, send bool, deadline time.Time, replies <-chan bot.Reply) bot.Outcome {
	var r bot.Reply
	var extra []bot.Reply
	late := time.NewTimer(time.Until(deadline) + lateGrace)
	defer late.Stop()
	select {
	case r = <-replies:
		extra = x.extra // handle wrote it before its reply
	case <-late.C:
		// The store did not honour the deadline: say what the bot
		// says when the store is unavailable.
		x.a.log.Error("deferred command overran its deadline", "channel", x.in.ChannelID, "kind", x.rep.Kind)
		l := userLang(x.in)
		r = bot.Reply{Visibility: bot.Ephemeral, Text: bot.ProblemUnavailable.In(l), Problem: bot.ProblemUnavailable, Lang: l}
	case <-ctx.Done():
		return bot.OutcomeError // Close gave up waiting
	}
	if !send {
		return bot.OutcomeError
	}
	out := x.a.deliverLate(ctx, x.s, x.in, r, x.fromButton)
	if out != bot.OutcomeError && !x.fromButton && r.Visibility == bot.Public {
		x.a.attach(x.s, x.in, x.cmd.Key, r.ButtonGame())
	}
	if out != bot.OutcomeError && len(extra) > 0 {
		x.a.followUp(ctx, x.s, x.in, extra)
	}
	return out
}

// laterFunc waits for a deferred command and, when send is true (the
// deferral reached Discord), delivers its reply within deliverBudget of
// ctx, the work context. It returns the interaction's outcome.
type laterFunc func(ctx context.Context, send bool) bot.Outcome

// runLater runs later in the background (or at once when closing), then
// records the interaction.
func (a *Adapter) runLater(rep *report, later laterFunc, send bool) {
	rep.deferred = true
	f := func(ctx context.Context) {
		rep.Outcome = later(ctx, send)
		a.done(rep)
	}
	if !a.work.Go(f) {
		f(context.Background()) // every wait in later is bounded
	}
}

// self is this application's bot user: the Gateway session's user once it
// is connected (s is then the Gateway's *discordgo.Session), else the interaction's application id (a bot user's id is
// its application's id), else Config.ApplicationID.
func (a *Adapter) self(s restAPI, in *interaction) match.Player {
	if gs, ok := s.(*discordgo.Session); ok && gs != nil && gs.State != nil {
		gs.State.RLock()
		u := gs.State.User
		gs.State.RUnlock()
		if u != nil && u.ID != "" {
			return player(fromUser(u))
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
//
// The board is drawn in the first of ps that fits (see layoutIn); none
// means Unicode.
func response(r bot.Reply, fromButton bool, ps ...render.Palette) *discordgo.InteractionResponse {
	content, comps := layoutIn(r, ps...)
	resp := &discordgo.InteractionResponse{Type: discordgo.InteractionResponseChannelMessageWithSource,
		Data: &discordgo.InteractionResponseData{Content: content, Components: comps, AllowedMentions: allowed(r)}}
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

// allowed lets only the users r is meant to notify be pinged by its
// mentions (none for most replies: a leaderboard or a re-posted board pings
// nobody).
func allowed(r bot.Reply) *discordgo.MessageAllowedMentions {
	return &discordgo.MessageAllowedMentions{Parse: []discordgo.AllowedMentionType{}, Users: r.Notify}
}

// unknownRetry is how long deliver waits before its one retry of a call
// answered 404: the edit can overtake the deferral it follows.
const unknownRetry = 500 * time.Millisecond

// deliver sends r after a deferred response to in: it edits the original
// message (the clicked message, or the deferred "thinking" message), or
// for a note replaces the deferred message by an ephemeral follow-up. A
// first 404 (Discord has not yet seen the deferral) is retried once.
func deliver(ctx context.Context, s restAPI, in *discordgo.Interaction, r bot.Reply, fromButton bool, ps ...render.Palette) error {
	err := deliverOnce(ctx, s, in, r, fromButton, ps...)
	var re *discordgo.RESTError
	if !errors.As(err, &re) || re.Response == nil || re.Response.StatusCode != http.StatusNotFound {
		return err
	}
	select {
	case <-time.After(unknownRetry):
	case <-ctx.Done():
		return err
	}
	return deliverOnce(ctx, s, in, r, fromButton, ps...)
}

func deliverOnce(ctx context.Context, s restAPI, in *discordgo.Interaction, r bot.Reply, fromButton bool, ps ...render.Palette) error {
	opt := discordgo.WithContext(ctx)
	content, comps := layoutIn(r, ps...)
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
			Flags: discordgo.MessageFlagsEphemeral, AllowedMentions: allowed(r)}, opt)
		if err != nil {
			return fmt.Errorf("send ephemeral follow-up: %w", err)
		}
	case r.Visibility == bot.VisibilityNone:
	case r.Visibility == bot.Public && fromButton:
		if _, err := s.FollowupMessageCreate(in, true, &discordgo.WebhookParams{Content: content, Components: comps, AllowedMentions: allowed(r)}, opt); err != nil {
			return fmt.Errorf("send follow-up: %w", err)
		}
	default:
		if _, err := s.InteractionResponseEdit(in, &discordgo.WebhookEdit{Content: &content, Components: &comps, AllowedMentions: allowed(r)}, opt); err != nil {
			return fmt.Errorf("edit original response: %w", err)
		}
	}
	return nil
}

// layout is the content and components of a message showing r: the
// announcement, the board in Unicode emoji and whose turn it is, and the
// buttons (none on a note).
func layout(r bot.Reply) (string, []discordgo.MessageComponent) { return layoutIn(r) }

// layoutIn is layout with the board drawn in the first of ps (the app's
// own emoji, then Unicode: see Adapter.palettes) whose content fits in
// Discord's 2000 characters; none means Unicode. When none fits, the board
// is said in words.
func layoutIn(r bot.Reply, ps ...render.Palette) (string, []discordgo.MessageComponent) {
	if r.Visibility == bot.Ephemeral {
		return clip.Runes(r.Text, maxContent), []discordgo.MessageComponent{}
	}
	_, content, ok := fit(r, maxContent, ps)
	if !ok { // the board in words is shorter than in emoji
		content = clip.Runes(r.Fallback(), maxContent)
	}
	return content, components(r.Buttons)
}

// fit lays r out in the first of ps (Unicode when ps is empty) whose text
// is at most limit characters, or in the last one, reporting false. It
// returns the text too, joined once for both its length and its use.
func fit(r bot.Reply, limit int, ps []render.Palette) (message, string, bool) {
	if len(ps) == 0 {
		ps = unicodeOnly
	}
	var m message
	var text string
	for _, p := range ps {
		m = message(r.Format(p))
		m.Status = r.FlagStatus(m.Status, relativeTime)
		if text = m.text(); utf8.RuneCountInString(text) <= limit {
			return m, text, true
		}
	}
	return m, text, false
}

// message is a laid-out reply.
type message bot.Message

// text is m's parts that are not empty, one per line.
func (m message) text() string {
	var buf [3]string // on the stack: the joined text is the one allocation
	parts := buf[:0]
	for _, p := range [...]string{m.Header, m.Board, m.Status} {
		if p != "" {
			parts = append(parts, p)
		}
	}
	return strings.Join(parts, "\n")
}

// components lays out buttons as action rows: the column buttons spread
// evenly over as few rows of at most 5 as they need (7 columns: 4 + 3, 10:
// 5 + 5), then the other buttons in rows of their own. It never returns
// more than Discord's 5 rows, nor nil.
//
// The buttons are *discordgo.Button, all in one array: a Button stored in
// the interface by value took an allocation of its own each, a dozen a
// move. The column buttons and the others share one slice of components,
// and the rows are made at their number: three allocations fewer a move
// than as the slices grew.
func components(buttons []bot.Button) []discordgo.MessageComponent {
	ncols, nothers := 0, 0
	for _, b := range buttons {
		switch {
		case b.URL != "":
			if len(b.URL) <= maxLinkURL {
				nothers++
			}
		case b.Value == "" || len(b.Value) > maxCustomID:
		case b.Column > 0:
			ncols++
		default:
			nothers++
		}
	}
	all := make([]discordgo.Button, 0, ncols+nothers)
	slots := make([]discordgo.MessageComponent, ncols+nothers)
	cols, others := slots[:0:ncols], slots[ncols:ncols]
	for _, b := range buttons {
		if b.URL != "" { // a link button (style 5): opens a web page
			if len(b.URL) <= maxLinkURL {
				all = append(all, discordgo.Button{Label: clip.Runes(b.Label, maxLabel), Style: discordgo.LinkButton, URL: b.URL})
				others = append(others, &all[len(all)-1])
			}
			continue
		}
		if b.Value == "" || len(b.Value) > maxCustomID {
			continue
		}
		all = append(all, discordgo.Button{Label: clip.Runes(b.Label, maxLabel), CustomID: b.Value, Style: buttonStyle(b.Style), Disabled: b.Disabled})
		if btn := &all[len(all)-1]; b.Column > 0 {
			cols = append(cols, btn)
		} else {
			others = append(others, btn)
		}
	}
	per := columnsPerRow(ncols)
	ncolRows := 0
	if ncols > 0 {
		ncolRows = (ncols + per - 1) / per
	}
	rows := make([]discordgo.MessageComponent, 0, min(ncolRows+(nothers+maxButtonsPerRow-1)/maxButtonsPerRow, maxRows))
	for i := 0; i < ncols && len(rows) < maxRows; i += per {
		rows = append(rows, discordgo.ActionsRow{Components: cols[i:min(i+per, ncols)]})
	}
	for i := 0; i < nothers && len(rows) < maxRows; i += maxButtonsPerRow {
		rows = append(rows, discordgo.ActionsRow{Components: others[i:min(i+maxButtonsPerRow, nothers)]})
	}
	return rows
}

// columnsPerRow is how many of n column buttons components puts in a row:
// as few rows of at most maxButtonsPerRow as they need, filled evenly.
func columnsPerRow(n int) int {
	if n == 0 {
		return 0
	}
	rows := (n + maxButtonsPerRow - 1) / maxButtonsPerRow
	return (n + rows - 1) / rows
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
