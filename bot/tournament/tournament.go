package tournament

import (
	"cmp"
	"slices"
	"strconv"
	"time"

	"github.com/connect4/connect4/bot/match"
	"github.com/connect4/connect4/bot/pairing"
)

// Status is where a tournament stands. The zero value NoStatus never
// describes a tournament made by New.
type Status uint8

// The statuses. Their numbers are stored: append only.
const (
	NoStatus  Status = iota
	Joining          // taking players until the organiser starts it
	Running          // rounds are being played
	Finished         // the last round is over: the standings are final
	Cancelled        // the organiser called it off
)

var statusNames = [...]string{"none", "joining", "running", "finished", "cancelled"}

// String returns the status as a lower-case word, or "status(N)".
func (s Status) String() string {
	if int(s) < len(statusNames) {
		return statusNames[s]
	}
	return "status(" + strconv.Itoa(int(s)) + ")"
}

// Over reports whether the tournament has ended, finished or cancelled.
func (s Status) Over() bool { return s == Finished || s == Cancelled }

// MaxIDLen bounds a tournament's id, so that its games' ids (GameID) fit
// a record's.
const MaxIDLen = 24

// Entrant is a player of a tournament.
type Entrant struct {
	match.Player
	// Withdrawn is set when the player leaves a running tournament: they
	// are paired no more (a round robin scores their later games as lost).
	Withdrawn bool
}

// Game is one game of a round: White moves first. GameID names the game's
// record; Result is pairing.NoResult until it ends.
type Game struct {
	White, Black int // indexes into Tournament.Players
	GameID       string
	Result       pairing.Result
}

// Round is one round: its games, board 1 first, and the player who sits
// it out (pairing.NoBye for none).
type Round struct {
	Games   []Game
	Bye     int
	Started time.Time
}

// Over reports whether every game of the round has a result.
func (r Round) Over() bool {
	for _, g := range r.Games {
		if g.Result == pairing.NoResult {
			return false
		}
	}
	return true
}

// Tournament is one tournament of a channel. Make one with New; change
// it only through its methods, which refuse a change with an *Error and
// leave it as it was. A Tournament is not safe for concurrent use; Clone
// it to hand a copy on.
type Tournament struct {
	ID        string
	Key       match.Key
	Organiser match.Player
	Options   Options
	Status    Status
	// Players are in join order while Joining, in seed order (0 the top
	// seed) from Start on: the indexes that games and standings use.
	Players []Entrant
	// Planned is the number of rounds, fixed by Start.
	Planned int
	// Rounds are the rounds started so far, the current one last.
	Rounds  []Round
	Created time.Time
	Started time.Time
	Ended   time.Time
	// Message is the channel message that shows the table (the one the
	// tournament was opened with, or the last one posted in its place),
	// edited in place as rounds end; zero until an adapter tells which.
	Message match.MessageRef
}

// New returns a tournament taking players, organised by org in channel k
// under id (1 to MaxIDLen letters, digits, '-' or '_'), made at now. It
// returns an *Error: Options.Validate's reasons, ReasonStartTime for a
// start time not after now or more than MaxStartAhead after it,
// ReasonInvalid for a bad id, key or organiser.
func New(id string, k match.Key, org match.Player, opt Options, now time.Time) (*Tournament, error) {
	if err := opt.Validate(); err != nil {
		return nil, err
	}
	switch {
	case !opt.StartAt.IsZero() && (!opt.StartAt.After(now) || opt.StartAt.Sub(now) > MaxStartAhead):
		return nil, refuse(ReasonStartTime)
	case len(id) > MaxIDLen || !match.ValidGameID(id):
		return nil, invalid("id %.40q is not 1-%d URL-safe characters", id, MaxIDLen)
	case k.Validate() != nil:
		return nil, &Error{Reason: ReasonInvalid, Err: k.Validate()}
	case !validPlayer(org):
		return nil, invalid("organiser %.40q: id 1-%d bytes, name at most %d", org.ID, match.MaxIDLen, match.MaxNameLen)
	}
	return &Tournament{ID: id, Key: k, Organiser: org, Options: opt, Status: Joining, Created: now}, nil
}

func validPlayer(p match.Player) bool {
	return p.ID != "" && len(p.ID) <= match.MaxIDLen && len(p.Name) <= match.MaxNameLen
}

