package sessions

import (
	"encoding/json"
	"hash/crc32"
	"math/rand/v2"
	"reflect"
	"testing"
	"time"

	"github.com/connect4/connect4/bot/match"
	"github.com/connect4/connect4/engine/solver"
)

// fillRandom sets v, and everything it holds, to values drawn by rng: each
// string one of odd (or empty), each number small, zero, negative or large,
// each slice nil, empty or up to three long, each pointer nil or set, each
// time zero, in UTC, in another zone, or out of RFC 3339's range. It works
// on any type by reflection, so a field added to recordJSON is filled too.
func fillRandom(v reflect.Value, rng *rand.Rand, odd []string) {
	if v.Type() == reflect.TypeFor[time.Time]() {
		var t time.Time
		switch rng.IntN(5) {
		case 1:
			t = time.Unix(rng.Int64N(4e9), rng.Int64N(1e9)).UTC()
		case 2:
			t = time.Unix(rng.Int64N(4e9), rng.Int64N(1e9)).In(time.FixedZone("x", rng.IntN(50*3600)-25*3600))
		case 3:
			t = time.Date(10000+rng.IntN(3), 1, 1, 0, 0, 0, 0, time.UTC)
		case 4:
			t = time.Unix(rng.Int64N(4e9), 0).UTC()
		}
		v.Set(reflect.ValueOf(t))
		return
	}
	switch v.Kind() {
	case reflect.String:
		if rng.IntN(3) > 0 {
			v.SetString(odd[rng.IntN(len(odd))])
		}
	case reflect.Bool:
		v.SetBool(rng.IntN(2) == 0)
	case reflect.Int, reflect.Int64:
		switch rng.IntN(4) {
		case 1:
			v.SetInt(rng.Int64N(100))
		case 2:
			v.SetInt(-rng.Int64N(1 << 40))
		case 3:
			v.SetInt(rng.Int64())
		}
	case reflect.Uint8:
		v.SetUint(uint64(rng.IntN(256)))
	case reflect.Slice:
		switch n := rng.IntN(5); n {
		case 0:
		case 1:
			v.Set(reflect.MakeSlice(v.Type(), 0, 0))
		default:
			s := reflect.MakeSlice(v.Type(), n-1, n-1)
			for i := range n - 1 {
				fillRandom(s.Index(i), rng, odd)
			}
			v.Set(s)
		}
	case reflect.Array:
		for i := range v.Len() {
			fillRandom(v.Index(i), rng, odd)
		}
	case reflect.Pointer:
		if rng.IntN(2) == 0 {
			p := reflect.New(v.Type().Elem())
			fillRandom(p.Elem(), rng, odd)
			v.Set(p)
		}
	case reflect.Struct:
		for i := range v.NumField() {
			fillRandom(v.Field(i), rng, odd)
		}
	default:
		panic("fillRandom: no values for " + v.Type().String())
	}
}

// checkRecordJSON fails t unless appendJSON writes what json.Marshal
// writes for j, or both refuse it.
func checkRecordJSON(t *testing.T, j *recordJSON) {
	t.Helper()
	want, werr := json.Marshal(j)
	got, err := j.appendJSON([]byte("prefix"))
	if (err != nil) != (werr != nil) {
		t.Fatalf("appendJSON error %v, json.Marshal error %v, for %+v", err, werr, j)
	}
	if err == nil && string(got) != "prefix"+string(want) {
		t.Fatalf("appendJSON:\n got %s\nwant prefix%s", got, want)
	}
}

var oddStrings = []string{"U1", "Ann", "a\"b\\c", "<@1> & </script>", "\n\t\r\b\f\x00\x1f\x7f", "\u2028\u2029", "\xff\xfe bad", "🔴 é ü", "1.2", "{\"r\":1500}"}

