package sim_test

import (
	"testing"
	"time"

	"github.com/stiction-sim/stiction/internal/cputime"
	"github.com/stiction-sim/stiction/internal/peers"
	"github.com/stiction-sim/stiction/scene"
	"github.com/stiction-sim/stiction/sim"
	"github.com/stiction-sim/stiction/solver/island"
	"github.com/stiction-sim/stiction/solver/sap"
)

// loadPeerScene parses the peer benchmark scene name (internal/peers).
func loadPeerScene(t testing.TB, name string, sets ...string) *scene.Scene {
	t.Helper()
	sc, err := peers.Load(name, sets)
	if err != nil {
		t.Fatal(err)
	}
	return sc
}

// loadPeer builds the peer benchmark scene name (internal/peers) with the
// default settings and overrides.
func loadPeer(t testing.TB, name string, sets ...string) (*sim.Simulator, *scene.Built) {
	t.Helper()
	return newSim(t, loadPeerScene(t, name, sets...))
}

// BenchmarkStepPeer times one step of each peer scene (peers.All) with the default
// settings. The steps are those of the scene's whole run, in order: when a
// run ends (after the scene's duration), the next step starts the run again
// from its initial state (Simulator.Restore of the first checkpoint, with the
// timer stopped), on the same simulator, so that its buffers stay warm as
// they do in a long run and allocs/op counts only what a warmed-up step
// allocates. With -benchtime equal to the scene's
// steps (1000 for the clutter scenes, 500 for the stack) ns/op is the mean
// time per step of a whole run, that is δt × the wall seconds per
// simulated second of `stiction run`. It reports the mean Newton
// iterations per step (summed over the Lagged re-solves) and the process
// CPU time per step (cpu-ns/op, getrusage around each step: on a shared
// machine wall time includes waiting for a core, CPU time does not).
func BenchmarkStepPeer(b *testing.B) {
	for _, name := range peers.All {
		b.Run(name, func(b *testing.B) {
			benchPeerRun(b, func() (*sim.Simulator, *scene.Built) { return loadPeer(b, name) })
		})
	}
}

// BenchmarkStepPeerIslands is BenchmarkStepPeer with the island solver on
// one worker (stiction run --workers 1), each island's SAP solve refined
// for Lagged contacts as the default solve is: the data behind the choice
// of the default (BENCHMARKS.md).
func BenchmarkStepPeerIslands(b *testing.B) {
	for _, name := range peers.All {
		b.Run(name, func(b *testing.B) {
			benchPeerRun(b, func() (*sim.Simulator, *scene.Built) {
				s, bl := withSolver(b, loadPeerScene(b, name), islands(sap.AutoLinear, 1))
				return s, bl
			})
		})
	}
}

// benchPeerRun steps the run that mk makes, one step per iteration,
// restarting it from its initial state when it ends (see BenchmarkStepPeer).
func benchPeerRun(b *testing.B, mk func() (*sim.Simulator, *scene.Built)) {
	s, bl := mk()
	defer func() {
		if is, ok := bl.Config.Solver.(*island.Solver); ok {
			is.Close()
		}
	}()
	start := s.Checkpoint()
	done, iters, steps := 0, 0, 0
	var cpu time.Duration
	b.ReportAllocs()
	for b.Loop() {
		if done == bl.Steps {
			b.StopTimer()
			if err := s.Restore(start); err != nil {
				b.Fatal(err)
			}
			done = 0
			b.StartTimer()
		}
		c0 := cputime.Process()
		st, err := s.Step()
		cpu += cputime.Process() - c0
		if err != nil {
			b.Fatal(err)
		}
		done++
		iters += st.Iterations
		steps++
	}
	b.ReportMetric(float64(iters)/float64(steps), "iterations/step")
	b.ReportMetric(float64(cpu.Nanoseconds())/float64(steps), "cpu-ns/op")
}
