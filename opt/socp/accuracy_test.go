package socp

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestAccuracyByFace solves random strongly convex problems whose
// second-order cones all end in one of the three face configurations: s in
// the interior (z = 0), z in the interior (s = 0), or both on the boundary
// (the sliding contact). It requires the solution to 1e-10 and logs the
// error of the interior-point iterate alone (Polish off): of the order of
// √gap on the boundary configuration.
func TestAccuracyByFace(t *testing.T) {
	defer func() { forceMode = -1 }()
	names := []string{"s interior", "z interior", "both on the boundary"}
	for mode := range 3 {
		forceMode = mode
		c := Cones{NonNeg: 2, SOC: []int{3, 3, 4}}
		rng := rand.New(rand.NewPCG(7, uint64(mode)))
		worst, worstRaw := 0.0, 0.0
		for range 20 {
			n := 3 + rng.IntN(6)
			p, xs := randomProblem(rng, c, n, c.Dim(), true)
			for _, polish := range []bool{true, false} {
				s := NewSolver()
				s.Settings.Polish = polish
				res, err := s.Solve(p)
				if err != nil {
					t.Fatal(err)
				}
				e := 0.0
				for i := range xs {
					e = max(e, math.Abs(res.X[i]-xs[i])/(1+math.Abs(xs[i])))
				}
				if polish {
					worst = max(worst, e)
					if res.Status != Solved {
						t.Errorf("%s: status %v", names[mode], res.Status)
					}
				} else {
					worstRaw = max(worstRaw, e)
				}
			}
		}
		t.Logf("%s: worst relative error of x %.1e (interior point alone %.1e)", names[mode], worst, worstRaw)
		if worst > 1e-10 {
			t.Errorf("%s: worst relative error of x %.1e > 1e-10", names[mode], worst)
		}
	}
}
