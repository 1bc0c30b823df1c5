package sessions

import (
	"context"
	"encoding/json"
	"os"
	"strconv"
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
	var fields map[string]any
	if err := json.Unmarshal(noOp, &fields); err != nil {
		t.Fatal(err)
	}
	fields["op"] = "tok"
	sorted, _ := json.Marshal(fields) // map keys in sorted order: "challenger" first
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
