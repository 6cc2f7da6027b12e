package multibody

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stiction-sim/stiction/spatial"
)

// TestBodyForcesMatchVectorForm: bodyForces, written on scalars, gives the
// bits of the Vec3 form it replaced in RNEA on random bodies, with zero
// entries and zero angular velocities among them.
func TestBodyForcesMatchVectorForm(t *testing.T) {
	r := rand.New(rand.NewPCG(23, 13))
	x := func() float64 {
		if r.IntN(6) == 0 {
			return 0
		}
		return r.NormFloat64() * math.Pow(10, float64(r.IntN(5)-2))
	}
	v := func() spatial.Vec3 { return spatial.Vec3{x(), x(), x()} }
	same := func(a, b spatial.Vec3) bool {
		for i := range 3 {
			if math.Float64bits(a[i]) != math.Float64bits(b[i]) {
				return false
			}
		}
		return true
	}
	for range 50000 {
		m, c, al, ac, w := math.Abs(x()), v(), v(), v(), v()
		I := spatial.Mat3{v(), v(), v()}
		f := ac.Add(al.Cross(c)).Add(w.Cross(w.Cross(c))).Scale(m)
		n := I.MulVec(al).Add(w.Cross(I.MulVec(w))).Add(c.Cross(f))
		gn, gf := bodyForces(m, c, &I, al, ac, w)
		if !same(gn, n) || !same(gf, f) {
			t.Fatalf("bodyForces(%v, %v, %v, %v, %v, %v) = %v, %v; vector form %v, %v", m, c, I, al, ac, w, gn, gf, n, f)
		}
	}
}

// TestRevoluteMatchesVectorForm: Workspace.revolute, written on scalars,
// gives the bits of the Vec3 form it replaced in joint1 on random inputs.
func TestRevoluteMatchesVectorForm(t *testing.T) {
	r := rand.New(rand.NewPCG(23, 14))
	x := func() float64 {
		if r.IntN(6) == 0 {
			return 0
		}
		return r.NormFloat64() * math.Pow(10, float64(r.IntN(5)-2))
	}
	v := func() spatial.Vec3 { return spatial.Vec3{x(), x(), x()} }
	m, _ := pendulumModel()
	ws := NewWorkspace(m)
	for range 50000 {
		R := spatial.Mat3{v(), v(), v()}
		axis, d, rpm, wp, vp, vel := v(), v(), v(), v(), v(), x()
		W := R.MulVec(axis)
		wj := W.Scale(vel)
		w := wp.Add(wj)
		ka := wp.Cross(wj)
		want := [6]spatial.Vec3{W, W.Cross(d), w, vp.Add(wp.Cross(rpm)).Add(w.Cross(d)), ka,
			wp.Cross(wp.Cross(rpm)).Add(ka.Cross(d)).Add(w.Cross(w.Cross(d)))}
		ws.revolute(0, 0, &R, axis, d, rpm, wp, vp, vel)
		got := [6]spatial.Vec3{ws.colW[0], ws.colL[0], ws.w[0], ws.vel[0], ws.kw[0], ws.kl[0]}
		for k := range 6 {
			for i := range 3 {
				if math.Float64bits(got[k][i]) != math.Float64bits(want[k][i]) {
					t.Fatalf("output %d: %v, vector form %v (R %v, axis %v, d %v, rpm %v, wp %v, vp %v, q̇ %v)", k, got[k], want[k], R, axis, d, rpm, wp, vp, vel)
				}
			}
		}
	}
}
