package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/redis/go-redis/v9"

	"github.com/connect4/connect4/sessions/storetest"
)

// TestStoreMisconfigured checks that a Redis configuration that can never
// work (a database the server does not have, a refused user) stops serve
// and play at start, once, with what to change, instead of a warning for
// every request: the REDIS_URL=redis://…/99.
func TestStoreMisconfigured(t *testing.T) {
	storetest.Redis(t) // skips without Redis (fails in CI)
	opt, err := redis.ParseURL(storetest.RedisURL())
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, url, want string
	}{
		{"database 99", "redis://" + opt.Addr + "/99", "the database number (REDIS_URL's path, /N) does not exist"},
		{"refused user", "redis://connect4-nobody:wrong@" + opt.Addr + "/0", "the server refused the credentials"},
	}
	for _, tt := range tests {
		for _, cmd := range []string{"play", "serve"} {
			var out, errb bytes.Buffer
			err := run(t.Context(), []string{cmd}, env("REDIS_URL", tt.url, "SLACK_SIGNING_SECRET", "s", "LISTEN_ADDR", "127.0.0.1:0"),
				strings.NewReader("/connect4 board\n"), &out, &errb)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("%s, %s: err = %v, want one naming %q", tt.name, cmd, err, tt.want)
			}
			if err != nil && strings.Contains(err.Error(), "wrong") {
				t.Errorf("%s, %s: err %q repeats the password", tt.name, cmd, err)
			}
			if strings.Count(errb.String(), "\n") > 1 {
				t.Errorf("%s, %s: stderr has more than one line:\n%s", tt.name, cmd, errb.String())
			}
		}
	}
}
