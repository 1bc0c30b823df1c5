//go:build race

package solver

// raceEnabled shrinks the expensive test samples under the race detector.
const raceEnabled = true
