package slack

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	slackapi "github.com/slack-go/slack"

	"github.com/connect4/connect4/bot"
	"github.com/connect4/connect4/bot/internal/boardurl"
	"github.com/connect4/connect4/bot/internal/clip"
	"github.com/connect4/connect4/bot/internal/gallery"
	"github.com/connect4/connect4/bot/lang"
	"github.com/connect4/connect4/bot/match"
	"github.com/connect4/connect4/render"
)

// Boards as pictures: an image block in place of the emoji board, either
// a file the bot uploaded (files:write; referenced as slack_file, which
// works in Socket Mode) or, with Config.PublicURL, a picture the bot
// serves itself from a signed, expiring URL. Without either, or when the
// upload fails or is too slow, the emoji board as before.

// Budgets of the uploads.
const (
	// uploadBudget bounds the three calls of one board upload. The reply
	// is posted to the response_url in the background (the click or
	// command was acknowledged at once), so this only delays it.
	uploadBudget = 1500 * time.Millisecond
	// replayBudget bounds posting the replay in the game's thread, after
	// the reply.
	replayBudget = 10 * time.Second
	// scopeRetry is how long uploads stay off after Slack refused one
	// for the token's scopes (files:write missing).
	scopeRetry = 10 * time.Minute
	// DefaultImageTTL is how long a signed picture URL is served.
	DefaultImageTTL = 7 * 24 * time.Hour
)

// Block Kit limits of an image block.
const (
	maxAltText  = 2000
	maxImageURL = 3000
)

// fileAPI is the part of the Web API client that uploads files and posts
// the replay.
type fileAPI interface {
	GetUploadURLExternalContext(ctx context.Context, params slackapi.GetUploadURLExternalParameters) (*slackapi.GetUploadURLExternalResponse, error)
	UploadToURL(ctx context.Context, params slackapi.UploadToURLParameters) error
	CompleteUploadExternalContext(ctx context.Context, params slackapi.CompleteUploadExternalParameters) (*slackapi.CompleteUploadExternalResponse, error)
	PostMessageContext(ctx context.Context, channelID string, options ...slackapi.MsgOption) (string, string, error)
}

var _ fileAPI = (*slackapi.Client)(nil)

// pictures is the adapter's picture state.
type pictures struct {
	files     fileAPI          // nil: no uploads (no bot token, or Config.Pictures off)
	poster    fileAPI          // the bot token's client, for the replay with public URLs; may be nil
	signer    *boardurl.Signer // nil: no public URL
	publicURL string           // with a trailing slash
	gallery   *gallery.Gallery // the pictures served, by game, move, palette and kind
	noUpload  atomic.Int64     // unix nanoseconds until which uploads stay off
	off       offChannels      // channels where Slack refused a picture, for scopeRetry
	now       func() time.Time // time.Now; tests move it
	ttl       time.Duration    // of a signed URL
	painter   *render.Painter  // draws the pictures, keeping what it drew
}

// pictured reports whether r is shown with a picture of its board in k:
// r shows a board to the channel, the channel has not chosen emoji, Slack
// has not refused a picture there lately, and the adapter has a way to
// show one.
func (a *Adapter) pictured(k match.Key, r bot.Reply) bool {
	if !r.Picture() || (r.Visibility != bot.Public && r.Visibility != bot.Update) ||
		a.pics.off.has(k, a.pics.now()) {
		return false
	}
	return (a.pics.signer != nil && r.GameID != "") || a.uploading()
}

// uploading reports whether uploads are on now.
func (a *Adapter) uploading() bool {
	return a.pics.files != nil && a.pics.now().UnixNano() >= a.pics.noUpload.Load()
}

// picture replaces the emoji board of msg, r's message, by an image block
// within ctx: a signed URL when the adapter serves pictures, else an
// upload. It reports whether it did; when it did not msg keeps its emoji
// board (an upload failure is logged at Warn).
func (a *Adapter) picture(ctx context.Context, k match.Key, r bot.Reply, msg *slackapi.WebhookMessage) bool {
	if !a.pictured(k, r) {
		return false
	}
	alt := clip.Runes(r.AltText(), maxAltText)
	var img *slackapi.ImageBlock
	if a.pics.signer != nil && r.GameID != "" {
		u := a.boardURL(k, r, boardurl.PNG)
		if len(u) > maxImageURL {
			return false
		}
		img = slackapi.NewImageBlock(u, alt, "c4_board", nil)
	} else {
		var png bytes.Buffer
		if err := a.pics.painter.PNG(&png, r.Game, r.ImageOptions()); err != nil {
			a.log.Error("render board", "err", err)
			return false
		}
		id, err := a.upload(ctx, "board.png", png.Bytes(), alt, slackapi.CompleteUploadExternalParameters{})
		if err != nil {
			a.log.Warn("slack board upload failed; showing the emoji board", "err", err)
			return false
		}
		img = slackapi.NewImageBlockSlackFile(&slackapi.SlackFileObject{ID: id}, alt, "c4_board", nil)
	}
	m := r.Format(render.Slack())
	m.Status = r.FlagStatus(m.Status, slackTime)
	if r.Visibility == bot.Public {
		m.Header, m.Status = r.QuietMentions(m.Header), r.QuietMentions(m.Status)
	}
	m.Board = ""
	bs := blocks(m, r.Buttons)
	at := 0
	if strings.TrimSpace(m.Header) != "" {
		at = 1 // after the announcement
	}
	bs = append(bs[:at], append([]slackapi.Block{img}, bs[at:]...)...)
	msg.Blocks = &slackapi.Blocks{BlockSet: bs}
	return true
}

