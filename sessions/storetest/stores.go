package storetest

import (
	"testing"

	"github.com/redis/go-redis/v9"

	"github.com/connect4/connect4/sessions"
)

// NewMemory returns sessions.NewMemory(opt), failing t on invalid options.
func NewMemory(t testing.TB, opt sessions.Options) *sessions.Memory {
	t.Helper()
	s, err := sessions.NewMemory(opt)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// NewRedis returns sessions.NewRedis(c, opt), failing t on invalid options.
func NewRedis(t testing.TB, c redis.UniversalClient, opt sessions.Options) *sessions.Redis {
	t.Helper()
	s, err := sessions.NewRedis(c, opt)
	if err != nil {
		t.Fatal(err)
	}
	return s
}
