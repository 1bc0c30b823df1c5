package slack

import (
	"bytes"
	"context"
	"errors"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/connect4/connect4/bot/internal/boardurl"
	"github.com/connect4/connect4/bot/match"
	"github.com/connect4/connect4/render"
)

// BoardsPath is where Register serves the signed board pictures, with
// Config.PublicURL set: GET /boards/<token>.png (or .gif for a replay).
const BoardsPath = "/boards/"

// boardBudget bounds loading and drawing one served picture.
const boardBudget = 2 * time.Second

// cacheSize is how many pictures the adapter keeps drawn.
const cacheSize = 256

// serveBoard answers GET /boards/<token>: 404 for a token the bot did not
// sign (or altered, or naming a game that is no longer stored or no longer
// as the token's fingerprint says), 410 for
// one past its expiry, 503 when the store cannot say; else the picture,
// drawn from the stored game the first time and kept in a cache by game,
// move, palette and kind.
func (a *Adapter) serveBoard(w http.ResponseWriter, r *http.Request) {
	now := a.pics.now()
	b, err := a.pics.signer.Parse(r.PathValue("token"), now)
	switch {
	case errors.Is(err, boardurl.ErrExpired):
		http.Error(w, "this picture has expired", http.StatusGone)
		return
	case err != nil:
		http.Error(w, "no such picture", http.StatusNotFound)
		return
	}
	data, ok := a.pics.cache.get(b.CacheKey())
	if !ok {
		ctx, cancel := context.WithTimeout(r.Context(), boardBudget)
		defer cancel()
		g, err := a.svc.GameAt(ctx, b.Key, b.GameID, b.Move)
		if err == nil && boardurl.Fingerprint(g) != b.Game {
			err = match.ErrNoGame // the record has moved on: a takeback, another round
		}
		switch {
		case errors.Is(err, match.ErrNoGame):
			http.Error(w, "no such picture", http.StatusNotFound)
			return
		case err != nil:
			a.log.Warn("slack board picture: store failed", "err", err)
			w.Header().Set("Retry-After", "1")
			http.Error(w, "try again", http.StatusServiceUnavailable)
			return
		}
		opt := render.ImageOptions{Palette: render.ImageStandard}
		if b.Palette == match.PaletteColourBlind {
			opt.Palette = render.ImageColourBlind
		}
		var buf bytes.Buffer
		if b.Kind == boardurl.GIF {
			err = a.pics.painter.GIF(&buf, g, opt)
		} else {
			err = a.pics.painter.PNG(&buf, g, opt)
		}
		if err != nil {
			a.log.Error("slack board picture: render", "err", err)
			http.Error(w, "cannot draw the picture", http.StatusInternalServerError)
			return
		}
		data = buf.Bytes()
		a.pics.cache.put(b.CacheKey(), data)
	}
	w.Header().Set("Content-Type", "image/"+b.Kind)
	w.Header().Set("Content-Length", strconv.Itoa(len(data)))
	w.Header().Set("Cache-Control", "public, max-age="+strconv.Itoa(int(b.Expires.Sub(now)/time.Second))+", immutable")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.Write(data)
}

// imageCache keeps the latest pictures drawn, at most n, dropping the
// oldest first. It is safe for concurrent use.
type imageCache struct {
	mu    sync.Mutex
	n     int
	data  map[string][]byte
	order []string // oldest first
}

func newImageCache(n int) *imageCache {
	return &imageCache{n: n, data: make(map[string][]byte, n)}
}

func (c *imageCache) get(k string) ([]byte, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	d, ok := c.data[k]
	return d, ok
}

func (c *imageCache) put(k string, d []byte) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.data[k]; ok {
		return
	}
	if len(c.order) >= c.n {
		delete(c.data, c.order[0])
		c.order = c.order[1:]
	}
	c.data[k] = d
	c.order = append(c.order, k)
}
