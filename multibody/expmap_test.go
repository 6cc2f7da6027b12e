package multibody

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stiction-sim/stiction/spatial"
)

// TestIntegrateQExpIsTheFlow: for a free body, q0 ⊕ h v is the exact motion
// with constant twist (ω, v) for time h (flow: rotation of angle h‖ω‖
// about ω, the origin moved by h v), also when q aliases q0; and
// LocalVelocity turns ω into the body frame, R_WBᵀ ω, which WorldVelocity
// undoes.
func TestIntegrateQExpIsTheFlow(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 3))
	for range 50 {
		m, s := randomBody(r)
		h := 0.1 * r.Float64()
		want := flow(m, s, h)
		q := make([]float64, m.NQ)
		m.IntegrateQExp(s.Q, s.V, h, q)
		m.IntegrateQExp(s.Q, s.V, h, s.Q) // in place
		for i, x := range q {
			if x != s.Q[i] {
				t.Fatalf("in place %v, into another slice %v", s.Q, q)
			}
		}
		got := m.BodyPose(s, 0)
		if d := got.P.Sub(want.P).Norm(); d > 1e-15 {
			t.Errorf("origin %v, flow %v", got.P, want.P)
		}
		if c := got.R.W*want.R.W + got.R.X*want.R.X + got.R.Y*want.R.Y + got.R.Z*want.R.Z; 1-math.Abs(c) > 1e-15 {
			t.Errorf("rotation %v, flow %v", got.R, want.R)
		}
		u := make([]float64, m.NV)
		m.LocalVelocity(s.Q, s.V, u)
		w := spatial.Vec3{s.V[0], s.V[1], s.V[2]}
		if d := (spatial.Vec3{u[0], u[1], u[2]}).Sub(got.R.RotMat().MulTVec(w)).Norm(); d > 1e-14*(1+w.Norm()) {
			t.Errorf("local ω %v, Rᵀω %v", u[:3], got.R.RotMat().MulTVec(w))
		}
		m.WorldVelocity(s.Q, u, u)
		for i, x := range u {
			if d := x - s.V[i]; math.Abs(d) > 1e-14*(1+math.Abs(x)) {
				t.Fatalf("round trip %v, v %v", u, s.V)
			}
		}
	}
}
