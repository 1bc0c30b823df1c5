package sessions

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/connect4/connect4/bot/clock"
	"github.com/connect4/connect4/bot/match"
	"github.com/connect4/connect4/engine"
	"github.com/connect4/connect4/engine/solver"
)

// schemaVersion is the version of the stored JSON form of a record. A reader
// refuses any other, and any field it does not know: give a new field a new
// version, so that this version's readers report such a record as written
// by a newer version and its Repair keeps it (see ErrNewerSchema). The
// schedule's timers joined version 1 before that rule held: the previous
// version cannot read them (README, Upgrading).
//
// schemaMulti is the version of a record of 3 or 4 players: version 1 with
// "others" (and while pending, "accepted"; in a rematch offer, "agreed").
// Replicas of the previous version report a record of 3 or 4 as of a newer
// schema instead of misreading it.
//
// schemaCoach is the version of a two-player record that keeps the solver's
// analysis of its game ("analysis") or plays a puzzle ("puzzle"): version 1
// with those, for the same reason.
//
// schemaLang is the version of a record that keeps the language it was
// created in ("lang"): any of the three shapes above (the fields present
// tell which, and are checked as for it) with that one field more.
// Replicas of the previous version report such a record as of a newer
// schema instead of refusing the field as damage (which Repair would
// offer to clear).
//
// schemaClock is the version of a record played under a time control
// ("clock", and flag timers) or holding a draw offer ("draw_offer"): any
// of the shapes above, with or without a language, with those fields
// more, for the same reason.
//
// schemaAccepterFirst is the version of an open challenge whose accepter
// will move first ("accepter_first"): any of the shapes above with that
// one field more, for the same reason.
const (
	schemaVersion       = 1
	schemaMulti         = 2
	schemaCoach         = 3
	schemaLang          = 4
	schemaClock         = 5
	schemaAccepterFirst = 6
)

// maxRecordBytes bounds a stored record; anything longer is corrupt.
const maxRecordBytes = 64 << 10

// recordJSON is the stored form of a Record. The Redis scripts read
// "id", "version", "status", "expires_ms" and "op", so those names are part
// of the schema. The variant (rows, cols, connect) is written beside the
// game so that a pending challenge, which has no moves to store, keeps it;
// when a game is stored, the two must agree.
type recordJSON struct {
	Schema     int           `json:"schema"`
	Op         string        `json:"op,omitempty"` // random token of the write that stored this value
	Key        keyJSON       `json:"key"`
	ID         string        `json:"id"`
	Version    int64         `json:"version"`
	Status     match.Status  `json:"status"`
	Finish     match.Finish  `json:"finish"`
	ExpiresMS  int64         `json:"expires_ms"` // ExpiresAt in Unix milliseconds, 0 for none
	Expires    time.Time     `json:"expires,omitzero"`
	Challenger playerJSON    `json:"challenger"`
	Opponent   playerJSON    `json:"opponent"`
	Others     []playerJSON  `json:"others,omitempty"`
	Accepted   []string      `json:"accepted,omitempty"`
	RedID      string        `json:"red,omitempty"`
	Rows       int           `json:"rows"`
	Cols       int           `json:"cols"`
	Connect    int           `json:"connect"`
	FirstTo    int           `json:"first_to"`
	Rounds     []roundJSON   `json:"rounds,omitempty"`
	Game       []byte        `json:"game,omitempty"`
	AILevel    string        `json:"ai,omitempty"`
	Rematches  int           `json:"rematches,omitempty"`
	Message    messageJSON   `json:"message,omitzero"`
	Rating     *changeJSON   `json:"rating,omitempty"`
	Offer      *offerJSON    `json:"offer,omitempty"`
	Takeback   *takebackJSON `json:"takeback,omitempty"`
	Timers     []timerJSON   `json:"timers,omitempty"`
	Analysis   string        `json:"analysis,omitempty"` // solver.Analysis.MarshalText
	Puzzle     *puzzleJSON   `json:"puzzle,omitempty"`
	Lang       string        `json:"lang,omitempty"`       // match.Record.Lang; schemaLang
	Clock      *clockJSON    `json:"clock,omitempty"`      // match.Record.Clock; schemaClock
	DrawOffer  string        `json:"draw_offer,omitempty"` // match.Record.DrawOffer; schemaClock
	// AccepterFirst is match.Record.AccepterFirst; schemaAccepterFirst.
	AccepterFirst bool      `json:"accepter_first,omitempty"`
	Created       time.Time `json:"created"`
	Updated       time.Time `json:"updated"`
}

