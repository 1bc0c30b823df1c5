package match

import (
	"context"
	"errors"
)

// ErrReplay means a write carried the nonce of a request that has already
// changed something: a replay of a signed request, which the store refused
// as a whole.
var ErrReplay = errors.New("match: request already handled")

// MaxNonceLen is the longest nonce a store accepts.
const MaxNonceLen = 128

type nonceKey struct{}

// WithNonce returns ctx carrying nonce, the identity of the signed request
// being served (see bot.Command.Nonce). A store's Create and Update record
// it in the same atomic step as their write and refuse, with ErrReplay, a
// write whose nonce it has already recorded within its replay window, on
// every replica. An empty nonce carries none: use it for a second write
// made by the same request (the AI's reply to a move).
//
// The nonce travels in the context because it is request-scoped data that
// crosses the store's API without being part of what the store is asked to
// do.
func WithNonce(ctx context.Context, nonce string) context.Context {
	return context.WithValue(ctx, nonceKey{}, nonce)
}

// Nonce returns the nonce ctx carries, or "".
func Nonce(ctx context.Context) string {
	n, _ := ctx.Value(nonceKey{}).(string)
	return n
}

// ValidNonce reports whether n is 1 to 128 URL-safe characters, the form a
// store accepts.
func ValidNonce(n string) bool {
	return n != "" && len(n) <= MaxNonceLen && urlSafe(n)
}
