package web

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"time"

	"github.com/connect4/connect4/bot"
	"github.com/connect4/connect4/bot/internal/gallery"
	"github.com/connect4/connect4/bot/lang"
	"github.com/connect4/connect4/bot/match"
	"github.com/connect4/connect4/render"
)

// pageBudget bounds the store reads and drawing of one page; an analysis
// has the bot's own budget within analysisBudget.
const (
	pageBudget     = 5 * time.Second
	analysisBudget = 15 * time.Second
)

// Register mounts the pages on mux: GET /pages/{token} (the page), GET
// /pages/{token}/board.png (a game's board, for previews) and POST
// /pages/{token}/analysis (a game's analysis, for the page's button).
func (w *Web) Register(mux *http.ServeMux) {
	mux.HandleFunc("GET "+PagesPath+"{token}", w.servePage)
	mux.HandleFunc("GET "+PagesPath+"{token}/board.png", w.serveBoard)
	mux.HandleFunc("POST "+PagesPath+"{token}/analysis", w.serveAnalysis)
}

// headers sets what every answer carries: no caching by shared caches
// (a link is a credential), no referrer (the link would leak to the
// sites a page links to; it links to none), no framing, only the page's
// own style and script.
func (w *Web) headers(rw http.ResponseWriter, contentType string) {
	h := rw.Header()
	h.Set("Content-Type", contentType)
	h.Set("Cache-Control", "private, no-cache")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("X-Robots-Tag", "noindex, nofollow")
	h.Set("Content-Security-Policy", w.assets.csp)
}

// parse checks the request's token, answering 404 (not ours, altered) or
// 410 (expired) itself when it is not valid.
func (w *Web) parse(rw http.ResponseWriter, r *http.Request) (Link, string, bool) {
	tok := r.PathValue("token")
	l, err := w.signer.Parse(tok, w.now())
	switch {
	case errors.Is(err, ErrExpired):
		w.fail(rw, r, http.StatusGone, lang.English, "web.error.expired")
		return Link{}, "", false
	case err != nil:
		w.fail(rw, r, http.StatusNotFound, lang.English, "web.error.notFound")
		return Link{}, "", false
	}
	return l, tok, true
}

// fail answers status with a short page saying id in l.
func (w *Web) fail(rw http.ResponseWriter, r *http.Request, status int, l lang.Lang, id string) {
	titles := map[int]string{http.StatusNotFound: "web.error.notFoundTitle", http.StatusGone: "web.error.goneTitle"}
	title, ok := titles[status]
	if !ok {
		title = "web.error.busyTitle"
	}
	p := &page{Lang: l, Dir: "ltr", CSS: w.assets.css, Title: l.Say(title, nil), Palette: "standard",
		Error: &errorView{Title: l.Say(title, nil), Text: l.Say(id, nil)}}
	var buf bytes.Buffer
	if err := w.assets.pages[l].Execute(&buf, p); err != nil {
		w.log.Error("web: error page", "err", err)
	}
	w.headers(rw, "text/html; charset=utf-8")
	if status == http.StatusServiceUnavailable {
		rw.Header().Set("Retry-After", "5")
	}
	rw.WriteHeader(status)
	if r.Method != http.MethodHead {
		_, _ = rw.Write(buf.Bytes())
	}
}

// errorView is the body of an error page.
type errorView struct{ Title, Text string }

// failStore answers a page whose reading failed: 410 for a game or player
// the store no longer has, 503 for anything else (logged).
func (w *Web) failStore(rw http.ResponseWriter, r *http.Request, l Link, err error) {
	lg := w.svc.PageLang(r.Context(), l.Key)
	switch {
	case errors.Is(err, match.ErrNoGame) && l.Kind == KindPlayer:
		w.fail(rw, r, http.StatusGone, lg, "web.error.playerGone")
	case errors.Is(err, match.ErrNoGame):
		w.fail(rw, r, http.StatusGone, lg, "web.error.gone")
	case errors.Is(err, gallery.ErrBusy):
		w.fail(rw, r, http.StatusServiceUnavailable, lg, "web.error.busy")
	default:
		w.log.Error("web: page failed", "kind", l.Kind.String(), "channel", l.Key.String(), "err", err)
		w.fail(rw, r, http.StatusServiceUnavailable, lg, "web.error.busy")
	}
}

// servePage answers GET /pages/{token}.
func (w *Web) servePage(rw http.ResponseWriter, r *http.Request) {
	l, tok, ok := w.parse(rw, r)
	if !ok {
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), pageBudget)
	defer cancel()
	body, err := w.Page(ctx, l, tok)
	if err != nil {
		w.failStore(rw, r, l, err)
		return
	}
	w.headers(rw, "text/html; charset=utf-8")
	rw.Header().Set("Content-Length", strconv.Itoa(len(body)))
	if r.Method != http.MethodHead {
		_, _ = rw.Write(body)
	}
}

