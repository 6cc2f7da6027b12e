package forces

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stiction-sim/stiction/multibody"
	"github.com/stiction-sim/stiction/spatial"
)

func rv(r *rand.Rand) spatial.Vec3 {
	return spatial.Vec3{r.NormFloat64(), r.NormFloat64(), r.NormFloat64()}
}

func rq(r *rand.Rand) spatial.Quat {
	return spatial.Quat{W: r.NormFloat64(), X: r.NormFloat64(), Y: r.NormFloat64(), Z: r.NormFloat64()}.Normalize()
}

func rpose(r *rand.Rand) spatial.Pose { return spatial.Pose{R: rq(r), P: rv(r).Scale(0.3)} }

// system is a free body, a welded body and a chain of every 1-to-3-dof joint
// type, with random frames, inertias and state.
func system(r *rand.Rand) (*multibody.Model, *multibody.State) {
	m := &multibody.Model{Gravity: spatial.Vec3{0, 0, -9.81}}
	in := func() spatial.SpatialInertia {
		return spatial.SpatialInertia{Mass: 1 + r.Float64(), Com: rv(r).Scale(0.1), Icom: spatial.Diag3(spatial.Vec3{0.1, 0.12, 0.15})}
	}
	add := func(t multibody.JointType, p int) {
		j := multibody.Joint{Type: t, Parent: p, ParentFrame: rpose(r), ChildFrame: rpose(r), Axis: rv(r), Stiffness: 3, Damping: 0.5}
		if t == multibody.JointFree || t == multibody.JointBall {
			j.Stiffness = 0
		}
		if _, err := m.AddBody(fmt.Sprint("b", len(m.Bodies)), in(), j); err != nil {
			panic(err)
		}
	}
	m.AddWeldedBody("wall", rpose(r))
	add(multibody.JointFree, -1)
	p := -1
	for _, t := range []multibody.JointType{multibody.JointRevolute, multibody.JointBall, multibody.JointPlanar, multibody.JointUniversal, multibody.JointPrismatic} {
		add(t, p)
		p = len(m.Bodies) - 1
	}
	s := m.NewState()
	for b := range m.Bodies {
		q := m.JointQ(s, b)
		for i := range q {
			q[i] = 0.5 * r.NormFloat64()
		}
		if t := m.Bodies[b].Joint.Type; t == multibody.JointFree || t == multibody.JointBall {
			u := rq(r)
			q[0], q[1], q[2], q[3] = u.W, u.X, u.Y, u.Z
		}
		for i := range m.JointV(s, b) {
			m.JointV(s, b)[i] = r.NormFloat64()
		}
	}
	return m, s
}

// elements returns one of every element kind on the system.
func elements(r *rand.Rand, m *multibody.Model) []Element {
	a := func(b int) Attachment { return Attachment{Body: b, Point: rv(r).Scale(0.2)} }
	tc := func(b, dof int, coef float64) TendonCoord {
		c, ok := NewTendonCoord(m, b, dof, coef)
		if !ok {
			panic(fmt.Sprintf("body %d dof %d is not a scalar coordinate", b, dof))
		}
		return c
	}
	return []Element{
		&FixedTendon{Terms: []TendonCoord{tc(2, 0, 0.7), tc(4, 1, -1.3), tc(6, 0, 2)}, Stiffness: 4, Damping: 0.6, RestLength: 0.2},
		Gravity{},
		&JointSpringDamper{Body: 2, Stiffness: 5, Damping: 0.7, Ref: []float64{0.3}},
		&JointSpringDamper{Body: 4, Stiffness: 5, Damping: 0.7},
		&JointSpringDamper{Body: 3, Stiffness: 2, Damping: 0.4}, // the ball: MuJoCo's quaternion spring
		NewAxialSpring(a(0), a(6), 40, 2, 0.5),
		NewAxialSpring(a(1), a(5), 40, 2, 0.5),
		&PathSpring{Points: []Attachment{a(-1), a(3), a(1), a(6)}, Stiffness: 30, Damping: 1.5, RestLength: 1},
		&FrameSpring{Body1: 2, Frame1: rpose(r), Body2: 6, Frame2: rpose(r), KT: 20, KR: 3, DT: 1, DR: 0.2},
		&FrameSpring{Body1: -1, Frame1: rpose(r), Body2: 1, Frame2: rpose(r), KT: 20, KR: 3, DT: 1, DR: 0.2},
		&BodyWrench{Body: 5, Point: rv(r), Force: rv(r), Torque: rv(r), Profile: Profile{Offset: 1, Amplitude: 0.5, Frequency: 2}},
		&JointMotor{Body: 4, Torque: []float64{1, -2, 0.5}, Profile: Profile{Offset: 1}},
		NewFluid(m, 1.2, 0.02, rv(r)),
	}
}

