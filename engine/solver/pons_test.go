//go:build linux

package solver

import (
	"bufio"
	"io"
	"os"
	"os/exec"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
	"unsafe"
)

// versusSamples is how many positions of each set a round of
// BenchmarkVersusPons solves, spread evenly over the file: the whole set where
// a round stays under a minute on two shared cores, fewer for the begin-hard sets.
var versusSamples = []struct {
	set string
	n   int
}{
	{"Test_L3_R1", 1000},
	{"Test_L2_R1", 1000},
	{"Test_L2_R2", 100},
	{"Test_L1_R1", 1000},
	{"Test_L1_R2", 20},
	{"Test_L1_R3", 1},
}

// versusChunk is how many positions each side solves before the other's turn.
// It is at least every sample, so that each side solves a round's whole sample
// as it would alone: Pons' solver clears its 80 MB table before each position,
// which also evicts the other's from the shared caches, and this solver's
// constant-time Reset keeps a warm cache between positions. Set it to 25 to
// measure both with caches the other keeps cold (this solver then loses most
// of its lead on the small sets).
const versusChunk = 1000

// BenchmarkVersusPons compares this solver's mean time per position with Pascal
// Pons' C++ solver on the same positions of each of his sets. The two alternate
// in one run, so that both see the same load on a shared machine: Pons' process
// solves versusChunk positions, then this solver solves the same ones, and so on. Each side
// clears its transposition table before a position and times only the solve,
// in wall time and in the CPU time of its thread (which leaves out the time
// other processes take from it), less the cost of reading that clock. Each b.Loop iteration is one round over the
// set's sample; the benchmark reports the rounds' minimum and median ratio,
// ours / Pons' (lower is better), in CPU time (cpu-ratio) and wall time
// (wall-ratio), and each side's median µs per position; -v logs every round.
//
// The Pons binary is not part of this repository: CONNECT4_PONS names it, a
// program that reads positions, one a line, and writes for each, at once,
// "moves score nodes wall-µs thread-cpu-ns"; the benchmark skips when the
// variable is unset. Run it with
//
//	CONNECT4_PONS=/tmp/pons/c4 go test ./engine/solver -run X -bench VersusPons -benchtime 5x -v
func BenchmarkVersusPons(b *testing.B) {
	bin := os.Getenv("CONNECT4_PONS")
	if bin == "" {
		b.Skip("CONNECT4_PONS is unset: it names Pascal Pons' solver built from his sources")
	}
	for _, vs := range versusSamples {
		b.Run(vs.set, func(b *testing.B) {
			// The thread CPU clock must stay on the thread that solves.
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			clock := clockCost()
			cases := spread(loadSet(b, vs.set), vs.n)
			positions := make([]Position, len(cases))
			for i, c := range cases {
				p, err := ParsePosition(c.moves)
				if err != nil {
					b.Fatalf("line %d: %v", c.line, err)
				}
				positions[i] = p
			}
			pons := startPons(b, bin)
			s := NewSolver()
			var cpuRatios, wallRatios, ponsMeans, ourMeans []float64
			for b.Loop() {
				var theirs, ours, theirsWall, oursWall time.Duration
				for lo := 0; lo < len(positions); lo += versusChunk {
					hi := min(lo+versusChunk, len(positions))
					wall, cpu := pons.solve(b, cases[lo:hi])
					theirs += cpu - time.Duration(hi-lo)*clock
					theirsWall += wall
					for i := lo; i < hi; i++ {
						s.Reset()
						start, startCPU := time.Now(), threadCPU()
						got := s.Solve(positions[i])
						ours += threadCPU() - startCPU - clock
						oursWall += time.Since(start)
						if got != cases[i].score {
							b.Fatalf("line %d %s: Solve = %d, want %d", cases[i].line, cases[i].moves, got, cases[i].score)
						}
					}
				}
				n := float64(len(positions))
				cpuRatio, wallRatio := float64(ours)/float64(theirs), float64(oursWall)/float64(theirsWall)
				cpuRatios, wallRatios = append(cpuRatios, cpuRatio), append(wallRatios, wallRatio)
				ponsMeans, ourMeans = append(ponsMeans, float64(theirs.Nanoseconds())/1e3/n), append(ourMeans, float64(ours.Nanoseconds())/1e3/n)
				b.Logf("%s round %d, %d positions: CPU µs/pos Pons %.1f ours %.1f ratio %.3f; wall µs/pos Pons %.1f ours %.1f ratio %.3f",
					vs.set, len(cpuRatios), len(positions), ponsMeans[len(ponsMeans)-1], ourMeans[len(ourMeans)-1], cpuRatio,
					float64(theirsWall.Nanoseconds())/1e3/n, float64(oursWall.Nanoseconds())/1e3/n, wallRatio)
			}
			b.ReportMetric(slices.Min(cpuRatios), "min-cpu-ratio")
			b.ReportMetric(median(cpuRatios), "median-cpu-ratio")
			b.ReportMetric(slices.Min(wallRatios), "min-wall-ratio")
			b.ReportMetric(median(wallRatios), "median-wall-ratio")
			b.ReportMetric(median(ponsMeans), "pons-cpu-µs/pos")
			b.ReportMetric(median(ourMeans), "ours-cpu-µs/pos")
		})
	}
}

