package solver

import "os"

// fullSamples runs the expensive tests at their full size: .ci/run sets
// CONNECT4_TEST_FULL for a step of its own, and the issues' figures come
// from it. Without it `go test ./...` stays quick on two cores.
var fullSamples = os.Getenv("CONNECT4_TEST_FULL") != ""

// samples returns how many cases an expensive test runs: full with
// CONNECT4_TEST_FULL, race under the race detector, else normal.
func samples(full, normal, race int) int {
	switch {
	case fullSamples:
		return full
	case raceEnabled:
		return race
	}
	return normal
}
