package slack

import (
	"context"
	"crypto/subtle"
	"errors"
	"html/template"
	"net/http"
	"net/url"
	"strings"
	"time"

	slackapi "github.com/slack-go/slack"

	"github.com/connect4/connect4/bot/lang"
	"github.com/connect4/connect4/bot/match"
)

// Installing the app: GET /slack/install sends the browser to Slack's
// authorize page with the app's scopes and a state (signed, expiring in
// 10 minutes, also set as a cookie of this browser), and Slack sends it
// back to GET /slack/oauth/callback, which checks the state (its
// signature, its expiry, the cookie, and that it was never used: once, in
// the store, across replicas), exchanges the code with oauth.v2.access,
// checks the token with auth.test, stores the installation with its
// tokens sealed, and shows a page saying what to do next. Anything wrong
// gets a page saying so, and changes nothing.

// AuthorizeURL is Slack's OAuth v2 authorize page.
const AuthorizeURL = "https://slack.com/oauth/v2/authorize"

// Scopes are the bot scopes the app asks for when installed: those of
// deploy/slack/manifest.yml (a test keeps the two equal).
var Scopes = []string{"commands", "chat:write", "chat:write.public", "users:read", "files:write", "links:read", "links:write"}

// The install's paths and cookie.
const (
	InstallPath  = "/slack/install"
	CallbackPath = "/slack/oauth/callback"
	EventsPath   = "/slack/events"
	stateCookie  = "c4_slack_state"
)

// installBudget bounds the callback's calls (oauth.v2.access, auth.test,
// the store).
const installBudget = 10 * time.Second

// registerInstall mounts the install's endpoints and the events'.
func (a *Adapter) registerInstall(mux *http.ServeMux) {
	mux.HandleFunc("POST "+EventsPath, a.serveEvents)
	if a.ws == nil {
		return
	}
	mux.HandleFunc("GET "+InstallPath, a.serveInstall)
	mux.HandleFunc("GET "+CallbackPath, a.serveCallback)
}

// redirectURI is the callback's public URL, "" without CONNECT4_PUBLIC_URL
// (Slack then uses the one redirect URL the app's settings name).
func (a *Adapter) redirectURI() string {
	base, err := publicBase(a.cfg)
	if err != nil || base == "" {
		return ""
	}
	return base + strings.TrimPrefix(CallbackPath, "/")
}

// serveInstall redirects to Slack's authorize page with a fresh state.
func (a *Adapter) serveInstall(w http.ResponseWriter, r *http.Request) {
	state := a.ws.newState(a.ws.now())
	q := url.Values{"client_id": {a.ws.oauth.ClientID}, "scope": {strings.Join(Scopes, ",")}, "state": {state}}
	if u := a.redirectURI(); u != "" {
		q.Set("redirect_uri", u)
	}
	http.SetCookie(w, &http.Cookie{Name: stateCookie, Value: state, Path: CallbackPath, MaxAge: int(stateTTL / time.Second),
		HttpOnly: true, Secure: r.TLS != nil || strings.HasPrefix(a.cfg.PublicURL, "https:"), SameSite: http.SameSiteLaxMode})
	w.Header().Set("Cache-Control", "no-store")
	http.Redirect(w, r, AuthorizeURL+"?"+q.Encode(), http.StatusFound)
}

// serveCallback finishes an install (see the top of this file).
func (a *Adapter) serveCallback(w http.ResponseWriter, r *http.Request) {
	l := pageLang(r.Header.Get("Accept-Language"))
	// The state is spent by any answer: the browser starts again.
	http.SetCookie(w, &http.Cookie{Name: stateCookie, Value: "", Path: CallbackPath, MaxAge: -1, HttpOnly: true})
	q := r.URL.Query()
	if e := q.Get("error"); e != "" {
		a.log.Info("slack: install cancelled or refused on Slack's page", "error", clipped(e))
		a.page(w, http.StatusOK, l, failedPage(l, "install.denied"))
		return
	}
	state := q.Get("state")
	nonce, left, err := a.ws.checkState(state, a.ws.now())
	cookie, cerr := r.Cookie(stateCookie)
	if err == nil && (cerr != nil || subtle.ConstantTimeCompare([]byte(cookie.Value), []byte(state)) != 1) {
		err = errors.New("slack: oauth state is not this browser's")
	}
	if err != nil {
		a.log.Warn("slack: install refused", "reason", err)
		a.page(w, http.StatusBadRequest, l, failedPage(l, "install.state"))
		return
	}
	code := q.Get("code")
	if code == "" || len(code) > 512 {
		a.page(w, http.StatusBadRequest, l, failedPage(l, "install.refused"))
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), installBudget)
	defer cancel()
	first, err := a.ws.oauth.Store.UseOnce(ctx, nonce, left)
	if err != nil {
		a.log.Error("slack: install: the state could not be recorded", "err", err)
		a.page(w, http.StatusServiceUnavailable, l, failedPage(l, "install.broken"))
		return
	}
	if !first {
		a.log.Warn("slack: install refused", "reason", "oauth state used before")
		a.page(w, http.StatusBadRequest, l, failedPage(l, "install.state"))
		return
	}
	inst, err := a.exchange(ctx, code)
	if err != nil {
		a.log.Warn("slack: install: oauth.v2.access refused the code", "err", err)
		a.page(w, http.StatusBadRequest, l, failedPage(l, "install.refused"))
		return
	}
	if err := a.ws.oauth.Store.PutInstallation(ctx, inst); err != nil {
		a.log.Error("slack: install: storing the installation failed", "installation", inst.ID, "err", err)
		a.page(w, http.StatusServiceUnavailable, l, failedPage(l, "install.broken"))
		return
	}
	a.ws.forget(inst.ID)
	a.log.Info("slack: installed", "installation", inst.ID, "org_wide", inst.OrgWide)
	a.page(w, http.StatusOK, l, page{Title: l.Say("install.title", nil),
		Heading: l.Say("install.done.heading", lang.Args{"Workspace": inst.Name}),
		Text:    l.Say("install.done.next", lang.Args{"Help": "/connect4 help", "Start": "/connect4 @…"})})
}

