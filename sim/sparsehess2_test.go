package sim_test

import (
	"math"
	"path/filepath"
	"testing"

	"github.com/stiction-sim/stiction/sim"
)

// TestSparseSymKeptSameBits: the sparse path's symbolic Hessians kept
// across solves and keyed on H's pattern (checkSym) give every bit of q
// and v that rebuilding them at every solve gives, on dm_control's
// humanoid_CMU (nv 62, contacts coming and going from step 53 on) and on
// dm humanoid forced onto the sparse path (nv 27, elliptic contacts).
func TestSparseSymKeptSameBits(t *testing.T) {
	for _, c := range []struct {
		file     string
		sparseNV int
		steps    int
	}{
		{"dm_control/suite/humanoid_CMU.xml", 60, 600},
		{"dm_control/suite/humanoid.xml", 0, 300},
	} {
		path := filepath.Join("..", "internal", "mjref", "testdata", c.file)
		qk, vk, _ := sparseRun(t, path, c.sparseNV, c.steps)
		qr, vr, _ := sparseRunWith(t, path, c.sparseNV, c.steps, sim.SetSparseSymRebuild)
		for k := range qk {
			for i := range qk[k] {
				if math.Float64bits(qk[k][i]) != math.Float64bits(qr[k][i]) {
					t.Fatalf("%s: step %d: q[%d] = %v kept, %v rebuilt", c.file, k+1, i, qk[k][i], qr[k][i])
				}
			}
			for i := range vk[k] {
				if math.Float64bits(vk[k][i]) != math.Float64bits(vr[k][i]) {
					t.Fatalf("%s: step %d: v[%d] = %v kept, %v rebuilt", c.file, k+1, i, vk[k][i], vr[k][i])
				}
			}
		}
	}
}
