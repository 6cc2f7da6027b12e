package sim_test

import (
	"testing"

	"github.com/stiction-sim/stiction/solver"
	"github.com/stiction-sim/stiction/solver/sap"
)

// TestPeerRestoredRunAllocatesNothing: a peer scene's whole run, started
// again from its initial checkpoint on the same simulator (as
// BenchmarkStepPeer restarts its runs), allocates nothing, and ends in the
// same bits as the first run. The 1 alloc/op that BenchmarkStepPeer used to
// report on cube-slide was the first steps of a freshly built simulator
// growing its buffers, one new simulator every 100 steps.
func TestPeerRestoredRunAllocatesNothing(t *testing.T) {
	for _, name := range []string{"cube-slide", "boxes-10-perturbed"} {
		s, bl := loadPeer(t, name)
		start := s.Checkpoint()
		// The end states of the first run (AllocsPerRun's warm-up) and of
		// the two measured ones, stored without allocating in the runs.
		ends := make([][]float64, 3)
		for i := range ends {
			ends[i] = make([]float64, len(s.State.Q))
		}
		run := 0
		allocs := testing.AllocsPerRun(2, func() {
			if err := s.Restore(start); err != nil {
				t.Fatal(err)
			}
			for k := range bl.Steps {
				st, err := s.Step()
				if err != nil {
					t.Fatalf("%s: step %d: %v", name, k+1, err)
				}
				if st.Status != solver.Converged || st.MomentumError > sap.DefaultParams().RelTolerance {
					t.Fatalf("%s: step %d: status %v, e_m %g", name, k+1, st.Status, st.MomentumError)
				}
			}
			copy(ends[run], s.State.Q)
			run++
		})
		if allocs != 0 {
			t.Errorf("%s: %v allocations per restored run of %d steps, want 0", name, allocs, bl.Steps)
		}
		for i, q := range ends[1:] {
			if !sameBits(q, ends[0]) {
				t.Fatalf("%s: run %d ends at q = %v, the first run at %v", name, i+2, q, ends[0])
			}
		}
	}
}
