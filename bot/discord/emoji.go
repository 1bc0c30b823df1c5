package discord

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"

	discordgo "github.com/bwmarrin/discordgo"

	"github.com/connect4/connect4/bot"
	"github.com/connect4/connect4/render"
)

// The app's own emoji. `connect4 register` uploads the disc emoji
// (render.Emojis, in both palettes) as application emojis, which render
// the same on every device and work everywhere the app is used, DMs of a
// user install included. Each is named after what it shows and the first
// 6 hex digits of its PNG's SHA-256 ("c4_red_win_1a2b3c"), so that an
// upload is idempotent: an emoji already there under its name is kept, one
// of the same kind under another hash (an older picture) is deleted and
// the new one uploaded, and a second run uploads nothing. The emoji boards
// use them as <:name:id> once the running server knows their ids: serve
// lists the application's emojis at start (LoadEmoji); a palette any of
// whose emoji is missing falls back to the Unicode discs, as does a board
// too long for a message with them.

// emojiHashLen is how many hex digits of the PNG's hash end an emoji's name.
const emojiHashLen = 6

// emojiPalettes are the palettes whose emoji are uploaded.
var emojiPalettes = [...]render.ImagePalette{render.ImageStandard, render.ImageColourBlind}

// emojiImage is one emoji to upload: its kind in a palette, its name with
// the hash, and its PNG.
type emojiImage struct {
	emoji   render.Emoji
	palette render.ImagePalette
	base    string // the name without the hash
	name    string
	png     []byte
}

// emojiImages draws every emoji to upload.
func emojiImages() ([]emojiImage, error) {
	var out []emojiImage
	for _, p := range emojiPalettes {
		for _, e := range render.Emojis() {
			b, err := render.EmojiPNG(e, p)
			if err != nil {
				return nil, fmt.Errorf("discord: draw emoji: %w", err)
			}
			sum := sha256.Sum256(b)
			base := e.Name(p)
			out = append(out, emojiImage{emoji: e, palette: p, base: base,
				name: base + "_" + hex.EncodeToString(sum[:])[:emojiHashLen], png: b})
		}
	}
	return out, nil
}

// baseOf returns name without its hash suffix, and whether it has one.
func baseOf(name string) (string, bool) {
	i := strings.LastIndexByte(name, '_')
	if i < 0 || len(name)-i-1 != emojiHashLen {
		return "", false
	}
	if _, err := hex.DecodeString(name[i+1:]); err != nil {
		return "", false
	}
	return name[:i], true
}

// appEmoji is an application emoji as Discord lists it.
type appEmoji struct {
	ID   string `json:"id"`
	Name string `json:"name"`
}

// EmojiReport is what RegisterEmoji did.
type EmojiReport struct {
	Kept, Uploaded, Replaced int // Replaced counts old pictures deleted
}

// RegisterEmoji uploads the disc emoji as application emojis of appID
// (see the top of this file): it lists them, keeps those already there,
// deletes an older picture of the same emoji and uploads the missing ones;
// the application's other emojis are left alone. The arguments are those
// of RegisterCommands. It returns what it did, with an error naming each
// missing argument, a *RegisterError when Discord refuses a call, or the
// transport's error.
func RegisterEmoji(ctx context.Context, client *http.Client, apiURL, token, appID string) (EmojiReport, error) {
	var rep EmojiReport
	c, err := newRegistrar(client, apiURL, token, appID, "")
	if err != nil {
		return rep, err
	}
	var list struct {
		Items []appEmoji `json:"items"`
	}
	path := "/applications/" + appID + "/emojis"
	if err := c.call(ctx, http.MethodGet, path, nil, &list); err != nil {
		return rep, fmt.Errorf("discord: list emojis: %w", err)
	}
	have := make(map[string]bool, len(list.Items))
	byBase := make(map[string][]appEmoji)
	for _, e := range list.Items {
		have[e.Name] = true
		if base, ok := baseOf(e.Name); ok {
			byBase[base] = append(byBase[base], e)
		}
	}
	imgs, err := emojiImages()
	if err != nil {
		return rep, err
	}
	for _, img := range imgs {
		if have[img.name] {
			rep.Kept++
			continue
		}
		for _, old := range byBase[img.base] {
			if err := c.call(ctx, http.MethodDelete, path+"/"+url.PathEscape(old.ID), nil, nil); err != nil {
				return rep, fmt.Errorf("discord: delete emoji %s: %w", old.Name, err)
			}
			rep.Replaced++
		}
		body := map[string]string{"name": img.name, "image": "data:image/png;base64," + base64.StdEncoding.EncodeToString(img.png)}
		if err := c.call(ctx, http.MethodPost, path, body, nil); err != nil {
			return rep, fmt.Errorf("discord: upload emoji %s: %w", img.name, err)
		}
		rep.Uploaded++
	}
	return rep, nil
}

// emojiPalettesByID returns the palettes of the app's emoji found in
// items: for each palette whose every emoji is there (under its current
// name, else an older one), render.Unicode with the discs as <:name:id>.
func emojiPalettesByID(items []appEmoji, imgs []emojiImage) map[render.ImagePalette]render.Palette {
	exact := make(map[string]appEmoji, len(items))
	older := make(map[string]appEmoji)
	for _, e := range items {
		if e.ID == "" || strings.ContainsAny(e.ID+e.Name, "<>: ") {
			continue
		}
		exact[e.Name] = e
		if base, ok := baseOf(e.Name); ok {
			older[base] = e
		}
	}
	out := make(map[render.ImagePalette]render.Palette)
	complete := make(map[render.ImagePalette]bool)
	for _, p := range emojiPalettes {
		out[p], complete[p] = render.Unicode(), true
	}
	for _, img := range imgs {
		e, ok := exact[img.name]
		if !ok {
			e, ok = older[img.base]
		}
		if !ok {
			complete[img.palette] = false
			continue
		}
		pal := out[img.palette]
		setDisc(&pal, img.emoji, "<:"+e.Name+":"+e.ID+">")
		out[img.palette] = pal
	}
	for p, ok := range complete {
		if !ok {
			delete(out, p)
		}
	}
	return out
}

