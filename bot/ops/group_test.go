package ops

import (
	"context"
	"errors"
	"testing"
	"time"
)

func TestGroupFatalAndStop(t *testing.T) {
	var g Group
	ctx, cancel := context.WithCancel(t.Context())
	refused := errors.New("discord: authentication failed")
	g.Go(ctx, func(context.Context) error { return refused })
	g.Go(ctx, func(ctx context.Context) error { <-ctx.Done(); return ctx.Err() })
	select {
	case err := <-g.Fatal():
		if !errors.Is(err, refused) {
			t.Fatalf("Fatal() = %v, want %v", err, refused)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("a connection that failed before its context ended did not reach Fatal")
	}
	var order []string
	g.OnStop(func(context.Context) { order = append(order, "slack") })
	g.OnStop(func(context.Context) { order = append(order, "discord") })
	cancel()
	g.Stop(t.Context()) // returns only once the second connection ended
	if len(order) != 2 || order[0] != "slack" || order[1] != "discord" {
		t.Errorf("Stop called %v, want [slack discord]", order)
	}
	select {
	case err := <-g.Fatal():
		t.Errorf("a connection ended by its context reached Fatal: %v", err)
	default:
	}
}