// Clone returns a copy of t that shares nothing with it.
func (t *Tournament) Clone() *Tournament {
	c := *t
	c.Players = slices.Clone(t.Players)
	c.Rounds = make([]Round, len(t.Rounds))
	for i, r := range t.Rounds {
		c.Rounds[i] = r
		c.Rounds[i].Games = slices.Clone(r.Games)
	}
	if t.Rounds == nil {
		c.Rounds = nil
	}
	return &c
}

// Index returns the index in Players of the player with id, or -1.
func (t *Tournament) Index(id string) int {
	return slices.IndexFunc(t.Players, func(e Entrant) bool { return e.ID == id })
}

// Join adds p to a tournament taking players. It returns an
// *Error: ReasonStarted once it runs, ReasonOver once it ended,
// ReasonJoined when p is in already, ReasonFull at MaxPlayers,
// ReasonInvalid for a player without an id.
func (t *Tournament) Join(p match.Player) error {
	switch {
	case t.Status == Running:
		return refuse(ReasonStarted)
	case t.Status.Over():
		return refuse(ReasonOver)
	case !validPlayer(p):
		return invalid("player %.40q: id 1-%d bytes, name at most %d", p.ID, match.MaxIDLen, match.MaxNameLen)
	case t.Index(p.ID) >= 0:
		return refuse(ReasonJoined)
	case len(t.Players) >= MaxPlayers:
		return &Error{Reason: ReasonFull, Limit: MaxPlayers}
	}
	t.Players = append(t.Players, Entrant{Player: p})
	return nil
}

// Withdraw takes the player with id out: before the start they are simply
// removed; once it runs they stay in the table but are paired no more (a
// game of theirs in progress is for the caller to end, by resignation, and
// record). It returns an *Error: ReasonNotPlayer, ReasonWithdrawn,
// ReasonOver.
func (t *Tournament) Withdraw(id string) error {
	i := t.Index(id)
	switch {
	case t.Status.Over():
		return refuse(ReasonOver)
	case i < 0:
		return refuse(ReasonNotPlayer)
	case t.Players[i].Withdrawn:
		return refuse(ReasonWithdrawn)
	case t.Status == Joining:
		t.Players = slices.Delete(t.Players, i, i+1)
		return nil
	}
	t.Players[i].Withdrawn = true
	return nil
}

// Start starts the tournament at now on behalf of the player with id by:
// it seeds the players by rating (highest first; rating nil or equal
// ratings keep join order), fixes the rounds and pairs round 1. It returns
// an *Error: ReasonNotOrganiser, ReasonStarted, ReasonOver, ReasonTooFew
// (Limit MinPlayers), ReasonRounds (a Swiss of as many rounds as players
// or more; Limit the most).
func (t *Tournament) Start(by string, rating func(id string) float64, now time.Time) error {
	n := len(t.Players)
	switch {
	case by != t.Organiser.ID:
		return refuse(ReasonNotOrganiser)
	case t.Status == Running:
		return refuse(ReasonStarted)
	case t.Status.Over():
		return refuse(ReasonOver)
	case n < MinPlayers:
		return &Error{Reason: ReasonTooFew, Limit: MinPlayers}
	case t.Options.Format == Swiss && t.Options.Rounds > n-1:
		return &Error{Reason: ReasonRounds, Limit: n - 1}
	}
	next := t.Clone()
	if rating != nil {
		slices.SortStableFunc(next.Players, func(a, b Entrant) int { return cmp.Compare(rating(b.ID), rating(a.ID)) })
	}
	next.Planned = pairing.RoundRobinRounds(n, t.Options.Double)
	if t.Options.Format == Swiss {
		next.Planned = cmp.Or(t.Options.Rounds, DefaultRounds(n))
	}
	next.Status, next.Started = Running, now
	if _, err := next.Advance(now); err != nil {
		return err
	}
	*t = *next
	return nil
}

// Cancel calls the tournament off at now on behalf of the player with id
// by. It returns an *Error: ReasonNotOrganiser, ReasonOver.
func (t *Tournament) Cancel(by string, now time.Time) error {
	switch {
	case by != t.Organiser.ID:
		return refuse(ReasonNotOrganiser)
	case t.Status.Over():
		return refuse(ReasonOver)
	}
	t.Status, t.Ended = Cancelled, now
	return nil
}
