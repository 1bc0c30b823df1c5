package bot

import (
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/connect4/connect4/bot/lang"
	"github.com/connect4/connect4/bot/match"

	"github.com/connect4/connect4/engine"
	"github.com/connect4/connect4/render"
)

// Visibility is where a reply goes. The zero value means no reply.
type Visibility uint8

// The places a reply can go.
const (
	VisibilityNone Visibility = iota
	// Public posts a new message in the channel.
	Public
	// Update replaces the message the button was clicked on.
	Update
	// Ephemeral shows a note only to the person who acted.
	Ephemeral
)

// String returns "public", "update", "ephemeral" or "none".
func (v Visibility) String() string {
	switch v {
	case Public:
		return "public"
	case Update:
		return "update"
	case Ephemeral:
		return "ephemeral"
	}
	return "none"
}

// ButtonStyle is how a button looks. The zero value is the platform's plain
// style.
type ButtonStyle uint8

// The button styles.
const (
	StyleDefault ButtonStyle = iota
	StylePrimary
	StyleDanger
)

// Button is a button under a message. Value is the encoded Action the
// adapter sends back when it is clicked.
type Button struct {
	Label    string
	Value    string
	Column   int // 1-based column of a drop button, 0 for other buttons
	Style    ButtonStyle
	Disabled bool // Slack has no disabled buttons: adapters there leave them out
	// URL makes a link button: it opens URL (a web page of the game,
	// channel or player) and carries no Value.
	URL string
}

// Reply is the platform-neutral answer to a Command.
type Reply struct {
	Visibility Visibility
	// Text is the announcement: what happened, or why the request was
	// refused. Mentions are written <@id>. Always set.
	Text string
	// Game is the board to draw, or nil; GameID is its record's id.
	Game   *engine.Game
	GameID string
	// Red and Yellow are the players of Game.
	Red, Yellow match.Player
	// Others are the Green and Blue players of a Game of 3 or 4, in that
	// order; nil for two.
	Others []match.Player
	// Score is the match score line for matches of more than one win, or "".
	Score   string
	Buttons []Button
	// Notify are the ids of the users a new message is meant to notify
	// (the challenged player, the opponent asked for a takeback); every
	// other mention in it must ping nobody. Adapters enforce it: Discord
	// with allowed_mentions, Slack, which has no such switch, by writing
	// the others' names as plain text. Edits never notify anyone.
	Notify []string
	// People are the players the text names, beside Red and Yellow, so
	// that a mention written as plain text can show a name.
	People []match.Player
	// Problem is why the request was refused, for logs and metrics;
	// ProblemNone for a request that was carried out.
	Problem Problem
	// Look is the channel's display settings, for a reply that shows a
	// board to the channel (see Picture and ImagePalette).
	Look match.Settings
	// Finished marks the reply to the command that ended Game: the
	// adapter posts the replay with it (once, not on every move).
	Finished bool
	// Lang is the language of Text and of everything the adapter adds
	// (the alt text, button labels, its own words): the reader's, that is
	// the user's for a reply to them alone and the channel's for one the
	// channel sees; Format writes the players line and the turn in it.
	// Unset reads as English.
	Lang lang.Lang
	// Clock is each player's time left as of the last move of a game
	// under a time control ("Ann: 2:41 left · Ben: 3:00 left"), or "";
	// FlagAt is when the flag of the player to move falls, zero when no
	// clock runs. The message cannot tick: adapters show FlagAt as the
	// platform's own relative time (see FlagText).
	Clock  string
	FlagAt time.Time
	// Ended marks a Game that ended off the board (a draw agreed, a flag
	// fallen with nobody able to connect): there is no turn to show.
	Ended bool
	// OnTime marks a Game whose round was lost on time (a flag fallen, a
	// claim after the turn timeout): the engine calls that resigned, the
	// alt text says it was on time.
	OnTime bool
	// Edits are other messages this reply changes: the challenge's own
	// message when a typed cancel or decline ends it, so that its buttons
	// do not stay live. Adapters make them through their Notifier (see
	// ApplyEdits) after sending the reply.
	Edits []Edit
	// Posts are other new messages this reply makes, after it: a
	// tournament round's games, each on a message of its own. Adapters
	// post them through their Notifier (see ApplyEdits), which attaches a
	// message with a game's buttons to that game.
	Posts []Reply
}

