//go:build !unix

package storetest

import (
	"net"
	"testing"
)

// ClosedPort returns a loopback address nothing listens on: a port listened
// on and closed again, which another listener may be given later (on Unix
// the port stays bound until t ends).
func ClosedPort(t testing.TB) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	return addr
}
