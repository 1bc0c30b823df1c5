package main

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"github.com/connect4/connect4/bot"
	"github.com/connect4/connect4/sessions"
)

// openStore returns the configured store and a func that closes it: Redis
// (single node, Sentinel or Cluster) when configured, else the in-memory
// store with a warning that games will not survive a restart.
// store is what serve needs of a store: what the bot uses, and a health check.
type store interface {
	bot.Store
	Ping(ctx context.Context) error
}

func openStore(ctx context.Context, cfg config, log *slog.Logger, hooks sessions.Hooks) (store, func(), error) {
	opt := sessions.Options{
		Prefix: cfg.RedisPrefix, IdleTTL: cfg.GameTTL, FinishedTTL: cfg.FinishedTTL, Hooks: hooks,
	}
	c, err := cfg.redisClient()
	if err != nil {
		return nil, nil, err
	}
	if c == nil {
		log.Warn("no REDIS_URL: using the in-memory store; games and leaderboards will not survive a restart")
		return sessions.NewMemory(opt), func() {}, nil
	}
	st := sessions.NewRedis(c, opt)
	pctx, cancel := context.WithTimeout(ctx, 3*time.Second)
	defer cancel()
	if err := st.Ping(pctx); err != nil {
		// Not fatal: /readyz reports it and requests get "try again".
		log.Warn("redis not reachable yet", "mode", cfg.redisMode(), "err", err)
	} else {
		log.Info("using redis", "mode", cfg.redisMode())
	}
	return st, func() {
		if err := c.Close(); err != nil {
			log.Warn("closing redis", "err", fmt.Sprint(err))
		}
	}, nil
}
