//go:build unix

package storetest

import (
	"net/netip"
	"syscall"
	"testing"
)

// ClosedPort returns a loopback address nothing listens on until t ends:
// its port stays bound to a socket that never listens, so a connection is
// refused and no other listener of the test binary (an httptest server, a
// private Redis) can be given the port. A port only listened on and closed
// again was free for the next listener: a Redis client sent its commands
// to a fake API there, a protocol error instead of a refusal.
func ClosedPort(t testing.TB) string {
	fd, err := syscall.Socket(syscall.AF_INET, syscall.SOCK_STREAM, 0)
	if err != nil {
		t.Fatal(err)
	}
	syscall.CloseOnExec(fd) // the private Redis servers a test starts do not inherit it
	t.Cleanup(func() { syscall.Close(fd) })
	if err := syscall.Bind(fd, &syscall.SockaddrInet4{Addr: [4]byte{127, 0, 0, 1}}); err != nil {
		t.Fatal(err)
	}
	sa, err := syscall.Getsockname(fd)
	if err != nil {
		t.Fatal(err)
	}
	in4, ok := sa.(*syscall.SockaddrInet4)
	if !ok {
		t.Fatalf("bound to %T, want an IPv4 address", sa)
	}
	return netip.AddrPortFrom(netip.AddrFrom4(in4.Addr), uint16(in4.Port)).String()
}
