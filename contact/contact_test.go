package contact

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stiction-sim/stiction/geometry"
	"github.com/stiction-sim/stiction/multibody"
	"github.com/stiction-sim/stiction/solver"
	"github.com/stiction-sim/stiction/spatial"
)

func TestCombine(t *testing.T) {
	a := Material{Stiffness: 1e5, Dissipation: 0.01, Friction: 0.5}
	b := Material{Stiffness: 3e5, Dissipation: 0.03, Friction: 1}
	ab, ba := Combine(a, b), Combine(b, a)
	if ab != ba {
		t.Fatalf("Combine not symmetric: %v vs %v", ab, ba)
	}
	if want := 1e5 * 3e5 / 4e5; math.Abs(ab.Stiffness-want) > 1e-9*want {
		t.Errorf("k = %v, want %v", ab.Stiffness, want)
	}
	// compliance-weighted: (0.01/1e5 + 0.03/3e5)/(1/1e5 + 1/3e5) = 0.015
	if math.Abs(ab.Dissipation-0.015) > 1e-15 {
		t.Errorf("τd = %v, want 0.015", ab.Dissipation)
	}
	if want := 2 * 0.5 / 1.5; math.Abs(ab.Friction-want) > 1e-15 {
		t.Errorf("μ = %v, want %v", ab.Friction, want)
	}
	if same := Combine(a, a); math.Abs(same.Dissipation-a.Dissipation) > 1e-17 || same.Friction != a.Friction || math.Abs(same.Stiffness-a.Stiffness/2) > 1e-10 {
		t.Errorf("equal materials: %v", same)
	}
	rigid := Material{Stiffness: 1e300, Dissipation: 0, Friction: 0.5}
	if c := Combine(rigid, b); math.Abs(c.Dissipation-b.Dissipation) > 1e-12 || math.Abs(c.Stiffness-b.Stiffness) > 1e-6*b.Stiffness {
		t.Errorf("rigid side should leave the soft side's k and τd: %v", c)
	}
	if c := Combine(Material{Stiffness: 1}, Material{Stiffness: 1}); c.Friction != 0 {
		t.Errorf("frictionless pair μ = %v", c.Friction)
	}
}

// TestCombineMax: two MaxFriction materials (MuJoCo's rule) take the larger
// sliding, spin and rolling coefficients, and the pair's slip time is
// (1 + μ²) times the mean of the sides' 1/B = SlipTime/(1 + μ_side²); one
// side without MaxFriction leaves the harmonic rule.
func TestCombineMax(t *testing.T) {
	a := Material{Stiffness: 1e5, Friction: 0.2, Spin: 0.01, Rolling: 0, SlipTime: (1 + 0.04) * 0.02, MaxFriction: true}
	b := Material{Stiffness: 1e5, Friction: 1, Spin: 0.002, Rolling: 1e-4, SlipTime: 2 * 0.04, MaxFriction: true}
	ab, ba := Combine(a, b), Combine(b, a)
	if ab != ba {
		t.Fatalf("Combine not symmetric: %v vs %v", ab, ba)
	}
	if ab.Friction != 1 || ab.Spin != 0.01 || ab.Rolling != 1e-4 || !ab.MaxFriction {
		t.Errorf("μ, spin, rolling = %v, %v, %v (max %v), want 1, 0.01, 1e-4", ab.Friction, ab.Spin, ab.Rolling, ab.MaxFriction)
	}
	if want := 2 * 0.5 * (0.02 + 0.04); math.Abs(ab.SlipTime-want) > 1e-15 {
		t.Errorf("slip time %v, want %v", ab.SlipTime, want)
	}
	if same := Combine(a, a); math.Abs(same.SlipTime-a.SlipTime) > 1e-17 || same.Friction != a.Friction {
		t.Errorf("equal materials: %v", same)
	}
	b.MaxFriction = false
	if c := Combine(a, b); c.MaxFriction || math.Abs(c.Friction-2*0.2/1.2) > 1e-15 {
		t.Errorf("mixed rules: μ = %v (max %v), want the harmonic %v", c.Friction, c.MaxFriction, 2*0.2/1.2)
	}
}

// scene is a small model for assembly tests: ground, a box and a sphere.
type scene struct {
	m     *multibody.Model
	s     *multibody.State
	mats  []Material
	pairs []Pair
	p     solver.Problem
}

