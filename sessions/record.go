package sessions

import (
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/connect4/connect4/engine"
)

// Bounds on what a record may hold. They keep a corrupt or hostile value from
// costing more than a few kilobytes to read back.
const (
	maxIDLen     = 128  // a chat user id or AI id
	maxNameLen   = 256  // a display name
	maxRefLen    = 256  // each part of a MessageRef
	maxLevelLen  = 64   // AILevel
	maxGameIDLen = 64   // Record.ID
	maxRounds    = 1000 // Record.Rounds
	maxFirstTo   = 100  // Record.FirstTo
)

// Status is where a record stands. The zero value means none.
type Status uint8

// The statuses of a record.
const (
	StatusNone     Status = iota
	StatusPending         // a challenge awaiting accept
	StatusPlaying         // accepted: a match is being played
	StatusFinished        // over; see Record.Finish
)

var statusNames = [...]string{"none", "pending", "playing", "finished"}

// String returns the status as a lower-case word, or "status(N)" when unknown.
func (s Status) String() string {
	if int(s) < len(statusNames) {
		return statusNames[s]
	}
	return fmt.Sprintf("status(%d)", uint8(s))
}

// Finish is how a round or a whole record finished. The zero value means not finished.
type Finish uint8

// The ways a round or record can finish.
const (
	FinishNone      Finish = iota
	FinishWin              // four (or Connect) in a row
	FinishDraw             // the board filled up
	FinishResign           // a player resigned: a win for the opponent
	FinishTimeout          // a player claimed the opponent's time ran out: a win for the claimant
	FinishDeclined         // the challenge was declined
	FinishCancelled        // the challenge or game was withdrawn
	FinishExpired          // the challenge was never accepted in time
)

var finishNames = [...]string{"none", "win", "draw", "resign", "timeout", "declined", "cancelled", "expired"}

// String returns the finish as a lower-case word, or "finish(N)" when unknown.
func (f Finish) String() string {
	if int(f) < len(finishNames) {
		return finishNames[f]
	}
	return fmt.Sprintf("finish(%d)", uint8(f))
}

// Player is a chat user (or the AI) taking part in a game.
type Player struct {
	ID   string // chat user id, unique within the workspace
	Name string // display name at the time of the challenge
}

// MessageRef is what a platform needs to edit the game's message: Slack's
// channel and timestamp, or Discord's message id.
type MessageRef struct{ Channel, Timestamp, MessageID string }

// RoundResult is the outcome of one finished round of a match.
type RoundResult struct {
	Winner string // user id of the winner, "" for a draw
	Finish Finish // FinishWin, FinishDraw, FinishResign or FinishTimeout
}

// Record is one channel's challenge or game. Stores hand out copies: changing
// a Record changes nothing stored until it goes through Store.Update.
//
// Stores refuse to write (ErrInvalid), and report as corrupt when read
// (ErrCorrupt), a record that breaks these rules: a valid Key; Status
// pending, playing or finished, with Finish set exactly when finished; a
// Challenger, and an Opponent unless pending; RedID one of the two, and set
// when playing; a variant engine.Config accepts and 1 ≤ FirstTo ≤ 100; at most
// 1000 Rounds, each won by one of the two (or drawn); no Game while pending,
// a Game while playing, and any Game decoding to the record's variant; ids
// and AILevel at most 128 and 64 bytes, names and message references at most
// 256.
type Record struct {
	Key     Key
	ID      string // game id, set by Create: random, URL-safe; buttons carry it
	Version int64  // optimistic-lock version: 1 after Create, +1 on every successful Update
	Status  Status
	Finish  Finish // how the whole record finished, when Status is StatusFinished

	Challenger, Opponent Player
	RedID                string // ID of the player who is Red (moves first) in the current round

	Rows, Cols, Connect, FirstTo int           // the variant chosen in the challenge; FirstTo is the match length, ≥ 1
	Rounds                       []RoundResult // finished rounds of this match, in order
	Game                         []byte        // engine encoding of the current round; nil while pending

	AILevel   string // "" for human vs human; else the AI level, and the AI's Player.ID is the opponent
	Rematches int
	Message   MessageRef

	Created, Updated time.Time
	ExpiresAt        time.Time // when a pending challenge lapses; zero means never
}

// Config returns the record's variant as an engine configuration.
func (r *Record) Config() engine.Config {
	return engine.Config{Rows: r.Rows, Cols: r.Cols, Connect: r.Connect}
}

// DecodeGame decodes the current round. It returns an error when there is no
// game yet, when the encoding is invalid, or when the game's variant is not the
// record's.
func (r *Record) DecodeGame() (*engine.Game, error) {
	if len(r.Game) == 0 {
		return nil, errors.New("sessions: record has no game")
	}
	g, err := engine.Decode(r.Game)
	if err != nil {
		return nil, fmt.Errorf("sessions: decode game: %w", err)
	}
	if got, want := g.Config(), r.Config(); got != want {
		return nil, fmt.Errorf("sessions: game variant %+v, record says %+v", got, want)
	}
	return g, nil
}

// active reports whether the record blocks a new challenge at time now.
func (r *Record) active(now time.Time) bool {
	switch r.Status {
	case StatusFinished:
		return false
	case StatusPending:
		// In whole milliseconds, as the Redis script compares them.
		return r.ExpiresAt.IsZero() || expiresMS(r.ExpiresAt) >= now.UnixMilli()
	}
	return true
}

