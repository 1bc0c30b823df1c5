package sessions

import (
	"context"
	"encoding/json"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/connect4/connect4/bot/match"
	"github.com/connect4/connect4/engine/solver"
)

// headClient returns a client for REDIS_URL (the default of storetest,
// which this package's own tests cannot import), or skips t when none
// answers (fails it when CI=true).
func headClient(t *testing.T) *redis.Client {
	t.Helper()
	u := os.Getenv("REDIS_URL")
	if u == "" {
		u = "redis://127.0.0.1:6379/0"
	}
	opt, err := redis.ParseURL(u)
	if err != nil {
		t.Fatalf("REDIS_URL %q: %v", u, err)
	}
	opt.MaxRetries = -1
	c := redis.NewClient(opt)
	t.Cleanup(func() { c.Close() })
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Second)
	defer cancel()
	if err := c.Ping(ctx).Err(); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("Redis at %s: %v", u, err)
		}
		t.Skipf("Redis at %s: %v", u, err)
	}
	return c
}

// TestRecordHead shows that the move script's reading of a record's head
// (headLua) finds the write token, id and version that encodeRecord wrote,
// for records of every schema and channels whose names look like the
// head's own text, and finds nothing (so that the script decodes the JSON)
// in a value not in encodeRecord's form.
func TestRecordHead(t *testing.T) {
	c := headClient(t)
	head := redis.NewScript(headLua + `
local op, id, v = record_head(ARGV[1])
if not op then return {} end
return {op, id, v}
`)
	coach := validRecord(t)
	coach.Puzzle = &match.Puzzle{Level: solver.Medium, Start: 2, WinIn: 5, Solution: []int{3, 4, 3, 4, 2}}
	tricky := validRecord(t)
	tricky.Key.Channel = `C},"id":"evil","version":99,"x":"\{`
	tricky.Key.Workspace = `"quoted" \ "back"slash`
	tricky.Challenger.Name = `"id":"nope"`
	long := validRecord(t)
	long.Version = 1 << 40
	withLang := multiRecord(t, 4, nil)
	withLang.Lang = "zh-CN"
	for name, r := range map[string]*match.Record{
		"two players": validRecord(t), "four players": multiRecord(t, 4, nil), "coach": coach,
		"tricky names": tricky, "large version": long, "language": withLang,
	} {
		b, err := encodeRecord(r, newID())
		if err != nil {
			t.Fatal(err)
		}
		var want recordJSON
		if err := json.Unmarshal(b, &want); err != nil {
			t.Fatal(err)
		}
		got, err := head.Run(t.Context(), c, nil, string(b)).StringSlice()
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if w := []string{want.Op, want.ID, strconv.FormatInt(want.Version, 10)}; len(got) != 3 || got[0] != w[0] || got[1] != w[1] || got[2] != w[2] {
			t.Errorf("%s: head of %s = %q, want %q", name, b, got, w)
		}
	}
	// Not encodeRecord's form: no token, fields in another order. The
	// script must not guess.
	noOp, err := encodeRecord(validRecord(t), "")
	if err != nil {
		t.Fatal(err)
	}
	sorted := reordered(t, validRecord(t), "tok")
	for _, v := range []string{string(noOp), string(sorted), "", "{}", `{"schema":1,"op":"a","key":{},"id":"x","version":"1",`} {
		got, err := head.Run(t.Context(), c, nil, v).StringSlice()
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != 0 {
			t.Errorf("head of %.80s = %q, want none", v, got)
		}
	}
}

// TestRecordRead shows that the move script's read of a stored record
// (record_read) takes the head from the value's first 256 bytes when they
// hold it, and reads the whole value otherwise: a head longer than that
// (long channel names), a value not in encodeRecord's form, a missing key
// and a key of another type.
func TestRecordRead(t *testing.T) {
	c := headClient(t)
	read := redis.NewScript(headLua + `
local cur, op, id, v, wrong = record_read(KEYS[1])
if wrong then return {'wrong'} end
if cur == nil then return {'none'} end
local whole = 'head'
if cur then whole = cur end
return {whole, op or '', id or '', tostring(v or '')}
`)
	key := "c4test:recordread:" + newID()
	t.Cleanup(func() { c.Del(context.WithoutCancel(t.Context()), key) })
	short := validRecord(t)
	long := validRecord(t)
	long.Key.Workspace = strings.Repeat("w", 120)
	long.Key.Channel = strings.Repeat("c", 120)
	sorted := reordered(t, validRecord(t), "tok")
	enc := func(r *match.Record) string {
		b, err := encodeRecord(r, "op-"+r.Key.Channel[:1])
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	for _, tt := range []struct {
		name, value string
		want        []string
	}{
		{"short head", enc(short), []string{"head", "op-" + short.Key.Channel[:1], short.ID, strconv.FormatInt(short.Version, 10)}},
		{"long head", enc(long), []string{enc(long), "op-c", long.ID, strconv.FormatInt(long.Version, 10)}},
		{"other order", string(sorted), []string{string(sorted), "tok", short.ID, strconv.FormatInt(short.Version, 10)}},
		{"not JSON", "garbage", []string{"garbage", "", "", ""}},
	} {
		if err := c.Set(t.Context(), key, tt.value, 0).Err(); err != nil {
			t.Fatal(err)
		}
		got, err := read.Run(t.Context(), c, []string{key}).StringSlice()
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("%s: record_read = %.120q, want %.120q", tt.name, got, tt.want)
		}
	}
	c.Del(t.Context(), key)
	if got, err := read.Run(t.Context(), c, []string{key}).StringSlice(); err != nil || !slices.Equal(got, []string{"none"}) {
		t.Errorf("missing key: record_read = %q, %v, want none", got, err)
	}
	c.HSet(t.Context(), key, "f", "v")
	if got, err := read.Run(t.Context(), c, []string{key}).StringSlice(); err != nil || !slices.Equal(got, []string{"wrong"}) {
		t.Errorf("hash key: record_read = %q, %v, want wrong", got, err)
	}
}

// reordered returns r encoded with write token op and its fields in
// another order than encodeRecord's (sorted: "challenger" first).
func reordered(t *testing.T, r *match.Record, op string) []byte {
	t.Helper()
	b, err := encodeRecord(r, op)
	if err != nil {
		t.Fatal(err)
	}
	var fields map[string]any
	if err := json.Unmarshal(b, &fields); err != nil {
		t.Fatal(err)
	}
	sorted, _ := json.Marshal(fields) // map keys in sorted order
	return sorted
}
