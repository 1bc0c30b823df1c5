package slack

import (
	"slices"
	"sync"
	"time"

	"github.com/connect4/connect4/bot/match"
	"github.com/connect4/connect4/bot/ttlcache"
)

// The names of the people who typed /connect4 in a channel lately, by the
// user name the slash command carries: what a typed command not understood
// may be suggested with ("challenge bob": did you mean @bob). Known from
// the requests themselves, so no Web API call; per replica, and forgotten
// after namesTTL without a command in the channel.
const (
	namesTTL       = 24 * time.Hour
	namesChannels  = 4096 // channels remembered
	namesInChannel = 32   // names per channel, the latest first
)

type channelNames struct {
	mu    sync.Mutex // orders a channel's read-modify-write
	cache *ttlcache.Cache[match.Key, []string]
	now   func() time.Time
}

func newChannelNames() *channelNames {
	return &channelNames{cache: ttlcache.New[match.Key, []string](namesTTL, namesChannels), now: time.Now}
}

// seen records that name typed a command in k's channel and returns the
// channel's names, name first; nil for an empty name and none known.
func (c *channelNames) seen(k match.Key, name string) []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	now := c.now()
	old, _ := c.cache.Get(k, now)
	if name == "" {
		return slices.Clone(old)
	}
	names := make([]string, 0, min(len(old)+1, namesInChannel))
	names = append(names, name)
	for _, n := range old {
		if n != name && len(names) < namesInChannel {
			names = append(names, n)
		}
	}
	c.cache.Put(k, names, now)
	return slices.Clone(names)
}
