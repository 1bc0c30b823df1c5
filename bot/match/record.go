package match

import (
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/connect4/connect4/bot/clock"
	"github.com/connect4/connect4/engine"
	"github.com/connect4/connect4/engine/solver"
)

// Bounds on what a record may hold. They keep a corrupt or hostile value from
// costing more than a few kilobytes to read back.
const (
	MaxIDLen     = 128  // a chat user id or AI id
	MaxNameLen   = 256  // a display name
	MaxRefLen    = 256  // each part of a MessageRef
	MaxGameIDLen = 64   // Record.ID
	MaxRounds    = 1000 // Record.Rounds
	MaxFirstTo   = 100  // Record.FirstTo
)

// MaxAnalysisMoves is the most moves Record.Analysis may judge: a full
// board of the largest size.
const MaxAnalysisMoves = engine.MaxSize * engine.MaxSize

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

// OfferKind is what an offer proposes. The zero value means none.
type OfferKind uint8

// The kinds of offer.
const (
	OfferNone      OfferKind = iota
	OfferRematch             // a new game between the players of a finished one
	OfferNextRound           // the next round of a match whose round is over
)

var offerNames = [...]string{"none", "rematch", "next round"}

// String returns "rematch", "next round", or "offer(N)".
func (k OfferKind) String() string {
	if int(k) < len(offerNames) {
		return offerNames[k]
	}
	return fmt.Sprintf("offer(%d)", uint8(k))
}

// Offer is one player's proposal of a new game to the other, who accepts or
// declines it; no new game starts without both players' consent.
type Offer struct {
	Kind      OfferKind
	From      string    // the id of the player who offered
	ExpiresAt time.Time // when it lapses
	// Agreed are the ids of the other players who have accepted a rematch
	// offer in a game of 3 or 4 players, in the order they did; the
	// rematch starts when every player has agreed. Always empty for two.
	Agreed []string
}

// Takeback is a player's request to take back their last move, which the
// opponent may grant until they move.
type Takeback struct {
	From string // the id of the player asking
	Move int    // the number of discs on the board when asked; their move was the last of them
}

// Puzzle is what a record needs to know of the puzzle it is playing: its
// level, where it starts (the number of moves of its position, which Game
// begins with), how many of their own moves the solver is allowed, and a
// solution (0-based columns from the position, both sides' moves).
type Puzzle struct {
	Level    solver.Level
	Start    int
	WinIn    int
	Solution []int
}

// RoundResult is the outcome of one finished round of a match.
type RoundResult struct {
	Winner string // user id of the winner, "" for a draw
	Finish Finish // FinishWin, FinishDraw, FinishResign or FinishTimeout
}

