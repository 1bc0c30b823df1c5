package discord

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	discordgo "github.com/bwmarrin/discordgo"

	"github.com/connect4/connect4/bot"
	"github.com/connect4/connect4/bot/internal/clip"
	"github.com/connect4/connect4/bot/lang"
	"github.com/connect4/connect4/render"
)

// Pictures of boards: a Components V2 message (flag 1 << 15) holding a
// container with the announcement, the board's PNG in a media gallery
// (attachment://board.png) and the status, with the column buttons below.
// A picture is a file upload, a multipart body (payload_json and
// files[0]): a click whose reply is ready within pictureBudget is answered
// with it in place (type 7), as the HTTP answer or the Gateway's
// interaction callback; any other reply with a picture is a deferral, and
// the message is then edited with the multipart body through the
// interaction webhook.

// The names of the uploaded files.
const (
	boardFile  = "board.png"
	replayFile = "replay.gif"
)

// Limits of a Components V2 message and of its media.
const (
	maxV2Text      = 4000 // characters of all text displays together
	maxDescription = 1024 // characters of a media item's or attachment's description
)

// Budgets of the picture's REST calls, inside deliverBudget.
const (
	// uploadBudget bounds the edit that uploads the picture; what is left
	// of deliverBudget goes to the emoji edit that replaces it when it
	// fails.
	uploadBudget = 1500 * time.Millisecond
	// replayBudget bounds the follow-up with the replay GIF, sent after
	// the game's message is up to date (the interaction has long been
	// answered).
	replayBudget = 5 * time.Second
)

// pictured reports whether r is to be shown with a picture of its board:
// the adapter posts pictures, the channel has not chosen emoji, and r goes
// to the channel.
func (a *Adapter) pictured(r bot.Reply) bool {
	return a.cfg.Pictures && r.Picture() && (r.Visibility == bot.Update || r.Visibility == bot.Public)
}

// deferred is the deferral that lets a reply be delivered later with its
// picture: type 6 for a click (the clicked message is then edited, or a
// new message sent as a follow-up), type 5 for a command (its "thinking"
// message is then edited), as answer's own deferral.
func deferred(fromButton bool) *discordgo.InteractionResponse {
	if fromButton {
		return &discordgo.InteractionResponse{Type: discordgo.InteractionResponseDeferredMessageUpdate}
	}
	return &discordgo.InteractionResponse{Type: discordgo.InteractionResponseDeferredChannelMessageWithSource}
}

// v2Message is the JSON of a Components V2 message sent to the
// interaction webhook: as payload_json of a multipart body with the
// attachments it names, or alone. Content and Embeds always go out as
// null: a message upgraded to Components V2 by an edit (a challenge
// accepted, a deferred "thinking" message) must have them cleared.
type v2Message struct {
	Content         *string                           `json:"content"`
	Embeds          []*discordgo.MessageEmbed         `json:"embeds"`
	Flags           discordgo.MessageFlags            `json:"flags"`
	Components      []discordgo.MessageComponent      `json:"components"`
	Attachments     []v2Attachment                    `json:"attachments"`
	AllowedMentions *discordgo.MessageAllowedMentions `json:"allowed_mentions,omitempty"`
}

// v2Attachment names files[ID] of the multipart body. Listing only the
// new file drops the previous picture from an edited message.
type v2Attachment struct {
	ID          int    `json:"id"`
	Filename    string `json:"filename"`
	Description string `json:"description,omitempty"`
}

// v2Layout is r laid out as a Components V2 message: a container with the
// announcement, the picture (when withPicture: attachment://board.png,
// described by alt) or else the emoji board, and the status; the buttons
// in rows below it.
//
// The board is drawn in the first of ps that fits (see layoutIn).
func v2Layout(r bot.Reply, withPicture bool, alt string, ps ...render.Palette) []discordgo.MessageComponent {
	m, _, _ := fit(r, maxV2Text, ps)
	var inner []discordgo.MessageComponent
	budget := maxV2Text
	text := func(s string) {
		s = strings.TrimSpace(s)
		if s == "" || budget <= 0 {
			return
		}
		s = clip.Runes(s, budget)
		budget -= len([]rune(s))
		inner = append(inner, discordgo.TextDisplay{Content: s})
	}
	text(m.Header)
	if withPicture {
		d := clip.Runes(alt, maxDescription)
		inner = append(inner, discordgo.MediaGallery{Items: []discordgo.MediaGalleryItem{
			{Media: discordgo.UnfurledMediaItem{URL: "attachment://" + boardFile}, Description: &d}}})
	} else if r.Game != nil {
		text(m.Board)
	}
	text(m.Status)
	comps := []discordgo.MessageComponent{discordgo.Container{Components: inner}}
	return append(comps, components(r.Buttons)...)
}