// eval returns F, K, D of element e at (q, v).
func eval(m *multibody.Model, e Element, q, v []float64, t float64) *Output {
	ws := multibody.NewWorkspace(m)
	ws.Update(q, v)
	out := NewOutput(m)
	out.Jacobians = true
	e.Apply(&Context{Model: m, WS: ws, Q: q, V: v, T: t}, out)
	return out
}

func energy(m *multibody.Model, e Element, q []float64) float64 {
	ws := multibody.NewWorkspace(m)
	ws.Update(q, nil)
	return e.PotentialEnergy(&Context{Model: m, WS: ws, Q: q, V: make([]float64, m.NV)})
}

// displaced returns q moved by h along N(q) e_j.
func displaced(m *multibody.Model, q []float64, j int, h float64) []float64 {
	e := make([]float64, m.NV)
	e[j] = 1
	out := make([]float64, len(q))
	m.IntegrateQ(q, q, e, h, out)
	return out
}

// fdJacobians returns −∂F/∂q N and −∂F/∂v by central differences.
func fdJacobians(m *multibody.Model, e Element, q, v []float64) (K, D [][]float64) {
	const h = 1e-6
	K, D = make([][]float64, m.NV), make([][]float64, m.NV)
	for i := range K {
		K[i], D[i] = make([]float64, m.NV), make([]float64, m.NV)
	}
	for j := range m.NV {
		fp := eval(m, e, displaced(m, q, j, h), v, 0).F
		fm := eval(m, e, displaced(m, q, j, -h), v, 0).F
		vp, vm := append([]float64(nil), v...), append([]float64(nil), v...)
		vp[j] += h
		vm[j] -= h
		gp, gm := eval(m, e, q, vp, 0).F, eval(m, e, q, vm, 0).F
		for i := range m.NV {
			K[i][j] = -(fp[i] - fm[i]) / (2 * h)
			D[i][j] = -(gp[i] - gm[i]) / (2 * h)
		}
	}
	return K, D
}

// block returns entry (i, j) of a tree-block matrix, and whether i and j
// are in the same tree.
func block(m *multibody.Model, out *Output, X []float64, i, j int) (float64, bool) {
	for t, tr := range m.Trees {
		if i >= tr.VOffset && i < tr.VOffset+tr.NV {
			if j < tr.VOffset || j >= tr.VOffset+tr.NV {
				return 0, false
			}
			return X[out.Off[t]+(i-tr.VOffset)*tr.NV+j-tr.VOffset], true
		}
	}
	return 0, false
}

// TestForceIsEnergyGradient: for conservative elements (damping zeroed) the
// generalized force is −∂PE/∂q N at random configurations (central
// differences), so forces and energies agree everywhere.
func TestForceIsEnergyGradient(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	worst := 0.0
	for range 5 {
		m, s := system(r)
		zero := make([]float64, m.NV)
		for ei, e := range elements(r, m) {
			switch x := e.(type) {
			case *JointSpringDamper:
				x.Damping = 0
			case *PathSpring:
				x.Damping = 0
			case *FrameSpring:
				x.DT, x.DR = 0, 0
			case *BodyWrench, *JointMotor, *Fluid:
				continue
			}
			F := eval(m, e, s.Q, zero, 0).F
			for j := range m.NV {
				const h = 1e-6
				g := -(energy(m, e, displaced(m, s.Q, j, h)) - energy(m, e, displaced(m, s.Q, j, -h))) / (2 * h)
				d := math.Abs(g-F[j]) / (1 + math.Abs(F[j]))
				worst = math.Max(worst, d)
				if d > 1e-6 {
					t.Fatalf("element %d (%T): F[%d] = %.10g, −∂PE/∂q_%d = %.10g", ei, e, j, F[j], j, g)
				}
			}
		}
	}
	t.Logf("max |F + ∇PE|/(1+|F|) = %.2g", worst)
}