// Record is one channel's challenge or match. Stores hand out copies:
// changing a Record changes nothing stored until it goes through the store's
// Update.
//
// Stores refuse to write (ErrInvalid), and report as corrupt when read
// (ErrCorrupt), a record that breaks these rules (see Validate): a valid Key;
// Status pending, playing or finished, with Finish set exactly when
// finished; a Challenger, and an Opponent once a game started (an open
// challenge has none until accepted); at most two Others, each named,
// only beside a named Opponent and never against the AI, all the players
// distinct, as many as the Game's players, and then FirstTo 1; Accepted
// only on a challenge of 3 or 4 that never started (pending, or declined,
// cancelled or expired), holding invited players who have not all
// accepted; RedID one of the players, and set when playing; a
// Game always, with no move played while pending; 1 ≤ FirstTo ≤ 100; at
// most 1000 Rounds, each won by one of the players (or drawn); ids at most
// 128 bytes, names and message references at most 256.
type Record struct {
	Key     Key
	ID      string // game id, set by Create: random, URL-safe; buttons carry it
	Version int64  // optimistic-lock version: 1 after Create, +1 on every successful update
	Status  Status
	Finish  Finish // how the whole record finished, when Status is StatusFinished

	Challenger, Opponent Player
	// Lang is the code of the language the game was created in (the
	// channel's at the time, else its creator's): timed messages, with no
	// command to tell, use it where the channel has no language setting.
	// Empty for games created before languages; unknown reads as English.
	Lang string
	// Others are the third and fourth players of a game of 3 or 4, in the
	// order they were invited; nil in a two-player game. The players move
	// in the order Challenger, Opponent, Others, starting from RedID and
	// wrapping round (see PlayerOf).
	Others []Player
	// Accepted holds the ids of the invited players (Opponent and Others)
	// who have accepted a pending challenge of 3 or 4 players, in the order
	// they did: the game starts when all of them have (and Accepted is
	// emptied). A challenge that lapses keeps it, to say who did not
	// accept. Always empty for two players, whose challenge starts at the
	// one accept.
	Accepted []string
	RedID    string // ID of the player who is Red (moves first) in the current round
	// AccepterFirst marks an open challenge whose accepter will be Red
	// (first them, or first random drawn so): RedID is set to them when
	// they accept, and the mark cleared. Only on a two-player open
	// challenge that never started.
	AccepterFirst bool

	// Game is the current round. While a challenge is pending it is the
	// empty board of the variant chosen: the board size and line length are
	// always Game.Config().
	Game    *engine.Game
	FirstTo int           // the match length in wins, ≥ 1
	Rounds  []RoundResult // finished rounds of this match, in order

	AILevel   solver.Level // LevelNone for human vs human; else the AI's level, and the AI is the Opponent
	Rematches int
	Message   MessageRef
	// Offer is a pending rematch or next-round offer, or nil.
	Offer *Offer
	// Takeback is a pending takeback request, or nil.
	Takeback *Takeback
	// Rating is what the last rated round did to the players' ratings; the
	// store sets it when it applies a rated tally, and keeps it until the
	// next one.
	Rating *RatingChange
	// Analysis is the solver's analysis of Game, kept so that asking again
	// costs no solve, or nil. It belongs to Game only while its columns are
	// Game's moves: a later round or move makes it stale, not invalid.
	Analysis *solver.Analysis
	// Puzzle is set for a puzzle: a game against the AI (hard, defending
	// perfectly) from a position where Challenger, to move, has a forced win.
	Puzzle *Puzzle

	Created, Updated time.Time
	ExpiresAt        time.Time // when a pending challenge lapses; zero means never
	// Timers are the record's timed events (see timer.go), at most one of
	// each kind; the bot sets them, a store schedules them.
	Timers []Timer
	// Clock is the game's time control and its players' clocks as of the
	// last move (clock.Clock: player i is engine.Player(i+1)); the zero
	// Clock is the channel's usual rule, a claim after a day without a
	// move. A pending challenge keeps the control with no clock running
	// yet (Players 0); the accept starts it.
	Clock clock.Clock
	// DrawOffer is the id of the player who offered a draw that the other
	// has not answered, "" for none. It lapses when the other player
	// moves; only a game between two people, of one game, has one.
	DrawOffer string
}

// Config returns the record's variant: the size and line length of its game.
func (r *Record) Config() engine.Config { return r.Game.Config() }

// Active reports whether the record blocks a new challenge at time now: a
// game being played, or a challenge not yet expired.
func (r *Record) Active(now time.Time) bool {
	switch r.Status {
	case StatusFinished:
		return false
	case StatusPending:
		// In whole milliseconds, as the Redis script compares them.
		return r.ExpiresAt.IsZero() || r.ExpiresAt.UnixMilli() >= now.UnixMilli()
	}
	return true
}

// Clone returns a deep copy of r, with empty slices as nil (as after a round
// trip through a store).
//
// The copy, its game and its timers (when it has at most cloneTimers) are
// one allocation: a store clones a record twice on every move.
func (r *Record) Clone() *Record {
	b := &cloned{rec: *r}
	c := &b.rec
	c.Rounds, c.Others, c.Accepted = nil, nil, nil
	if len(r.Others) > 0 {
		c.Others = slices.Clone(r.Others)
	}
	if len(r.Accepted) > 0 {
		c.Accepted = slices.Clone(r.Accepted)
	}
	if len(r.Rounds) > 0 {
		c.Rounds = slices.Clone(r.Rounds)
	}
	if r.Game != nil {
		b.game = *r.Game // as Game.Clone copies it
		c.Game = &b.game
	}
	if r.Rating != nil {
		rc := *r.Rating
		c.Rating = &rc
	}
	if r.Offer != nil {
		o := *r.Offer
		o.Agreed = nil
		if len(r.Offer.Agreed) > 0 {
			o.Agreed = slices.Clone(r.Offer.Agreed)
		}
		c.Offer = &o
	}
	if r.Takeback != nil {
		tb := *r.Takeback
		c.Takeback = &tb
	}
	c.Timers = nil
	if n := len(r.Timers); n > 0 && n <= cloneTimers {
		copy(b.timers[:], r.Timers)
		c.Timers = b.timers[:n:n] // appending reallocates, as to a clone
	} else if n > 0 {
		c.Timers = slices.Clone(r.Timers)
	}
	if r.Puzzle != nil {
		pz := *r.Puzzle
		pz.Solution = slices.Clone(pz.Solution)
		c.Puzzle = &pz
	}
	if r.Analysis != nil {
		a := *r.Analysis
		a.Moves = slices.Clone(a.Moves)
		c.Analysis = &a
	}
	return c
}

