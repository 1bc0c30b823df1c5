package slack

import (
	"context"
	"errors"
	"math"
	"strings"
	"sync"
	"time"

	slackapi "github.com/slack-go/slack"

	"github.com/connect4/connect4/bot"
	"github.com/connect4/connect4/bot/lang"
	"github.com/connect4/connect4/bot/match"
)

// homeAPI is the Web API method of the App Home (views.publish).
type homeAPI interface {
	PublishViewContext(ctx context.Context, req slackapi.PublishViewContextRequest) (*slackapi.ViewResponse, error)
}

var _ homeAPI = (*slackapi.Client)(nil)

// The App Home's limits.
const (
	// homeEvery is how often one user's Home tab is published at most.
	homeEvery = time.Minute
	// homeBudget bounds building and publishing one Home tab.
	homeBudget = 5 * time.Second
	// maxHomeLines bounds the lines of each part of the Home tab (a
	// section's text stays far under its 3,000 characters).
	maxHomeLines = 10
)

// homeState is the adapter's per-replica App Home state: when each
// user's channel was last recorded, and (without a store) when each
// user's Home tab was last published. It is safe for concurrent use; the
// zero value is ready.
type homeState struct {
	mu     sync.Mutex
	seen   map[string]time.Time
	opened map[string]time.Time
}

// due reports whether id's next time in *m has come, and if so sets it
// every from now. The map is bounded: when full it starts afresh.
func (h *homeState) due(m *map[string]time.Time, id string, every time.Duration) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	if *m == nil || len(*m) >= maxWorkspaces {
		*m = map[string]time.Time{}
	}
	now := time.Now()
	if next, ok := (*m)[id]; ok && now.Before(next) {
		return false
	}
	(*m)[id] = now.Add(every)
	return true
}

// publishHome builds user's Home tab in team and publishes it, at most
// once a minute per user (across replicas, with a store). A workspace
// without an installation is ignored; failures are logged.
func (a *Adapter) publishHome(ctx context.Context, team, enterprise, user string) {
	ctx, cancel := context.WithTimeout(ctx, homeBudget)
	defer cancel()
	ctx, err := a.inWorkspace(ctx, match.Key{Platform: Platform, Workspace: team, Channel: "home"}, enterprise, "")
	if errors.Is(err, match.ErrNotInstalled) {
		return
	}
	if err != nil {
		a.log.Warn("slack: the App Home's workspace could not be read", "err", err)
		return
	}
	api, ok := a.api.(homeAPI)
	if a.api == nil || !ok || !validID(user) {
		return
	}
	store := a.cfg.OAuth.Store
	if store != nil {
		ok, err = store.HomeOpened(ctx, team, user, homeEvery)
		if err != nil {
			a.log.Warn("slack: the App Home's throttle failed", "err", err)
			return
		}
	} else {
		ok = a.homes.due(&a.homes.opened, team+"/"+user, homeEvery)
	}
	if !ok {
		return
	}
	var overviews []bot.Overview
	if store != nil {
		chans, err := store.RecentChannels(ctx, team, user)
		if err != nil {
			a.log.Warn("slack: the App Home's channels could not be read", "err", err)
		}
		for _, ch := range chans {
			o, err := a.svc.Overview(ctx, match.Key{Platform: Platform, Workspace: team, Channel: ch}, user)
			if err != nil {
				a.log.Warn("slack: the App Home's games could not be read", "err", err)
				break
			}
			overviews = append(overviews, o)
		}
	}
	url := ""
	if w := workspaceOf(ctx); w != nil {
		url = w.inst.URL
	}
	view := homeView(a.localeOf(ctx, user), url, user, overviews)
	if _, err := api.PublishViewContext(ctx, slackapi.PublishViewContextRequest{UserID: user, View: view}); err != nil {
		a.log.Warn("slack: views.publish of the App Home failed", "err", err)
	}
}

// localeOf returns user's language from users.info's locale, English when
// it cannot tell.
func (a *Adapter) localeOf(ctx context.Context, user string) lang.Lang {
	if a.api == nil {
		return lang.English
	}
	lctx, cancel := context.WithTimeout(ctx, lookupBudget)
	defer cancel()
	u, err := a.api.GetUserInfoContext(lctx, user, slackapi.GetUserInfoOptionIncludeLocale(true))
	if err != nil {
		return lang.English
	}
	l, _ := lang.Parse(u.Locale)
	return l.Or(lang.English)
}