// setDisc sets the emoji of e in p to s.
func setDisc(p *render.Palette, e render.Emoji, s string) {
	fields := map[bool][5]*string{
		false: {&p.Empty, &p.Red, &p.Yellow, &p.Green, &p.Blue},
		true:  {&p.Empty, &p.RedWin, &p.YellowWin, &p.GreenWin, &p.BlueWin},
	}
	if i := int(e.Disc); i >= 0 && i < 5 {
		*fields[e.Win][i] = s
	}
}

// LoadEmoji lists the application's emojis with the bot token and, for
// each palette whose disc emoji were all uploaded (see RegisterEmoji),
// draws the emoji boards with them from then on. It needs
// Config.ApplicationID and Config.BotToken. On error the boards keep the
// Unicode discs. It returns how many palettes it found. Call it once at
// start, before serving.
func (a *Adapter) LoadEmoji(ctx context.Context) (int, error) {
	if a.cfg.ApplicationID == "" || a.cfg.BotToken == "" {
		return 0, errors.New("discord: the app's emoji need DISCORD_APPLICATION_ID and DISCORD_BOT_TOKEN")
	}
	uri := discordgo.EndpointApplicationEmojis(a.cfg.ApplicationID)
	body, err := a.rest.RequestWithBucketID(http.MethodGet, uri, nil, uri, discordgo.WithContext(ctx))
	if err != nil {
		return 0, fmt.Errorf("discord: list emojis: %w", err)
	}
	var list struct {
		Items []appEmoji `json:"items"`
	}
	if err := json.Unmarshal(body, &list); err != nil {
		return 0, fmt.Errorf("discord: list emojis: %w", err)
	}
	imgs, err := emojiImages()
	if err != nil {
		return 0, err
	}
	pals := make(map[render.ImagePalette][]render.Palette)
	for ip, p := range emojiPalettesByID(list.Items, imgs) {
		pals[ip] = []render.Palette{p, render.Unicode()}
	}
	a.emoji.Store(&pals)
	return len(pals), nil
}

// unicodeOnly is the palettes of a board without the app's emoji. Like
// the lists of the app's emoji, it is made once and only read: a list made
// on every reply cost an allocation of 350 bytes.
var unicodeOnly = []render.Palette{render.Unicode()}

// palettes are the palettes to draw r's emoji board in, best first: the
// app's own emoji in r's palette when known, then Unicode. Callers must
// not change the list.
func (a *Adapter) palettes(r bot.Reply) []render.Palette {
	if m := a.emoji.Load(); m != nil {
		if ps, ok := (*m)[r.ImagePalette()]; ok {
			return ps
		}
	}
	return unicodeOnly
}

// registrar makes the REST calls of `connect4 register` with the bot token.
type registrar struct {
	client *http.Client
	root   string // the versioned REST root
	auth   string
}

// newRegistrar checks the arguments of RegisterCommands and RegisterEmoji
// and returns an error naming each bad one.
func newRegistrar(client *http.Client, apiURL, token, appID, guildID string) (*registrar, error) {
	var errs []error
	if token == "" {
		errs = append(errs, errors.New("discord: DISCORD_BOT_TOKEN is not set"))
	}
	if appID == "" {
		errs = append(errs, errors.New("discord: DISCORD_APPLICATION_ID is not set"))
	}
	for _, id := range []struct{ name, val string }{{"DISCORD_APPLICATION_ID", appID}, {"DISCORD_GUILD_ID", guildID}} {
		if strings.ContainsAny(id.val, "/?#% ") {
			errs = append(errs, fmt.Errorf("discord: %s %q is not a Discord id (digits)", id.name, id.val))
		}
	}
	if apiURL == "" {
		apiURL = defaultAPIURL
	}
	base, err := url.Parse(apiURL)
	if err != nil || (base.Scheme != "http" && base.Scheme != "https") || base.Host == "" {
		errs = append(errs, fmt.Errorf("discord: DISCORD_API_URL %q: want an absolute http or https URL", apiURL))
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	if client == nil {
		client = &http.Client{Timeout: restTimeout}
	}
	return &registrar{client: client, root: apiRoot(base), auth: "Bot " + strings.TrimPrefix(token, "Bot ")}, nil
}

// call sends body (nil: none) as JSON to method path and decodes the
// answer into out (nil: ignored). A refusal is a *RegisterError.
func (c *registrar) call(ctx context.Context, method, path string, body, out any) error {
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return fmt.Errorf("encode: %w", err)
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, c.root+path, rd)
	if err != nil {
		return err
	}
	req.Header.Set("Authorization", c.auth)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := c.client.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if resp.StatusCode/100 != 2 {
		re := &RegisterError{StatusCode: resp.StatusCode, Message: http.StatusText(resp.StatusCode)}
		var msg struct {
			Code    int    `json:"code"`
			Message string `json:"message"`
		}
		if json.Unmarshal(raw, &msg) == nil && msg.Message != "" {
			re.Code, re.Message = msg.Code, msg.Message
		}
		return re
	}
	if out != nil {
		if err := json.Unmarshal(raw, out); err != nil {
			return fmt.Errorf("decode: %w", err)
		}
	}
	return nil
}