// clone returns a deep copy of r, with empty slices as nil (as after a round
// trip through JSON).
func (r *Record) clone() *Record {
	c := *r
	c.Rounds, c.Game = nil, nil
	if len(r.Rounds) > 0 {
		c.Rounds = slices.Clone(r.Rounds)
	}
	if len(r.Game) > 0 {
		c.Game = slices.Clone(r.Game)
	}
	return &c
}

// PlayerByID returns the challenger or opponent with the given id.
func (r *Record) PlayerByID(id string) (Player, bool) {
	switch {
	case id == "":
		return Player{}, false
	case id == r.Challenger.ID:
		return r.Challenger, true
	case id == r.Opponent.ID:
		return r.Opponent, true
	}
	return Player{}, false
}

// validate reports the first thing wrong with r as a stored record. Stores run
// it before every write (so they never write what they would refuse to read)
// and after every read.
func (r *Record) validate() error {
	if err := r.Key.Validate(); err != nil {
		return err
	}
	if !validGameID(r.ID) {
		return fmt.Errorf("game id %q is not 1-%d URL-safe characters", r.ID, maxGameIDLen)
	}
	if r.Version < 1 {
		return fmt.Errorf("version %d < 1", r.Version)
	}
	switch r.Status {
	case StatusPending, StatusPlaying:
		if r.Finish != FinishNone {
			return fmt.Errorf("status %v with finish %v", r.Status, r.Finish)
		}
	case StatusFinished:
		if r.Finish == FinishNone || r.Finish > FinishExpired {
			return fmt.Errorf("finished with finish %v", r.Finish)
		}
	default:
		return fmt.Errorf("unknown status %v", r.Status)
	}
	if err := validPlayer("challenger", r.Challenger, true); err != nil {
		return err
	}
	if err := validPlayer("opponent", r.Opponent, r.Status != StatusPending); err != nil {
		return err
	}
	if r.Challenger.ID == r.Opponent.ID {
		return fmt.Errorf("challenger and opponent are both %q", r.Challenger.ID)
	}
	if r.RedID != "" || r.Status == StatusPlaying {
		if _, ok := r.PlayerByID(r.RedID); !ok {
			return fmt.Errorf("red %q is neither player", r.RedID)
		}
	}
	if r.FirstTo < 1 || r.FirstTo > maxFirstTo {
		return fmt.Errorf("first-to %d out of range 1-%d", r.FirstTo, maxFirstTo)
	}
	if err := r.Config().Validate(); err != nil {
		return fmt.Errorf("variant: %w", err)
	}
	if len(r.Rounds) > maxRounds {
		return fmt.Errorf("%d rounds, more than %d", len(r.Rounds), maxRounds)
	}
	for i, rr := range r.Rounds {
		if err := r.validRound(rr); err != nil {
			return fmt.Errorf("round %d: %w", i+1, err)
		}
	}
	switch {
	case r.Status == StatusPending && len(r.Game) != 0:
		return errors.New("pending challenge has a game")
	case r.Status == StatusPlaying && len(r.Game) == 0:
		return errors.New("game in play has no board")
	case len(r.Game) != 0:
		if _, err := r.DecodeGame(); err != nil {
			return err
		}
	}
	if len(r.AILevel) > maxLevelLen {
		return fmt.Errorf("AI level longer than %d bytes", maxLevelLen)
	}
	if r.Rematches < 0 {
		return fmt.Errorf("rematches %d < 0", r.Rematches)
	}
	for _, t := range [...]time.Time{r.Created, r.Updated, r.ExpiresAt} {
		if y := t.Year(); !t.IsZero() && (y < 1 || y > 9999) {
			return fmt.Errorf("time %v out of range", t)
		}
	}
	for _, s := range [...]string{r.Message.Channel, r.Message.Timestamp, r.Message.MessageID} {
		if len(s) > maxRefLen {
			return fmt.Errorf("message reference part longer than %d bytes", maxRefLen)
		}
	}
	return nil
}

func (r *Record) validRound(rr RoundResult) error {
	switch rr.Finish {
	case FinishDraw:
		if rr.Winner != "" {
			return fmt.Errorf("draw with winner %q", rr.Winner)
		}
	case FinishWin, FinishResign, FinishTimeout:
		if _, ok := r.PlayerByID(rr.Winner); !ok {
			return fmt.Errorf("winner %q is neither player", rr.Winner)
		}
	default:
		return fmt.Errorf("finish %v is not how a round ends", rr.Finish)
	}
	return nil
}

func validPlayer(role string, p Player, required bool) error {
	switch {
	case p.ID == "" && required:
		return fmt.Errorf("%s has no id", role)
	case p.ID == "" && p.Name != "":
		return fmt.Errorf("%s has a name but no id", role)
	case len(p.ID) > maxIDLen:
		return fmt.Errorf("%s id longer than %d bytes", role, maxIDLen)
	case len(p.Name) > maxNameLen:
		return fmt.Errorf("%s name longer than %d bytes", role, maxNameLen)
	}
	return nil
}

func validGameID(id string) bool {
	if id == "" || len(id) > maxGameIDLen {
		return false
	}
	for i := 0; i < len(id); i++ {
		c := id[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-' || c == '_') {
			return false
		}
	}
	return true
}