// ponsProcess is a running Pons solver that answers one position at a time.
type ponsProcess struct {
	in  io.Writer
	out *bufio.Reader
}

// startPons starts bin and stops it when b ends.
func startPons(b *testing.B, bin string) *ponsProcess {
	b.Helper()
	cmd := exec.Command(bin)
	cmd.Stderr = os.Stderr
	in, err := cmd.StdinPipe()
	if err != nil {
		b.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		b.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		b.Fatalf("start %s: %v", bin, err)
	}
	b.Cleanup(func() {
		in.Close()
		if err := cmd.Wait(); err != nil {
			b.Errorf("%s: %v", bin, err)
		}
	})
	return &ponsProcess{in: in, out: bufio.NewReader(out)}
}

// solve has Pons' solver solve cases and returns the sums of the wall and CPU
// times it reports, checking its scores against the set's.
func (pp *ponsProcess) solve(b *testing.B, cases []testCase) (wall, cpu time.Duration) {
	b.Helper()
	var in strings.Builder
	for _, c := range cases {
		in.WriteString(c.moves + "\n")
	}
	if _, err := io.WriteString(pp.in, in.String()); err != nil {
		b.Fatalf("write to Pons: %v", err)
	}
	for _, c := range cases {
		line, err := pp.out.ReadString('\n')
		if err != nil {
			b.Fatalf("read from Pons: %v", err)
		}
		f := strings.Fields(line)
		if len(f) != 5 || f[0] != c.moves {
			b.Fatalf("Pons answered %q to %s, want moves, score, nodes, µs, CPU ns", line, c.moves)
		}
		score, err1 := strconv.Atoi(f[1])
		us, err2 := strconv.ParseInt(f[3], 10, 64)
		ns, err3 := strconv.ParseInt(f[4], 10, 64)
		if err1 != nil || err2 != nil || err3 != nil || score != c.score {
			b.Fatalf("Pons answered %q to %s, want score %d", line, c.moves, c.score)
		}
		wall += time.Duration(us) * time.Microsecond
		cpu += time.Duration(ns)
	}
	return wall, cpu
}

// threadCPU returns the CPU time the calling OS thread has used.
func threadCPU() time.Duration {
	const clockThreadCPUTime = 3 // CLOCK_THREAD_CPUTIME_ID
	var ts syscall.Timespec
	if _, _, errno := syscall.RawSyscall(syscall.SYS_CLOCK_GETTIME, clockThreadCPUTime, uintptr(unsafe.Pointer(&ts)), 0); errno != 0 {
		panic(errno)
	}
	return time.Duration(ts.Nano())
}

// clockCost returns the CPU time that reading the thread's CPU clock twice adds
// to an interval (about a microsecond in a virtual machine, where it is a system
// call): the least of many empty intervals. Both sides' times are reduced by it,
// so that it does not make the smallest positions look alike.
func clockCost() time.Duration {
	least := time.Duration(1 << 62)
	for range 2000 {
		before := threadCPU()
		least = min(least, threadCPU()-before)
	}
	return least
}

// median returns the median of xs (the mean of the middle two for an even count).
func median(xs []float64) float64 {
	s := slices.Sorted(slices.Values(xs))
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}
