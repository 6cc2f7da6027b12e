package forces

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stiction-sim/stiction/multibody"
)

// TestJointSpringCoordsMatchDOFs: on free, revolute, planar, universal and
// prismatic joints, Apply (applyCoords) gives the bits of the per-velocity
// path applyDOFs in F, K
// and D, accumulated onto non-zero outputs, with and without Jacobians,
// for stiffnesses and dampings that are positive, zero, negative, −0 and
// NaN and with and without a rest configuration.
func TestJointSpringCoordsMatchDOFs(t *testing.T) {
	r := rand.New(rand.NewPCG(23, 2))
	m, s := system(r)
	ws := multibody.NewWorkspace(m)
	ws.Update(s.Q, s.V)
	c := &Context{Model: m, WS: ws, Q: s.Q, V: s.V}
	vals := []float64{5, 0.7, 0, math.Copysign(0, -1), -2, math.NaN()}
	bodies := 0
	for b, body := range m.Bodies {
		if tp := body.Joint.Type; tp == multibody.JointWeld || tp == multibody.JointBall {
			continue
		}
		bodies++
		rest := make([]float64, body.Joint.NV())
		for k := range rest {
			rest[k] = r.NormFloat64()
		}
		for _, st := range vals {
			for _, d := range vals {
				for _, ref := range [][]float64{nil, rest} {
					for _, jac := range []bool{false, true} {
						e := &JointSpringDamper{Body: b, Stiffness: st, Damping: d, Ref: ref}
						fast, slow := filledOutput(m, jac, 7), filledOutput(m, jac, 7)
						e.Apply(c, fast)
						e.applyDOFs(c, slow, &m.Bodies[b])
						for name, pair := range map[string][2][]float64{"F": {fast.F, slow.F}, "K": {fast.K, slow.K}, "D": {fast.D, slow.D}} {
							for i := range pair[0] {
								if math.Float64bits(pair[0][i]) != math.Float64bits(pair[1][i]) {
									t.Fatalf("body %d k %v d %v ref %v jac %v: %s[%d] %v, per velocity %v", b, st, d, ref, jac, name, i, pair[0][i], pair[1][i])
								}
							}
						}
					}
				}
			}
		}
	}
	if bodies != 5 {
		t.Fatalf("the system has %d free, revolute, planar, universal or prismatic joints, want 5", bodies)
	}
}

// filledOutput returns an output with Jacobians jac whose F, K and D hold
// random values from seed.
func filledOutput(m *multibody.Model, jac bool, seed uint64) *Output {
	r := rand.New(rand.NewPCG(seed, 1))
	out := NewOutput(m)
	out.Jacobians = jac
	for _, x := range [][]float64{out.F, out.K, out.D} {
		for i := range x {
			x[i] = r.NormFloat64()
		}
	}
	return out
}
