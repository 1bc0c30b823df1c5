package sessions

import (
	"bytes"
	"errors"
	"reflect"
	"testing"
	"time"

	"github.com/connect4/connect4/bot/clock"
	"github.com/connect4/connect4/bot/match"

	"github.com/connect4/connect4/engine"
	"github.com/connect4/connect4/engine/solver"
)

func validRecord(t testing.TB) *match.Record {
	g, err := engine.New(engine.DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	for _, col := range []int{3, 3, 4} {
		if err := g.Play(g.Turn(), col); err != nil {
			t.Fatal(err)
		}
	}
	now := time.Date(2025, 3, 1, 12, 0, 0, 123456789, time.UTC)
	return &match.Record{
		Key: match.Key{Platform: "slack", Workspace: "T1", Channel: "C1"}, ID: "abcdefghijkl-_12", Version: 4, Status: match.StatusPlaying,
		Challenger: match.Player{ID: "U1", Name: "Ann"}, Opponent: match.Player{ID: "U2", Name: "Ben"}, RedID: "U2",
		FirstTo: 3,
		Rounds:  []match.RoundResult{{Winner: "U1", Finish: match.FinishWin}, {Winner: "", Finish: match.FinishDraw}}, Game: g,
		AILevel: solver.Hard, Rematches: 1, Message: match.MessageRef{Channel: "C1", Timestamp: "1.2"},
		Created: now, Updated: now.Add(time.Minute), ExpiresAt: now.Add(time.Hour),
	}
}

func TestRecordRoundTrip(t *testing.T) {
	r := validRecord(t)
	b, err := encodeRecord(r, "op1")
	if err != nil {
		t.Fatal(err)
	}
	got, err := decodeRecord(r.Key, b)
	if err != nil {
		t.Fatalf("decodeRecord(%s): %v", b, err)
	}
	if !reflect.DeepEqual(got, r) {
		t.Errorf("round trip:\n got %+v\nwant %+v", got, r)
	}
	if _, err := decodeRecord(match.Key{Platform: "slack", Workspace: "T1", Channel: "C2"}, b); !errors.Is(err, match.ErrCorrupt) {
		t.Errorf("decodeRecord under another key: err = %v, want match.ErrCorrupt", err)
	}
}

// TestCoachRecordRoundTrip: a record that keeps an analysis or plays a
// puzzle round-trips in schema 3, and the schema must match its fields.
func TestCoachRecordRoundTrip(t *testing.T) {
	r := validRecord(t)
	r.Analysis = &solver.Analysis{Exact: true, Turning: 2, Proven: 2, Moves: []solver.MoveVerdict{
		{Column: 3, Best: -1}, {Column: 3, Verdict: solver.KeptDraw, Only: true, Best: 3},
		{Column: 4, Verdict: solver.DrawToLoss, Best: 2}}}
	r.Puzzle = &match.Puzzle{Level: solver.Medium, Start: 2, WinIn: 5, Solution: []int{3, 4, 3, 4, 2, 1, 6, 0, 3}}
	b, err := encodeRecord(r, "op1")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(b, []byte(`"schema":3`)) {
		t.Errorf("a record with an analysis and a puzzle is written as %s, want schema 3", b)
	}
	got, err := decodeRecord(r.Key, b)
	if err != nil {
		t.Fatalf("decodeRecord(%s): %v", b, err)
	}
	if !reflect.DeepEqual(got, r) {
		t.Errorf("round trip:\n got %+v\nwant %+v", got, r)
	}
	for _, tc := range []struct{ from, to string }{
		{`"schema":3`, `"schema":1`},
		{`"solution":"454532714"`, `"solution":"454538714"`},
		{`"level":"medium"`, `"level":"expert"`},
		{`a1;e;`, `a9;e;`},
	} {
		bad := bytes.Replace(b, []byte(tc.from), []byte(tc.to), 1)
		if bytes.Equal(bad, b) {
			t.Fatalf("%s not in %s", tc.from, b)
		}
		if _, err := decodeRecord(r.Key, bad); err == nil {
			t.Errorf("decodeRecord with %s = nil error", tc.to)
		}
	}
	plain, _ := encodeRecord(validRecord(t), "op1")
	if _, err := decodeRecord(r.Key, bytes.Replace(plain, []byte(`"schema":1`), []byte(`"schema":3`), 1)); err == nil {
		t.Error("schema 3 without an analysis or a puzzle decoded")
	}
}

func TestEnumStrings(t *testing.T) {
	for _, tc := range []struct{ got, want string }{
		{match.StatusNone.String(), "none"}, {match.StatusPending.String(), "pending"}, {match.StatusFinished.String(), "finished"},
		{match.Status(9).String(), "status(9)"}, {match.FinishTimeout.String(), "timeout"}, {match.FinishExpired.String(), "expired"},
		{match.Finish(99).String(), "finish(99)"},
	} {
		if tc.got != tc.want {
			t.Errorf("String() = %q, want %q", tc.got, tc.want)
		}
	}
}

func FuzzDecodeRecord(f *testing.F) {
	b, err := encodeRecord(validRecord(f), "op")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(b)
	f.Add([]byte(`{"schema":1}`))
	f.Add([]byte(`{"schema":1,"key":{"platform":"slack","workspace":"T1","channel":"C1"},"id":"x","version":1,"status":1,"challenger":{"id":"U1"},"rows":6,"cols":7,"connect":4,"first_to":1}`))
	f.Add([]byte(`[]`))
	k := match.Key{Platform: "slack", Workspace: "T1", Channel: "C1"}
	f.Fuzz(func(t *testing.T, b []byte) {
		r, err := decodeRecord(k, b)
		if err != nil {
			if !errors.Is(err, match.ErrCorrupt) {
				t.Fatalf("decodeRecord error %v does not match match.ErrCorrupt", err)
			}
			return
		}
		// Whatever reads back valid must survive another round trip unchanged.
		b2, err := encodeRecord(r, "op")
		if err != nil {
			t.Fatalf("re-encode a valid record: %v", err)
		}
		r2, err := decodeRecord(k, b2)
		if err != nil || !reflect.DeepEqual(r, r2) {
			t.Fatalf("second round trip: %v\n got %+v\nwant %+v", err, r2, r)
		}
	})
}

// TestLangRecordRoundTrip: a record that keeps its language round-trips
// in schema 4 whatever its shape, the schema must match the field, and a
// record without one reads as before.
func TestLangRecordRoundTrip(t *testing.T) {
	for _, tc := range []struct {
		name  string
		shape func(r *match.Record)
	}{
		{"two players", func(*match.Record) {}},
		{"puzzle", func(r *match.Record) {
			r.Puzzle = &match.Puzzle{Level: solver.Medium, Start: 2, WinIn: 5, Solution: []int{3, 4, 3, 4, 2, 1, 6, 0, 3}}
		}},
	} {
		r := validRecord(t)
		tc.shape(r)
		r.Lang = "pt-BR"
		b, err := encodeRecord(r, "op1")
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Contains(b, []byte(`"schema":4`)) || !bytes.Contains(b, []byte(`"lang":"pt-BR"`)) {
			t.Errorf("%s: a record with a language is written as %s, want schema 4 and its lang", tc.name, b)
		}
		got, err := decodeRecord(r.Key, b)
		if err != nil {
			t.Fatalf("%s: decodeRecord(%s): %v", tc.name, b, err)
		}
		if !reflect.DeepEqual(got, r) {
			t.Errorf("%s: round trip:\n got %+v\nwant %+v", tc.name, got, r)
		}
		for _, bad := range []struct{ from, to string }{
			{`"schema":4`, `"schema":1`},
			{`"lang":"pt-BR"`, `"lang":"pt BR"`},
			{`"lang":"pt-BR"`, `"lang":""`},
		} {
			if _, err := decodeRecord(r.Key, bytes.Replace(b, []byte(bad.from), []byte(bad.to), 1)); err == nil {
				t.Errorf("%s: decodeRecord with %s = nil error", tc.name, bad.to)
			}
		}
	}
	plain, _ := encodeRecord(validRecord(t), "op1")
	if bytes.Contains(plain, []byte(`"lang"`)) || !bytes.Contains(plain, []byte(`"schema":1`)) {
		t.Errorf("a record without a language is written as %s, want schema 1 and no lang", plain)
	}
	if _, err := decodeRecord(validRecord(t).Key, bytes.Replace(plain, []byte(`"schema":1`), []byte(`"schema":7`), 1)); !errors.Is(err, ErrNewerSchema) {
		t.Errorf("schema 7: %v, want ErrNewerSchema", err)
	}
}

// TestClockRecordRoundTrip: a record under a time control round-trips in
// schema 5 over any shape, with or without a language, before its clock
// starts and while it runs; the schema must match the field, and a
// damaged clock is refused.
func TestClockRecordRoundTrip(t *testing.T) {
	live, _ := clock.NewLive(3, 2)
	days, _ := clock.NewDays(2)
	since := time.Date(2025, 3, 1, 12, 1, 0, 0, time.UTC)
	running := clock.Start(live, 2, since)
	running.Left[0] -= 1500 * time.Millisecond
	running.Turn = 1
	for _, tc := range []struct {
		name  string
		shape func(r *match.Record)
	}{
		{"live", func(r *match.Record) { r.Clock = running }},
		{"draw offer, no clock", func(r *match.Record) { r.DrawOffer, r.AILevel = "U1", solver.LevelNone }},
		{"days, with a language", func(r *match.Record) { r.Clock, r.Lang = clock.Start(days, 2, since), "de" }},
		{"pending", func(r *match.Record) {
			r.Status, r.RedID, r.Rounds, r.FirstTo, r.AILevel = match.StatusPending, "", nil, 1, solver.LevelNone
			r.Game, _ = engine.New(engine.DefaultConfig())
			r.Clock = clock.Clock{Control: live}
		}},
	} {
		r := validRecord(t)
		tc.shape(r)
		b, err := encodeRecord(r, "op1")
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Contains(b, []byte(`"schema":5`)) || !bytes.Contains(b, []byte(`"clock":{`)) && !bytes.Contains(b, []byte(`"draw_offer":"U1"`)) {
			t.Errorf("%s: a record with a clock or a draw offer is written as %s, want schema 5 and the field", tc.name, b)
		}
		got, err := decodeRecord(r.Key, b)
		if err != nil {
			t.Fatalf("%s: decodeRecord(%s): %v", tc.name, b, err)
		}
		if !reflect.DeepEqual(got, r) {
			t.Errorf("%s: round trip:\n got %+v\nwant %+v", tc.name, got, r)
		}
		for _, bad := range []struct{ from, to string }{
			{`"schema":5`, `"schema":4`},
			{`"schema":5`, `"schema":1`},
			{`"control":"`, `"control":"0+0`},
			{`"control":"`, `"control":"x`},
			{`"draw_offer":"U1"`, `"draw_offer":"U7"`},
		} {
			if !bytes.Contains(b, []byte(bad.from)) {
				continue
			}
			if _, err := decodeRecord(r.Key, bytes.Replace(b, []byte(bad.from), []byte(bad.to), 1)); err == nil {
				t.Errorf("%s: decodeRecord with %s = nil error", tc.name, bad.to)
			}
		}
	}
	r := validRecord(t)
	r.Clock = running
	b, _ := encodeRecord(r, "op1")
	for _, bad := range []string{`"left_ms":[1,2,3,4,5]`, `"left_ms":[1]`, `"turn":7`} {
		d := bytes.Replace(b, []byte(`"left_ms":[178500,180000]`), []byte(bad), 1)
		d = bytes.Replace(d, []byte(`"turn":1`), []byte(bad), 1)
		if _, err := decodeRecord(r.Key, d); err == nil {
			t.Errorf("decodeRecord with %s = nil error", bad)
		}
	}
}

// TestAccepterFirstRoundTrip: an open challenge whose accepter moves first
// round-trips in schema 6 over any shape before it; the schema must match
// the field, and the mark is refused on a challenge with an opponent.
func TestAccepterFirstRoundTrip(t *testing.T) {
	live, _ := clock.NewLive(3, 2)
	open := func(r *match.Record) {
		r.Status, r.RedID, r.Rounds, r.FirstTo, r.AILevel = match.StatusPending, "", nil, 1, solver.LevelNone
		r.Opponent, r.AccepterFirst = match.Player{}, true
		r.Game, _ = engine.New(engine.DefaultConfig())
	}
	for _, tc := range []struct {
		name  string
		shape func(r *match.Record)
	}{
		{"plain", func(r *match.Record) {}},
		{"with a language", func(r *match.Record) { r.Lang = "de" }},
		{"with a clock and a language", func(r *match.Record) { r.Lang, r.Clock = "fr", clock.Clock{Control: live} }},
	} {
		r := validRecord(t)
		open(r)
		tc.shape(r)
		b, err := encodeRecord(r, "op1")
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Contains(b, []byte(`"schema":6`)) || !bytes.Contains(b, []byte(`"accepter_first":true`)) {
			t.Errorf("%s: written as %s, want schema 6 and accepter_first", tc.name, b)
		}
		got, err := decodeRecord(r.Key, b)
		if err != nil {
			t.Fatalf("%s: decodeRecord(%s): %v", tc.name, b, err)
		}
		if !reflect.DeepEqual(got, r) {
			t.Errorf("%s: round trip:\n got %+v\nwant %+v", tc.name, got, r)
		}
		for _, bad := range []struct{ from, to string }{
			{`"schema":6`, `"schema":5`},
			{`"schema":6`, `"schema":1`},
			{`"accepter_first":true`, `"accepter_first":false`},
			{`"opponent":{}`, `"opponent":{"id":"U2"}`},
		} {
			if !bytes.Contains(b, []byte(bad.from)) {
				t.Errorf("%s: %s has no %s", tc.name, b, bad.from)
				continue
			}
			if _, err := decodeRecord(r.Key, bytes.Replace(b, []byte(bad.from), []byte(bad.to), 1)); err == nil {
				t.Errorf("%s: decodeRecord with %s = nil error", tc.name, bad.to)
			}
		}
	}
}
