package mjref

import (
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stiction-sim/stiction/internal/cputime"
)

// BenchmarkBest3VsMuJoCo times every model of the speed comparison the
// way the C tool's timing mode times MuJoCo, on both sides alike: the
// fastest of 3 runs of the speedHorizon of simulated time, each from the
// initial state (Stiction's on one simulator restored to its initial
// checkpoint before each run, MuJoCo's on one reset mjData), timed by the
// process CPU time (getrusage for Stiction, which counts the Go runtime's
// other threads too; CLOCK_PROCESS_CPUTIME_ID of the single-threaded
// tool). One op is one round; MuJoCo is timed again in every round and
// the engines' order alternates between rounds, so both see the same
// load. It reports the medians over rounds of best3-cpu-ns (Stiction's
// CPU per step), mj-best3-cpu-ns (MuJoCo's) and x-best3, Stiction's CPU
// per simulated second over MuJoCo's (the time steps may differ).
//
// BenchmarkAdvanceVsMuJoCo instead divides the mean over b.N steps of a
// simulator made fresh every horizon by MuJoCo's fastest of 3, measured
// once per process; on the small models, whose horizon takes well under a
// millisecond, that pairing overstates Stiction's share (BENCHMARKS.md,
// issue 23, the pass on the fixed cost of a step):
//
//	go test ./internal/mjref -run XXX -bench 'Best3VsMuJoCo' -benchtime 6x
func BenchmarkBest3VsMuJoCo(b *testing.B) {
	exe := tool(b)
	for _, f := range speedModels() {
		b.Run(strings.TrimSuffix(filepath.Base(filepath.Dir(f))+"/"+filepath.Base(f), ".xml"), func(b *testing.B) {
			best3VsMuJoCo(b, exe, f)
		})
	}
}

// best3VsMuJoCo is one model's BenchmarkBest3VsMuJoCo.
func best3VsMuJoCo(b *testing.B, exe, f string) {
	path := filepath.Join("testdata", f)
	bt, _, err := stiction(path)
	if err != nil {
		b.Skipf("%s does not load: %v", f, err)
	}
	mjDT := mjTimestep(b, exe, path)
	n, mjN := int(math.Round(speedHorizon/bt.Config.DT)), int(math.Round(speedHorizon/mjDT))
	s := freshSim(b, bt)
	start := s.Checkpoint()
	ours := func() float64 {
		best := math.Inf(1)
		for range 3 {
			if err := s.Restore(start); err != nil {
				b.Fatal(err)
			}
			c0 := cputime.Process()
			for k := range n {
				if err := s.Advance(); err != nil {
					b.Fatalf("%s: step %d: %v", f, k+1, err)
				}
			}
			best = min(best, (cputime.Process()-c0).Seconds()/float64(n))
		}
		return best
	}
	theirs := func() float64 {
		tm, err := Time(exe, path, Options{Steps: mjN, Repeats: 3})
		if err != nil {
			b.Fatal(err)
		}
		return tm.CPUPerStep()
	}
	var us, them, x []float64
	for i := range b.N {
		var a, m float64
		if i%2 == 0 {
			m, a = theirs(), ours()
		} else {
			a, m = ours(), theirs()
		}
		us, them = append(us, a), append(them, m)
		x = append(x, (a/bt.Config.DT)/(m/mjDT))
	}
	b.ReportMetric(peerMedian(us)*1e9, "best3-cpu-ns")
	b.ReportMetric(peerMedian(them)*1e9, "mj-best3-cpu-ns")
	b.ReportMetric(peerMedian(x), "x-best3")
}