// boardURL is the signed URL of the picture of kind of r's game in k.
func (a *Adapter) boardURL(k match.Key, r bot.Reply, kind string) string {
	tok := a.pics.signer.Token(boardurl.Board{Key: k, GameID: r.GameID, Move: r.Game.Moves(),
		Palette: r.Look.Palette, Kind: kind, Game: boardurl.Fingerprint(r.Game), Expires: a.pics.now().Add(a.pics.ttl)})
	return a.pics.publicURL + "boards/" + tok
}

// upload puts data in a file named name with alt text through the
// two-step upload (files.getUploadURLExternal, a POST of the bytes to the
// URL it returns, files.completeUploadExternal with done's channel and
// thread, if any) and returns the file's id. A refusal for the token's
// scopes turns uploads off for scopeRetry.
func (a *Adapter) upload(ctx context.Context, name string, data []byte, alt string, done slackapi.CompleteUploadExternalParameters) (string, error) {
	f := a.pics.files
	if f == nil {
		return "", errors.New("slack: no uploads")
	}
	up, err := f.GetUploadURLExternalContext(ctx, slackapi.GetUploadURLExternalParameters{FileName: name, FileSize: len(data), AltTxt: alt})
	if err == nil && (up.UploadURL == "" || up.FileID == "") {
		err = errors.New("no upload_url or file_id in the answer")
	}
	if err != nil {
		a.scopeRefused(err)
		return "", fmt.Errorf("files.getUploadURLExternal: %w", quiet(err))
	}
	if err := f.UploadToURL(ctx, slackapi.UploadToURLParameters{UploadURL: up.UploadURL, Reader: bytes.NewReader(data), Filename: name}); err != nil {
		return "", fmt.Errorf("upload to url: %w", quiet(err))
	}
	done.Files = []slackapi.FileSummary{{ID: up.FileID, Title: name}}
	if _, err := f.CompleteUploadExternalContext(ctx, done); err != nil {
		a.scopeRefused(err)
		return "", fmt.Errorf("files.completeUploadExternal: %w", quiet(err))
	}
	return up.FileID, nil
}

// scopeRefused turns uploads off for a while when err says the token may
// not upload.
func (a *Adapter) scopeRefused(err error) {
	var se slackapi.SlackErrorResponse
	if errors.As(err, &se) && (se.Err == "missing_scope" || se.Err == "not_allowed_token_type" || se.Err == "no_permission") {
		a.pics.noUpload.Store(a.pics.now().Add(scopeRetry).UnixNano())
		a.log.Warn("slack refused a file upload for the token's scopes (add files:write and reinstall); boards stay emoji for a while", "err", se.Err)
	}
}

// quiet strips the URL (a credential for uploads) from a client error.
func quiet(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		return ue.Err
	}
	return err
}

// pictureRefused reports whether err, the error of posting a message with
// a picture in k, is Slack's answer that it did not post it (a refused
// message: the emoji board may go instead, and pictures stay off in k's
// channel for scopeRetry). Any other error (a timeout: the message may
// have been posted) is logged and reported false, so that the reply is
// not posted a second time.
func (a *Adapter) pictureRefused(k match.Key, err error) bool {
	if !refusedByAPI(err) {
		a.log.Error("slack: posting a reply with its picture failed, and it may have been posted: not posting it again",
			"channel", k.Channel, "err", err)
		return false
	}
	now := a.pics.now()
	a.pics.off.add(k, now, now.Add(scopeRetry))
	a.log.Warn("slack refused the board picture; emoji boards in this channel for a while", "channel", k.Channel, "err", err)
	return true
}

// refusedByAPI reports whether err is Slack's answer that it refused a
// call (an error in the answer, or an HTTP status below 500), as opposed
// to no answer (a timeout, a lost connection) or a server error, after
// which the call may have done its work.
func refusedByAPI(err error) bool {
	var se slackapi.SlackErrorResponse
	var sc slackapi.StatusCodeError
	var rl *slackapi.RateLimitedError
	return errors.As(err, &se) || (errors.As(err, &sc) && sc.Code < 500) || errors.As(err, &rl)
}

