package slack

import (
	"context"
	"github.com/connect4/connect4/bot/lang"
	"sync"
	"time"

	"github.com/connect4/connect4/bot/ttlcache"
)

// The users' locales, from users.info (slack-go sends include_locale=true
// by default). A person's language rarely changes: a few hours' TTL costs
// one users.info per active user per TTL, and a change is seen within it.
const (
	localeTTL       = 6 * time.Hour
	localeCacheSize = 8192
	// localeBudget bounds the one users.info a slash command waits for
	// when its sender's locale is not cached: a command is answered within
	// Slack's 3 s anyway, and the answer is then in their language from
	// the first one on.
	localeBudget = 400 * time.Millisecond
	// maxLocaleFills bounds the background users.info calls of clicks
	// whose sender's locale is not cached (one per user at a time).
	maxLocaleFills = 4
)

// locales caches what users.info says of users' locales ("" when it gives
// none), and tracks the background look-ups in flight. It is safe for
// concurrent use.
type locales struct {
	cache *ttlcache.Cache[string, string]
	now   func() time.Time

	mu      sync.Mutex
	filling map[string]bool
}

func newLocales() *locales {
	return &locales{cache: ttlcache.New[string, string](localeTTL, localeCacheSize), now: time.Now, filling: map[string]bool{}}
}

// get returns user's cached locale, and whether it is cached. A nil
// *locales (an Adapter built by hand in a test) caches nothing.
func (l *locales) get(user string) (string, bool) {
	if l == nil {
		return "", false
	}
	return l.cache.Get(user, l.now())
}

// put caches user's locale, bounded (see cleanLocale).
func (l *locales) put(user, locale string) {
	if l != nil {
		l.cache.Put(user, lang.Clean(locale), l.now())
	}
}

// startFill reports whether a background look-up of user may start (none
// for user in flight, fewer than maxLocaleFills in all) and marks it
// started; endFill marks it done.
func (l *locales) startFill(user string) bool {
	if l == nil {
		return false
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.filling[user] || len(l.filling) >= maxLocaleFills {
		return false
	}
	l.filling[user] = true
	return true
}

func (l *locales) endFill(user string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	delete(l.filling, user)
}

// userLocale returns user's locale for bot.Command.Locale: the cached
// one, else "" (the bot then answers in the channel's language or
// English). On a miss, with wait (a slash command) it asks users.info
// within localeBudget; without (a click: a move must not wait on Slack)
// it fills the cache in the background for the user's next click, at most
// maxLocaleFills at once. A failed look-up is not cached.
func (a *Adapter) userLocale(ctx context.Context, user string, wait bool) string {
	if loc, ok := a.locales.get(user); ok {
		return loc
	}
	if a.api == nil {
		return ""
	}
	if wait {
		ctx, cancel := context.WithTimeout(ctx, localeBudget)
		defer cancel()
		if u := a.userInfo(ctx, user, "answering in the channel's language"); u != nil {
			return lang.Clean(u.Locale) // userInfo cached it
		}
		return ""
	}
	if !a.locales.startFill(user) {
		return ""
	}
	if !a.goFrom(ctx, func(ctx context.Context) { // with the request's workspace, for its token
		defer a.locales.endFill(user)
		a.userInfo(ctx, user, "answering in the channel's language")
	}) {
		a.locales.endFill(user)
	}
	return ""
}