func randQuat(r *rand.Rand) spatial.Quat {
	return spatial.Quat{W: r.NormFloat64(), X: r.NormFloat64(), Y: r.NormFloat64(), Z: r.NormFloat64()}.Normalize()
}

func randVec(r *rand.Rand, s float64) spatial.Vec3 {
	return spatial.Vec3{r.NormFloat64(), r.NormFloat64(), r.NormFloat64()}.Scale(s)
}

// newScene puts a randomly rotated box with one corner slightly below the
// ground and a sphere touching the box's top, with random velocities.
func newScene(t *testing.T, r *rand.Rand) *scene {
	sc := &scene{m: &multibody.Model{Gravity: spatial.Vec3{0, 0, -9.81}}, mats: []Material{{Stiffness: 1e6, Dissipation: 0.01, Friction: 0.5}}}
	m := sc.m
	ground := m.AddWeldedBody("ground", spatial.PoseIdentity())
	box := geometry.NewBox(spatial.Vec3{0.2, 0.1, 0.05})
	bi, _ := box.UnitInertia()
	b, err := m.AddFreeBody("box", spatial.SpatialInertia{Mass: 2, Icom: bi.Scale(2)})
	if err != nil {
		t.Fatal(err)
	}
	ball := geometry.NewSphere(0.05)
	si, _ := ball.UnitInertia()
	sp, err := m.AddFreeBody("ball", spatial.SpatialInertia{Mass: 0.5, Icom: si.Scale(0.5)})
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range []struct {
		b int
		s geometry.Shape
	}{{ground, geometry.NewHalfSpace()}, {b, box}, {sp, ball}} {
		if _, err := m.AddGeometry(g.b, g.s, spatial.PoseIdentity(), 0); err != nil {
			t.Fatal(err)
		}
	}
	sc.s = m.NewState()
	q := randQuat(r)
	// lowest corner at z = −1 mm
	low := math.Inf(1)
	for _, c := range [8]spatial.Vec3{{1, 1, 1}, {1, 1, -1}, {1, -1, 1}, {1, -1, -1}, {-1, 1, 1}, {-1, 1, -1}, {-1, -1, 1}, {-1, -1, -1}} {
		low = math.Min(low, q.Rotate(c.Mul(box.HalfExtents))[2])
	}
	xb := spatial.Pose{R: q, P: spatial.Vec3{0, 0, -low - 1e-3}}
	m.SetFreeBodyPose(sc.s, b, xb)
	// sphere 0.2 m above the box's highest point: a separated contact within the test's margin
	hi := box.AABB(xb).Max[2]
	m.SetFreeBodyPose(sc.s, sp, spatial.Pose{R: randQuat(r), P: spatial.Vec3{0, 0, hi + 0.05 + 0.2}})
	m.SetFreeBodyVelocity(sc.s, b, randVec(r, 1), randVec(r, 0.3))
	m.SetFreeBodyVelocity(sc.s, sp, randVec(r, 1), randVec(r, 0.3))
	return sc
}

// collide finds all contacts with a large margin, as sim does.
func (sc *scene) collide(margin float64) {
	m, s := sc.m, sc.s
	sc.pairs = sc.pairs[:0]
	for i := range m.Geometries {
		for j := i + 1; j < len(m.Geometries); j++ {
			ga, gb := m.Geometries[i], m.Geometries[j]
			xa := m.BodyPose(s, ga.Body).Compose(ga.Pose)
			xb := m.BodyPose(s, gb.Body).Compose(gb.Pose)
			for _, c := range geometry.Collide(ga.Shape, xa, gb.Shape, xb, margin, nil) {
				sc.pairs = append(sc.pairs, Pair{GeomA: i, GeomB: j, BodyA: ga.Body, BodyB: gb.Body, Contact: c})
			}
		}
	}
}

// massProblem resets p to sc's dynamics: one clique per tree, A = M and
// diag(M) at sc's state, no constraint.
func (sc *scene) massProblem(p *solver.Problem) {
	m, s := sc.m, sc.s
	p.Reset(m.NV)
	for ti, tr := range m.Trees {
		off := len(p.A)
		p.Cliques = append(p.Cliques, solver.Clique{Offset: tr.VOffset, Size: tr.NV, AOff: off})
		p.A = solver.Resize(p.A, off+36)
		m.TreeMassMatrix(s, ti, p.A[off:])
	}
	m.MassDiagonal(s, p.MDiag)
}

