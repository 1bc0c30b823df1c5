package solver

import (
	"runtime"
	"syscall"
	"unsafe"
)

// allocSlots returns n zeroed table slots. On Linux they are mapped outside the
// Go heap and advised to use transparent huge pages: the table is probed at
// random, and with 4 KiB pages nearly every probe would also miss the TLB. The
// mapping is released when owner is garbage collected. Without huge pages, or if
// the mapping fails, it falls back to an ordinary slice.
func allocSlots(owner *table, n int) []uint64 {
	size := n * 8
	mem, err := syscall.Mmap(-1, 0, size, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		return make([]uint64, n)
	}
	_ = syscall.Madvise(mem, 14) // MADV_HUGEPAGE; an error only means small pages
	runtime.AddCleanup(owner, func(m []byte) { _ = syscall.Munmap(m) }, mem)
	return unsafe.Slice((*uint64)(unsafe.Pointer(unsafe.SliceData(mem))), n)
}