// v2Response is the initial response showing r as a Components V2
// message without a picture: for a click on a message that is already
// one (the flag cannot be removed) when r shows emoji.
func v2Response(r bot.Reply, ps ...render.Palette) *discordgo.InteractionResponse {
	return &discordgo.InteractionResponse{Type: discordgo.InteractionResponseUpdateMessage,
		Data: &discordgo.InteractionResponseData{Flags: discordgo.MessageFlagsIsComponentsV2,
			Components: v2Layout(r, false, "", ps...), AllowedMentions: allowed(r)}}
}

// deliverPicture sends r, deferred, with its picture: it edits the
// original message (or, for a new message from a click, sends a follow-up)
// with the PNG within uploadBudget; when that fails it sends the same
// message with the emoji board instead, so that the game goes on. It
// returns the error of the emoji message, or nil; an upload failure alone
// is logged at Warn.
func (a *Adapter) deliverPicture(ctx context.Context, s restAPI, in *discordgo.Interaction, r bot.Reply, fromButton bool) error {
	followUp := r.Visibility == bot.Public && fromButton
	ct, body, err := multipartBody(a.pictureMessage(r), a.boardUpload(r))
	if err == nil {
		uctx, cancel := context.WithTimeout(ctx, uploadBudget)
		err = retry404(uctx, func(ctx context.Context) error { return sendBody(ctx, s, in, followUp, ct, body) })
		cancel()
		if err == nil {
			return nil
		}
	}
	a.log.Warn("board picture not delivered; sending the emoji board", "channel", in.ChannelID, "err", err)
	emoji := v2Message{Flags: discordgo.MessageFlagsIsComponentsV2, Components: v2Layout(r, false, "", a.palettes(r)...),
		Attachments: []v2Attachment{}, AllowedMentions: allowed(r)}
	return retry404(ctx, func(ctx context.Context) error { return sendJSON(ctx, s, in, followUp, emoji) })
}

// postReplay sends the replay of r's finished game as a GIF in a follow-up
// message with the result, pinging nobody. Failures are logged: the game's
// message already shows the result.
func (a *Adapter) postReplay(ctx context.Context, s restAPI, in *discordgo.Interaction, r bot.Reply) {
	ctx, cancel := context.WithTimeout(ctx, replayBudget)
	defer cancel()
	desc := r.Lang.Say("onDiscord.replayAlt", lang.Args{"Alt": r.AltText()})
	text := clip.Runes(r.Lang.Say("onDiscord.replayText", lang.Args{"Text": strings.TrimSpace(r.Text)}), maxV2Text)
	msg := v2Message{Flags: discordgo.MessageFlagsIsComponentsV2,
		Components: []discordgo.MessageComponent{discordgo.Container{Components: []discordgo.MessageComponent{
			discordgo.TextDisplay{Content: text},
			discordgo.MediaGallery{Items: []discordgo.MediaGalleryItem{{
				Media: discordgo.UnfurledMediaItem{URL: "attachment://" + replayFile}, Description: ptr(clip.Runes(desc, maxDescription))}}},
		}}},
		Attachments:     []v2Attachment{{ID: 0, Filename: replayFile, Description: clip.Runes(desc, maxDescription)}},
		AllowedMentions: &discordgo.MessageAllowedMentions{Parse: []discordgo.AllowedMentionType{}}}
	// The GIF is drawn straight into the body.
	var drawErr error
	ct, body, err := multipartBody(msg, upload{name: replayFile, contentType: "image/gif", size: render.GIFSize(r.Game),
		appendTo: func(b []byte) ([]byte, error) {
			b, drawErr = a.painter.AppendGIF(b, r.Game, r.ImageOptions())
			return b, drawErr
		}})
	if drawErr != nil {
		a.log.Error("render replay", "channel", in.ChannelID, "err", drawErr)
		return
	}
	if err == nil {
		err = sendBody(ctx, s, in, true, ct, body)
	}
	if err != nil {
		a.log.Warn("replay not posted", "channel", in.ChannelID, "err", err)
	}
}