// assemble builds the problem with A = M.
func (sc *scene) assemble(t *testing.T, prm Params) {
	m, s, p := sc.m, sc.s, &sc.p
	sc.massProblem(p)
	var a Assembler
	kin := multibody.NewWorkspace(m)
	kin.Update(s.Q, s.V)
	if err := a.Assemble(m, kin, sc.pairs, sc.mats, 0.01, &prm, p); err != nil {
		t.Fatal(err)
	}
	if err := p.Validate(); err != nil {
		t.Fatal(err)
	}
}

// flowed returns a copy of the state moved along its constant twist for h.
func (sc *scene) flowed(h float64) *multibody.State {
	s := &multibody.State{}
	s.CopyFrom(sc.s)
	for b := range sc.m.Bodies {
		if sc.m.Bodies[b].Tree < 0 {
			continue
		}
		x := sc.m.BodyPose(sc.s, b)
		w, v := sc.m.BodyVelocity(sc.s, b)
		sc.m.SetFreeBodyPose(s, b, spatial.Pose{R: spatial.QuatFromAxisAngle(w, w.Norm()*h).Mul(x.R), P: x.P.AddScaled(h, v)})
	}
	return s
}

// TestJacobianMatchesFiniteDifferences checks the contact Jacobian rows:
// the normal row against the central difference of φ along the motion, and
// the tangent rows against the relative motion of the two material points.
func TestJacobianMatchesFiniteDifferences(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	const h = 1e-7
	checked := 0
	for range 30 {
		sc := newScene(t, r)
		sc.collide(0.5)
		sc.assemble(t, DefaultParams())
		vc := make([]float64, sc.p.NR)
		sc.p.MulJ(sc.s.V, vc)
		for k, pr := range sc.pairs {
			phi := func(hh float64) float64 {
				s := sc.flowed(hh)
				ga, gb := sc.m.Geometries[pr.GeomA], sc.m.Geometries[pr.GeomB]
				cs := geometry.Collide(ga.Shape, sc.m.BodyPose(s, ga.Body), gb.Shape, sc.m.BodyPose(s, gb.Body), 0.5, nil)
				best, phi := math.Inf(1), math.NaN()
				for _, c := range cs { // the same manifold point: the one nearest to the original
					if d := c.Point.Sub(pr.Point).Norm(); d < best {
						best, phi = d, c.Phi
					}
				}
				return phi
			}
			fd := (phi(h) - phi(-h)) / (2 * h)
			if math.Abs(vc[3*k+2]-fd) > 1e-5*(1+math.Abs(fd)) {
				t.Errorf("contact %d: J_n v = %.9g, dφ/dt = %.9g", k, vc[3*k+2], fd)
			}
			checked++
			// tangential rows: relative velocity of the material points
			t1, t2 := spatial.Orthonormal(pr.Normal)
			rel := sc.m.PointVelocity(sc.s, pr.BodyB, pr.Point).Sub(sc.m.PointVelocity(sc.s, pr.BodyA, pr.Point))
			for i, d := range []spatial.Vec3{t1, t2} {
				if math.Abs(vc[3*k+i]-d.Dot(rel)) > 1e-12 {
					t.Errorf("contact %d row %d: %v vs %v", k, i, vc[3*k+i], d.Dot(rel))
				}
			}
		}
	}
	if checked < 30 {
		t.Fatalf("only %d contacts checked", checked)
	}
}

