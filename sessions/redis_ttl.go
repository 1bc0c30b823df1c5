package sessions

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/connect4/connect4/bot/match"
)

// TTL returns how long the record gameID of channel k and the channel's
// leaderboard have left to live, 0 for one that does not exist and -1 for
// one that never expires. It costs one round trip (two PTTLs in a pipeline;
// both keys share a slot).
func (s *Redis) TTL(ctx context.Context, k match.Key, gameID string) (game, leaderboard time.Duration, err error) {
	if err := s.begin(k); err != nil {
		return 0, 0, err
	}
	var g, l *redis.Cmd
	_, err = s.c.Pipelined(ctx, func(p redis.Pipeliner) error {
		g = p.Do(ctx, "PTTL", s.gameKey(k, gameID))
		l = p.Do(ctx, "PTTL", s.lbKey(k))
		return nil
	})
	if err != nil {
		return 0, 0, s.fail("ttl", k, err)
	}
	conv := func(c *redis.Cmd) time.Duration {
		switch ms, _ := c.Int64(); {
		case ms == -2:
			return 0
		case ms == -1:
			return -1
		default:
			return time.Duration(ms) * time.Millisecond
		}
	}
	return conv(g), conv(l), nil
}