// exchange trades code for the installation with oauth.v2.access, checks
// what Slack answered, and asks auth.test with the new token for the
// workspace's URL (for links to messages; without it the App Home has
// none).
func (a *Adapter) exchange(ctx context.Context, code string) (*match.Installation, error) {
	ws := a.ws
	resp, err := slackapi.GetOAuthV2ResponseContext(ctx, a.httpc, ws.oauth.ClientID, ws.oauth.ClientSecret, code, a.redirectURI(),
		slackapi.OAuthOptionAPIURL(a.apiURL))
	if err != nil {
		return nil, quiet(err)
	}
	inst := &match.Installation{Team: resp.Team.ID, Enterprise: resp.Enterprise.ID, OrgWide: resp.IsEnterpriseInstall,
		Name: resp.Team.Name, BotUserID: resp.BotUserID, Installed: ws.now()}
	inst.ID = inst.Team
	if inst.OrgWide {
		inst.ID, inst.Team, inst.Name = inst.Enterprise, "", resp.Enterprise.Name
	}
	switch {
	case !strings.HasPrefix(resp.AccessToken, "xoxb-") && !strings.HasPrefix(resp.AccessToken, "xoxe.xoxb-"):
		return nil, errors.New("the answer holds no bot token")
	case !match.ValidInstallID(inst.ID):
		return nil, errors.New("the answer names no valid team or enterprise")
	case !validID(resp.BotUserID):
		return nil, errors.New("the answer names no bot user")
	}
	if len(inst.Name) > 200 {
		inst.Name = inst.Name[:200]
	}
	t := tokens{Access: resp.AccessToken}
	if resp.RefreshToken != "" && resp.ExpiresIn > 0 {
		t.Refresh = resp.RefreshToken
		inst.Expires = inst.Installed.Add(time.Duration(resp.ExpiresIn) * time.Second)
	}
	inst.Sealed = ws.sealTokens(inst.ID, t)
	at, err := a.clientFor(t.Access).AuthTestContext(ctx)
	switch {
	case err != nil:
		a.log.Warn("slack: install: auth.test failed; the App Home will have no links to messages", "err", quiet(err))
	case at.UserID != "" && at.UserID != inst.BotUserID:
		return nil, errors.New("auth.test names another bot user than oauth.v2.access")
	case strings.HasPrefix(at.URL, "https://") && strings.HasSuffix(at.URL, "/") && len(at.URL) < 200:
		inst.URL = at.URL
	}
	if err := inst.Validate(); err != nil {
		return nil, err
	}
	return inst, nil
}

// clipped returns an outside value short enough for a log line.
func clipped(s string) string {
	if len(s) > 64 {
		return s[:64]
	}
	return s
}

// pageLang returns the language of an Accept-Language header: the first
// of its languages the bot speaks, English when none.
func pageLang(header string) lang.Lang {
	for i, part := range strings.Split(header, ",") {
		if i >= 8 {
			break
		}
		tag, _, _ := strings.Cut(strings.TrimSpace(part), ";")
		if l, ok := lang.Parse(tag); ok {
			return l
		}
	}
	return lang.English
}

// page is one of the install's HTML pages.
type page struct {
	Lang                 string
	Title, Heading, Text string
	Again, AgainText     string
}

// failedPage is the page of an install that failed for reason (a message id).
func failedPage(l lang.Lang, reason string) page {
	return page{Title: l.Say("install.title", nil), Heading: l.Say("install.failed", nil), Text: l.Say(reason, nil),
		Again: InstallPath, AgainText: l.Say("install.again", nil)}
}

// pageTemplate is every install page; html/template escapes each value.
var pageTemplate = template.Must(template.New("page").Parse(`<!doctype html>
<html lang="{{.Lang}}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{.Title}}</title>
<style>body{font-family:system-ui,sans-serif;max-width:36em;margin:3em auto;padding:0 1em;line-height:1.5}</style>
</head><body><h1>{{.Heading}}</h1><p>{{.Text}}</p>{{if .Again}}<p><a href="{{.Again}}">{{.AgainText}}</a></p>{{end}}</body></html>
`))

// page writes p in l with status.
func (a *Adapter) page(w http.ResponseWriter, status int, l lang.Lang, p page) {
	p.Lang = l.String()
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Cache-Control", "no-store")
	h.Set("Referrer-Policy", "no-referrer") // the callback's URL holds the code
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'")
	w.WriteHeader(status)
	if err := pageTemplate.Execute(w, p); err != nil {
		a.log.Warn("slack: writing an install page failed", "err", err)
	}
}

// notInstalled is the ephemeral answer to a request from a workspace
// without an installation (err wraps match.ErrNotInstalled), or whose
// installation cannot be read just now.
func (a *Adapter) notInstalled(err error) *slackapi.WebhookMessage {
	id := "install.unavailable"
	if errors.Is(err, match.ErrNotInstalled) {
		id = "install.missing"
	} else {
		a.log.Error("slack: the workspace's installation could not be read", "err", err)
	}
	return &slackapi.WebhookMessage{Text: lang.English.Say(id, nil), ResponseType: ephemeral}
}
