package main

import (
	"context"
	"log/slog"
	"strings"

	"github.com/connect4/connect4/bot/ops"
	"github.com/connect4/connect4/bot/slack"
	"github.com/connect4/connect4/sessions"
)

// slackInstall is the configuration of Slack's many-workspace mode: the
// app's OAuth credentials and the key its tokens are sealed with.
type slackInstall struct {
	ClientID, ClientSecret, SecretKey string
}

// loadSlackInstall reads the many-workspace variables through e and
// records their problems there; c is the rest of the configuration, read
// before.
func loadSlackInstall(e *ops.Env, c config) slackInstall {
	s := slackInstall{ClientID: e.String("SLACK_CLIENT_ID"), ClientSecret: e.Raw("SLACK_CLIENT_SECRET"), SecretKey: strings.TrimSpace(e.Raw("CONNECT4_SECRET_KEY"))}
	if s.ClientID == "" {
		if s.ClientSecret != "" {
			e.Bad("SLACK_CLIENT_ID", "required with SLACK_CLIENT_SECRET")
		}
		return s
	}
	if s.ClientSecret == "" {
		e.Bad("SLACK_CLIENT_SECRET", "required with SLACK_CLIENT_ID (Basic Information → App Credentials)")
	}
	if msg := slack.CheckSecretKey(s.SecretKey); msg != "" {
		e.Bad("CONNECT4_SECRET_KEY", "%s", msg)
	}
	if c.SlackSigningSecret == "" {
		e.Bad("SLACK_SIGNING_SECRET", "required with SLACK_CLIENT_ID: every workspace's commands and events are signed with it")
	}
	if c.SlackBotToken != "" || c.SlackAppToken != "" {
		e.Bad("SLACK_CLIENT_ID", "serves every workspace that installs the app: unset SLACK_BOT_TOKEN and SLACK_APP_TOKEN (one workspace), or unset SLACK_CLIENT_ID")
	}
	return s
}

// slackOAuth is the Slack adapter's OAuth configuration: the
// installations' store beside the game store st (which the App Home uses
// in both modes), and the credentials when the many-workspace mode is on.
func slackOAuth(cfg config, st store) slack.OAuth {
	o := slack.OAuth{ClientID: cfg.SlackInstall.ClientID, ClientSecret: cfg.SlackInstall.ClientSecret, SecretKey: cfg.SlackInstall.SecretKey}
	switch s := st.(type) {
	case *sessions.Redis:
		o.Store = sessions.NewRedisInstalls(s)
	case *sessions.Memory:
		o.Store = sessions.NewMemoryInstalls(s)
	}
	return o
}

// startSlackInstall says what the many-workspace mode serves, and runs
// its purge jobs in set.
func startSlackInstall(ctx context.Context, cfg config, a *slack.Adapter, set *ops.Group, log *slog.Logger) {
	if cfg.SlackSigningSecret != "" {
		log.Info("slack: serving POST " + slack.EventsPath + " (Events API: App Home, uninstalls)")
	}
	if cfg.SlackInstall.ClientID == "" {
		return
	}
	log.Info("slack: serving every workspace that installs the app at GET " + slack.InstallPath)
	if cfg.Redis.Mode() == "memory" {
		log.Warn("slack: installations are kept in memory: every workspace must install the app again after a restart; set REDIS_URL")
	}
	set.Go(ctx, func(ctx context.Context) error { return a.RunPurges(ctx, 0) })
}