// TestDampingMatchesFD: D equals −∂F/∂v (central differences) in every
// within-tree block, at random states, for every element.
func TestDampingMatchesFD(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	worst := 0.0
	for range 3 {
		m, s := system(r)
		for ei, e := range elements(r, m) {
			out := eval(m, e, s.Q, s.V, 0)
			_, D := fdJacobians(m, e, s.Q, s.V)
			for i := range m.NV {
				for j := range m.NV {
					x, same := block(m, out, out.D, i, j)
					if !same {
						continue
					}
					d := math.Abs(x - D[i][j])
					worst = math.Max(worst, d/(1+math.Abs(x)))
					if d > 1e-6*(1+math.Abs(x)) {
						t.Fatalf("element %d (%T): D[%d][%d] = %.10g, FD %.10g", ei, e, i, j, x, D[i][j])
					}
				}
			}
		}
	}
	t.Logf("max |D − FD|/(1+|D|) = %.2g", worst)
}

// TestStiffnessMatchesFDAtRest: at rest (v = 0) with every spring at its
// rest length and every bushing's frames coincident, the terms K drops
// vanish (they are proportional to the spring force or the velocity), so K
// equals −∂F/∂q N (central differences) in every within-tree block.
func TestStiffnessMatchesFDAtRest(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	worst := 0.0
	for range 3 {
		m, s := system(r)
		zero := make([]float64, m.NV)
		for ei, e := range elements(r, m) {
			switch x := e.(type) {
			case *PathSpring:
				ws := multibody.NewWorkspace(m)
				ws.Update(s.Q, zero)
				x.RestLength, _ = x.Length(&Context{Model: m, WS: ws, Q: s.Q, V: zero})
			case *FrameSpring:
				ws := multibody.NewWorkspace(m)
				ws.Update(s.Q, zero)
				w1 := spatial.PoseIdentity()
				if x.Body1 >= 0 {
					w1 = ws.Pose(x.Body1)
				}
				x.Frame2 = ws.Pose(x.Body2).Inverse().Compose(w1.Compose(x.Frame1))
			case *JointSpringDamper:
				if m.Bodies[x.Body].Joint.Type == multibody.JointBall { // K = k I is exact at the identity
					q := m.JointQ(s, x.Body)
					q[0], q[1], q[2], q[3] = 1, 0, 0, 0
				}
			case Gravity, *BodyWrench, *Fluid:
				continue // K = 0 by design (package comment)
			}
			out := eval(m, e, s.Q, zero, 0)
			K, _ := fdJacobians(m, e, s.Q, zero)
			for i := range m.NV {
				for j := range m.NV {
					x, same := block(m, out, out.K, i, j)
					if !same {
						continue
					}
					d := math.Abs(x - K[i][j])
					worst = math.Max(worst, d/(1+math.Abs(x)))
					if d > 1e-6*(1+math.Abs(x)) {
						t.Fatalf("element %d (%T): K[%d][%d] = %.10g, FD %.10g", ei, e, i, j, x, K[i][j])
					}
				}
			}
		}
	}
	t.Logf("max |K − FD|/(1+|K|) at rest = %.2g", worst)
}

// TestKDSymmetricPSD: at random states (springs stretched and compressed,
// moving) the K and D handed over are symmetric and positive semi-definite,
// and M + K + D is positive definite, for the sum of all elements.
func TestKDSymmetricPSD(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	minEig := math.Inf(1)
	for range 20 {
		m, s := system(r)
		ws := multibody.NewWorkspace(m)
		ws.Update(s.Q, s.V)
		out := NewOutput(m)
		out.Jacobians = true
		ctx := &Context{Model: m, WS: ws, Q: s.Q, V: s.V}
		for _, e := range elements(r, m) {
			e.Apply(ctx, out)
		}
		for ti, tr := range m.Trees {
			n := tr.NV
			A := make([]float64, n*n)
			ws.MassMatrix(ti, A)
			for i := range A {
				A[i] += out.K[out.Off[ti]+i] + out.D[out.Off[ti]+i]
			}
			if e := smallestEigen(A, n); !(e > 0) {
				t.Fatalf("tree %d: M + K + D has eigenvalue %g", ti, e)
			}
			for _, X := range [][]float64{out.K, out.D} {
				blk := X[out.Off[ti] : out.Off[ti]+n*n]
				for i := range n {
					for j := range n {
						if math.Abs(blk[i*n+j]-blk[j*n+i]) > 1e-12*(1+math.Abs(blk[i*n+j])) {
							t.Fatalf("tree %d: not symmetric at (%d, %d)", ti, i, j)
						}
					}
				}
				e := smallestEigen(blk, n)
				minEig = math.Min(minEig, e)
				if e < -1e-10 {
					t.Fatalf("tree %d: smallest eigenvalue %g < 0", ti, e)
				}
			}
		}
	}
	t.Logf("smallest eigenvalue of any K or D block: %.3g (≥ 0)", minEig)
}