func ptr[T any](v T) *T { return &v }

// sendJSON sends msg alone, as JSON, to the interaction webhook: see
// sendBody.
func sendJSON(ctx context.Context, s restAPI, in *discordgo.Interaction, followUp bool, msg v2Message) error {
	body, err := appendV2Message(nil, msg)
	if err != nil {
		return fmt.Errorf("message body: %w", err)
	}
	return sendBody(ctx, s, in, followUp, "application/json", body)
}

// sendBody sends body, a message of Content-Type ct, to the interaction
// webhook: PATCH of the original message, or with followUp a POST of a new
// message.
func sendBody(ctx context.Context, s restAPI, in *discordgo.Interaction, followUp bool, ct string, body []byte) error {
	method, uri := "PATCH", discordgo.EndpointWebhookMessage(in.AppID, in.Token, "@original")
	bucket := discordgo.EndpointWebhookToken("", "")
	if followUp {
		method, uri = "POST", discordgo.EndpointWebhookToken(in.AppID, in.Token)
		bucket = uri
	}
	if _, err := s.RequestRaw(method, uri, ct, body, bucket, 0, discordgo.WithContext(ctx)); err != nil {
		return fmt.Errorf("%s interaction message: %w", strings.ToLower(method), err)
	}
	return nil
}

// retry404 runs call, and once more after unknownRetry when Discord
// answers 404 (the edit overtook the deferral it follows).
func retry404(ctx context.Context, call func(ctx context.Context) error) error {
	err := call(ctx)
	var re *discordgo.RESTError
	if !errors.As(err, &re) || re.Response == nil || re.Response.StatusCode != 404 {
		return err
	}
	select {
	case <-time.After(unknownRetry):
	case <-ctx.Done():
		return err
	}
	return call(ctx)
}

// respond is the initial response to in carrying r, and for a reply shown
// with a picture what follows the response: the delivery after a
// deferral, or the replay of a game the response finished. A click that
// updates its message, with its reply ready in time (onTime: within
// pictureBudget of the click), is answered in place with the picture in
// the response; any other picture is deferred and uploaded.
func (a *Adapter) respond(s restAPI, in *interaction, r bot.Reply, fromButton, onTime bool) (initial, laterFunc) {
	switch {
	case a.pictured(r):
		// The functions returned keep a copy of r of their own, made here:
		// captured as the parameter, r went to the heap (400 bytes) on
		// every reply, pictures or not.
		r := r
		if fromButton && onTime && r.Visibility == bot.Update {
			resp, err := a.pictureResponse(r)
			if err == nil {
				return resp, a.replayAfter(s, in, r)
			}
			a.log.Warn("board picture not drawn into the response; deferring", "channel", in.ChannelID, "err", err)
		}
		return initial{resp: deferred(fromButton)}, func(ctx context.Context, send bool) bot.Outcome {
			if !send {
				return bot.OutcomeError
			}
			return a.deliverLate(ctx, s, in, r, fromButton)
		}
	case fromButton && r.Visibility == bot.Update && in.v2():
		return initial{resp: v2Response(r, a.palettes(r)...)}, nil
	}
	return initial{direct: true, reply: replyResponse{r: r, fromButton: fromButton, ps: a.palettes(r)}}, nil
}

// initial is an initial interaction response: resp; or when direct is
// set, the response to reply (see replyResponse); or when body is set the
// response already written, a multipart body (payload_json and files[0])
// of Content-Type contentType carrying a picture.
type initial struct {
	resp        *discordgo.InteractionResponse
	direct      bool
	reply       replyResponse
	contentType string
	body        []byte
}

// response is the response in discordgo's form, nil when body is set.
func (i *initial) response() *discordgo.InteractionResponse {
	if i.direct {
		return i.reply.response()
	}
	return i.resp
}

// encode returns the Content-Type and the body of the response: body as
// it is, or the response's JSON appended to buf; pooled reports which.
func (i initial) encode(buf []byte) (ct string, body []byte, pooled bool, err error) {
	if i.body != nil {
		return i.contentType, i.body, false, nil
	}
	if i.direct {
		if b, ok := appendReply(buf, &i.reply); ok {
			return "application/json", b, true, nil
		}
	}
	b, err := appendResponse(buf, i.response())
	return "application/json", b, true, err
}

