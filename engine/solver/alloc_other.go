//go:build !linux

package solver

// allocSlots returns n zeroed table slots.
func allocSlots(n int) []uint64 { return make([]uint64, n) }
