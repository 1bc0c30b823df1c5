package solver

import (
	"syscall"
	"unsafe"
)

// hugePage is the size of a transparent huge page on x86-64 and arm64 Linux.
const hugePage = 2 << 20

// allocSlots returns n zeroed table slots. Tables of a huge page or more are
// aligned to huge pages and advised to use them: the table is probed at random,
// and with 4 KiB pages nearly every probe would also miss the TLB. The memory
// stays on the Go heap, so the garbage collector accounts for it and frees it.
// If the advice is refused the table just uses small pages.
func allocSlots(n int) []uint64 {
	if n*8 < hugePage {
		return make([]uint64, n)
	}
	buf := make([]uint64, n+hugePage/8)
	off := (hugePage - uintptr(unsafe.Pointer(&buf[0]))%hugePage) % hugePage / 8
	slots := buf[off : off+uintptr(n) : off+uintptr(n)]
	const madvHugePage = 14 // MADV_HUGEPAGE
	_ = syscall.Madvise(unsafe.Slice((*byte)(unsafe.Pointer(&slots[0])), n*8), madvHugePage)
	return slots
}
