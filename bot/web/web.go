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

// Config configures the links to the pages.
type Config struct {
	// PublicURL is the base URL the pages are reached at from outside
	// (CONNECT4_PUBLIC_URL). Required: without it there are no links.
	PublicURL string
	// Secrets are the platforms' secrets by platform name ("slack",
	// "discord"), the same on every replica: each platform's links are
	// signed with a key derived from its own. A platform without one
	// gets no links.
	Secrets map[string]string
	// TTL is how long a link works (CONNECT4_PAGE_TTL); 0 means
	// DefaultTTL.
	TTL time.Duration
	// Now is the clock; nil means time.Now.
	Now func() time.Time
}

// Links makes and checks the links to the pages. It implements
// bot.PageLinks, so that the bot's replies carry them; it needs no
// Service, so that it can be made before the Service that uses it. It is
// safe for concurrent use.
type Links struct {
	signer *Signer
	base   string // PublicURL with a trailing slash
	ttl    time.Duration
	now    func() time.Time
}

var _ bot.PageLinks = (*Links)(nil)

// NewLinks returns the links of cfg. It returns an error for a PublicURL
// that is not an absolute http(s) URL without query, or a negative TTL.
func NewLinks(cfg Config) (*Links, error) {
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
	return &Links{signer: NewSigner(cfg.Secrets), base: strings.TrimSuffix(cfg.PublicURL, "/") + "/", ttl: cfg.TTL, now: cfg.Now}, nil
}

// Web serves the pages. It implements bot.PagePreviewer. It is safe for
// concurrent use.
type Web struct {
	*Links
	svc     Service
	log     *slog.Logger
	painter *render.Painter
	cache   *gallery.Gallery // pages by token and version, board pictures by game version
	assets  assets
}

var _ bot.PagePreviewer = (*Web)(nil)

// cacheBytes bounds the pages and pictures kept drawn.
const cacheBytes = 16 << 20

// New returns the pages of svc behind links. painter draws the board
// pictures of the previews (nil makes one); log nil means slog.Default().
// It returns an error only for a build whose embedded template is broken.
func New(svc Service, links *Links, painter *render.Painter, log *slog.Logger) (*Web, error) {
	if painter == nil {
		painter = render.NewPainter(0)
	}
	if log == nil {
		log = slog.Default()
	}
	a, err := loadAssets()
	if err != nil {
		return nil, err
	}
	return &Web{Links: links, svc: svc, log: log.With("platform", "web"), painter: painter,
		cache: gallery.New(cacheBytes, runtime.GOMAXPROCS(0), 64), assets: a}, nil
}

// url is the absolute URL of l's page, or "" when l's platform has no key.
func (ls *Links) url(l Link) string {
	tok := ls.signer.Token(l)
	if tok == "" {
		return ""
	}
	return ls.base + strings.TrimPrefix(PagesPath, "/") + tok
}

// fresh is a link of kind to k's id that expires after the TTL.
func (ls *Links) fresh(kind Kind, k match.Key, id string) Link {
	return Link{Kind: kind, Key: k, ID: id, Expires: ls.now().Add(ls.ttl).Truncate(time.Second)}
}

// GameURL returns the link to game gameID's page in channel k, or "".
func (ls *Links) GameURL(k match.Key, gameID string) string {
	return ls.url(ls.fresh(KindGame, k, gameID))
}

// ChannelURL returns the link to channel k's page, or "".
func (ls *Links) ChannelURL(k match.Key) string { return ls.url(ls.fresh(KindChannel, k, "")) }

// PlayerURL returns the link to player userID's page in channel k, or "".
func (ls *Links) PlayerURL(k match.Key, userID string) string {
	return ls.url(ls.fresh(KindPlayer, k, userID))
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