// puzzleJSON is the stored form of a match.Puzzle; the solution is the
// columns as digits 1-7.
type puzzleJSON struct {
	Level    string `json:"level"`
	Start    int    `json:"start"`
	WinIn    int    `json:"win_in"`
	Solution string `json:"solution"`
}

type keyJSON struct {
	Platform  string `json:"platform"`
	Workspace string `json:"workspace"`
	Channel   string `json:"channel"`
}

type playerJSON struct {
	ID   string `json:"id,omitempty"`
	Name string `json:"name,omitempty"`
}

type roundJSON struct {
	Winner string       `json:"winner,omitempty"`
	Finish match.Finish `json:"finish"`
}

// changeJSON is the stored form of a match.RatingChange: the players and
// their ratings in match.EncodeRating's form.
type changeJSON struct {
	Players [2]string `json:"players"`
	Before  [2]string `json:"before"`
	After   [2]string `json:"after"`
}

type offerJSON struct {
	Kind      match.OfferKind `json:"kind"`
	From      string          `json:"from"`
	ExpiresMS int64           `json:"expires_ms"`
	Agreed    []string        `json:"agreed,omitempty"`
}

type takebackJSON struct {
	From string `json:"from"`
	Move int    `json:"move"`
}

// clockJSON is the stored form of a clock.Clock: the control as a player
// types it ("3+2", "2d"), each player's time left in milliseconds (none
// before the game starts), the running clock's player and since when, in
// Unix milliseconds.
type clockJSON struct {
	Control string  `json:"control"`
	LeftMS  []int64 `json:"left_ms,omitempty"`
	Turn    int     `json:"turn,omitempty"`
	SinceMS int64   `json:"since_ms,omitempty"`
}

// timerJSON is the stored form of a match.Timer, its due time in Unix
// milliseconds as the schedule's sorted sets score it.
type timerJSON struct {
	Kind  match.TimerKind `json:"kind"`
	DueMS int64           `json:"due_ms"`
	Fired bool            `json:"fired,omitempty"`
}

type messageJSON struct {
	Channel   string `json:"channel,omitempty"`
	Timestamp string `json:"ts,omitempty"`
	MessageID string `json:"id,omitempty"`
}

// expiresMS returns ExpiresAt as the scripts compare it: Unix milliseconds, 0 for none.
func expiresMS(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return t.UnixMilli()
}

