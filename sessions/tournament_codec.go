package sessions

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/connect4/connect4/bot/clock"
	"github.com/connect4/connect4/bot/match"
	"github.com/connect4/connect4/bot/pairing"
	"github.com/connect4/connect4/bot/tournament"
	"github.com/connect4/connect4/engine"
)

// tournamentSchema is the version of the stored form of a tournament
// that this program writes; it reads every version from 1 up to it, and
// reports a value of a newer one as ErrNewerSchema. Append-only changes to
// the form raise it. 2 added the table's message (msg), the round's time
// limit (round_ms) and the start time (start_at).
const tournamentSchema = 2

// maxTournamentBytes bounds a stored tournament read back: a double round
// robin of 32 players with long names is well under it.
const maxTournamentBytes = 512 << 10

// The stored form of a tournament: JSON with a schema version, written
// and read only here, so that the domain type carries no tags.
type (
	tournamentJSON struct {
		Schema    int               `json:"schema"`
		ID        string            `json:"id"`
		Key       [3]string         `json:"key"` // platform, workspace, channel
		Organiser [2]string         `json:"org"` // id, name
		Format    uint8             `json:"format"`
		Double    bool              `json:"double,omitempty"`
		Rounds    int               `json:"rounds,omitempty"` // the organiser's choice
		Clock     *tourClockJSON    `json:"clock,omitempty"`
		Board     [3]int            `json:"board"` // rows, cols, connect
		Status    uint8             `json:"status"`
		Players   []tourEntrantJSON `json:"players"`
		Planned   int               `json:"planned,omitempty"`
		Played    []tourRoundJSON   `json:"played,omitempty"`
		Created   time.Time         `json:"created"`
		Started   *time.Time        `json:"started,omitempty"`
		Ended     *time.Time        `json:"ended,omitempty"`
		Message   messageJSON       `json:"msg,omitzero"`       // since schema 2
		RoundMS   int64             `json:"round_ms,omitempty"` // since schema 2
		StartAt   *time.Time        `json:"start_at,omitempty"` // since schema 2
	}
	tourClockJSON struct {
		Kind      uint8 `json:"kind"`
		Base      int64 `json:"base_ms,omitempty"`
		Increment int64 `json:"inc_ms,omitempty"`
		PerMove   int64 `json:"move_ms,omitempty"`
	}
	tourEntrantJSON struct {
		ID        string `json:"id"`
		Name      string `json:"name"`
		Withdrawn bool   `json:"out,omitempty"`
	}
	tourRoundJSON struct {
		Games   []tourGameJSON `json:"games"`
		Bye     int            `json:"bye"`
		Started time.Time      `json:"started"`
	}
	tourGameJSON struct {
		White  int    `json:"w"`
		Black  int    `json:"b"`
		GameID string `json:"id,omitempty"`
		Result uint8  `json:"r,omitempty"`
	}
)

// encodeTournament returns the stored form of t, which must be valid.
func encodeTournament(t *tournament.Tournament) ([]byte, error) {
	if err := t.Validate(); err != nil {
		return nil, fmt.Errorf("sessions: %w: %w", match.ErrInvalid, err)
	}
	j := tournamentJSON{
		Schema: tournamentSchema, ID: t.ID,
		Key:       [3]string{t.Key.Platform, t.Key.Workspace, t.Key.Channel},
		Organiser: [2]string{t.Organiser.ID, t.Organiser.Name},
		Format:    uint8(t.Options.Format), Double: t.Options.Double, Rounds: t.Options.Rounds,
		Board:   [3]int{t.Options.Board.Rows, t.Options.Board.Cols, t.Options.Board.Connect},
		Status:  uint8(t.Status),
		Players: make([]tourEntrantJSON, len(t.Players)),
		Planned: t.Planned, Created: normTime(t.Created),
		Started: optTime(t.Started), Ended: optTime(t.Ended),
		Message: messageJSON(t.Message),
		RoundMS: t.Options.RoundLimit.Milliseconds(), StartAt: optTime(t.Options.StartAt),
	}
	if c := t.Options.Clock; c.Kind != clock.None {
		j.Clock = &tourClockJSON{Kind: uint8(c.Kind), Base: c.Base.Milliseconds(), Increment: c.Increment.Milliseconds(), PerMove: c.PerMove.Milliseconds()}
	}
	for i, p := range t.Players {
		j.Players[i] = tourEntrantJSON{ID: p.ID, Name: p.Name, Withdrawn: p.Withdrawn}
	}
	for _, r := range t.Rounds {
		rj := tourRoundJSON{Bye: r.Bye, Started: normTime(r.Started), Games: make([]tourGameJSON, len(r.Games))}
		for i, g := range r.Games {
			rj.Games[i] = tourGameJSON{White: g.White, Black: g.Black, GameID: g.GameID, Result: uint8(g.Result)}
		}
		j.Played = append(j.Played, rj)
	}
	return json.Marshal(j)
}

