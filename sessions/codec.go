package sessions

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"time"
)

// schemaVersion is the version of the stored JSON form of a record. A reader
// refuses any other: bump it when the form changes incompatibly.
const schemaVersion = 1

// maxRecordBytes bounds a stored record; anything longer is corrupt.
const maxRecordBytes = 64 << 10

// recordJSON is the stored form of a Record. The Redis scripts read
// "version", "status", "expires_ms" and "op", so those names are part of the
// schema.
type recordJSON struct {
	Schema     int         `json:"schema"`
	Op         string      `json:"op,omitempty"` // random token of the write that stored this value
	Key        keyJSON     `json:"key"`
	ID         string      `json:"id"`
	Version    int64       `json:"version"`
	Status     Status      `json:"status"`
	Finish     Finish      `json:"finish"`
	ExpiresMS  int64       `json:"expires_ms"` // ExpiresAt in Unix milliseconds, 0 for none
	Expires    time.Time   `json:"expires,omitzero"`
	Challenger playerJSON  `json:"challenger"`
	Opponent   playerJSON  `json:"opponent"`
	RedID      string      `json:"red,omitempty"`
	Rows       int         `json:"rows"`
	Cols       int         `json:"cols"`
	Connect    int         `json:"connect"`
	FirstTo    int         `json:"first_to"`
	Rounds     []roundJSON `json:"rounds,omitempty"`
	Game       []byte      `json:"game,omitempty"`
	AILevel    string      `json:"ai,omitempty"`
	Rematches  int         `json:"rematches,omitempty"`
	Message    messageJSON `json:"message,omitzero"`
	Created    time.Time   `json:"created"`
	Updated    time.Time   `json:"updated"`
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
	Winner string `json:"winner,omitempty"`
	Finish Finish `json:"finish"`
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
func encodeRecord(r *Record, op string) ([]byte, error) {
	j := recordJSON{
		Schema: schemaVersion, Op: op,
		Key: keyJSON(r.Key), ID: r.ID, Version: r.Version, Status: r.Status, Finish: r.Finish,
		ExpiresMS: expiresMS(r.ExpiresAt), Expires: r.ExpiresAt,
		Challenger: playerJSON(r.Challenger), Opponent: playerJSON(r.Opponent), RedID: r.RedID,
		Rows: r.Rows, Cols: r.Cols, Connect: r.Connect, FirstTo: r.FirstTo,
		Game: r.Game, AILevel: r.AILevel, Rematches: r.Rematches, Message: messageJSON(r.Message),
		Created: r.Created, Updated: r.Updated,
	}
	for _, rr := range r.Rounds {
		j.Rounds = append(j.Rounds, roundJSON(rr))
	}
	return json.Marshal(&j)
}

// decodeRecord parses and validates a stored record read from key k. Any
// problem is a *CorruptError for k.
func decodeRecord(k Key, b []byte) (*Record, error) {
	r, err := parseRecord(b)
	if err == nil && r.Key != k {
		err = fmt.Errorf("record is for channel %s", r.Key)
	}
	if err == nil {
		err = r.validate()
	}
	if err != nil {
		return nil, &CorruptError{Key: k, Err: err}
	}
	return r, nil
}

func parseRecord(b []byte) (*Record, error) {
	if len(b) > maxRecordBytes {
		return nil, fmt.Errorf("%d bytes, more than %d", len(b), maxRecordBytes)
	}
	// Check the schema before anything else, so that a newer form is reported
	// as such rather than as whichever field no longer fits.
	var head struct {
		Schema *int `json:"schema"`
	}
	if err := json.Unmarshal(b, &head); err != nil {
		return nil, fmt.Errorf("not a JSON object: %w", err)
	}
	switch {
	case head.Schema == nil:
		return nil, errors.New("no schema version")
	case *head.Schema != schemaVersion:
		return nil, fmt.Errorf("schema version %d, this program reads %d", *head.Schema, schemaVersion)
	}
	var j recordJSON
	d := json.NewDecoder(bytes.NewReader(b))
	d.DisallowUnknownFields()
	if err := d.Decode(&j); err != nil {
		return nil, fmt.Errorf("parse: %w", err)
	}
	if d.More() {
		return nil, errors.New("trailing data after the record")
	}
	if got := expiresMS(j.Expires); got != j.ExpiresMS {
		return nil, fmt.Errorf("expires_ms %d disagrees with expires %v", j.ExpiresMS, j.Expires)
	}
	r := &Record{
		Key: Key(j.Key), ID: j.ID, Version: j.Version, Status: j.Status, Finish: j.Finish,
		Challenger: Player(j.Challenger), Opponent: Player(j.Opponent), RedID: j.RedID,
		Rows: j.Rows, Cols: j.Cols, Connect: j.Connect, FirstTo: j.FirstTo,
		Game: j.Game, AILevel: j.AILevel, Rematches: j.Rematches, Message: MessageRef(j.Message),
		Created: normTime(j.Created), Updated: normTime(j.Updated), ExpiresAt: normTime(j.Expires),
	}
	if len(j.Rounds) > maxRounds {
		return nil, fmt.Errorf("%d rounds, more than %d", len(j.Rounds), maxRounds)
	}
	for _, rr := range j.Rounds {
		r.Rounds = append(r.Rounds, RoundResult(rr))
	}
	return r, nil
}
