package web

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"runtime"
	"strings"
	"time"

	"github.com/connect4/connect4/bot"
	"github.com/connect4/connect4/bot/internal/gallery"
	"github.com/connect4/connect4/bot/lang"
	"github.com/connect4/connect4/bot/match"
	"github.com/connect4/connect4/render"
)

// DefaultTTL is how long a link works when Config.TTL is 0: 30 days.
const DefaultTTL = 30 * 24 * time.Hour

// PagesPath is where the pages are served: PagesPath + token.
const PagesPath = "/pages/"

// Service is what the pages read through package bot: *bot.Service.
type Service interface {
	GamePage(ctx context.Context, k match.Key, id string) (bot.GamePage, error)
	AnalyzeGame(ctx context.Context, k match.Key, id string) (bot.GamePage, error)
	ChannelPage(ctx context.Context, k match.Key) (bot.ChannelPage, error)
	PlayerPage(ctx context.Context, k match.Key, userID string) (bot.PlayerPage, error)
	PageLang(ctx context.Context, k match.Key) lang.Lang
}

var _ Service = (*bot.Service)(nil)

// Config configures the pages.
type Config struct {
	// PublicURL is the base URL the pages are reached at from outside
	// (CONNECT4_PUBLIC_URL). Required: without it there are no links.
	PublicURL string
	// Secrets are the platforms' secrets by platform name ("slack",
	// "discord"), the same on every replica: each platform's links are
	// signed with a key derived from its own. A platform without one
	// gets no links.
	Secrets map[string]string
	// TTL is how long a link works; 0 means DefaultTTL.
	TTL time.Duration
	// Painter draws the board pictures of the unfurls; nil makes one.
	Painter *render.Painter
	// CacheBytes bounds the pages and pictures kept drawn; 0 means 16 MiB.
	CacheBytes int
	// Now is the clock; nil means time.Now.
	Now func() time.Time
}

// Web serves the pages and makes the links to them. It implements
// bot.PageLinks and bot.PagePreviewer. It is safe for concurrent use.
type Web struct {
	svc     Service
	signer  *Signer
	base    string // PublicURL with a trailing slash
	ttl     time.Duration
	now     func() time.Time
	log     *slog.Logger
	painter *render.Painter
	cache   *gallery.Gallery // pages by token and version, board pictures by game version
	assets  assets
}

var (
	_ bot.PageLinks     = (*Web)(nil)
	_ bot.PagePreviewer = (*Web)(nil)
)

// New returns the pages of svc. It returns an error for a PublicURL that
// is not an absolute http(s) URL without query, or a negative TTL.
func New(svc Service, cfg Config, log *slog.Logger) (*Web, error) {
	u, err := url.Parse(cfg.PublicURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.RawQuery != "" || u.Fragment != "" {
		return nil, fmt.Errorf("web: public URL %q is not an http(s) base URL", cfg.PublicURL)
	}
	if cfg.TTL < 0 {
		return nil, fmt.Errorf("web: negative link lifetime %v", cfg.TTL)
	}
	if cfg.TTL == 0 {
		cfg.TTL = DefaultTTL
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Painter == nil {
		cfg.Painter = render.NewPainter(0)
	}
	if cfg.CacheBytes <= 0 {
		cfg.CacheBytes = 16 << 20
	}
	if log == nil {
		log = slog.Default()
	}
	a, err := loadAssets()
	if err != nil {
		return nil, err
	}
	return &Web{svc: svc, signer: NewSigner(cfg.Secrets), base: strings.TrimSuffix(cfg.PublicURL, "/") + "/",
		ttl: cfg.TTL, now: cfg.Now, log: log.With("platform", "web"), painter: cfg.Painter,
		cache: gallery.New(cfg.CacheBytes, runtime.GOMAXPROCS(0), 64), assets: a}, nil
}

// url is the absolute URL of l's page, or "" when l's platform has no key.
func (w *Web) url(l Link) string {
	tok := w.signer.Token(l)
	if tok == "" {
		return ""
	}
	return w.base + strings.TrimPrefix(PagesPath, "/") + tok
}

// fresh is a link of kind to k's id that expires after the TTL.
func (w *Web) fresh(kind Kind, k match.Key, id string) Link {
	return Link{Kind: kind, Key: k, ID: id, Expires: w.now().Add(w.ttl).Truncate(time.Second)}
}

// GameURL returns the link to game gameID's page in channel k, or "".
func (w *Web) GameURL(k match.Key, gameID string) string {
	return w.url(w.fresh(KindGame, k, gameID))
}

// ChannelURL returns the link to channel k's page, or "".
func (w *Web) ChannelURL(k match.Key) string { return w.url(w.fresh(KindChannel, k, "")) }

// PlayerURL returns the link to player userID's page in channel k, or "".
func (w *Web) PlayerURL(k match.Key, userID string) string {
	return w.url(w.fresh(KindPlayer, k, userID))
}

// Preview returns what a chat shows of a link to one of the pages (its
// title, a line of text and, for a game, its board picture), and false
// for a URL that is not a valid link of this server. It is what Slack's
// unfurls show (the OpenGraph tags of the page say the same).
func (w *Web) Preview(ctx context.Context, raw string) (bot.PagePreview, bool) {
	tok, ok := strings.CutPrefix(raw, w.base+strings.TrimPrefix(PagesPath, "/"))
	if !ok || strings.ContainsAny(tok, "/?#") {
		return bot.PagePreview{}, false
	}
	l, err := w.signer.Parse(tok, w.now())
	if err != nil {
		return bot.PagePreview{}, false
	}
	v, err := w.view(ctx, l, tok)
	if err != nil {
		if !errors.Is(err, match.ErrNoGame) {
			w.log.Warn("web: no preview", "kind", l.Kind.String(), "err", err)
		}
		return bot.PagePreview{}, false
	}
	return bot.PagePreview{Title: v.Title, Text: v.Desc, ImageURL: v.Image, ImageAlt: v.ImageAlt}, true
}