// maxInPlaceBody is the largest multipart response answered in place.
// Discord refuses larger HTTP answers with "This interaction failed"
// (reported between 150 and 160 KB, discord-api-docs #5250, #5925) though
// its callback endpoint takes them: a board's PNG is 5-45 KB (10 × 10 at the largest cells: 44 KB), so only an
// outsized one is deferred and uploaded instead.
const maxInPlaceBody = 128 << 10

// pictureResponse is the update in place (type 7) showing r with its
// picture: the Components V2 message of deliverPicture, in the multipart
// body of the response itself, the PNG drawn straight into it. It returns
// the error of the drawing.
func (a *Adapter) pictureResponse(r bot.Reply) (initial, error) {
	ct, body, err := responseBody(discordgo.InteractionResponseUpdateMessage, a.pictureMessage(r), a.boardUpload(r))
	if err != nil {
		return initial{}, err
	}
	if len(body) > maxInPlaceBody {
		return initial{}, fmt.Errorf("a response of %d bytes, over the %d answered in place", len(body), maxInPlaceBody)
	}
	return initial{resp: &discordgo.InteractionResponse{Type: discordgo.InteractionResponseUpdateMessage},
		contentType: ct, body: body}, nil
}

// replayAfter is, for a reply that finished its game, the posting of the
// replay once the response that showed the last move has been sent; nil
// otherwise.
func (a *Adapter) replayAfter(s restAPI, in *interaction, r bot.Reply) laterFunc {
	if !r.Finished {
		return nil
	}
	return func(ctx context.Context, send bool) bot.Outcome {
		if !send {
			return bot.OutcomeError
		}
		a.postReplay(ctx, s, in.ref(), r)
		return r.Outcome()
	}
}

// pictureMessage is r as a Components V2 message showing its board as
// the picture attached as files[0].
func (a *Adapter) pictureMessage(r bot.Reply) v2Message {
	alt := r.AltText()
	return v2Message{Flags: discordgo.MessageFlagsIsComponentsV2, Components: v2Layout(r, true, alt, a.palettes(r)...),
		Attachments:     []v2Attachment{{ID: 0, Filename: boardFile, Description: clip.Runes(alt, maxDescription)}},
		AllowedMentions: allowed(r)}
}

// boardUpload is r's board as a PNG file, drawn by the adapter's painter
// straight into the body that carries it.
func (a *Adapter) boardUpload(r bot.Reply) upload {
	return upload{name: boardFile, contentType: "image/png", size: pngSize,
		appendTo: func(b []byte) ([]byte, error) { return a.painter.AppendPNG(b, r.Game, r.ImageOptions()) }}
}

// deliverLate sends r after a deferral within deliverBudget of ctx, the
// work context: with its picture when it has one (then, for the move that
// ended the game, the replay), as a Components V2 message when it edits
// one, else as before. It returns the interaction's outcome.
func (a *Adapter) deliverLate(ctx context.Context, s restAPI, in *interaction, r bot.Reply, fromButton bool) bot.Outcome {
	dctx, cancel := context.WithTimeout(ctx, deliverBudget)
	defer cancel()
	var err error
	switch {
	case a.pictured(r):
		err = a.deliverPicture(dctx, s, in.ref(), r, fromButton)
	case fromButton && r.Visibility == bot.Update && in.v2():
		msg := v2Message{Flags: discordgo.MessageFlagsIsComponentsV2, Components: v2Layout(r, false, "", a.palettes(r)...),
			Attachments: []v2Attachment{}, AllowedMentions: allowed(r)}
		err = retry404(dctx, func(ctx context.Context) error { return sendJSON(ctx, s, in.ref(), false, msg) })
	default:
		err = deliver(dctx, s, in.ref(), r, fromButton, a.palettes(r)...)
	}
	if err != nil {
		a.log.Error("deliver deferred reply", "channel", in.ChannelID, "err", err)
		return bot.OutcomeError
	}
	if r.Finished && a.pictured(r) {
		a.postReplay(ctx, s, in.ref(), r)
	}
	return r.Outcome()
}

// v2 reports whether in is a click on a Components V2 message.
func (in *interaction) v2() bool {
	return in.Message != nil && in.Message.Flags&discordgo.MessageFlagsIsComponentsV2 != 0
}