// smallestEigen returns the smallest eigenvalue of a symmetric matrix by
// Jacobi rotations.
func smallestEigen(a []float64, n int) float64 {
	A := append([]float64(nil), a...)
	for sweep := 0; sweep < 100; sweep++ {
		off := 0.0
		for p := range n {
			for q := p + 1; q < n; q++ {
				off += A[p*n+q] * A[p*n+q]
				if A[p*n+q] == 0 {
					continue
				}
				th := (A[q*n+q] - A[p*n+p]) / (2 * A[p*n+q])
				tt := math.Copysign(1, th) / (math.Abs(th) + math.Sqrt(th*th+1))
				c := 1 / math.Sqrt(tt*tt+1)
				s := tt * c
				for k := range n {
					akp, akq := A[k*n+p], A[k*n+q]
					A[k*n+p], A[k*n+q] = c*akp-s*akq, s*akp+c*akq
				}
				for k := range n {
					apk, aqk := A[p*n+k], A[q*n+k]
					A[p*n+k], A[q*n+k] = c*apk-s*aqk, s*apk+c*aqk
				}
			}
		}
		if off < 1e-30 {
			break
		}
	}
	e := math.Inf(1)
	for i := range n {
		e = math.Min(e, A[i*n+i])
	}
	return e
}

// TestAxialJacobians: the point-space Jacobians of notes §0.12.1 match
// central differences of f₁ = F u, including the terms the generalized K
// drops.
func TestAxialJacobians(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 9))
	const h = 1e-6
	worst := 0.0
	f1 := func(x1, x2, v1, v2 spatial.Vec3, k, d, rest float64) spatial.Vec3 {
		u, l := x2.Sub(x1).Normalize()
		return u.Scale(k*(l-rest) + d*v2.Sub(v1).Dot(u))
	}
	for range 50 {
		x1, x2, v1, v2 := rv(r), rv(r), rv(r), rv(r)
		k, d, rest := 10*r.Float64(), r.Float64(), r.Float64()
		dfdx, dfdv := AxialJacobians(x1, x2, v1, v2, k, d, rest)
		for j := range 3 {
			var e spatial.Vec3
			e[j] = h
			gx := f1(x1.Add(e), x2, v1, v2, k, d, rest).Sub(f1(x1.Sub(e), x2, v1, v2, k, d, rest)).Scale(1 / (2 * h))
			gv := f1(x1, x2, v1.Add(e), v2, k, d, rest).Sub(f1(x1, x2, v1.Sub(e), v2, k, d, rest)).Scale(1 / (2 * h))
			for i := range 3 {
				worst = math.Max(worst, math.Max(math.Abs(gx[i]-dfdx[i][j]), math.Abs(gv[i]-dfdv[i][j])))
			}
		}
	}
	t.Logf("max |∂f/∂x − FD|, |∂f/∂ẋ − FD| = %.2g", worst)
	if worst > 1e-6 {
		t.Fatalf("axial Jacobians differ from finite differences by %g", worst)
	}
}

// TestGravityEnergyWithoutGravity: with g = 0 gravity's potential energy is
// +0 (what the sum over the bodies gives for finite positions), and with
// g ≠ 0 it is −Σ m g·x_com over the moving bodies.
func TestGravityEnergyWithoutGravity(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	m, s := system(r)
	if e := energy(m, Gravity{}, s.Q); e == 0 {
		t.Fatalf("g = %v: energy %v, want non-zero", m.Gravity, e)
	}
	ws := multibody.NewWorkspace(m)
	ws.Update(s.Q, nil)
	want := 0.0
	for b := range m.Bodies {
		if m.Bodies[b].Tree >= 0 {
			want -= m.Bodies[b].Inertia.Mass * m.Gravity.Dot(ws.Pose(b).Apply(m.Bodies[b].Inertia.Com))
		}
	}
	if e := energy(m, Gravity{}, s.Q); e != want {
		t.Errorf("g = %v: energy %v, want %v", m.Gravity, e, want)
	}
	m.Gravity = spatial.Vec3{}
	if e := energy(m, Gravity{}, s.Q); e != 0 || math.Signbit(e) {
		t.Errorf("g = 0: energy %v, want +0", e)
	}
}
