package sessions

import (
	"bytes"
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/connect4/connect4/bot/clock"
	"github.com/connect4/connect4/bot/match"
	"github.com/connect4/connect4/bot/tournament"
	"github.com/connect4/connect4/engine"
)

var codecKey = match.Key{Platform: "discord", Workspace: "G1", Channel: "C1"}

func codecTournament(t testing.TB) *tournament.Tournament {
	t.Helper()
	c, _ := clock.NewDays(3)
	now := time.Date(2026, 12, 1, 20, 0, 0, 123456789, time.UTC)
	tr, err := tournament.New("t1", codecKey, match.Player{ID: "U0", Name: "Olga"},
		tournament.Options{Format: tournament.RoundRobin, Double: true, Clock: c, Board: engine.Config{Rows: 7, Cols: 8, Connect: 5}}, now)
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{"U1", "U2", "U3", "U4", "U5"} {
		if err := tr.Join(match.Player{ID: id, Name: "name of " + id}); err != nil {
			t.Fatal(err)
		}
	}
	if err := tr.Start("U0", nil, now.Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	return tr
}

// TestTournamentCodec: a tournament reads back as it was written, and one
// stored for another channel is refused.
func TestTournamentCodec(t *testing.T) {
	tr := codecTournament(t)
	b, err := encodeTournament(tr)
	if err != nil {
		t.Fatal(err)
	}
	got, err := decodeTournament(codecKey, b)
	if err != nil || !reflect.DeepEqual(got, tr) {
		t.Fatalf("decode(encode(t)) = %+v, %v\nwant %+v", got, err, tr)
	}
	other := codecKey
	other.Channel = "C2"
	if _, err := decodeTournament(other, b); !errors.Is(err, match.ErrCorrupt) {
		t.Errorf("another channel's tournament: %v, want corrupt", err)
	}
}

// TestTournamentCodecMessage: the table's message (schema 2) reads back,
// and a tournament written by schema 1, which had none, still reads, with
// none.
func TestTournamentCodecMessage(t *testing.T) {
	tr := codecTournament(t)
	tr.Message = match.MessageRef{Channel: "C1", Timestamp: "1700000000.000100", MessageID: "991"}
	b, err := encodeTournament(tr)
	if err != nil {
		t.Fatal(err)
	}
	got, err := decodeTournament(codecKey, b)
	if err != nil || got.Message != tr.Message {
		t.Fatalf("message read back as %+v, %v; want %+v", got.Message, err, tr.Message)
	}
	tr.Message = match.MessageRef{}
	b, err = encodeTournament(tr)
	if err != nil {
		t.Fatal(err)
	}
	old := bytes.Replace(b, []byte(`"schema":2`), []byte(`"schema":1`), 1)
	got, err = decodeTournament(codecKey, old)
	if err != nil || !reflect.DeepEqual(got, tr) {
		t.Fatalf("schema 1 read as %+v, %v; want %+v", got, err, tr)
	}
	if _, err := decodeTournament(codecKey, bytes.Replace(b, []byte(`"schema":2`), []byte(`"schema":3`), 1)); !errors.Is(err, ErrNewerSchema) {
		t.Errorf("schema 3: %v, want ErrNewerSchema", err)
	}
	tr.Message.MessageID = strings.Repeat("9", match.MaxRefLen+1)
	if _, err := encodeTournament(tr); !errors.Is(err, match.ErrInvalid) {
		t.Errorf("an over-long message id: %v, want invalid", err)
	}
}

// FuzzDecodeTournament hands the decoder what a damaged or hostile value
// might hold: it must never panic, refuse only with a *match.CorruptError,
// and what it accepts must encode and read back the same.
func FuzzDecodeTournament(f *testing.F) {
	b, err := encodeTournament(codecTournament(f))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(b)
	f.Add([]byte(`{"schema":1}`))
	f.Add([]byte(`{"schema":2}`))
	f.Add([]byte(`{`))
	f.Fuzz(func(t *testing.T, b []byte) {
		tr, err := decodeTournament(codecKey, b)
		if err != nil {
			var ce *match.CorruptError
			if !errors.As(err, &ce) {
				t.Fatalf("decode: %v is not a *match.CorruptError", err)
			}
			return
		}
		again, err := encodeTournament(tr)
		if err != nil {
			t.Fatalf("decoded %+v does not encode: %v", tr, err)
		}
		back, err := decodeTournament(codecKey, again)
		if err != nil || !reflect.DeepEqual(back, tr) {
			t.Fatalf("round trip: %+v, %v\nwant %+v", back, err, tr)
		}
	})
}

func BenchmarkTournamentCodec(b *testing.B) {
	tr := codecTournament(b)
	for b.Loop() {
		data, err := encodeTournament(tr)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := decodeTournament(codecKey, data); err != nil {
			b.Fatal(err)
		}
	}
}
