package slack

import (
	"context"
	"sync"
	"time"
)

// How long and how many users.info answers about bots are kept: whether a
// user is a bot does not change, so only the size needs a bound; the TTL
// lets a deleted and re-created app be seen again.
const (
	botCacheTTL  = time.Hour
	botCacheSize = 4096
)

// botCache remembers which users Slack marks as bots, so that challenging
// the same opponent again asks users.info once an hour, not once per
// challenge. It holds at most botCacheSize users. It is safe for
// concurrent use.
type botCache struct {
	mu    sync.Mutex
	users map[string]botEntry
	now   func() time.Time
}

type botEntry struct {
	bot     bool
	expires time.Time
}

func newBotCache() *botCache {
	return &botCache{users: make(map[string]botEntry), now: time.Now}
}

// get returns what is known of id, and whether it is known.
func (c *botCache) get(id string) (isBot, ok bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.users[id]
	if !ok || !c.now().Before(e.expires) {
		return false, false
	}
	return e.bot, true
}

// put records whether id is a bot. When the cache is full it drops the
// expired users, and when none has expired an arbitrary one.
func (c *botCache) put(id string, isBot bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	now := c.now()
	if _, ok := c.users[id]; !ok && len(c.users) >= botCacheSize {
		for k, e := range c.users {
			if !now.Before(e.expires) {
				delete(c.users, k)
			}
		}
		for k := range c.users {
			if len(c.users) < botCacheSize {
				break
			}
			delete(c.users, k)
		}
	}
	c.users[id] = botEntry{bot: isBot, expires: now.Add(botCacheTTL)}
}

// isBot reports whether Slack marks user id as a bot or app user. It
// returns false when it cannot tell (no bot token, or users.info failed);
// such an answer is not remembered.
func (a *Adapter) isBot(ctx context.Context, id string) bool {
	if id == "USLACKBOT" {
		return true
	}
	if b, ok := a.bots.get(id); ok {
		return b
	}
	u := a.userInfo(ctx, id, "treating the user as a person")
	if u == nil {
		return false
	}
	b := u.IsBot || u.IsAppUser
	a.bots.put(id, b)
	return b
}
