package main

import (
	"context"
	"errors"
	"net"
	"net/http"
	"strings"
	"time"

	"cmp"
	"crypto/rand"
	"encoding/hex"
	"github.com/connect4/connect4/bot"
	"log/slog"

	"github.com/connect4/connect4/bot/discord"
	"github.com/connect4/connect4/bot/slack"
	"github.com/connect4/connect4/bot/web"
)

// pageLinks returns the links to the web pages of `connect4 serve`, or nil
// when there are none: no CONNECT4_PUBLIC_URL, or no platform secret to
// sign them with. Each platform's links are signed with a key derived
// from its own secret, the same on every replica: Slack's signing secret
// (else its bot token), Discord's bot token (its public key is public).
func pageLinks(cfg config, log *slog.Logger) (*web.Links, error) {
	if cfg.PublicURL == "" {
		return nil, nil
	}
	secrets := map[string]string{}
	if s := cmp.Or(cfg.SlackSigningSecret, cfg.SlackBotToken); s != "" {
		secrets[slack.Platform] = s
	}
	if cfg.DiscordBotToken != "" {
		secrets[discord.Platform] = cfg.DiscordBotToken
	} else if cfg.DiscordPublicKey != "" {
		log.Warn("discord: without DISCORD_BOT_TOKEN there is no secret to sign links to web pages with: Discord messages carry none")
	}
	if len(secrets) == 0 {
		return nil, nil
	}
	return web.NewLinks(web.Config{PublicURL: cfg.PublicURL, Secrets: secrets, TTL: cfg.PageTTL})
}

// localPageLinks returns the links of `connect4 play -web addr`: to
// http://addr, signed with a key made for this run (the links die with
// it).
func localPageLinks(addr string, cfg config) (*web.Links, error) {
	key := make([]byte, 32)
	_, _ = rand.Read(key) // never fails (crypto/rand)
	return web.NewLinks(web.Config{PublicURL: "http://" + localHost(addr), Secrets: map[string]string{"terminal": hex.EncodeToString(key)}, TTL: cfg.PageTTL})
}

// servePages serves the pages of svc on addr until stop is called (or ctx
// ends): for `connect4 play -web`.
func servePages(ctx context.Context, addr string, svc *bot.Service, links *web.Links, log *slog.Logger) (stop func(), err error) {
	pages, err := web.New(svc, links, nil, log)
	if err != nil {
		return nil, err
	}
	mux := http.NewServeMux()
	pages.Register(mux)
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, err
	}
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 5 * time.Second, BaseContext: func(net.Listener) context.Context { return ctx }}
	done := make(chan struct{})
	go func() {
		defer close(done)
		if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			log.Warn("web pages stopped", "err", err)
		}
	}()
	return func() {
		sctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		_ = srv.Shutdown(sctx)
		<-done
	}, nil
}

// localHost is addr as a browser on this machine reaches it.
func localHost(addr string) string {
	if strings.HasPrefix(addr, ":") {
		return "localhost" + addr
	}
	return addr
}