// deliver sends reply to responseURL within ctx, the work context, laid
// out by message and then shape (its response type, replace_original):
// with a picture of the board when it has one (uploadBudget for the
// upload), and when Slack answers that it refused that message (it could
// not use the picture) the same message with the emoji board, pictures
// then staying off in k's channel for scopeRetry; a post that got no
// answer is not sent again. After the reply, the replay of a game it ended, in
// thread (the game message's ts, or "" when not known). It returns the
// error of the last post.
func (a *Adapter) deliver(ctx context.Context, k match.Key, reply bot.Reply, responseURL, thread string, shape func(*slackapi.WebhookMessage)) error {
	msg := message(reply)
	shape(msg)
	if a.pictured(k, reply) {
		pic := *msg
		uctx, cancel := context.WithTimeout(ctx, uploadBudget)
		ok := a.picture(uctx, k, reply, &pic)
		cancel()
		if ok {
			err := a.send(ctx, responseURL, &pic)
			if err == nil {
				a.replay(ctx, k, reply, thread)
				return nil
			}
			if !a.pictureRefused(k, err) {
				return err
			}
		}
	}
	if err := a.post(ctx, responseURL, msg); err != nil {
		return err
	}
	a.replay(ctx, k, reply, thread)
	return nil
}

// replay posts the replay GIF of r's finished game in channel k, in the
// thread of the game's message (thread "" for a message whose ts the
// adapter does not know: then in the channel), with the result, pinging
// nobody: uploaded when the adapter uploads, else as a picture at a signed
// URL posted with the bot token. Failures are logged; the game's message
// already says how it ended.
func (a *Adapter) replay(ctx context.Context, k match.Key, r bot.Reply, thread string) {
	if !r.Finished || !a.pictured(k, r) {
		return
	}
	ctx, cancel := context.WithTimeout(ctx, replayBudget)
	defer cancel()
	text := clip.Runes(r.Lang.Say("onSlack.replayText", lang.Args{"Text": bot.PlainMentions(r.Text, append(r.Players(), r.People...)...)}), maxText)
	alt := clip.Runes(r.Lang.Say("onSlack.replayAlt", lang.Args{"Alt": r.AltText()}), maxAltText)
	var err error
	switch {
	case a.uploading():
		var gif []byte
		if gif, err = a.pics.painter.AppendGIF(nil, r.Game, r.ImageOptions()); err != nil {
			break
		}
		_, err = a.upload(ctx, "replay.gif", gif, alt, slackapi.CompleteUploadExternalParameters{
			Channel: k.Channel, ThreadTimestamp: thread, InitialComment: text})
	case a.pics.signer != nil && a.pics.poster != nil && r.GameID != "":
		opts := []slackapi.MsgOption{slackapi.MsgOptionText(text, false), slackapi.MsgOptionBlocks(
			slackapi.NewSectionBlock(mrkdwn(text), nil, nil),
			slackapi.NewImageBlock(a.boardURL(k, r, boardurl.GIF), alt, "c4_replay", nil))}
		if thread != "" {
			opts = append(opts, slackapi.MsgOptionTS(thread))
		}
		_, _, err = a.pics.poster.PostMessageContext(ctx, k.Channel, opts...)
	default:
		return
	}
	if err != nil {
		a.log.Warn("slack replay not posted", "channel", k.Channel, "err", quiet(err))
	}
}

// offChannelsMax bounds how many channels offChannels remembers.
const offChannelsMax = 1024

// offChannels is the set of channels where pictures are off until a time.
// It holds at most offChannelsMax channels (when full, the ones whose time
// has passed go, then the one that is soonest back on). The zero value is
// empty; it is safe for concurrent use.
type offChannels struct {
	mu    sync.Mutex
	until map[match.Key]time.Time
}

// add turns pictures off in k from now until until.
func (o *offChannels) add(k match.Key, now, until time.Time) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.until == nil {
		o.until = make(map[match.Key]time.Time)
	}
	if _, ok := o.until[k]; !ok && len(o.until) >= offChannelsMax {
		var soonest match.Key
		for c, t := range o.until {
			if !now.Before(t) {
				delete(o.until, c)
			} else if s, ok := o.until[soonest]; !ok || t.Before(s) {
				soonest = c
			}
		}
		if len(o.until) >= offChannelsMax {
			delete(o.until, soonest)
		}
	}
	o.until[k] = until
}

// has reports whether pictures are off in k at now.
func (o *offChannels) has(k match.Key, now time.Time) bool {
	o.mu.Lock()
	defer o.mu.Unlock()
	t, ok := o.until[k]
	return ok && now.Before(t)
}

// clear turns pictures back on everywhere.
func (o *offChannels) clear() {
	o.mu.Lock()
	defer o.mu.Unlock()
	clear(o.until)
}
