package slack

import (
	"context"
	"errors"
	"net/http"
	"strconv"
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

// The bounds of the pictures served: the bytes kept drawn, how many are
// drawn at once and how many more draws may wait (beyond them: 503).
const (
	galleryBytes = 32 << 20
	galleryQueue = 8
)

// errNoPicture is a token whose game is gone or has moved on.
var errNoPicture = errors.New("slack: no such picture")

// serveBoard answers GET /boards/<token>: 404 for a token the bot did not
// sign (or altered, or naming a game that is no longer stored or no longer
// as the token's fingerprint says), 410 for one past its expiry, 503 when
// the store cannot say or too many pictures are being drawn; else the
// picture, drawn from the stored game once however many ask for it at
// once, and kept in a cache bounded in bytes.
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
	ctx, cancel := context.WithTimeout(r.Context(), boardBudget)
	defer cancel()
	data, err := a.pics.gallery.Get(ctx, b.CacheKey(), func(ctx context.Context) ([]byte, error) { return a.drawBoard(ctx, b) })
	switch {
	case errors.Is(err, errNoPicture):
		http.Error(w, "no such picture", http.StatusNotFound)
		return
	case errors.Is(err, errDraw):
		http.Error(w, "cannot draw the picture", http.StatusInternalServerError)
		return
	case err != nil:
		w.Header().Set("Retry-After", "1")
		http.Error(w, "try again", http.StatusServiceUnavailable)
		return
	}
	w.Header().Set("Content-Type", "image/"+b.Kind)
	w.Header().Set("Content-Length", strconv.Itoa(len(data)))
	w.Header().Set("Cache-Control", "public, max-age="+strconv.Itoa(int(b.Expires.Sub(now)/time.Second))+", immutable")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.Write(data)
}

// errDraw is a picture the renderer could not draw.
var errDraw = errors.New("slack: cannot draw the picture")

// drawBoard loads the game b names and draws its picture: errNoPicture
// when the game is gone or has moved on, errDraw when it cannot be drawn,
// or the store's error.
func (a *Adapter) drawBoard(ctx context.Context, b boardurl.Board) ([]byte, error) {
	g, err := a.svc.GameAt(ctx, b.Key, b.GameID, b.Move)
	if err == nil && boardurl.Fingerprint(g) != b.Game {
		err = match.ErrNoGame // the record has moved on: a takeback, another round
	}
	switch {
	case errors.Is(err, match.ErrNoGame):
		return nil, errNoPicture
	case err != nil:
		a.log.Warn("slack board picture: store failed", "err", err)
		return nil, err
	}
	opt := render.ImageOptions{Palette: render.ImageStandard}
	if b.Palette == match.PaletteColourBlind {
		opt.Palette = render.ImageColourBlind
	}
	var pic []byte
	if b.Kind == boardurl.GIF {
		pic, err = a.pics.painter.AppendGIF(nil, g, opt)
	} else {
		pic, err = a.pics.painter.AppendPNG(nil, g, opt)
	}
	if err != nil {
		a.log.Error("slack board picture: render", "err", err)
		return nil, errDraw
	}
	return pic, nil
}
