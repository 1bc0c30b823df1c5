package slack

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"testing"
	"time"

	slackapi "github.com/slack-go/slack"
)

// countingAPI answers users.info from bots, failing for anyone else, and
// counts the calls.
type countingAPI struct {
	bots  map[string]bool
	calls int
}

func (c *countingAPI) AuthTestContext(context.Context) (*slackapi.AuthTestResponse, error) {
	return nil, errors.New("not in this test")
}

func (c *countingAPI) GetUserInfoContext(_ context.Context, id string, _ ...slackapi.GetUserInfoOption) (*slackapi.User, error) {
	c.calls++
	b, ok := c.bots[id]
	if !ok {
		return nil, errors.New("user_not_found")
	}
	return &slackapi.User{ID: id, IsBot: b}, nil
}

// TestIsBotCached checks that users.info is asked once per user while its
// answer is fresh, again after botCacheTTL, and every time it fails.
func TestIsBotCached(t *testing.T) {
	api := &countingAPI{bots: map[string]bool{"UBOT": true, "UPERSON": false}}
	now := time.Now()
	a := &Adapter{api: api, bots: newBotCache(), log: slog.New(slog.NewTextHandler(io.Discard, nil))}
	a.bots.now = func() time.Time { return now }
	for range 3 {
		if !a.isBot(t.Context(), "UBOT") || a.isBot(t.Context(), "UPERSON") || a.isBot(t.Context(), "UGONE") {
			t.Fatal("isBot answers wrong")
		}
	}
	if api.calls != 2+3 {
		t.Fatalf("%d users.info calls for 3 rounds of 2 known users and 1 failing, want 5", api.calls)
	}
	now = now.Add(botCacheTTL)
	a.isBot(t.Context(), "UBOT")
	if api.calls != 6 {
		t.Fatalf("%d users.info calls after the TTL, want 6", api.calls)
	}
}

// TestBotCacheBounded checks that the cache holds at most botCacheSize
// users.
func TestBotCacheBounded(t *testing.T) {
	c := newBotCache()
	for i := range botCacheSize + 100 {
		c.put(string(rune(0x10000+i)), false)
	}
	if n := len(c.users); n > botCacheSize {
		t.Fatalf("%d users kept, want at most %d", n, botCacheSize)
	}
}
