package viewer

import (
	"testing"
	"time"

	"github.com/stiction-sim/stiction/internal/cputime"
	"github.com/stiction-sim/stiction/sim"
)

// benchSteps is the length of one benchmark iteration: the first 200 steps
// (0.2 s) of the clutter scene from its initial state.
const benchSteps = 200

// BenchmarkLiveOverhead compares stepping the clutter scene with the bare
// simulator and inside a session nobody watches (the step loop of Run: the
// perturbation element, the history kept for the record command, the clock
// check per step and the frame check per loop). Compare the two with
// benchstat: the issue asks for at most 10 % more.
func BenchmarkLiveOverhead(b *testing.B) {
	b.Run("sim", func(b *testing.B) {
		bt, _, err := testLoader("clutter", "")
		if err != nil {
			b.Fatal(err)
		}
		s, err := sim.New(bt.Model, bt.State, bt.Config)
		if err != nil {
			b.Fatal(err)
		}
		init := s.Checkpoint()
		b.ResetTimer()
		c0 := cputime.Process()
		defer func() { reportCPU(b, c0) }()
		for range b.N {
			s.Restore(init)
			for range benchSteps {
				if _, err := s.Step(); err != nil {
					b.Fatal(err)
				}
			}
		}
	})
	b.Run("session", func(b *testing.B) {
		s, err := NewSession(testLoader, "clutter", SessionOptions{Rate: 0})
		if err != nil {
			b.Fatal(err)
		}
		b.ResetTimer()
		c0 := cputime.Process()
		defer func() { reportCPU(b, c0) }()
		for range b.N {
			s.sim.Restore(s.init)
			s.restart()
			end := time.Now().Add(time.Hour)
			for range benchSteps {
				if !s.stepOnce() || time.Now().After(end) {
					b.Fatal("step failed")
				}
			}
			s.publishDue()
		}
	})
}

// reportCPU reports the process CPU time per iteration since c0 (less
// inflated than wall time by the other processes of a shared machine).
func reportCPU(b *testing.B, c0 time.Duration) {
	b.ReportMetric(float64(cputime.Process()-c0)/float64(b.N), "cpu-ns/op")
}
