package slack

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"time"

	"github.com/slack-go/slack/slackevents"

	"github.com/connect4/connect4/bot"
	"github.com/connect4/connect4/bot/match"
)

// serveEvents answers Slack's Events API (POST /slack/events), signed
// like the other endpoints: the url_verification challenge; app_uninstalled
// and tokens_revoked (of the bot's token) remove the workspace's
// installation and queue the purge of its data; app_home_opened publishes
// the user's Home tab and link_shared answers with the web pages'
// previews (chat.unfurl), both in the background. Every event is acknowledged at
// once with 200, an event for a workspace without an installation too
// (and then ignored); Slack's retries of one change nothing more.
func (a *Adapter) serveEvents(w http.ResponseWriter, r *http.Request) {
	rep := newReport("http", "event")
	if _, ok := a.verified(w, r, rep); !ok {
		return
	}
	body, err := io.ReadAll(r.Body)
	if err != nil || !json.Valid(body) {
		a.badRequest(w, rep, "unreadable event")
		return
	}
	rep.Kind = "event"
	ev, err := slackevents.ParseEvent(body, slackevents.OptionNoVerifyToken())
	if err != nil {
		// An event type slack-go does not know, or a shape it cannot
		// read: acknowledged, so that Slack does not retry it.
		rep.Outcome, rep.Reason = bot.OutcomeOK, "event ignored"
		w.WriteHeader(http.StatusOK)
		a.done(rep)
		return
	}
	switch ev.Type {
	case slackevents.URLVerification:
		v, ok := ev.Data.(*slackevents.EventsAPIURLVerificationEvent)
		if !ok || v.Challenge == "" || len(v.Challenge) > 256 {
			a.badRequest(w, rep, "url_verification without a challenge")
			return
		}
		w.Header().Set("Content-Type", "text/plain")
		io.WriteString(w, v.Challenge)
	case slackevents.CallbackEvent:
		cb, _ := ev.Data.(*slackevents.EventsAPICallbackEvent)
		a.event(r.Context(), cb, ev.InnerEvent)
		w.WriteHeader(http.StatusOK)
	default:
		w.WriteHeader(http.StatusOK)
	}
	rep.Outcome = bot.OutcomeOK
	a.done(rep)
}

// event handles one callback event.
func (a *Adapter) event(ctx context.Context, cb *slackevents.EventsAPICallbackEvent, inner slackevents.EventsAPIInnerEvent) {
	if cb == nil {
		return
	}
	team, enterprise, id := cb.TeamID, cb.EnterpriseID, cb.TeamID
	for _, au := range cb.Authorizations {
		if au.IsEnterpriseInstall && match.ValidInstallID(au.EnterpriseID) {
			id, enterprise = au.EnterpriseID, au.EnterpriseID
		}
	}
	switch e := inner.Data.(type) {
	case *slackevents.AppUninstalledEvent:
		a.uninstall(ctx, id, "app_uninstalled")
	case *slackevents.TokensRevokedEvent:
		if len(e.Tokens.Bot) > 0 {
			a.uninstall(ctx, id, "tokens_revoked")
		}
	case *slackevents.LinkSharedEvent:
		// Read from the raw event: slack-go's type lacks unfurl_id and
		// source (composer previews).
		var ls linkShared
		if cb.InnerEvent == nil || json.Unmarshal(*cb.InnerEvent, &ls) != nil {
			return
		}
		a.work.Go(func(ctx context.Context) {
			ctx, err := a.inWorkspace(ctx, match.Key{Platform: Platform, Workspace: team, Channel: "unfurl"}, enterprise, "")
			if err != nil {
				return // no installation: no preview
			}
			_ = a.unfurl(ctx, ls) // logged there
		})
	case *slackevents.AppHomeOpenedEvent:
		if e.Tab == "home" {
			user := e.User
			a.work.Go(func(ctx context.Context) { a.publishHome(ctx, team, enterprise, user) })
		}
	}
}

// uninstall removes installation id and queues the purge of its data;
// an event for a workspace without an installation (never installed, or
// an event repeated after the purge began) is ignored. In the
// single-workspace mode nothing is deleted: the operator removes
// SLACK_BOT_TOKEN.
func (a *Adapter) uninstall(ctx context.Context, id, why string) {
	if a.ws == nil {
		a.log.Warn("slack: the app was uninstalled from its workspace ("+why+"); SLACK_BOT_TOKEN no longer works", "team", clipped(id))
		return
	}
	if !match.ValidInstallID(id) {
		return
	}
	store := a.ws.oauth.Store
	if _, err := store.Installation(ctx, id); err != nil {
		if !isNotInstalled(err) {
			a.log.Error("slack: uninstall: the installation could not be read", "installation", id, "err", err)
		}
		return
	}
	if err := store.Uninstall(ctx, id, time.Now(), a.ws.purgeDelay); err != nil {
		a.log.Error("slack: uninstall failed", "installation", id, "err", err)
		return
	}
	a.ws.forget(id)
	a.log.Info("slack: uninstalled; its data will be purged", "installation", id, "event", why)
}

func isNotInstalled(err error) bool { return errors.Is(err, match.ErrNotInstalled) }
