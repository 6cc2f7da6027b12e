package mjref

import (
	"flag"
	"math"
	"runtime"
	"slices"
	"testing"
	"time"

	"github.com/stiction-sim/stiction/internal/cputime"
	"github.com/stiction-sim/stiction/internal/peers"
	"github.com/stiction-sim/stiction/runner"
	"github.com/stiction-sim/stiction/sim"
	"github.com/stiction-sim/stiction/solver/island"
)

// peerWorkers > 0 makes BenchmarkPeersVsMuJoCo time Stiction with the
// island solver on that many workers (stiction run --workers) instead of
// the default solve.
var peerWorkers = flag.Int("peer-workers", 0, "BenchmarkPeersVsMuJoCo: island-solver workers for Stiction (0: the default solve)")

// peerSet is a --set override of Stiction's peer scenes, such as
// contact.sleep=true (MuJoCo's files do not change).
var peerSet = flag.String("peer-set", "", "BenchmarkPeersVsMuJoCo: a --set override of Stiction's scenes, e.g. contact.sleep=true")

// BenchmarkPeersVsMuJoCo times each peer scene of issue 23 (package
// internal/peers) in Stiction (sim.Simulator.Advance on the YAML scene,
// default settings) and in MuJoCo 2.2.2 (mj_step on PeerMJCF's file, Newton
// with the elliptic cone, through the C tool's timing mode), one thread
// each, whole runs of the scene's duration from its initial state (MuJoCo's
// mj_resetDataKeyframe, Stiction's Restore of the initial checkpoint; the
// fastest of as many runs as make 1000 steps, for the short scenes). One op
// is one round: MuJoCo's runs, then Stiction's (the order alternates
// between rounds), so the two share the machine's state. It reports the
// medians over rounds of the process CPU time per simulated second
// (cpu-s/s, mj-cpu-s/s), of the CPU time of the thread that steps
// (thread-s/s; MuJoCo's tool is single-threaded) and of the wall time
// (wall-s/s, mj-wall-s/s), and the median of the rounds' ratios, Stiction ÷
// MuJoCo (x-mujoco-cpu, x-mujoco-thread, x-mujoco-wall). clutter-160 takes minutes per round (MuJoCo about 17 s
// per simulated second):
//
//	go test ./internal/mjref -run XXX -bench 'PeersVsMuJoCo/(clutter-40|stack|boxes|cube)' -benchtime 5x -timeout 30m
//	go test ./internal/mjref -run XXX -bench 'PeersVsMuJoCo/clutter-160' -benchtime 1x -timeout 60m
//
// With -peer-workers N (after -args) Stiction solves with the island
// solver on N workers; with -peer-set contact.sleep=true its settled
// islands sleep.
func BenchmarkPeersVsMuJoCo(b *testing.B) {
	exe := tool(b)
	for _, name := range peers.All {
		b.Run(name, func(b *testing.B) {
			var sets []string
			if *peerSet != "" {
				sets = []string{*peerSet}
			}
			bt, path := peerScene(b, name, sets...)
			if *peerWorkers > 0 {
				if err := runner.WrapIslands(bt, *peerWorkers); err != nil {
					b.Fatal(err)
				}
				defer bt.Config.Solver.(*island.Solver).Close()
			}
			horizon := float64(bt.Steps) * bt.Config.DT
			// reps runs of at least 1000 steps in all per engine and round,
			// the fastest kept: a 100-step run is too short to time alone.
			reps := max(1, (1000+bt.Steps-1)/bt.Steps)
			var cpu, thread, wall, mjCPU, mjWall, xCPU, xThread, xWall []float64
			s, err := sim.New(bt.Model, bt.State, bt.Config)
			if err != nil {
				b.Fatal(err)
			}
			start := s.Checkpoint()
			runtime.LockOSThread() // cputime.Thread reads the stepping thread's time
			defer runtime.UnlockOSThread()
			runStiction := func() {
				bestCPU, bestThread, bestWall := math.Inf(1), math.Inf(1), math.Inf(1)
				for range reps {
					if err := s.Restore(start); err != nil {
						b.Fatal(err)
					}
					runtime.GC() // the garbage of setup, MuJoCo's run and the last run
					t0, c0, h0 := time.Now(), cputime.Process(), cputime.Thread()
					for k := range bt.Steps {
						if err := s.Advance(); err != nil {
							b.Fatalf("%s: step %d: %v", name, k+1, err)
						}
					}
					bestCPU = min(bestCPU, (cputime.Process() - c0).Seconds())
					bestThread = min(bestThread, (cputime.Thread() - h0).Seconds())
					bestWall = min(bestWall, time.Since(t0).Seconds())
				}
				cpu = append(cpu, bestCPU/horizon)
				thread = append(thread, bestThread/horizon)
				wall = append(wall, bestWall/horizon)
			}
			runMuJoCo := func() {
				tm, err := Time(exe, path, Options{Steps: bt.Steps, Repeats: reps, Key: PeerKey})
				if err != nil {
					b.Fatal(err)
				}
				mjCPU = append(mjCPU, tm.CPUSeconds/horizon)
				mjWall = append(mjWall, tm.Seconds/horizon)
			}
			for i := range b.N {
				if i%2 == 0 {
					runMuJoCo()
					runStiction()
				} else {
					runStiction()
					runMuJoCo()
				}
				xCPU = append(xCPU, cpu[i]/mjCPU[i])
				xThread = append(xThread, thread[i]/mjCPU[i])
				xWall = append(xWall, wall[i]/mjWall[i])
			}
			b.ReportMetric(peerMedian(cpu), "cpu-s/s")
			b.ReportMetric(peerMedian(mjCPU), "mj-cpu-s/s")
			b.ReportMetric(peerMedian(xCPU), "x-mujoco-cpu")
			b.ReportMetric(peerMedian(thread), "thread-s/s")
			b.ReportMetric(peerMedian(xThread), "x-mujoco-thread")
			b.ReportMetric(peerMedian(wall), "wall-s/s")
			b.ReportMetric(peerMedian(mjWall), "mj-wall-s/s")
			b.ReportMetric(peerMedian(xWall), "x-mujoco-wall")
		})
	}
}

// peerMedian returns the median of x (the upper one for an even count),
// sorting x.
func peerMedian(x []float64) float64 {
	slices.Sort(x)
	return x[len(x)/2]
}