// TestRecordJSONAgrees: the hand-written encoder writes the bytes
// encoding/json writes for 20 000 records of random shape (every field
// present or absent, empty or not, odd strings, times out of range), for
// the records encodeRecord makes of the test records, and refuses what
// json.Marshal refuses.
func TestRecordJSONAgrees(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for range 20000 {
		var j recordJSON
		fillRandom(reflect.ValueOf(&j).Elem(), rng, oddStrings)
		checkRecordJSON(t, &j)
	}
	var zero recordJSON
	checkRecordJSON(t, &zero)
	b, err := encodeRecord(validRecord(t), "op1")
	if err != nil {
		t.Fatal(err)
	}
	var j recordJSON
	if err := json.Unmarshal(b, &j); err != nil {
		t.Fatal(err)
	}
	checkRecordJSON(t, &j)
}

// FuzzRecordJSON: the same for any strings in a record of random shape.
func FuzzRecordJSON(f *testing.F) {
	f.Add(uint64(1), "U1", "<a&b>")
	f.Add(uint64(7), "\xff", "\u2028")
	f.Fuzz(func(t *testing.T, seed uint64, s1, s2 string) {
		var j recordJSON
		fillRandom(reflect.ValueOf(&j).Elem(), rand.New(rand.NewPCG(seed, 0)), []string{s1, s2})
		checkRecordJSON(t, &j)
	})
}

// BenchmarkEncodeRecord: encodeRecord of a game of two in play, and
// json.Marshal of the same recordJSON, as encodeRecord wrote it before.
func BenchmarkEncodeRecord(b *testing.B) {
	r := validRecord(b)
	enc, err := encodeRecord(r, "KTqpPPgqI4e7weFc")
	if err != nil {
		b.Fatal(err)
	}
	var j recordJSON
	if err := json.Unmarshal(enc, &j); err != nil {
		b.Fatal(err)
	}
	b.Run("encodeRecord", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			_, _ = encodeRecord(r, "KTqpPPgqI4e7weFc")
		}
	})
	b.Run("json.Marshal", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			_, _ = json.Marshal(&j)
		}
	})
	b.Run("appendJSON", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			_, _ = j.appendJSON(make([]byte, 0, recordSize))
		}
	})
}

// TestIndexEntryJSON: newIndexEntry writes what json.Marshal writes for
// the indexEntry, for a game of two, a game against the AI, a challenge
// with no opponent yet, a game of four, and odd ids.
func TestIndexEntryJSON(t *testing.T) {
	now := time.Date(2026, 12, 7, 15, 0, 0, 0, time.UTC)
	base := validRecord(t)
	ai := validRecord(t)
	ai.Opponent = match.Player{ID: "bot", Name: "Connect 4"}
	open := validRecord(t)
	open.Status, open.Opponent, open.AILevel = match.StatusPending, match.Player{}, solver.LevelNone
	four := validRecord(t)
	four.AILevel = solver.LevelNone
	four.Others = []match.Player{{ID: "U3"}, {ID: "<U4&\u2028>"}}
	odd := validRecord(t)
	odd.AILevel, odd.Challenger.ID, odd.ExpiresAt = solver.LevelNone, "a\"b\\\xff", time.Time{}
	for _, r := range []*match.Record{base, ai, open, four, odd} {
		want, err := json.Marshal(indexEntry{Players: r.Bound(), Status: r.Status, Expires: expiresMS(r.ExpiresAt), Deadline: now.Add(time.Hour).UnixMilli()})
		if err != nil {
			t.Fatal(err)
		}
		if got := newIndexEntry(r, now, time.Hour); got != string(want) {
			t.Errorf("newIndexEntry = %s, want %s", got, want)
		}
	}
}

// TestBucketOf: a channel's bucket is the CRC-32 of its key's string, as
// replicas of earlier versions compute it.
func TestBucketOf(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for range 2000 {
		var k match.Key
		for _, p := range []*string{&k.Platform, &k.Workspace, &k.Channel} {
			b := make([]byte, rng.IntN(40))
			for i := range b {
				b[i] = byte(rng.IntN(256))
			}
			*p = string(b)
		}
		if got, want := bucketOf(k), int(crc32.ChecksumIEEE([]byte(k.String()))%ScheduleBuckets); got != want {
			t.Fatalf("bucketOf(%q) = %d, want %d", k, got, want)
		}
	}
}
