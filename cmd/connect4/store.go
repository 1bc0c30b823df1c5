package main

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/connect4/connect4/bot"
	"github.com/connect4/connect4/sessions"
)

// store is what serve needs of a store: what the bot uses, and a health
// check.
type store interface {
	bot.Store
	bot.Schedule
	Ping(ctx context.Context) error
}

// openStore returns the configured store and a func that closes it: Redis
// (single node, Sentinel or Cluster) when configured, else the in-memory
// store, the documented default, without a word: serve says which store it
// uses in its "listening" line. go-redis's own log goes to log from then on.
func openStore(ctx context.Context, cfg config, log *slog.Logger, hooks sessions.Hooks) (store, func(), error) {
	opt := sessions.Options{
		Prefix: cfg.RedisPrefix, IdleTTL: cfg.GameTTL, FinishedTTL: cfg.FinishedTTL, MaxGames: cfg.MaxGames, Hooks: hooks,
		Unpipelined: cfg.RedisUnpipelined,
	}
	c, err := cfg.Redis.Client()
	if err != nil {
		return nil, nil, fmt.Errorf("REDIS_URL: %w", err)
	}
	if c == nil {
		m, err := sessions.NewMemory(opt)
		if err != nil {
			return nil, nil, err
		}
		return m, func() {}, nil
	}
	st, err := sessions.NewRedis(c, opt)
	if err != nil {
		c.Close()
		return nil, nil, err
	}
	// go-redis (v9.23.0, its latest) logs through one package-level logger
	// and has no per-client option: this is the process's only client.
	redis.SetLogger(sessions.NewLogger(log, 10*time.Second))
	pctx, cancel := context.WithTimeout(ctx, 3*time.Second)
	defer cancel()
	if err := st.Ping(pctx); err != nil {
		if m, ok := sessions.Misconfigured(err); ok {
			if m.Fatal {
				// It cannot heal: starting would only fail every
				// request, with an error log each.
				c.Close()
				return nil, nil, fmt.Errorf("redis (%s): %s", cfg.Redis.Mode(), m.Reason)
			}
			log.Error("redis configuration", "mode", cfg.Redis.Mode(), "problem", m.Reason)
		} else {
			// A passing outage is not fatal: /readyz reports it and
			// requests get "try again".
			log.Warn("redis not reachable yet", "mode", cfg.Redis.Mode(), "err", sessions.Redact(err))
		}
	} else {
		log.Info("using redis", "mode", cfg.Redis.Mode())
	}
	return st, func() {
		if err := c.Close(); err != nil {
			log.Warn("closing redis", "err", fmt.Sprint(err))
		}
	}, nil
}
