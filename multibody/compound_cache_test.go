package multibody

import (
	"testing"

	"github.com/stiction-sim/stiction/spatial"
)

// TestCompoundCacheMatchesWalk: a validated compound joint's kept NQ, NV,
// partOfDOF, ScalarCoordinate and BallOfDOF (validateCompound) are what walking its parts gives, for every degree of freedom and out-of-range ones, on compounds
// of one to six revolute, prismatic and ball parts in every order.
func TestCompoundCacheMatchesWalk(t *testing.T) {
	kinds := []JointType{JointRevolute, JointPrismatic, JointBall}
	var check func(parts []JointPart)
	check = func(parts []JointPart) {
		j := Joint{Type: JointCompound, Parts: append([]JointPart(nil), parts...)}
		nq, nv := j.compoundSize()
		if nv > MaxCompoundDOF || nq > 7 {
			return
		}
		walk := j // not validated: nq = nv = 0, the walk over the parts
		if err := j.validate(); err != nil {
			t.Fatalf("%v: %v", parts, err)
		}
		walk.Parts = j.Parts // the normalised axes
		if int(j.nv) != nv || int(j.nq) != nq || j.NQ() != walk.NQ() || j.NV() != walk.NV() {
			t.Fatalf("parts %v: kept NQ %d NV %d, walked %d %d", parts, j.NQ(), j.NV(), walk.NQ(), walk.NV())
		}
		for k := -1; k <= nv; k++ {
			p, qi := j.partOfDOF(k)
			wp, wqi := walk.partOfDOF(k)
			if p != wp || qi != wqi {
				t.Fatalf("parts %v dof %d: kept part %p coordinate %d, walked %p %d", parts, k, p, qi, wp, wqi)
			}
			if j.ScalarCoordinate(k) != walk.ScalarCoordinate(k) {
				t.Fatalf("parts %v dof %d: ScalarCoordinate %d, walked %d", parts, k, j.ScalarCoordinate(k), walk.ScalarCoordinate(k))
			}
			ok, qi, ax, st := j.BallOfDOF(k)
			wok, wqi, wax, wst := walk.BallOfDOF(k)
			if ok != wok || qi != wqi || ax != wax || st != wst {
				t.Fatalf("parts %v dof %d: BallOfDOF %v %d %d %v, walked %v %d %d %v", parts, k, ok, qi, ax, st, wok, wqi, wax, wst)
			}
		}
	}
	var grow func(parts []JointPart)
	grow = func(parts []JointPart) {
		if len(parts) > 0 {
			check(parts)
		}
		if len(parts) == 6 {
			return
		}
		for _, k := range kinds {
			grow(append(parts, JointPart{Type: k, Axis: spatial.Vec3{0, 0, 2}}))
		}
	}
	grow(nil)
}