// Aside reports whether r changes other messages than its own (Edits,
// Posts): the adapter then calls ApplyEdits after sending it.
func (r Reply) Aside() bool { return len(r.Edits) > 0 || len(r.Posts) > 0 }

// Edit is a message to replace, and what with.
type Edit struct {
	Message match.MessageRef
	Reply   Reply
	// Repost posts Reply as a new message when Message is zero or can no
	// longer be edited (it was deleted): a tournament's table, which must
	// stay somewhere in the channel.
	Repost bool
}

// FlagStatus returns status with, when a flag is to fall (FlagAt), a line
// saying when, in r's language; when writes FlagAt as the platform shows
// a time to each reader (Discord: <t:…:R>, Slack: <!date^…>).
func (r Reply) FlagStatus(status string, when func(time.Time) string) string {
	if r.FlagAt.IsZero() {
		return status
	}
	return strings.TrimSpace(status + "\n" + r.Lang.Say("clock.flagFalls", lang.Args{"When": when(r.FlagAt)}))
}

// Message is a Reply laid out in one palette, for an adapter to send.
type Message struct {
	// Header is the announcement and, with a board, the players line and
	// score.
	Header string
	// Board is the board as emoji text (render.Board), or "".
	Board string
	// Status says whose turn it is, or how the game ended, or "".
	Status string
}

// Fallback returns the whole reply in plain words, for notifications and
// screen readers, and where the emoji board does not fit.
func (r Reply) Fallback() string {
	if r.Game == nil {
		return r.Text
	}
	names := render.Names{Red: plainName(r.Red), Yellow: plainName(r.Yellow)}
	if len(r.Others) > 0 {
		names.Green = plainName(r.Others[0])
	}
	if len(r.Others) > 1 {
		names.Blue = plainName(r.Others[1])
	}
	f := strings.TrimSpace(PlainMentions(r.Text, r.Players()...) + " " + render.DescribeIn(r.Game, names, AltWords(r.Lang)))
	if r.Score != "" {
		f += " " + PlainMentions(r.Score, r.Players()...)
	}
	return f
}

// Players returns the players of r's Game by colour, Red first: Red,
// Yellow and the Others.
func (r Reply) Players() []match.Player {
	return append([]match.Player{r.Red, r.Yellow}, r.Others...)
}

// playerOf returns the player of colour c in r's Game.
func (r Reply) playerOf(c engine.Player) match.Player {
	if ps := r.Players(); int(c) >= 1 && int(c) <= len(ps) {
		return ps[c-1]
	}
	return match.Player{}
}

// Format lays r out in palette p. The words-only form is Fallback, apart,
// since only some adapters need it (it costs a description of the board).
func (r Reply) Format(p render.Palette) Message {
	m := Message{Header: r.Text}
	if r.Game == nil {
		return m
	}
	l := r.Lang
	var players string
	for i, who := range r.Players() {
		c := engine.Player(i + 1)
		seat := p.Disc(c) + " " + mention(who)
		if r.Game.Left(c) && len(r.Others) > 0 {
			seat = l.Say("game.players.left", lang.Args{"Player": seat})
		}
		if i == 0 {
			players = seat
			continue
		}
		players = l.Say("game.players.vs", lang.Args{"Left": players, "Right": seat})
	}
	if cfg := r.Game.Config(); !isDefaultBoard(cfg) {
		players = l.Say("game.players.size", lang.Args{"Players": players, "Size": sizeText(l, cfg)})
	}
	if r.Score != "" {
		players = l.Say("game.players.score", lang.Args{"Players": players, "Score": r.Score})
	}
	m.Header = strings.TrimSpace(r.Text + "\n" + players)
	m.Board = render.Board(r.Game, p)
	if t := r.Game.Turn(); t != engine.NoPlayer && !r.Ended {
		m.Status = l.Say("game.turn", lang.Args{"Disc": p.Disc(t), "Player": mention(r.playerOf(t)), "Move": r.Game.Moves() + 1})
	}
	if r.Clock != "" {
		m.Status = strings.TrimSpace(m.Status + "\n" + r.Clock)
	}
	return m
}

