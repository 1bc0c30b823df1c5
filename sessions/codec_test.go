package sessions

import (
	"errors"
	"reflect"
	"testing"
	"time"

	"github.com/connect4/connect4/engine"
)

func validRecord(t testing.TB) *Record {
	g, err := engine.New(engine.DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	for _, col := range []int{3, 3, 4} {
		if err := g.Play(g.Turn(), col); err != nil {
			t.Fatal(err)
		}
	}
	b, _ := g.MarshalBinary()
	now := time.Date(2025, 3, 1, 12, 0, 0, 123456789, time.UTC)
	return &Record{
		Key: Key{"slack", "T1", "C1"}, ID: "abcdefghijkl-_12", Version: 4, Status: StatusPlaying,
		Challenger: Player{"U1", "Ann"}, Opponent: Player{"U2", "Ben"}, RedID: "U2",
		Rows: 6, Cols: 7, Connect: 4, FirstTo: 3,
		Rounds: []RoundResult{{"U1", FinishWin}, {"", FinishDraw}}, Game: b,
		AILevel: "hard", Rematches: 1, Message: MessageRef{"C1", "1.2", ""},
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
	if _, err := decodeRecord(Key{"slack", "T1", "C2"}, b); !errors.Is(err, ErrCorrupt) {
		t.Errorf("decodeRecord under another key: err = %v, want ErrCorrupt", err)
	}
}

func TestEnumStrings(t *testing.T) {
	for _, tc := range []struct{ got, want string }{
		{StatusNone.String(), "none"}, {StatusPending.String(), "pending"}, {StatusFinished.String(), "finished"},
		{Status(9).String(), "status(9)"}, {FinishTimeout.String(), "timeout"}, {FinishExpired.String(), "expired"},
		{Finish(99).String(), "finish(99)"},
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
	k := Key{"slack", "T1", "C1"}
	f.Fuzz(func(t *testing.T, b []byte) {
		r, err := decodeRecord(k, b)
		if err != nil {
			if !errors.Is(err, ErrCorrupt) {
				t.Fatalf("decodeRecord error %v does not match ErrCorrupt", err)
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
