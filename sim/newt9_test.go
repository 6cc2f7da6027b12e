package sim

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stiction-sim/stiction/contact"
	"github.com/stiction-sim/stiction/multibody"
	"github.com/stiction-sim/stiction/solver/sap"
	"github.com/stiction-sim/stiction/spatial"
)

// TestNewt9KeepDiffWarm: keepDiffWarm keeps the bits of its plain form,
// multibody.Model.LocalVelocity of (v − vs)/δt, on a model with a free
// body and a ball joint (the turned blocks) and on one of a hinge alone
// (no quaternion: nothing turned), at random states, with the warm start
// first of another length; with noslip's acceleration pending it keeps
// that one, and without PGS it keeps nothing.
func TestNewt9KeepDiffWarm(t *testing.T) {
	in := spatial.SpatialInertia{Mass: 1, Icom: spatial.Diag3(spatial.Vec3{0.1, 0.2, 0.3})}
	build := func(joints ...multibody.Joint) *multibody.Model {
		m := &multibody.Model{}
		for i, j := range joints {
			j.ParentFrame, j.ChildFrame, j.Parent = spatial.PoseIdentity(), spatial.PoseIdentity(), i-1
			if _, err := m.AddBody("b", in, j); err != nil {
				t.Fatal(err)
			}
		}
		return m
	}
	hinge := multibody.Joint{Type: multibody.JointRevolute, Axis: spatial.Vec3{0, 1, 0}}
	rng := rand.New(rand.NewPCG(9, 23))
	for _, m := range []*multibody.Model{
		build(multibody.Joint{Type: multibody.JointFree}, multibody.Joint{Type: multibody.JointBall}, hinge),
		build(hinge),
	} {
		cp := contact.DefaultParams()
		cp.PGSIterations = 10
		sm, err := New(m, m.NewState(), Config{DT: 0.01, Contact: cp, Solver: sap.New(sap.DefaultParams())})
		if err != nil {
			t.Fatal(err)
		}
		sm.pgsWarm.qacc = make([]float64, m.NV+1)
		for trial := range 50 {
			q := randomRotations(m, rng, trial == 0)
			v, vs, want := make([]float64, m.NV), make([]float64, m.NV), make([]float64, m.NV)
			for i := range v {
				v[i], vs[i] = rng.NormFloat64(), rng.NormFloat64()
				want[i] = (v[i] - vs[i]) / sm.cfg.DT
			}
			m.LocalVelocity(q, want, want)
			sm.keepDiffWarm(q, v, vs)
			if !sm.pgsWarm.set || len(sm.pgsWarm.qacc) != m.NV {
				t.Fatalf("NV %d, trial %d: warm start set %v, length %d", m.NV, trial, sm.pgsWarm.set, len(sm.pgsWarm.qacc))
			}
			for i, x := range want {
				if math.Float64bits(sm.pgsWarm.qacc[i]) != math.Float64bits(x) {
					t.Fatalf("NV %d, trial %d: qacc[%d] %v, plain form %v", m.NV, trial, i, sm.pgsWarm.qacc[i], x)
				}
			}
		}
		pre := []float64{1, 2, 3}
		sm.ws.noslip.pre, sm.ws.noslip.pending = slices.Clone(pre), true
		sm.keepDiffWarm(randomRotations(m, rng, false), make([]float64, m.NV), make([]float64, m.NV))
		if sm.ws.noslip.pending || !slices.Equal(sm.pgsWarm.qacc, pre) {
			t.Fatalf("NV %d: noslip's pending %v kept as %v (pending %v)", m.NV, pre, sm.pgsWarm.qacc, sm.ws.noslip.pending)
		}
		sm.cfg.Contact.PGSIterations = 0
		sm.keepDiffWarm(randomRotations(m, rng, false), make([]float64, m.NV), make([]float64, m.NV))
		if !slices.Equal(sm.pgsWarm.qacc, pre) {
			t.Fatalf("NV %d: without PGS the warm start became %v", m.NV, sm.pgsWarm.qacc)
		}
	}
}
