package multibody

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stiction-sim/stiction/spatial"
)

// linearChain returns a chain of the given joints under the world, each
// a unit-mass body, and whether the model has a quaternion.
func linearChain(t *testing.T, joints []Joint) *Model {
	t.Helper()
	m := &Model{}
	in := spatial.SpatialInertia{Mass: 1, Icom: spatial.Identity3()}
	parent := -1
	for i, j := range joints {
		j.Parent = parent
		j.ParentFrame, j.ChildFrame = spatial.Pose{R: spatial.QuatIdentity(), P: spatial.Vec3{0, 0, -0.3}}, spatial.PoseIdentity()
		b, err := m.AddBody(string(rune('a'+i)), in, j)
		if err != nil {
			t.Fatal(err)
		}
		parent = b
	}
	return m
}

// TestLinearCoordinatesMatchJoints: on a model whose coordinates are all
// linear (NQ = NV: hinge, slide, planar, universal, a compound of
// revolute and prismatic parts, welds), IntegrateQ, IntegrateQExp,
// LocalVelocity and WorldVelocity's entry-by-entry paths give the bits of
// the joint-by-joint ones, in place too; a model with a ball part, a ball
// or a free joint takes the joint-by-joint path (linearCoordinates false).
func TestLinearCoordinatesMatchJoints(t *testing.T) {
	x, y, z := spatial.Vec3{1, 0, 0}, spatial.Vec3{0, 1, 0}, spatial.Vec3{0, 0, 1}
	lin := []Joint{
		{Type: JointRevolute, Axis: z, Ref: 0.3},
		{Type: JointPrismatic, Axis: x},
		{Type: JointWeld},
		{Type: JointPlanar},
		{Type: JointUniversal},
		{Type: JointCompound, Parts: []JointPart{{Type: JointPrismatic, Axis: x}, {Type: JointRevolute, Axis: y}, {Type: JointPrismatic, Axis: z}}},
	}
	m := linearChain(t, lin)
	if !m.linearCoordinates() || m.NQ != 10 {
		t.Fatalf("linear chain: NQ %d NV %d, linearCoordinates %v", m.NQ, m.NV, m.linearCoordinates())
	}
	for _, j := range []Joint{{Type: JointBall}, {Type: JointCompound, Parts: []JointPart{{Type: JointRevolute, Axis: x}, {Type: JointBall}}}} {
		if linearChain(t, append(append([]Joint(nil), lin...), j)).linearCoordinates() {
			t.Fatalf("a chain with a %v joint reports linear coordinates", j.Type)
		}
	}
	if mf := linearChain(t, []Joint{{Type: JointFree}}); mf.linearCoordinates() {
		t.Fatal("a free body reports linear coordinates")
	}
	r := rand.New(rand.NewPCG(1, 2))
	vec := func(n int) []float64 {
		out := make([]float64, n)
		for i := range out {
			out[i] = r.NormFloat64() * math.Pow(10, float64(r.IntN(7)-3))
		}
		return out
	}
	same := func(what string, a, b []float64) {
		t.Helper()
		for i := range a {
			if math.Float64bits(a[i]) != math.Float64bits(b[i]) {
				t.Fatalf("%s[%d]: %v, joint by joint %v", what, i, a[i], b[i])
			}
		}
	}
	for range 200 {
		q0, qt, v, dt := vec(m.NQ), vec(m.NQ), vec(m.NV), r.Float64()*0.01
		got, want := make([]float64, m.NQ), make([]float64, m.NQ)
		m.IntegrateQ(q0, qt, v, dt, got)
		m.integrateJoints(q0, qt, v, dt, want)
		same("IntegrateQ", got, want)
		m.IntegrateQExp(q0, v, dt, got)
		m.integrateExpJoints(q0, v, dt, want)
		same("IntegrateQExp", got, want)
		inPlace := append([]float64(nil), q0...)
		m.IntegrateQExp(inPlace, v, dt, inPlace)
		same("IntegrateQExp in place", inPlace, want)
		for _, local := range []bool{true, false} {
			gv, wv := make([]float64, m.NV), make([]float64, m.NV)
			m.turnAngular(q0, v, gv, local)
			copy(wv, v)
			m.turnJoints(q0, v, wv, local)
			same("turnAngular", gv, wv)
		}
	}
}

// TestSlidesSubspaceMatchesVectorForm: a compound of prismatic parts alone
// (MJCF's consecutive slides: dm point_mass, ball_in_cup) takes
// compoundSubspaceAt's translation-only path, whose S and Ṡv have the bits
// of the full walk's Vec3 form (compoundSubspaceVec) at random axes,
// references, coordinates and velocities, 1 to 6 parts.
func TestSlidesSubspaceMatchesVectorForm(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	unit := func() spatial.Vec3 {
		a, _ := spatial.Vec3{r.NormFloat64(), r.NormFloat64(), r.NormFloat64()}.Normalize()
		return a
	}
	for n := 1; n <= 6; n++ {
		for range 50 {
			j := Joint{Type: JointCompound}
			for range n {
				j.Parts = append(j.Parts, JointPart{Type: JointPrismatic, Axis: unit(), Ref: r.NormFloat64(), Pos: spatial.Vec3{r.NormFloat64(), 0, r.NormFloat64()}})
			}
			if err := j.validate(); err != nil {
				t.Fatal(err)
			}
			if !j.slides {
				t.Fatalf("%d prismatic parts: slides not kept", n)
			}
			q, v := make([]float64, n), make([]float64, n)
			for i := range q {
				q[i], v[i] = r.NormFloat64(), r.NormFloat64()*10
			}
			var got, want compoundWalk
			got.xm = j.compoundFrames(q, &got.rot, &got.anchor, &got.origin)
			want.xm = j.compoundFramesVec(q, &want.rot, &want.anchor, &want.origin)
			var gw, gl, ww, wl [6]spatial.Vec3
			gsw, gsl := j.compoundSubspaceAt(&got, v, &gw, &gl)
			gcw, gcl := gsw.array(), gsl.array()
			wcw, wcl := j.compoundSubspaceVec(&want, v, &ww, &wl)
			same := sameVecBits(gcw, wcw) && sameVecBits(gcl, wcl)
			for k := range n {
				same = same && sameVecBits(gw[k], ww[k]) && sameVecBits(gl[k], wl[k])
			}
			if !same {
				t.Fatalf("%d slides: S (%v, %v) Ṡv (%v, %v); Vec3 form (%v, %v), (%v, %v)", n, gw, gl, gcw, gcl, ww, wl, wcw, wcl)
			}
		}
	}
	mixed := Joint{Type: JointCompound, Parts: []JointPart{{Type: JointPrismatic, Axis: spatial.Vec3{1, 0, 0}}, {Type: JointRevolute, Axis: spatial.Vec3{0, 0, 1}}}}
	if err := mixed.validate(); err != nil || mixed.slides {
		t.Fatalf("a slide and a hinge: slides %v (%v)", mixed.slides, err)
	}
}