// encodeRecord returns the stored form of r, tagged with the write token op.
// r must be valid (it has a Game).
func encodeRecord(r *match.Record, op string) ([]byte, error) {
	cfg := r.Config()
	j := recordJSON{
		Schema: schemaVersion, Op: op,
		Key: keyJSON(r.Key), ID: r.ID, Version: r.Version, Status: r.Status, Finish: r.Finish,
		ExpiresMS: expiresMS(r.ExpiresAt), Expires: r.ExpiresAt,
		Challenger: playerJSON(r.Challenger), Opponent: playerJSON(r.Opponent), RedID: r.RedID,
		Rows: cfg.Rows, Cols: cfg.Cols, Connect: cfg.Connect, FirstTo: r.FirstTo,
		Rematches: r.Rematches, Message: messageJSON(r.Message),
		Created: r.Created, Updated: r.Updated,
	}
	if r.AILevel != solver.LevelNone {
		j.AILevel = r.AILevel.String()
	}
	if r.Multi() {
		j.Schema = schemaMulti
		for _, p := range r.Others {
			j.Others = append(j.Others, playerJSON(p))
		}
		j.Accepted = r.Accepted
	}
	if o := r.Offer; o != nil {
		j.Offer = &offerJSON{Kind: o.Kind, From: o.From, ExpiresMS: expiresMS(o.ExpiresAt), Agreed: o.Agreed}
	}
	if tb := r.Takeback; tb != nil {
		j.Takeback = &takebackJSON{From: tb.From, Move: tb.Move}
	}
	if a := r.Analysis; a != nil {
		b, _ := a.MarshalText() // never fails
		j.Analysis = string(b)
	}
	if pz := r.Puzzle; pz != nil {
		sol := make([]byte, len(pz.Solution))
		for i, c := range pz.Solution {
			sol[i] = byte('1' + c)
		}
		j.Puzzle = &puzzleJSON{Level: pz.Level.String(), Start: pz.Start, WinIn: pz.WinIn, Solution: string(sol)}
	}
	if j.Analysis != "" || j.Puzzle != nil {
		if r.Multi() {
			return nil, errors.New("an analysis or a puzzle on a game of 3 or 4 players")
		}
		j.Schema = schemaCoach
	}
	if r.Lang != "" {
		j.Lang, j.Schema = r.Lang, schemaLang
	}
	if r.DrawOffer != "" {
		j.DrawOffer, j.Schema = r.DrawOffer, schemaClock
	}
	if k := r.Clock; k.Control.Kind != clock.None {
		j.Clock, j.Schema = &clockJSON{Control: k.Control.String(), Turn: k.Turn}, schemaClock
		if k.Players > 0 {
			j.Clock.SinceMS = k.Since.UnixMilli()
			for i := range k.Players {
				j.Clock.LeftMS = append(j.Clock.LeftMS, k.Left[i].Milliseconds())
			}
		}
	}
	if c := r.Rating; c != nil {
		j.Rating = &changeJSON{Players: c.Players}
		for i := range 2 {
			j.Rating.Before[i], j.Rating.After[i] = match.EncodeRating(c.Before[i]), match.EncodeRating(c.After[i])
		}
	}
	if r.AccepterFirst {
		j.AccepterFirst, j.Schema = true, schemaAccepterFirst
	}
	if r.Status != match.StatusPending {
		b, err := r.Game.MarshalBinary()
		if err != nil {
			return nil, fmt.Errorf("encode game: %w", err)
		}
		j.Game = b
	}
	for _, rr := range r.Rounds {
		j.Rounds = append(j.Rounds, roundJSON(rr))
	}
	for _, t := range r.Timers {
		j.Timers = append(j.Timers, timerJSON{Kind: t.Kind, DueMS: t.Due.UnixMilli(), Fired: t.Fired})
	}
	return j.appendJSON(make([]byte, 0, recordSize))
}

// recordSize is the buffer a record's JSON starts in: a game of two in
// play takes 600-800 bytes, a finished rated one about 1 100.
const recordSize = 1024

// decodeRecord parses and validates a stored record read from key k. Any
// problem is a *match.CorruptError for k.
func decodeRecord(k match.Key, b []byte) (*match.Record, error) {
	r, err := parseRecord(b)
	if err == nil && r.Key != k {
		err = fmt.Errorf("record is for channel %s", r.Key)
	}
	if err == nil {
		err = r.Validate()
	}
	if err != nil {
		return nil, &match.CorruptError{Key: k, Err: err}
	}
	return r, nil
}

// parseRecord reads the stored form once: the JSON, then the game it
// carries (the only replay of the moves a load costs).
func parseRecord(b []byte) (*match.Record, error) {
	j, err := readRecordJSON(b)
	if err != nil {
		return nil, err
	}
	r := &match.Record{
		Key: match.Key(j.Key), ID: j.ID, Version: j.Version, Status: j.Status, Finish: j.Finish,
		Challenger: match.Player(j.Challenger), Opponent: match.Player(j.Opponent), RedID: j.RedID,
		Accepted: j.Accepted,
		FirstTo:  j.FirstTo, Rematches: j.Rematches, Message: match.MessageRef(j.Message),
		Created: normTime(j.Created), Updated: normTime(j.Updated), ExpiresAt: normTime(j.Expires),
		Lang: j.Lang, DrawOffer: j.DrawOffer, AccepterFirst: j.AccepterFirst,
	}
	if j.AILevel != "" {
		l, err := solver.ParseLevel(j.AILevel)
		if err != nil {
			return nil, fmt.Errorf("AI level: %w", err)
		}
		r.AILevel = l
	}
	for _, rr := range j.Rounds {
		r.Rounds = append(r.Rounds, match.RoundResult(rr))
	}
	for _, p := range j.Others {
		r.Others = append(r.Others, match.Player(p))
	}
	if o := j.Offer; o != nil {
		r.Offer = &match.Offer{Kind: o.Kind, From: o.From, Agreed: o.Agreed}
		if o.ExpiresMS != 0 {
			r.Offer.ExpiresAt = time.UnixMilli(o.ExpiresMS).UTC()
		}
	}
	if tb := j.Takeback; tb != nil {
		r.Takeback = &match.Takeback{From: tb.From, Move: tb.Move}
	}
	for _, t := range j.Timers {
		r.Timers = append(r.Timers, match.Timer{Kind: t.Kind, Due: time.UnixMilli(t.DueMS).UTC(), Fired: t.Fired})
	}
	if err := parseCoach(j, r); err != nil {
		return nil, err
	}
	if r.Clock, err = parseClock(j.Clock); err != nil {
		return nil, err
	}
	if r.Rating, err = parseRatingChange(j.Rating); err != nil {
		return nil, err
	}
	if r.Game, err = parseGame(j); err != nil {
		return nil, err
	}
	return r, nil
}

