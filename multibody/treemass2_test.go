package multibody

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestTreemass2MassMatrixTreePattern: the CRBA's M (MassMatrix) holds +0
// at every entry (i, j) where neither velocity is an ancestor of the
// other along TreeVelocityParents, whatever the output held before, on
// random forests of four joint types at random states: the promise
// solver.CliqueFactor.FactorTreeMass relies on to skip its check of those
// entries. It also counts such entries, so that the forests are branched
// (fails when MassMatrix leaves a stale value off the pattern).
func TestTreemass2MassMatrixTreePattern(t *testing.T) {
	off := 0
	for _, jt := range []JointType{JointRevolute, JointPrismatic, JointBall, JointFree} {
		for seed := range 4 {
			r := rand.New(rand.NewPCG(uint64(seed)+71, uint64(jt)))
			m, s := randomForest(r, jt)
			for i := range s.V {
				s.V[i] = r.NormFloat64()
			}
			ws := NewWorkspace(m)
			ws.Update(s.Q, s.V)
			for ti, tr := range m.Trees {
				n := tr.NV
				par := m.TreeVelocityParents(ti)
				out := make([]float64, n*n)
				for i := range out {
					out[i] = math.NaN()
				}
				ws.MassMatrix(ti, out)
				for i := range n {
					for j := range n {
						if treemass2Related(par, i, j) {
							continue
						}
						off++
						if math.Float64bits(out[i*n+j]) != 0 {
							t.Fatalf("joint type %v seed %d tree %d: M[%d][%d] = %v off the tree's pattern", jt, seed, ti, i, j, out[i*n+j])
						}
					}
				}
			}
		}
	}
	if off == 0 {
		t.Fatal("no entry off a tree's pattern: the forests are chains")
	}
}

// treemass2Related reports whether i = j or one is an ancestor of the
// other along par.
func treemass2Related(par []int, i, j int) bool {
	for a := i; a >= 0; a = par[a] {
		if a == j {
			return true
		}
	}
	for a := j; a >= 0; a = par[a] {
		if a == i {
			return true
		}
	}
	return false
}
