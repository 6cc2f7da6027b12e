package forces

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stiction-sim/stiction/multibody"
	"github.com/stiction-sim/stiction/spatial"
)

// TestJointSpringCoordsMatchDOFs: on free, revolute, planar, universal and
// prismatic joints, Apply (its own loop) gives the bits of the per-velocity
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
						sameOutput(t, fmt.Sprintf("body %d k %v d %v ref %v jac %v", b, st, d, ref, jac), fast, slow)
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

// TestJointSpringPartsMatchDOFs: on a compound joint of a revolute, a ball
// and a prismatic part, Apply with PerDOF (applyParts) gives the bits of
// applyDOFs in F, K and D, with and without Jacobians, for parts' dampings,
// stiffnesses and rest values that are positive and zero (validate
// rejects the rest) at random states, and the element reads the parts
// live (a part's damping changed after the model was built).
func TestJointSpringPartsMatchDOFs(t *testing.T) {
	r := rand.New(rand.NewPCG(23, 3))
	for trial := range 40 {
		pick := func() float64 { return []float64{0, 0.5 + r.Float64(), 3}[r.IntN(3)] }
		parts := []multibody.JointPart{
			{Type: multibody.JointRevolute, Axis: rv(r), Damping: pick(), Stiffness: pick(), SpringRef: r.NormFloat64()},
			{Type: multibody.JointBall, Damping: pick()},
			{Type: multibody.JointPrismatic, Axis: rv(r), Damping: pick(), Stiffness: pick(), SpringRef: r.NormFloat64()},
		}
		m := &multibody.Model{}
		in := spatial.SpatialInertia{Mass: 1, Icom: spatial.Diag3(spatial.Vec3{0.1, 0.2, 0.3})}
		if _, err := m.AddBody("w", in, multibody.Joint{Type: multibody.JointRevolute, Parent: -1, Axis: rv(r), Damping: 0.3}); err != nil {
			t.Fatal(err)
		}
		b, err := m.AddBody("c", in, multibody.Joint{Type: multibody.JointCompound, Parent: 0, Parts: parts})
		if err != nil {
			t.Fatal(err)
		}
		if trial%2 == 1 {
			m.Bodies[b].Joint.Parts[2].Damping = 7 // read at Apply, not cached
		}
		partsMatchDOFs(t, r, m, b, trial, fmt.Sprintf("trial %d", trial))
	}
}

// partsMatchDOFs checks, at a random state of m, that body b's
// per-DOF JointSpringDamper gives in Apply (applyParts) the bits of
// applyDOFs, with and without Jacobians; label names the case.
func partsMatchDOFs(t *testing.T, r *rand.Rand, m *multibody.Model, b, trial int, label string) {
	t.Helper()
	s := m.NewState()
	for i := range s.Q {
		s.Q[i] = r.NormFloat64()
	}
	for i := range s.V {
		s.V[i] = r.NormFloat64()
	}
	c := &Context{Model: m, Q: s.Q, V: s.V}
	e := &JointSpringDamper{Body: b, PerDOF: true}
	for _, jac := range []bool{false, true} {
		fast, slow := filledOutput(m, jac, uint64(trial)), filledOutput(m, jac, uint64(trial))
		e.Apply(c, fast)
		e.applyDOFs(c, slow, &m.Bodies[b])
		sameOutput(t, fmt.Sprintf("%s jac %v", label, jac), fast, slow)
	}
}

// sameOutput fails unless a and b hold the same bits in F, K and D.
func sameOutput(t *testing.T, what string, a, b *Output) {
	t.Helper()
	for name, pair := range map[string][2][]float64{"F": {a.F, b.F}, "K": {a.K, b.K}, "D": {a.D, b.D}} {
		if !sameBits(pair[0], pair[1]) {
			t.Fatalf("%s: %s %v, per velocity %v", what, name, pair[0], pair[1])
		}
	}
}
