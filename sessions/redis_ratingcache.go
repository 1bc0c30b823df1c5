package sessions

import (
	"sync"

	"github.com/connect4/connect4/bot/match"
)

// ratingCache remembers the stored rating and rating history this process
// last wrote or was told of for each of the most recent players, so that a
// rated game's finishing move is one script call instead of a read of the
// ratings and then the script. It is only ever a guess, as recordCache is:
// the script compares what the plan was computed from with what is stored,
// and on a mismatch returns the stored values (reply {5, ...}), which the
// retry then plans from. A player it does not hold is guessed new (no
// rating, no history), right for every player's first rated game. It holds
// at most size players and then starts again empty; it is safe for
// concurrent use.
type ratingCache struct {
	mu   sync.Mutex
	size int
	m    map[ratingRef][2]string // rating, history; "" for none
}

// ratingRef names one player's rating: the channel and the player's id.
type ratingRef struct {
	key match.Key
	id  string
}

// minRatingCache is the least a rating cache holds, even where the record
// cache is off: a retry plans from the values the script returned.
const minRatingCache = 1024

func newRatingCache(size int) *ratingCache {
	return &ratingCache{size: max(size, minRatingCache), m: map[ratingRef][2]string{}}
}

// get returns the ratings and histories of the winner and the loser of t,
// "" for what it does not hold.
func (c *ratingCache) get(k match.Key, t match.Tally) (ratings, histories [2]string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for i, id := range [2]string{t.Winner.ID, t.Loser.ID} {
		v := c.m[ratingRef{k, id}]
		ratings[i], histories[i] = v[0], v[1]
	}
	return ratings, histories
}

// put remembers the ratings and histories of the winner and the loser of t.
func (c *ratingCache) put(k match.Key, t match.Tally, ratings, histories [2]string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.m)+2 > c.size {
		clear(c.m)
	}
	for i, id := range [2]string{t.Winner.ID, t.Loser.ID} {
		c.m[ratingRef{k, id}] = [2]string{ratings[i], histories[i]}
	}
}
