package discord

import (
	"context"

	discordgo "github.com/bwmarrin/discordgo"

	"github.com/connect4/connect4/bot"
)

// In a guest channel (see place) the app cannot change a message on its
// own, so the schedule's worker leaves its timed events (expiries,
// reminders, timeouts, abandonment) alone: the next interaction settles
// them (bot.Service.Settle) before its command runs, and shows them. On a
// click, the clicked game's notice replaces the clicked message when the
// command itself does not (a refusal: the expired challenge's Accept, a
// column clicked out of turn), and the refusal follows as an ephemeral
// follow-up unless the notice already says it; a reminder follows as a
// message of its own unless the click moved the game on. A typed command
// settles the channel's active games and posts what they became after
// its reply, as new messages (the old ones are out of reach).

// maxFollowups is how many follow-ups one interaction sends: Discord takes
// five.
const maxFollowups = 4

// handle runs x's command, first settling the timed events of a guest
// channel; what the settled events need shown besides the reply is left
// in x.extra.
func (x *exchange) handle(ctx context.Context) bot.Reply {
	if !Guest(x.cmd.Key) {
		r := x.a.svc.Handle(ctx, x.cmd)
		if r.Aside() {
			// A typed cancel or decline: the challenge's message loses
			// its buttons, beside the response; a tournament's table and
			// its new round's games.
			// A copy of its own for the goroutine: r captured itself went
			// to the heap on every reply.
			aside := r
			x.a.work.Go(func(wctx context.Context) { bot.ApplyEdits(wctx, x.a, x.cmd.Key, aside, x.a.log) })
		}
		return r
	}
	notices, err := x.a.svc.Settle(ctx, x.cmd.Key, x.cmd.GameID)
	if err != nil {
		x.a.log.Warn("discord: timed events not settled: the next interaction tries again", "channel", x.in.ChannelID, "err", err)
	}
	r := x.a.svc.Handle(ctx, x.cmd)
	r, x.extra = merge(r, notices, x.fromButton)
	return r
}

// merge returns what to answer with, r or a notice, and the replies to
// send after it as follow-ups (see the top of this file).
func merge(r bot.Reply, notices []bot.Notice, fromButton bool) (bot.Reply, []bot.Reply) {
	if len(notices) == 0 {
		return r, nil
	}
	var extra []bot.Reply
	moved := r.Visibility == bot.Update || r.Visibility == bot.Public
	if !fromButton {
		for _, n := range notices {
			for _, v := range []*bot.Reply{n.Edit, n.Post} {
				if v != nil {
					post := *v
					post.Visibility = bot.Public
					extra = append(extra, post)
				}
			}
		}
		return r, extra
	}
	var edit *bot.Reply
	for _, n := range notices {
		if n.Edit != nil {
			edit = n.Edit
		}
		if n.Post != nil && !moved {
			post := *n.Post
			post.Visibility = bot.Public
			extra = append(extra, post)
		}
	}
	if edit == nil || moved {
		return r, extra
	}
	main := *edit
	main.Visibility = bot.Update
	if r.Text != "" && r.Problem != bot.ProblemExpired && r.Problem != bot.ProblemStale {
		refusal := r
		refusal.Visibility = bot.Ephemeral
		extra = append(extra, refusal)
	}
	return main, extra
}

// followUp sends replies as follow-up messages of in (at most
// maxFollowups), after its response; each failure is logged.
func (a *Adapter) followUp(ctx context.Context, s restAPI, in *interaction, replies []bot.Reply) {
	for i, r := range replies {
		if i == maxFollowups {
			a.log.Warn("discord: follow-ups dropped: Discord takes five per interaction", "channel", in.ChannelID, "dropped", len(replies)-i)
			return
		}
		params := &discordgo.WebhookParams{AllowedMentions: allowed(r)}
		params.Content, params.Components = layoutIn(r, a.palettes(r)...)
		if r.Visibility == bot.Ephemeral {
			params.Flags = discordgo.MessageFlagsEphemeral
		}
		if _, err := s.FollowupMessageCreate(in.ref(), true, params, discordgo.WithContext(ctx)); err != nil {
			a.log.Warn("discord: follow-up not sent", "channel", in.ChannelID, "err", err)
		}
	}
}

// withFollowups returns later, or a laterFunc of its own when there is
// none, followed by the follow-ups of x; later alone when there are none.
func (x *exchange) withFollowups(later laterFunc) laterFunc {
	extra := x.extra
	if len(extra) == 0 {
		return later
	}
	return func(ctx context.Context, send bool) bot.Outcome {
		out := x.rep.Outcome
		if later != nil {
			out = later(ctx, send)
		}
		if send && out != bot.OutcomeError {
			x.a.followUp(ctx, x.s, x.in, extra)
		}
		return out
	}
}