// readRecordJSON decodes a stored record's JSON and checks what its shape
// alone can tell: the schema version against the fields present, and the
// bounds of its lists.
func readRecordJSON(b []byte) (*recordJSON, error) {
	if len(b) > maxRecordBytes {
		return nil, fmt.Errorf("%d bytes, more than %d", len(b), maxRecordBytes)
	}
	var j recordJSON
	d := json.NewDecoder(bytes.NewReader(b))
	d.DisallowUnknownFields()
	if err := d.Decode(&j); err != nil {
		return nil, schemaProblem(b, fmt.Errorf("parse: %w", err))
	}
	if d.More() {
		return nil, errors.New("trailing data after the record")
	}
	if j.Schema != schemaVersion && j.Schema != schemaMulti && j.Schema != schemaCoach && j.Schema != schemaLang && j.Schema != schemaClock && j.Schema != schemaAccepterFirst {
		return nil, schemaProblem(b, nil)
	}
	if (j.Schema == schemaAccepterFirst) != j.AccepterFirst {
		return nil, fmt.Errorf("schema version %d (%d is for an open challenge its accepter starts) on a record with accepter first %v", j.Schema, schemaAccepterFirst, j.AccepterFirst)
	}
	if j.Schema == schemaAccepterFirst {
		j.Schema = shapeSchema(&j, schemaAccepterFirst)
	}
	if (j.Schema == schemaClock) != (j.Clock != nil || j.DrawOffer != "") {
		return nil, fmt.Errorf("schema version %d (%d is for a record with a clock or a draw offer) on a record with clock %v, draw offer %v", j.Schema, schemaClock, j.Clock != nil, j.DrawOffer != "")
	}
	if j.Schema == schemaClock {
		j.Schema = shapeSchema(&j, schemaClock)
	}
	if (j.Schema == schemaLang) != (j.Lang != "") {
		return nil, fmt.Errorf("schema version %d (%d is for a record with a language) on a record with language %.20q", j.Schema, schemaLang, j.Lang)
	}
	if j.Schema == schemaLang {
		if !match.ValidLanguage(j.Lang) {
			return nil, fmt.Errorf("language %.20q is not a language code", j.Lang)
		}
		j.Schema = shapeSchema(&j, schemaLang)
	}
	if coach := j.Analysis != "" || j.Puzzle != nil; (j.Schema == schemaCoach) != coach {
		return nil, fmt.Errorf("schema version %d (%d is for an analysis or a puzzle) on a record with analysis %v, puzzle %v", j.Schema, schemaCoach, j.Analysis != "", j.Puzzle != nil)
	}
	if j.Schema == schemaCoach {
		j.Schema = schemaVersion // the rest is version 1's
	}
	multi := len(j.Others) > 0
	if (j.Schema == schemaMulti) != multi || (!multi && (len(j.Accepted) > 0 || j.Offer != nil && len(j.Offer.Agreed) > 0)) {
		return nil, fmt.Errorf("schema version %d (%d is for 3 or 4 players) on a record of %d players", j.Schema, schemaMulti, 2+len(j.Others))
	}
	if len(j.Others) > engine.MaxPlayers-2 || len(j.Accepted) > engine.MaxPlayers-1 || j.Offer != nil && len(j.Offer.Agreed) > engine.MaxPlayers-1 {
		return nil, errors.New("too many players")
	}
	if got := expiresMS(j.Expires); got != j.ExpiresMS {
		return nil, fmt.Errorf("expires_ms %d disagrees with expires %v", j.ExpiresMS, j.Expires)
	}
	if len(j.Rounds) > match.MaxRounds {
		return nil, fmt.Errorf("%d rounds, more than %d", len(j.Rounds), match.MaxRounds)
	}
	if len(j.Timers) > match.MaxTimers {
		return nil, fmt.Errorf("%d timers, more than %d", len(j.Timers), match.MaxTimers)
	}
	return &j, nil
}

