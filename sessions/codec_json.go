package sessions

import (
	"encoding/base64"
	"strconv"
	"time"

	"github.com/connect4/connect4/bot/jsonw"
)

// appendJSON appends the JSON of j exactly as json.Marshal(j) writes it:
// the fields in recordJSON's order under their tags' names, omitempty and
// omitzero as the tags say, strings escaped as encoding/json escapes them
// (jsonw), times in RFC 3339 with nanoseconds, the game in base64. Every
// write of a record encodes it, and encoding/json's reflection cost a move
// on Redis about 8 µs of the server's CPU and a dozen allocations (a
// profile of the load test, 2026-12-07). The scripts read the head of this
// JSON by position (headLua), and the readers decode it with
// encoding/json: TestRecordJSONAgrees and FuzzRecordJSON hold the two
// encodings to the same bytes, field by field, so a field added to
// recordJSON and not here fails them.
func (j *recordJSON) appendJSON(b []byte) ([]byte, error) {
	b = strconv.AppendInt(append(b, `{"schema":`...), int64(j.Schema), 10)
	if j.Op != "" {
		b = jsonw.AppendString(append(b, `,"op":`...), j.Op)
	}
	b = jsonw.AppendString(append(b, `,"key":{"platform":`...), j.Key.Platform)
	b = jsonw.AppendString(append(b, `,"workspace":`...), j.Key.Workspace)
	b = jsonw.AppendString(append(b, `,"channel":`...), j.Key.Channel)
	b = jsonw.AppendString(append(b, `},"id":`...), j.ID)
	b = strconv.AppendInt(append(b, `,"version":`...), j.Version, 10)
	b = strconv.AppendUint(append(b, `,"status":`...), uint64(j.Status), 10)
	b = strconv.AppendUint(append(b, `,"finish":`...), uint64(j.Finish), 10)
	b = strconv.AppendInt(append(b, `,"expires_ms":`...), j.ExpiresMS, 10)
	var err error
	if !j.Expires.IsZero() {
		if b, err = appendTime(append(b, `,"expires":`...), j.Expires); err != nil {
			return nil, err
		}
	}
	b = appendPlayer(append(b, `,"challenger":`...), j.Challenger)
	b = appendPlayer(append(b, `,"opponent":`...), j.Opponent)
	if len(j.Others) > 0 {
		b = append(b, `,"others":[`...)
		for i, p := range j.Others {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendPlayer(b, p)
		}
		b = append(b, ']')
	}
	if len(j.Accepted) > 0 {
		b = appendStrings(append(b, `,"accepted":`...), j.Accepted)
	}
	if j.RedID != "" {
		b = jsonw.AppendString(append(b, `,"red":`...), j.RedID)
	}
	b = strconv.AppendInt(append(b, `,"rows":`...), int64(j.Rows), 10)
	b = strconv.AppendInt(append(b, `,"cols":`...), int64(j.Cols), 10)
	b = strconv.AppendInt(append(b, `,"connect":`...), int64(j.Connect), 10)
	b = strconv.AppendInt(append(b, `,"first_to":`...), int64(j.FirstTo), 10)
	if len(j.Rounds) > 0 {
		b = append(b, `,"rounds":[`...)
		for i, r := range j.Rounds {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, '{')
			if r.Winner != "" {
				b = jsonw.AppendString(append(b, `"winner":`...), r.Winner)
				b = append(b, ',')
			}
			b = strconv.AppendUint(append(b, `"finish":`...), uint64(r.Finish), 10)
			b = append(b, '}')
		}
		b = append(b, ']')
	}
	if len(j.Game) > 0 {
		b = append(b, `,"game":"`...)
		b = base64.StdEncoding.AppendEncode(b, j.Game)
		b = append(b, '"')
	}
	if j.AILevel != "" {
		b = jsonw.AppendString(append(b, `,"ai":`...), j.AILevel)
	}
	if j.Rematches != 0 {
		b = strconv.AppendInt(append(b, `,"rematches":`...), int64(j.Rematches), 10)
	}
	if m := j.Message; m != (messageJSON{}) {
		b = append(b, `,"message":{`...)
		sep := ""
		for _, f := range [...]struct{ name, v string }{{`"channel":`, m.Channel}, {`"ts":`, m.Timestamp}, {`"id":`, m.MessageID}} {
			if f.v != "" {
				b = jsonw.AppendString(append(append(b, sep...), f.name...), f.v)
				sep = ","
			}
		}
		b = append(b, '}')
	}
	if c := j.Rating; c != nil {
		b = appendStrings(append(b, `,"rating":{"players":`...), c.Players[:])
		b = appendStrings(append(b, `,"before":`...), c.Before[:])
		b = appendStrings(append(b, `,"after":`...), c.After[:])
		b = append(b, '}')
	}
	if o := j.Offer; o != nil {
		b = strconv.AppendUint(append(b, `,"offer":{"kind":`...), uint64(o.Kind), 10)
		b = jsonw.AppendString(append(b, `,"from":`...), o.From)
		b = strconv.AppendInt(append(b, `,"expires_ms":`...), o.ExpiresMS, 10)
		if len(o.Agreed) > 0 {
			b = appendStrings(append(b, `,"agreed":`...), o.Agreed)
		}
		b = append(b, '}')
	}
	if tb := j.Takeback; tb != nil {
		b = jsonw.AppendString(append(b, `,"takeback":{"from":`...), tb.From)
		b = strconv.AppendInt(append(b, `,"move":`...), int64(tb.Move), 10)
		b = append(b, '}')
	}
	if len(j.Timers) > 0 {
		b = append(b, `,"timers":[`...)
		for i, t := range j.Timers {
			if i > 0 {
				b = append(b, ',')
			}
			b = strconv.AppendUint(append(b, `{"kind":`...), uint64(t.Kind), 10)
			b = strconv.AppendInt(append(b, `,"due_ms":`...), t.DueMS, 10)
			if t.Fired {
				b = append(b, `,"fired":true`...)
			}
			b = append(b, '}')
		}
		b = append(b, ']')
	}
	if j.Analysis != "" {
		b = jsonw.AppendString(append(b, `,"analysis":`...), j.Analysis)
	}
	if p := j.Puzzle; p != nil {
		b = jsonw.AppendString(append(b, `,"puzzle":{"level":`...), p.Level)
		b = strconv.AppendInt(append(b, `,"start":`...), int64(p.Start), 10)
		b = strconv.AppendInt(append(b, `,"win_in":`...), int64(p.WinIn), 10)
		b = jsonw.AppendString(append(b, `,"solution":`...), p.Solution)
		b = append(b, '}')
	}
	if j.Lang != "" {
		b = jsonw.AppendString(append(b, `,"lang":`...), j.Lang)
	}
	if c := j.Clock; c != nil {
		b = jsonw.AppendString(append(b, `,"clock":{"control":`...), c.Control)
		if len(c.LeftMS) > 0 {
			b = append(b, `,"left_ms":[`...)
			for i, ms := range c.LeftMS {
				if i > 0 {
					b = append(b, ',')
				}
				b = strconv.AppendInt(b, ms, 10)
			}
			b = append(b, ']')
		}
		if c.Turn != 0 {
			b = strconv.AppendInt(append(b, `,"turn":`...), int64(c.Turn), 10)
		}
		if c.SinceMS != 0 {
			b = strconv.AppendInt(append(b, `,"since_ms":`...), c.SinceMS, 10)
		}
		b = append(b, '}')
	}
	if j.DrawOffer != "" {
		b = jsonw.AppendString(append(b, `,"draw_offer":`...), j.DrawOffer)
	}
	if j.AccepterFirst {
		b = append(b, `,"accepter_first":true`...)
	}
	if b, err = appendTime(append(b, `,"created":`...), j.Created); err != nil {
		return nil, err
	}
	if b, err = appendTime(append(b, `,"updated":`...), j.Updated); err != nil {
		return nil, err
	}
	return append(b, '}'), nil
}

// appendPlayer appends a playerJSON: both fields omitempty.
func appendPlayer(b []byte, p playerJSON) []byte {
	b = append(b, '{')
	if p.ID != "" {
		b = jsonw.AppendString(append(b, `"id":`...), p.ID)
	}
	if p.Name != "" {
		if p.ID != "" {
			b = append(b, ',')
		}
		b = jsonw.AppendString(append(b, `"name":`...), p.Name)
	}
	return append(b, '}')
}

// appendStrings appends ss as a JSON array of strings.
func appendStrings(b []byte, ss []string) []byte {
	b = append(b, '[')
	for i, s := range ss {
		if i > 0 {
			b = append(b, ',')
		}
		b = jsonw.AppendString(b, s)
	}
	return append(b, ']')
}

// appendTime appends t as time.Time's MarshalJSON writes it, with its
// error for a time RFC 3339 cannot hold (a year outside 0-9999, a zone
// offset of a day or more).
func appendTime(b []byte, t time.Time) ([]byte, error) {
	b, err := t.AppendText(append(b, '"'))
	if err != nil {
		return nil, err
	}
	return append(b, '"'), nil
}