// TestRegularization checks eq. 29–30 against a dense Delassus operator
// W = J M⁻¹ Jᵀ, in both estimate modes, and v̂.
func TestRegularization(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for range 20 {
		sc := newScene(t, r)
		sc.collide(0.5)
		for _, mode := range []DelassusEstimate{DelassusDiagonal, DelassusRMS} {
			prm := DefaultParams()
			prm.Delassus = mode
			sc.assemble(t, prm)
			W := denseDelassus(&sc.p)
			n := sc.p.NR
			for k, pr := range sc.pairs {
				var blk spatial.Mat3
				for i := range 3 {
					for j := range 3 {
						blk[i][j] = W[(3*k+i)*n+3*k+j]
					}
				}
				wt, wn := 0.5*(blk[0][0]+blk[1][1]), blk[2][2]
				if mode == DelassusRMS {
					wt, wn = blk.FrobeniusNorm()/3, blk.FrobeniusNorm()/3
				}
				mat := Combine(sc.mats[0], sc.mats[0])
				rn := math.Max(wn/(4*math.Pi*math.Pi), 1/(0.01*mat.Stiffness*(0.01+mat.Dissipation)))
				got := sc.p.R[3*k : 3*k+3]
				if math.Abs(got[0]-1e-3*wt) > 1e-12*wt || got[0] != got[1] || math.Abs(got[2]-rn) > 1e-12*rn {
					t.Fatalf("%v contact %d: R = %v, want (%g, %g, %g)", mode, k, got, 1e-3*wt, 1e-3*wt, rn)
				}
				if vh := sc.p.VHat[3*k+2]; math.Abs(vh+pr.Phi/(0.01+mat.Dissipation)) > 1e-15 || sc.p.VHat[3*k] != 0 {
					t.Fatalf("v̂ = %v for φ0 = %v", sc.p.VHat[3*k:3*k+3], pr.Phi)
				}
			}
		}
	}
}

// denseDelassus returns J A⁻¹ Jᵀ computed densely.
func denseDelassus(p *solver.Problem) []float64 {
	nv, n := p.NV, p.NR
	J := p.DenseJ()
	var f solver.CliqueFactor
	if err := f.Factor(p); err != nil {
		panic(err)
	}
	X := make([]float64, nv*n) // A⁻¹ Jᵀ, row-major nv×n
	for i := range nv {
		for j := range n {
			X[i*n+j] = J[j*nv+i]
		}
	}
	for _, q := range p.Cliques {
		f.Solve(q, X[q.Offset*n:], n)
	}
	W := make([]float64, n*n)
	for i := range n {
		for j := range n {
			for k := range nv {
				W[i*n+j] += J[i*nv+k] * X[k*n+j]
			}
		}
	}
	return W
}

// TestSphereOnGroundDelassus: for a sphere on the ground, W_ii =
// diag(1/m + R²/I, 1/m + R²/I, 1/m) = diag(3.5, 3.5, 1)/m; the diagonal
// estimate gives R_n = β²/(4π² m) (the paper's point-mass value) and the rms
// estimate 1.68× that.
func TestSphereOnGroundDelassus(t *testing.T) {
	m := &multibody.Model{}
	g := m.AddWeldedBody("ground", spatial.PoseIdentity())
	ball := geometry.NewSphere(0.05)
	si, _ := ball.UnitInertia()
	const mass = 0.5
	b, _ := m.AddFreeBody("ball", spatial.SpatialInertia{Mass: mass, Icom: si.Scale(mass)})
	m.AddGeometry(g, geometry.NewHalfSpace(), spatial.PoseIdentity(), 0)
	m.AddGeometry(b, ball, spatial.PoseIdentity(), 0)
	s := m.NewState()
	m.SetFreeBodyPose(s, b, spatial.Pose{R: spatial.QuatIdentity(), P: spatial.Vec3{0, 0, 0.05}})
	sc := &scene{m: m, s: s, mats: []Material{{Stiffness: 1e12, Friction: 1}}}
	sc.collide(1e-3)
	if len(sc.pairs) != 1 {
		t.Fatalf("%d contacts", len(sc.pairs))
	}
	for _, c := range []struct {
		mode  DelassusEstimate
		ratio float64
	}{{DelassusDiagonal, 1}, {DelassusRMS, math.Sqrt(3.5*3.5*2+1) / 3}} {
		prm := DefaultParams()
		prm.Delassus = c.mode
		sc.assemble(t, prm)
		want := c.ratio / (4 * math.Pi * math.Pi * mass)
		if got := sc.p.R[2]; math.Abs(got-want) > 1e-12*want {
			t.Errorf("%v: R_n = %v, want %v", c.mode, got, want)
		}
	}
}