// shapeSchema is the version j's fields call for among the versions below
// limit: a record is written at the highest version whose fields it has,
// so one of a later version is checked, past its own fields, as the shape
// before it.
func shapeSchema(j *recordJSON, limit int) int {
	switch {
	case limit > schemaClock && (j.Clock != nil || j.DrawOffer != ""):
		return schemaClock
	case limit > schemaLang && j.Lang != "":
		return schemaLang
	case limit > schemaCoach && (j.Analysis != "" || j.Puzzle != nil):
		return schemaCoach
	case limit > schemaMulti && len(j.Others) > 0:
		return schemaMulti
	}
	return schemaVersion
}

// parseCoach sets the puzzle and the analysis of j on r.
func parseCoach(j *recordJSON, r *match.Record) error {
	if pz := j.Puzzle; pz != nil {
		l, err := solver.ParseLevel(pz.Level)
		if err != nil {
			return fmt.Errorf("puzzle level: %w", err)
		}
		r.Puzzle = &match.Puzzle{Level: l, Start: pz.Start, WinIn: pz.WinIn}
		if len(pz.Solution) > 2*solver.MaxPuzzleWin {
			return fmt.Errorf("puzzle solution of %d moves", len(pz.Solution))
		}
		for i := range len(pz.Solution) {
			c := pz.Solution[i]
			if c < '1' || c > '7' {
				return fmt.Errorf("puzzle solution %.20q", pz.Solution)
			}
			r.Puzzle.Solution = append(r.Puzzle.Solution, int(c-'1'))
		}
	}
	if j.Analysis != "" {
		r.Analysis = new(solver.Analysis)
		if err := r.Analysis.UnmarshalText([]byte(j.Analysis)); err != nil {
			return err
		}
	}
	return nil
}

// parseRatingChange reads a record's rating change, nil for none.
func parseRatingChange(c *changeJSON) (*match.RatingChange, error) {
	if c == nil {
		return nil, nil
	}
	rc := &match.RatingChange{Players: c.Players}
	for i := range 2 {
		var err error
		if rc.Before[i], err = match.DecodeRating(c.Before[i]); err != nil {
			return nil, fmt.Errorf("rating change: %w", err)
		}
		if rc.After[i], err = match.DecodeRating(c.After[i]); err != nil {
			return nil, fmt.Errorf("rating change: %w", err)
		}
	}
	return rc, nil
}

// parseGame returns the game j carries (replaying its moves), or the empty
// board of its variant for a pending challenge.
func parseGame(j *recordJSON) (*engine.Game, error) {
	cfg := engine.Config{Rows: j.Rows, Cols: j.Cols, Connect: j.Connect}
	if len(j.Others) > 0 {
		cfg.Players = 2 + len(j.Others)
	}
	if err := cfg.Validate(); err != nil {
		return nil, fmt.Errorf("variant: %w", err)
	}
	switch {
	case len(j.Game) > 0 && j.Status == match.StatusPending:
		return nil, errors.New("pending challenge has a game")
	case len(j.Game) > 0:
		g, err := engine.Decode(j.Game)
		if err != nil {
			return nil, fmt.Errorf("decode game: %w", err)
		}
		if got := g.Config(); got != cfg {
			return nil, fmt.Errorf("game variant %+v, record says %+v", got, cfg)
		}
		return g, nil
	case j.Status == match.StatusPending:
		g, _ := engine.New(cfg) // cfg is valid
		return g, nil
	}
	return nil, fmt.Errorf("%v record has no game", j.Status)
}