// cloneTimers is how many timers Clone keeps beside the record: a game's
// turn carries a reminder and a timeout, a challenge an expiry. Two keep
// a clone within the allocator's 896-byte size class (three took 1024).
const cloneTimers = 2

// cloned is what Clone allocates.
type cloned struct {
	rec    Record
	game   engine.Game
	timers [cloneTimers]Timer
}

// Bound returns the ids of the players r holds to it while it is active:
// the challenger, the opponent when named and the others, but never the
// AI, which plays any number of games at once. A store allows each id in
// at most one active record per channel.
func (r *Record) Bound() []string {
	return r.AppendBound(make([]string, 0, 2+len(r.Others)))
}

// AppendBound appends the ids Bound returns to ids, so that a caller can
// keep them in an array of its own (engine.MaxPlayers ids at most).
func (r *Record) AppendBound(ids []string) []string {
	ids = append(ids, r.Challenger.ID)
	if r.Opponent.ID != "" && r.AILevel == solver.LevelNone {
		ids = append(ids, r.Opponent.ID)
	}
	for _, p := range r.Others {
		ids = append(ids, p.ID)
	}
	return ids
}

// Seats returns the players in the order they were named: the challenger,
// the opponent (empty in an open challenge), then the others. The colours
// go round them starting from RedID.
func (r *Record) Seats() []Player {
	return append([]Player{r.Challenger, r.Opponent}, r.Others...)
}

// NumPlayers returns how many players the record is for: 2, 3 or 4.
func (r *Record) NumPlayers() int { return 2 + len(r.Others) }

// Multi reports whether the record is a game of 3 or 4 players.
func (r *Record) Multi() bool { return len(r.Others) > 0 }

// PlayerByID returns the player of r with the given id.
func (r *Record) PlayerByID(id string) (Player, bool) {
	if i := r.seat(id); i >= 0 {
		return r.Seats()[i], true
	}
	return Player{}, false
}

// seat returns the index of id among the Seats, or -1.
func (r *Record) seat(id string) int {
	switch {
	case id == "":
		return -1
	case id == r.Challenger.ID:
		return 0
	case id == r.Opponent.ID:
		return 1
	}
	for i, p := range r.Others {
		if p.ID == id {
			return i + 2
		}
	}
	return -1
}

// Invited returns the players a pending challenge waits for: the opponent
// and the others who have not accepted yet, in the order invited.
func (r *Record) Invited() []Player {
	var ps []Player
	for _, p := range r.Seats()[1:] {
		if p.ID != "" && !slices.Contains(r.Accepted, p.ID) {
			ps = append(ps, p)
		}
	}
	return ps
}

// Started reports whether a game was ever played in the record: the
// challenge was accepted (or the game began at once, against the AI).
// Declined, cancelled and expired challenges never started, though a
// challenge that chose who starts (first me|them|random) has RedID set
// while it waits; a game withdrawn before its first move (an abort, an
// idle close) counts as never played either.
func (r *Record) Started() bool {
	switch {
	case r.RedID == "" || r.Status == StatusPending:
		return false
	case len(r.Rounds) > 0 || (r.Game != nil && r.Game.Moves() > 0):
		return true
	}
	switch r.Finish {
	case FinishDeclined, FinishExpired, FinishCancelled:
		return false
	}
	return true
}

// Colors returns the Red and Yellow players of the current round.
func (r *Record) Colors() (red, yellow Player) {
	return r.PlayerOf(engine.Red), r.PlayerOf(engine.Yellow)
}

// ColorOf returns the color userID plays in the current round, or
// engine.NoPlayer for someone not in the game.
func (r *Record) ColorOf(userID string) engine.Player {
	i := r.seat(userID)
	if i < 0 {
		return engine.NoPlayer
	}
	n := r.NumPlayers()
	return engine.Player((i-r.redSeat()+n)%n + 1)
}

// PlayerOf returns the player of color c in the current round (Red for a
// color not in the game).
func (r *Record) PlayerOf(c engine.Player) Player {
	n := r.NumPlayers()
	if int(c) < 1 || int(c) > n {
		c = engine.Red
	}
	return r.Seats()[(r.redSeat()+int(c)-1)%n]
}