func optTime(t time.Time) *time.Time {
	if t.IsZero() {
		return nil
	}
	n := normTime(t)
	return &n
}

// decodeTournament reads back a stored tournament of channel k and
// validates it. It returns a *match.CorruptError for anything that is not
// a valid tournament of k (wrapping ErrNewerSchema for a newer schema).
func decodeTournament(k match.Key, b []byte) (*tournament.Tournament, error) {
	corrupt := func(err error) error { return &match.CorruptError{Key: k, Err: fmt.Errorf("tournament: %w", err)} }
	if len(b) > maxTournamentBytes {
		return nil, corrupt(fmt.Errorf("%d bytes, more than %d", len(b), maxTournamentBytes))
	}
	var head struct {
		Schema int `json:"schema"`
	}
	if err := json.Unmarshal(b, &head); err != nil {
		return nil, corrupt(err)
	}
	switch {
	case head.Schema > tournamentSchema:
		return nil, corrupt(fmt.Errorf("schema %d: %w", head.Schema, ErrNewerSchema))
	case head.Schema < 1:
		return nil, corrupt(fmt.Errorf("schema %d", head.Schema))
	}
	var j tournamentJSON
	if err := json.Unmarshal(b, &j); err != nil {
		return nil, corrupt(err)
	}
	t := &tournament.Tournament{
		ID:        j.ID,
		Key:       match.Key{Platform: j.Key[0], Workspace: j.Key[1], Channel: j.Key[2]},
		Organiser: match.Player{ID: j.Organiser[0], Name: j.Organiser[1]},
		Options: tournament.Options{
			Format: tournament.Format(j.Format), Double: j.Double, Rounds: j.Rounds,
			Board: engine.Config{Rows: j.Board[0], Cols: j.Board[1], Connect: j.Board[2]},
		},
		Status:  tournament.Status(j.Status),
		Planned: j.Planned,
		Created: j.Created,
		Message: match.MessageRef(j.Message),
	}
	if j.Clock != nil {
		t.Options.Clock = clock.Control{Kind: clock.Kind(j.Clock.Kind), Base: time.Duration(j.Clock.Base) * time.Millisecond,
			Increment: time.Duration(j.Clock.Increment) * time.Millisecond, PerMove: time.Duration(j.Clock.PerMove) * time.Millisecond}
	}
	t.Options.RoundLimit = time.Duration(j.RoundMS) * time.Millisecond
	if j.StartAt != nil {
		t.Options.StartAt = *j.StartAt
	}
	if j.Started != nil {
		t.Started = *j.Started
	}
	if j.Ended != nil {
		t.Ended = *j.Ended
	}
	for _, p := range j.Players {
		t.Players = append(t.Players, tournament.Entrant{Player: match.Player{ID: p.ID, Name: p.Name}, Withdrawn: p.Withdrawn})
	}
	for _, rj := range j.Played {
		r := tournament.Round{Bye: rj.Bye, Started: rj.Started, Games: make([]tournament.Game, len(rj.Games))}
		for i, g := range rj.Games {
			r.Games[i] = tournament.Game{White: g.White, Black: g.Black, GameID: g.GameID, Result: pairing.Result(g.Result)}
		}
		t.Rounds = append(t.Rounds, r)
	}
	if err := t.Validate(); err != nil {
		return nil, corrupt(err)
	}
	if t.Key != k {
		return nil, corrupt(fmt.Errorf("stored for channel %s", t.Key))
	}
	return t, nil
}