// schemaProblem explains a record that failed to parse: when it declares a
// schema other than this program's, that is the problem (a newer form is
// reported as such rather than as whichever field no longer fits); else
// err. It parses the head only on this error path.
func schemaProblem(b []byte, err error) error {
	var head struct {
		Schema *int `json:"schema"`
	}
	if herr := json.Unmarshal(b, &head); herr != nil {
		return fmt.Errorf("not a JSON object: %w", herr)
	}
	switch {
	case head.Schema == nil:
		return errors.New("no schema version")
	case *head.Schema > schemaAccepterFirst:
		return fmt.Errorf("%w: schema version %d, this program reads %d to %d", ErrNewerSchema, *head.Schema, schemaVersion, schemaAccepterFirst)
	case *head.Schema < schemaVersion:
		return fmt.Errorf("schema version %d, this program reads %d to %d", *head.Schema, schemaVersion, schemaAccepterFirst)
	}
	return err
}

// indexEntry is a game's entry in its channel's index of active games,
// self-describing so that the scripts can tell a stale entry without
// reading the record: the players it binds, its status, a challenge's
// expiry and the deadline of the record's TTL, in Unix milliseconds. The
// scripts read the field names (see liveLua).
type indexEntry struct {
	Players  []string     `json:"p"`
	Status   match.Status `json:"s"`
	Expires  int64        `json:"x"`
	Deadline int64        `json:"d"`
}

// newIndexEntry returns the index entry of rec written at now with ttl.
// It writes what json.Marshal writes for the indexEntry (TestIndexEntryJSON),
// without its reflection: every move writes one.
func newIndexEntry(rec *match.Record, now time.Time, ttl time.Duration) string {
	var buf [192]byte
	var ids [engine.MaxPlayers]string
	b := appendStrings(append(buf[:0], `{"p":`...), rec.AppendBound(ids[:0]))
	b = strconv.AppendUint(append(b, `,"s":`...), uint64(rec.Status), 10)
	b = strconv.AppendInt(append(b, `,"x":`...), expiresMS(rec.ExpiresAt), 10)
	b = strconv.AppendInt(append(b, `,"d":`...), now.Add(ttl).UnixMilli(), 10)
	return string(append(b, '}'))
}

// parseIndexEntry reads an index entry; ok is false for one that does not parse.
func parseIndexEntry(s string) (indexEntry, bool) {
	var e indexEntry
	if len(s) > 4096 || json.Unmarshal([]byte(s), &e) != nil {
		return e, false
	}
	return e, true
}

// live reports whether e stands for an active game at now, by the rule of
// liveLua.
func (e indexEntry) live(now time.Time) bool {
	ms := now.UnixMilli()
	switch {
	case e.Status != match.StatusPending && e.Status != match.StatusPlaying:
		return false
	case e.Deadline <= ms:
		return false
	case e.Status == match.StatusPending && e.Expires > 0 && e.Expires < ms:
		return false
	}
	return true
}

// parseClock reads a record's clock, the zero Clock for none.
func parseClock(c *clockJSON) (clock.Clock, error) {
	if c == nil {
		return clock.Clock{}, nil
	}
	var ctl clock.Control
	var err error
	if d, ok := strings.CutSuffix(c.Control, "d"); ok {
		ctl, err = clock.ParseDays(d)
	} else {
		ctl, err = clock.ParseLive(c.Control)
	}
	if err != nil {
		return clock.Clock{}, fmt.Errorf("time control: %w", err)
	}
	if len(c.LeftMS) == 0 {
		if c.Turn != 0 || c.SinceMS != 0 {
			return clock.Clock{}, errors.New("a clock not started has a turn or a start")
		}
		return clock.Clock{Control: ctl}, nil
	}
	if len(c.LeftMS) < engine.MinPlayers || len(c.LeftMS) > engine.MaxPlayers {
		return clock.Clock{}, fmt.Errorf("%d clocks", len(c.LeftMS))
	}
	k := clock.Clock{Control: ctl, Players: len(c.LeftMS), Turn: c.Turn, Since: time.UnixMilli(c.SinceMS).UTC()}
	for i, ms := range c.LeftMS {
		k.Left[i] = time.Duration(ms) * time.Millisecond
	}
	return k, nil
}
