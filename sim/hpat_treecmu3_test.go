package sim_test

import (
	"math"
	"path/filepath"
	"testing"

	"github.com/stiction-sim/stiction/sim"
)

// TestTreecmu3HpatInGatherSameBits: H's pattern with M's lower non-zeros
// marked as gatherSplit gathers them is, at every solve, the one
// hessPattern's own scan of M makes, and gives every bit of q and v it
// gives, on humanoid_CMU (the sparse port, M's zeros moving with the
// configuration) over 600 steps. It fails when the gather marks an entry
// M does not have on its lower part, misses one, or no solve took the
// marks.
func TestTreecmu3HpatInGatherSameBits(t *testing.T) {
	path := filepath.Join("..", "internal", "mjref", "testdata", "dm_control/suite/humanoid_CMU.xml")
	var done func() (checked, differ int)
	qg, vg, _ := sparseRunWith(t, path, 60, 600, func(s *sim.Simulator) { done = sim.CountHpatInGather(s) })
	if checked, differ := done(); checked == 0 || differ != 0 {
		t.Fatalf("M's part of H's pattern marked in the gather: %d of %d solves differ from hessPattern's scan", differ, checked)
	}
	qs, vs, _ := sparseRunWith(t, path, 60, 600, sim.SetHpatScan)
	for k := range qg {
		for i := range qg[k] {
			if math.Float64bits(qg[k][i]) != math.Float64bits(qs[k][i]) {
				t.Fatalf("step %d: q[%d] = %v marked in the gather, %v in hessPattern", k+1, i, qg[k][i], qs[k][i])
			}
		}
		for i := range vg[k] {
			if math.Float64bits(vg[k][i]) != math.Float64bits(vs[k][i]) {
				t.Fatalf("step %d: v[%d] = %v marked in the gather, %v in hessPattern", k+1, i, vg[k][i], vs[k][i])
			}
		}
	}
}