// TestGeometricBlocks: a pair marked Assembler.Geometric gets the same J
// as its full block, kind ContactCone with μ = 0, R = 1 and v̂ = 0; the
// other pairs' blocks are unchanged.
func TestGeometricBlocks(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	checked := 0
	for range 20 {
		sc := newScene(t, r)
		sc.collide(0.5)
		sc.assemble(t, DefaultParams())
		full := sc.p
		full.JData = append([]float64(nil), sc.p.JData...)
		full.R = append([]float64(nil), sc.p.R...)
		full.VHat = append([]float64(nil), sc.p.VHat...)
		full.Constraints = append([]solver.Constraint(nil), sc.p.Constraints...)
		full.JBlock = append([]solver.JBlock(nil), sc.p.JBlock...)

		geo := make([]bool, len(sc.pairs))
		for i := range geo {
			geo[i] = i%2 == 0
		}
		_, p := sc.assembleMarked(t, geo, DefaultParams())
		if p.NR != full.NR || !slices.Equal(p.JData, full.JData) || !slices.Equal(p.JBlock, full.JBlock) {
			t.Fatalf("J differs: %d rows against %d", p.NR, full.NR)
		}
		for i := range sc.pairs {
			c, fc := p.Constraints[i], full.Constraints[i]
			for k := range 3 {
				rw, vw := full.R[fc.Row+k], full.VHat[fc.Row+k]
				if geo[i] {
					rw, vw = 1, 0
				}
				if p.R[c.Row+k] != rw || p.VHat[c.Row+k] != vw {
					t.Errorf("pair %d row %d: R %v v̂ %v, want %v %v", i, k, p.R[c.Row+k], p.VHat[c.Row+k], rw, vw)
				}
			}
			if geo[i] && (c.Kind != solver.ContactCone || p.Par(i)[0] != 0) {
				t.Errorf("pair %d: kind %v params %v", i, c.Kind, p.Par(i))
			}
			if geo[i] {
				checked++
			}
		}
	}
	if checked < 20 {
		t.Fatalf("only %d geometric pairs checked", checked)
	}
}

// TestGeometricSkipsLoads: with every pair Geometric, Assemble with
// Params.LoadAware makes the same problem as without it and does not run
// the load estimate (supported), which only a material's block reads;
// with one pair not Geometric it runs it.
func TestGeometricSkipsLoads(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	checked := 0
	for range 20 {
		sc := newScene(t, r)
		sc.collide(0.5)
		if len(sc.pairs) == 0 {
			continue
		}
		sc.assemble(t, DefaultParams()) // the cliques, A and diag(M) of the scene's problem
		assemble := func(geo []bool, loadAware bool) (*Assembler, *solver.Problem) {
			prm := DefaultParams()
			prm.LoadAware = loadAware
			return sc.assembleMarked(t, geo, prm)
		}
		all := make([]bool, len(sc.pairs))
		for i := range all {
			all[i] = true
		}
		a, p := assemble(all, true)
		_, want := assemble(all, false)
		if len(a.load) != 0 {
			t.Fatalf("all pairs geometric: the load estimate ran (%d loads)", len(a.load))
		}
		if !slices.Equal(p.JData, want.JData) || !slices.Equal(p.R, want.R) || !slices.Equal(p.VHat, want.VHat) || !slices.Equal(p.Params, want.Params) {
			t.Fatal("all pairs geometric: the problem differs with LoadAware")
		}
		all[len(all)-1] = false
		if a, _ := assemble(all, true); len(a.load) != len(sc.pairs) {
			t.Fatalf("one material pair: %d loads for %d pairs", len(a.load), len(sc.pairs))
		}
		checked++
	}
	if checked < 10 {
		t.Fatalf("only %d scenes with contacts", checked)
	}
}

// assembleMarked assembles the scene's pairs with Assembler.Geometric set
// to geo into a new problem with the cliques, A and diag(M) of sc.p (which
// sc.assemble made), at the scene's state.
func (sc *scene) assembleMarked(t *testing.T, geo []bool, prm Params) (*Assembler, *solver.Problem) {
	t.Helper()
	var p solver.Problem
	p.Reset(sc.m.NV)
	p.Cliques = append(p.Cliques, sc.p.Cliques...)
	p.A = append(p.A, sc.p.A...)
	copy(p.MDiag, sc.p.MDiag)
	a := &Assembler{Geometric: geo}
	kin := multibody.NewWorkspace(sc.m)
	kin.Update(sc.s.Q, sc.s.V)
	if err := a.Assemble(sc.m, kin, sc.pairs, sc.mats, 0.01, &prm, &p); err != nil {
		t.Fatal(err)
	}
	return a, &p
}
