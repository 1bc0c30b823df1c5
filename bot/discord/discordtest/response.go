package discordtest

import (
	"github.com/connect4/connect4/bot"
)

// Interaction response types, from Discord's documentation.
const (
	ResponsePong                   = 1
	ResponseChannelMessage         = 4
	ResponseDeferredChannelMessage = 5
	ResponseDeferredUpdate         = 6
	ResponseUpdateMessage          = 7
)

// FlagEphemeral marks a message only the person who acted sees.
const FlagEphemeral = 1 << 6

// Response is an interaction response as Discord reads it, with the
// files of a multipart response.
type Response struct {
	Type  int      `json:"type"`
	Data  *Message `json:"data"`
	Files []File   `json:"-"`
	// Payload is the payload_json of a multipart response, as sent.
	Payload []byte `json:"-"`
}

// File is a file sent with a response: a part of a multipart body.
type File struct {
	Field string // the form field, like files[0]
	Name  string // the file name
	Data  []byte
}

// Message is a message: the data of a response, or the body of a webhook
// edit or follow-up.
type Message struct {
	Content    string `json:"content"`
	Flags      int    `json:"flags"`
	Components []Row  `json:"components"`
}

// Row is an action row of buttons.
type Row struct {
	Type       int      `json:"type"`
	Components []Button `json:"components"`
}

// Button is a button component.
type Button struct {
	Type     int    `json:"type"`
	Label    string `json:"label"`
	Style    int    `json:"style"`
	CustomID string `json:"custom_id"`
	Disabled bool   `json:"disabled"`
}

// Content returns the message text, or "".
func (r Response) Content() string {
	if r.Data == nil {
		return ""
	}
	return r.Data.Content
}

// Ephemeral reports whether the response is a note only the person who
// acted sees.
func (r Response) Ephemeral() bool {
	return r.Data != nil && r.Data.Flags&FlagEphemeral != 0
}

// Buttons returns the buttons of every action row, in order.
func (r Response) Buttons() []Button {
	if r.Data == nil {
		return nil
	}
	var out []Button
	for _, row := range r.Data.Components {
		for _, b := range row.Components {
			if b.Type == ComponentButton {
				out = append(out, b)
			}
		}
	}
	return out
}

// Button returns the enabled button labelled label.
func (r Response) Button(label string) (Button, bool) {
	for _, b := range r.Buttons() {
		if b.Label == label && !b.Disabled {
			return b, true
		}
	}
	return Button{}, false
}

// Action decodes the button's custom_id with bot.ParseAction: what
// clicking it asks for, the game and the move number it was drawn at.
func (b Button) Action() (bot.Request, error) {
	return bot.ParseAction(b.CustomID)
}

// Game is the state of a game message, read from its buttons' custom_ids.
type Game struct {
	// ID is the game id the buttons were drawn for.
	ID string
	// Moves is the number of discs played in the round when the message
	// was drawn: the move number its buttons carry.
	Moves int
	// Columns are the enabled column buttons: where a disc can go.
	Columns []Button
	// Over reports a Rematch or Next round button: the round has ended.
	Over bool
}

// Game returns the state of the game on r's message, and false when r
// has no drop, Rematch or Next round button (it shows no game), or its
// buttons do not agree on the game and move (or do not decode).
func (r Response) Game() (Game, bool) {
	var g Game
	found := false
	for _, b := range r.Buttons() {
		req, err := b.Action()
		if err != nil {
			return Game{}, false
		}
		switch req.Kind {
		case bot.KindDrop, bot.KindRematch, bot.KindNextRound:
		default:
			continue
		}
		if found && (req.GameID != g.ID || req.Move != g.Moves) {
			return Game{}, false
		}
		found, g.ID, g.Moves = true, req.GameID, req.Move
		switch {
		case req.Kind != bot.KindDrop:
			g.Over = true
		case !b.Disabled:
			g.Columns = append(g.Columns, b)
		}
	}
	return g, found
}