// Page returns the HTML of the page of link l (token tok). A game page is
// drawn once per version of its game (and language) and kept; channel and
// player pages are drawn on every ask. Errors are the Service's
// (match.ErrNoGame for a game or player the store no longer has) or
// gallery.ErrBusy when too many pages are being drawn.
func (w *Web) Page(ctx context.Context, l Link, tok string) ([]byte, error) {
	if l.Kind != KindGame {
		p, err := w.view(ctx, l, tok)
		if err != nil {
			return nil, err
		}
		return w.execute(p)
	}
	gp, err := w.svc.GamePage(ctx, l.Key, l.ID)
	if err != nil {
		return nil, err
	}
	lg := w.svc.PageLang(ctx, l.Key)
	key := "page\x00" + tok + "\x00" + strconv.FormatInt(gp.Version, 10) + "\x00" + lg.String() + "\x00" + paletteName(gp.Look)
	return w.cache.Get(ctx, key, func(context.Context) ([]byte, error) {
		p := w.newPage(lg, l, tok)
		w.gameView(p, l, gp)
		return w.execute(p)
	})
}

// execute draws p.
func (w *Web) execute(p *page) ([]byte, error) {
	var buf bytes.Buffer
	buf.Grow(32 << 10)
	if err := w.assets.pages[p.Lang].Execute(&buf, p); err != nil {
		return nil, fmt.Errorf("web: draw page: %w", err)
	}
	return buf.Bytes(), nil
}

// parseGame is parse for the endpoints of a game page (its board picture,
// its analysis): a link to any other page answers 404.
func (w *Web) parseGame(rw http.ResponseWriter, r *http.Request) (Link, bool) {
	l, _, ok := w.parse(rw, r)
	if !ok {
		return Link{}, false
	}
	if l.Kind != KindGame {
		w.fail(rw, r, http.StatusNotFound, lang.English, "web.error.notFound")
		return Link{}, false
	}
	return l, true
}

// serveBoard answers GET /pages/{token}/board.png: the game's board as it
// stands, in the channel's palette, drawn once per version.
func (w *Web) serveBoard(rw http.ResponseWriter, r *http.Request) {
	l, ok := w.parseGame(rw, r)
	if !ok {
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), pageBudget)
	defer cancel()
	gp, err := w.svc.GamePage(ctx, l.Key, l.ID)
	if err != nil {
		w.failStore(rw, r, l, err)
		return
	}
	opt := render.ImageOptions{Palette: render.ImageStandard}
	if gp.Look.Palette == match.PaletteColourBlind {
		opt.Palette = render.ImageColourBlind
	}
	key := "png\x00" + l.Key.String() + "\x00" + l.ID + "\x00" + strconv.FormatInt(gp.Version, 10) + "\x00" + opt.Palette.String()
	png, err := w.cache.Get(ctx, key, func(context.Context) ([]byte, error) { return w.painter.AppendPNG(nil, gp.Game, opt) })
	if err != nil {
		w.failStore(rw, r, l, err)
		return
	}
	w.headers(rw, "image/png")
	rw.Header().Set("Content-Length", strconv.Itoa(len(png)))
	if r.Method != http.MethodHead {
		_, _ = rw.Write(png)
	}
}

// analysisJSON is the answer to the analysis button: each move's verdict
// and the summary, in the page's language.
type analysisJSON struct {
	Verdicts []string `json:"verdicts"`
	Summary  []string `json:"summary"`
}

// serveAnalysis answers POST /pages/{token}/analysis: the game's analysis,
// made now (the same budget and search slots as the chat's) or kept from
// before. 409 for a game the solver cannot judge, 503 when it is busy.
func (w *Web) serveAnalysis(rw http.ResponseWriter, r *http.Request) {
	l, ok := w.parseGame(rw, r)
	if !ok {
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), analysisBudget)
	defer cancel()
	gp, err := w.svc.AnalyzeGame(ctx, l.Key, l.ID)
	switch {
	case errors.Is(err, bot.ErrNotAnalyzable):
		http.Error(rw, "this game cannot be analysed", http.StatusConflict)
		return
	case errors.Is(err, bot.ErrAnalysisBusy):
		rw.Header().Set("Retry-After", "5")
		http.Error(rw, "the solver is busy", http.StatusServiceUnavailable)
		return
	case err != nil:
		w.failStore(rw, r, l, err)
		return
	}
	lg := w.svc.PageLang(ctx, l.Key)
	var out analysisJSON
	if gp.Analysis != nil {
		out.Verdicts, out.Summary = analysisWords(lg, *gp.Analysis)
	}
	w.headers(rw, "application/json")
	_ = json.NewEncoder(rw).Encode(out)
}