// redSeat is the index among the Seats of the player who is Red: RedID's,
// or the challenger's before a game started.
func (r *Record) redSeat() int {
	return max(r.seat(r.RedID), 0)
}

// Wins returns how many rounds of the match userID has won.
func (r *Record) Wins(userID string) int {
	n := 0
	for _, rr := range r.Rounds {
		if rr.Winner != "" && rr.Winner == userID {
			n++
		}
	}
	return n
}

// Draws returns how many rounds of the match were drawn.
func (r *Record) Draws() int {
	n := 0
	for _, rr := range r.Rounds {
		if rr.Winner == "" {
			n++
		}
	}
	return n
}

// Score returns the match score: the challenger's and the opponent's wins.
func (r *Record) Score() (challenger, opponent int) {
	return r.Wins(r.Challenger.ID), r.Wins(r.Opponent.ID)
}

// MatchWon reports whether a player has reached FirstTo wins.
func (r *Record) MatchWon() bool {
	a, b := r.Score()
	return max(a, b) >= r.FirstTo
}

// Validate reports the first thing wrong with r as a stored record. Stores
// run it before every write (so they never write what they would refuse to
// read) and after every read.
func (r *Record) Validate() error {
	if err := r.Key.Validate(); err != nil {
		return err
	}
	if r.Lang != "" && !ValidLanguage(r.Lang) {
		return fmt.Errorf("language %.20q is not a language code", r.Lang)
	}
	if err := r.validClock(); err != nil {
		return err
	}
	if err := r.validDrawOffer(); err != nil {
		return err
	}
	if !ValidGameID(r.ID) {
		return fmt.Errorf("game id %q is not 1-%d URL-safe characters", r.ID, MaxGameIDLen)
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
	if err := validPlayer("opponent", r.Opponent, r.Status == StatusPlaying || r.Started()); err != nil { // an open challenge has none until accepted
		return err
	}
	if r.Challenger.ID == r.Opponent.ID {
		return fmt.Errorf("challenger and opponent are both %q", r.Challenger.ID)
	}
	if err := r.validOthers(); err != nil {
		return err
	}
	if r.RedID != "" || r.Status == StatusPlaying {
		if _, ok := r.PlayerByID(r.RedID); !ok {
			return fmt.Errorf("red %q is neither player", r.RedID)
		}
	}
	if r.AccepterFirst && (r.Opponent.ID != "" || r.RedID != "" || len(r.Others) > 0) {
		return errors.New("accepter first on a record that is not an open challenge never started")
	}
	if r.FirstTo < 1 || r.FirstTo > MaxFirstTo {
		return fmt.Errorf("first-to %d out of range 1-%d", r.FirstTo, MaxFirstTo)
	}
	switch {
	case r.Game == nil:
		return errors.New("record has no game")
	case r.Status == StatusPending && r.Game.Moves() != 0:
		return errors.New("pending challenge has moves played")
	case r.Game.Config().NumPlayers() != r.NumPlayers():
		return fmt.Errorf("game for %d players, record for %d", r.Game.Config().NumPlayers(), r.NumPlayers())
	}
	if pz := r.Puzzle; pz != nil {
		switch {
		case pz.Level < solver.Easy || pz.Level > solver.Hard:
			return fmt.Errorf("puzzle level %v", pz.Level)
		case pz.WinIn < solver.MinPuzzleWin || pz.WinIn > solver.MaxPuzzleWin:
			return fmt.Errorf("puzzle win in %d, want %d-%d", pz.WinIn, solver.MinPuzzleWin, solver.MaxPuzzleWin)
		case r.Game == nil || r.Config() != engine.DefaultConfig() || pz.Start < 0 || pz.Start > r.Game.Moves():
			return fmt.Errorf("puzzle from move %d of a game of %d", pz.Start, r.Game.Moves())
		case len(pz.Solution) > 2*solver.MaxPuzzleWin:
			return fmt.Errorf("puzzle solution of %d moves", len(pz.Solution))
		case r.AILevel == solver.LevelNone:
			return errors.New("puzzle without the AI")
		}
		for _, c := range pz.Solution {
			if c < 0 || c >= engine.DefaultConfig().Cols {
				return fmt.Errorf("puzzle solution column %d", c)
			}
		}
	}
	if a := r.Analysis; a != nil && len(a.Moves) > MaxAnalysisMoves {
		return fmt.Errorf("analysis of %d moves, more than %d", len(a.Moves), MaxAnalysisMoves)
	}
	if len(r.Rounds) > MaxRounds {
		return fmt.Errorf("%d rounds, more than %d", len(r.Rounds), MaxRounds)
	}
	for i, rr := range r.Rounds {
		if err := r.validRound(rr); err != nil {
			return fmt.Errorf("round %d: %w", i+1, err)
		}
	}
	if r.AILevel < solver.LevelNone || r.AILevel > solver.Hard {
		return fmt.Errorf("AI level %v unknown", r.AILevel)
	}
	if c := r.Rating; c != nil {
		for _, id := range c.Players {
			if _, ok := r.PlayerByID(id); !ok {
				return fmt.Errorf("rating change for %q, who is neither player", id)
			}
		}
		if c.Players[0] == c.Players[1] {
			return errors.New("rating change for one player twice")
		}
	}
	if o := r.Offer; o != nil {
		if _, ok := r.PlayerByID(o.From); !ok {
			return fmt.Errorf("offer from %q, who is neither player", o.From)
		}
		if len(o.Agreed) > 0 && (!r.Multi() || len(o.Agreed) >= r.NumPlayers()-1) {
			return fmt.Errorf("offer agreed by %d of a %d-player game", len(o.Agreed), r.NumPlayers())
		}
		for i, id := range o.Agreed {
			if _, ok := r.PlayerByID(id); !ok || id == o.From || slices.Contains(o.Agreed[:i], id) {
				return fmt.Errorf("offer agreed by %q, not another player once", id)
			}
		}
		switch {
		case o.Kind == OfferRematch && r.Status != StatusFinished,
			o.Kind == OfferNextRound && (r.Status != StatusPlaying || !r.Game.State().Over()):
			return fmt.Errorf("%v offer on a %v record", o.Kind, r.Status)
		case o.Kind != OfferRematch && o.Kind != OfferNextRound:
			return fmt.Errorf("unknown offer %v", o.Kind)
		}
	}
	if tb := r.Takeback; tb != nil {
		if _, ok := r.PlayerByID(tb.From); !ok {
			return fmt.Errorf("takeback from %q, who is neither player", tb.From)
		}
		if r.Status != StatusPlaying || tb.Move < 1 || tb.Move != r.Game.Moves() {
			return fmt.Errorf("takeback at move %d of a %v game with %d moves", tb.Move, r.Status, r.Game.Moves())
		}
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
		if len(s) > MaxRefLen {
			return fmt.Errorf("message reference part longer than %d bytes", MaxRefLen)
		}
	}
	return r.validTimers()
}

// validOthers checks the players beyond two and the accepts of a
// challenge for 3 or 4.
func (r *Record) validOthers() error {
	if len(r.Others) > 2 {
		return fmt.Errorf("%d other players, at most 2", len(r.Others))
	}
	if r.Multi() {
		switch {
		case r.Opponent.ID == "":
			return errors.New("other players without an opponent")
		case r.AILevel != solver.LevelNone:
			return errors.New("other players in a game against the AI")
		case r.FirstTo != 1:
			return fmt.Errorf("first-to %d in a game of %d players", r.FirstTo, r.NumPlayers())
		}
	}
	for i, p := range r.Others {
		if err := validPlayer(fmt.Sprintf("player %d", i+3), p, true); err != nil {
			return err
		}
		if j := r.seat(p.ID); j != i+2 {
			return fmt.Errorf("player %q named twice", p.ID)
		}
	}
	if len(r.Accepted) > 0 && (r.Status == StatusPlaying || r.Started() || len(r.Accepted) >= r.NumPlayers()-1) {
		return fmt.Errorf("%d accepts on a %v record of %d players", len(r.Accepted), r.Status, r.NumPlayers())
	}
	for i, id := range r.Accepted {
		if r.seat(id) < 1 || slices.Contains(r.Accepted[:i], id) {
			return fmt.Errorf("accept by %q, not an invited player once", id)
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
	case len(p.ID) > MaxIDLen:
		return fmt.Errorf("%s id longer than %d bytes", role, MaxIDLen)
	case len(p.Name) > MaxNameLen:
		return fmt.Errorf("%s name longer than %d bytes", role, MaxNameLen)
	}
	return nil
}

// ValidGameID reports whether id is 1 to 64 URL-safe characters, the form of
// Record.ID.
func ValidGameID(id string) bool {
	return id != "" && len(id) <= MaxGameIDLen && urlSafe(id)
}

// urlSafe reports whether s holds only letters, digits, '-' and '_'.
func urlSafe(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-' || c == '_') {
			return false
		}
	}
	return true
}