func plainName(p match.Player) string {
	if p.Name != "" {
		return p.Name
	}
	return p.ID
}

var mentionInText = regexp.MustCompile(`<@([^<>|]+)(?:\|[^<>]*)?>`)

// QuietMentions replaces the <@id> mentions in s of everyone but the ids in
// notify by @name (of r's players) or @id, so that only those are pinged
// where a platform pings every mention.
func (r Reply) QuietMentions(s string) string {
	known := append(r.Players(), r.People...)
	return mentionInText.ReplaceAllStringFunc(s, func(m string) string {
		id := mentionInText.FindStringSubmatch(m)[1]
		if slices.Contains(r.Notify, id) {
			return m
		}
		return PlainMentions(m, known...)
	})
}

// PlainMentions replaces the <@id> mentions in s by @name for the given
// players (and @id for anyone else), for text shown where mentions are not
// rendered.
func PlainMentions(s string, known ...match.Player) string {
	return mentionInText.ReplaceAllStringFunc(s, func(m string) string {
		id := mentionInText.FindStringSubmatch(m)[1]
		for _, p := range known {
			if p.ID == id {
				return "@" + plainName(p)
			}
		}
		return "@" + id
	})
}

// Outcome classifies r for logs and metrics: OutcomeOK for a request
// carried out, OutcomeRefused for one the person can fix or should know
// about, OutcomeError for one that failed on our side (the store, a lock
// storm, a damaged record, a bug).
func (r Reply) Outcome() Outcome {
	switch r.Problem {
	case ProblemNone:
		return OutcomeOK
	case ProblemInternal, ProblemUnavailable, ProblemConflict, ProblemCorrupt:
		return OutcomeError
	}
	return OutcomeRefused
}

// Picture reports whether r's board should be shown as a picture: r shows
// a board, and the channel has not chosen emoji. The adapter still shows
// emoji where it cannot post the picture.
func (r Reply) Picture() bool {
	return r.Game != nil && r.Look.Board != match.BoardEmoji
}

// ImagePalette is the palette of r's pictures, from the channel's settings.
func (r Reply) ImagePalette() render.ImagePalette {
	if r.Look.Palette == match.PaletteColourBlind {
		return render.ImageColourBlind
	}
	return render.ImageStandard
}

// AltText describes r's board in words for screen readers, in r's
// palette's colour names, or "" without a board.
func (r Reply) AltText() string {
	if r.Game == nil {
		return ""
	}
	names := render.Names{Red: plainName(r.Red), Yellow: plainName(r.Yellow)}
	if len(r.Others) > 0 {
		names.Green = plainName(r.Others[0])
	}
	if len(r.Others) > 1 {
		names.Blue = plainName(r.Others[1])
	}
	words := AltWords(r.Lang)
	if r.OnTime {
		l := r.Lang.Or(lang.English)
		words = func(id string, args map[string]any) string {
			if id == "alt.resigned" {
				id = "alt.lostOnTime"
			}
			return l.Say(id, lang.Args(args))
		}
	}
	return render.AltTextIn(r.Game, names, r.ImagePalette(), words)
}

// ImageOptions are the render options of r's pictures.
func (r Reply) ImageOptions() render.ImageOptions {
	return render.ImageOptions{Palette: r.ImagePalette()}
}

// ButtonGame returns the id of the game r's buttons act on, or "" when it
// has none: what an adapter needs to Attach the message it posted r as (a
// challenge has buttons and no board, so Reply.GameID is not enough).
func (r Reply) ButtonGame() string {
	for _, b := range r.Buttons {
		if req, err := ParseAction(b.Value); err == nil && req.GameID != "" {
			return req.GameID
		}
	}
	return ""
}