// validID reports whether s looks like a Slack id.
func validID(s string) bool {
	if s == "" || len(s) > 64 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; (c < 'A' || c > 'Z') && (c < '0' || c > '9') {
			return false
		}
	}
	return true
}

// homeView is the Home tab of user in l: their games in progress (with
// links to the messages when the workspace's url is known), their
// ratings per channel, their recent results, and how to start a game.
func homeView(l lang.Lang, url, user string, os []bot.Overview) slackapi.HomeTabViewRequest {
	var games, ratings, results []string
	for _, o := range os {
		ch := "<#" + o.Key.Channel + ">"
		if r := o.Game; r != nil && len(games) < maxHomeLines {
			args := lang.Args{"Opponents": others(r, user), "Channel": ch}
			switch {
			case r.Status == match.StatusPending:
				games = append(games, l.Say("home.game.pending", args))
			case url != "" && linkable(r.Message, o.Key.Channel):
				args["Link"] = messageLink(url, r.Message, o.Key.Channel)
				games = append(games, l.Say("home.game.link", args))
			default:
				games = append(games, l.Say("home.game.playing", args))
			}
		}
		if s := o.Standing; s.Rating != nil && len(ratings) < maxHomeLines {
			ratings = append(ratings, l.Say("home.rating.line", lang.Args{"Channel": ch,
				"Value": int(math.Round(s.Rating.Rating.Rating)), "Wins": s.Wins, "Losses": s.Losses, "Draws": s.Draws}))
		}
		if r := o.Last; r != nil && len(results) < maxHomeLines {
			args := lang.Args{"Opponents": others(r, user), "Channel": ch}
			results = append(results, l.Say(result(r, user), args))
		}
	}
	part := func(title, none string, lines []string) []slackapi.Block {
		text := "*" + l.Say(title, nil) + "*\n"
		if len(lines) == 0 {
			text += l.Say(none, nil)
		} else {
			text += "• " + strings.Join(lines, "\n• ")
		}
		return []slackapi.Block{slackapi.NewSectionBlock(mrkdwn(text), nil, nil), slackapi.NewDividerBlock()}
	}
	bs := []slackapi.Block{slackapi.NewHeaderBlock(slackapi.NewTextBlockObject(slackapi.PlainTextType, l.Say("home.title", nil), false, false))}
	bs = append(bs, part("home.games.title", "home.games.none", games)...)
	bs = append(bs, part("home.ratings.title", "home.ratings.none", ratings)...)
	bs = append(bs, part("home.results.title", "home.results.none", results)...)
	bs = append(bs, slackapi.NewSectionBlock(mrkdwn("*"+l.Say("home.start.title", nil)+"*\n"+l.Say("home.start.text", lang.Args{
		"Start": "`/connect4 @…`", "AI": "`/connect4 ai`", "Help": "`/connect4 help`"})), nil, nil))
	return slackapi.HomeTabViewRequest{Type: slackapi.VTHomeTab, Blocks: slackapi.Blocks{BlockSet: bs}}
}

// others returns the mentions of r's players other than user.
func others(r *match.Record, user string) string {
	var ms []string
	for _, p := range r.Seats() {
		if p.ID != user && p.ID != "" {
			ms = append(ms, "<@"+p.ID+">")
		}
	}
	return strings.Join(ms, ", ")
}

// result is the message id of how r ended for user.
func result(r *match.Record, user string) string {
	mine, best := r.Wins(user), -1
	for _, p := range r.Seats() {
		if p.ID != user {
			best = max(best, r.Wins(p.ID))
		}
	}
	switch {
	case mine > best:
		return "home.result.won"
	case mine < best:
		return "home.result.lost"
	}
	return "home.result.draw"
}

// linkable reports whether ref names a message a link can be made to.
func linkable(ref match.MessageRef, channel string) bool {
	if ref.Channel != "" {
		channel = ref.Channel
	}
	ts := ref.Timestamp
	if !validID(channel) || ts == "" || len(ts) > 32 {
		return false
	}
	for i := 0; i < len(ts); i++ {
		if (ts[i] < '0' || ts[i] > '9') && ts[i] != '.' {
			return false
		}
	}
	return true
}

// messageLink is the link to a message in the workspace at url (which
// ends in a slash): /archives/<channel>/p<ts without its dot>.
func messageLink(url string, ref match.MessageRef, channel string) string {
	ch := ref.Channel
	if ch == "" {
		ch = channel
	}
	return url + "archives/" + ch + "/p" + strings.ReplaceAll(ref.Timestamp, ".", "")
}
