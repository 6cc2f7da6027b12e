package constraint

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stiction-sim/stiction/multibody"
	"github.com/stiction-sim/stiction/solver"
	"github.com/stiction-sim/stiction/spatial"
)

const testDT = 0.01

// assembleAt assembles set at state s and returns the problem, the
// assembler and, per row, the constraint value g0 = −δt v̂ (valid for the
// rows of limits, cones and holonomic constraints without dissipation).
func assembleAt(t *testing.T, tm *testModel, set *Set, s *multibody.State) (*solver.Problem, *Assembler, []float64) {
	t.Helper()
	kin := multibody.NewWorkspace(tm.m)
	kin.Update(s.Q, s.V)
	p, f := problem(t, tm.m, kin)
	var a Assembler
	ctl := make([]Control, len(set.Actuators))
	for i := range ctl {
		ctl[i] = Control{U: 0.3 * float64(i+1), Rate: 0.1}
	}
	if err := a.Assemble(tm.m, set, kin, &Input{Q0: s.Q, DT: testDT, Controls: ctl}, Params{Beta: 1}, f, p); err != nil {
		t.Fatal(err)
	}
	if err := p.Validate(); err != nil {
		t.Fatal(err)
	}
	g := make([]float64, p.NR)
	for i, x := range p.VHat {
		g[i] = -testDT * x
	}
	return p, &a, g
}

// holonomicRows marks the rows whose v̂ encodes g0 (limits, cones, welds,
// balls, distances, couplers); skipWeldRot also leaves out the weld rotation
// rows.
func holonomicRows(p *solver.Problem, a *Assembler, skipWeldRot bool) []bool {
	mark := make([]bool, p.NR)
	for _, e := range a.entries {
		if e.typ == TypeActuator || e.typ == TypeFriction {
			continue
		}
		for k := range e.blocks() {
			c := p.Constraints[e.block+k]
			for r := range c.Size {
				mark[c.Row+r] = !(skipWeldRot && e.typ == TypeWeld && r >= 3)
			}
		}
	}
	return mark
}

func TestSetValidate(t *testing.T) {
	tm := newTestModel(t)
	s0 := tm.m.NewState()
	set := tm.fullSet(s0)
	if err := set.Validate(tm.m); err != nil {
		t.Fatal(err)
	}
	bad := &Set{
		Limits:    []Limit{{Name: "x", Body: tm.link3}, {Body: tm.link1, Lower: 1, Upper: 0}},
		Cones:     []ConeLimit{{Body: tm.link1, Angle: 1}},
		Balls:     []Ball{{BodyA: -1, BodyB: -1}},
		Couplers:  []Coupler{{BodyI: tm.link1, BodyJ: tm.link1}},
		Actuators: []Actuator{{Type: Position, Body: tm.link1}},
		Frictions: []JointFriction{{Body: tm.box}},
		Attachments: []Attachment{{Master: tm.box, Body: tm.link1}, {Master: tm.link1, Body: tm.box},
			{Master: tm.link2, Body: tm.box}},
		Prescribed: []Prescribed{{Body: tm.cart, DOFs: []int{0}}},
	}
	err := bad.Validate(tm.m)
	if err == nil {
		t.Fatal("no error")
	}
	for _, want := range []string{
		`Limits[0] "x": body "link3" has a ball joint`,
		`Limits[1]: bounds [1, 0]`,
		`Cones[0]: body "link1" has a revolute joint; a cone limit needs a ball joint`,
		`Balls[0]: bodies -1 and -1`,
		`Couplers[0]: couples velocity 0 with itself`,
		`Actuators[0]: a position actuator needs kp > 0`,
		`Frictions[0]: body "box" has a free joint`,
		`Attachments[0] "": body 0 must be a body on a free joint`,
		`Attachments[2] "": body "box" is already moved by an attachment`,
		`Prescribed[0] "": 0 signals for 1 DOFs`,
	} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("missing %q in\n%v", want, err)
		}
	}
}

// TestJacobiansMatchFiniteDifferences checks every assembled row's J
// against central differences of its g(q) along random velocity
// directions, q(ε) = q + ε N(q) δv, at the state the welds and balls were
// built in (where the weld's rotation rows are exact) and at a perturbed
// state (all rows but the weld rotations, whose J is exact at g = 0 only).
func TestJacobiansMatchFiniteDifferences(t *testing.T) {
	tm := newTestModel(t)
	for seed := range 5 {
		rng := rand.New(rand.NewPCG(uint64(seed), 7))
		s0 := tm.randomState(rng, 0.3)
		set := tm.fullSet(s0)
		s1 := tm.randomState(rng, 0.3)
		for i := range s1.Q {
			s1.Q[i] = s0.Q[i] + 0.02*(s1.Q[i]-s0.Q[i])
		}
		for _, tc := range []struct {
			s    *multibody.State
			skip bool
		}{{s0, false}, {s1, true}} {
			p, a, _ := assembleAt(t, tm, set, tc.s)
			mark := holonomicRows(p, a, tc.skip)
			jd := p.DenseJ()
			for j := range tm.m.NV { // rows in world axes: J = V J'
				col := make([]float64, p.NR)
				for r := range p.NR {
					col[r] = jd[r*tm.m.NV+j]
				}
				col = toWorld(p, a, col)
				for r := range p.NR {
					jd[r*tm.m.NV+j] = col[r]
				}
			}
			for range 3 {
				dv := make([]float64, tm.m.NV)
				for i := range dv {
					dv[i] = rng.NormFloat64()
				}
				const eps = 1e-6
				gp, gm := tm.gAlong(t, set, tc.s, dv, eps), tm.gAlong(t, set, tc.s, dv, -eps)
				for r := range p.NR {
					if !mark[r] {
						continue
					}
					jv := 0.0
					for j := range tm.m.NV {
						jv += jd[r*tm.m.NV+j] * dv[j]
					}
					fd := (gp[r] - gm[r]) / (2 * eps)
					if math.Abs(fd-jv) > 1e-6*(1+math.Abs(jv)) {
						t.Errorf("seed %d, row %d: J δv = %.12g, finite difference %.12g", seed, r, jv, fd)
					}
				}
			}
		}
	}
}

// gAlong returns the rows' g at q + ε N(q) δv, in world axes.
func (tm *testModel) gAlong(t *testing.T, set *Set, s *multibody.State, dv []float64, eps float64) []float64 {
	sp := tm.m.NewState()
	copy(sp.V, s.V)
	tm.m.IntegrateQ(s.Q, s.Q, dv, eps, sp.Q)
	p, a, g := assembleAt(t, tm, set, sp)
	return toWorld(p, a, g)
}

// toWorld maps a row vector from the assembled (eigen-)rows of diagonalized
// blocks back to world axes, x = V x'.
func toWorld(p *solver.Problem, a *Assembler, x []float64) []float64 {
	out := append([]float64(nil), x...)
	for _, e := range a.entries {
		if e.vec < 0 {
			continue
		}
		c := p.Constraints[e.block]
		n, v := c.Size, a.vecs[e.vec:]
		for r := range n {
			s := 0.0
			for k := range n {
				s += v[r*n+k] * x[c.Row+k]
			}
			out[c.Row+r] = s
		}
	}
	return out
}

// TestAssembledKinds checks, on every block assembled from the test model,
// the kind's G = −∂γ/∂v_c against central differences of γ and the
// convexity of ℓ along random segments (the kind tests of package solver
// use random data; these use the R, v̂ and bounds the assembly produces,
// including the motor's lo = hi interval).
func TestAssembledKinds(t *testing.T) {
	tm := newTestModel(t)
	rng := rand.New(rand.NewPCG(3, 4))
	s0 := tm.randomState(rng, 0.3)
	p, _, _ := assembleAt(t, tm, tm.fullSet(s0), s0)
	for i, c := range p.Constraints {
		n := c.Size
		vc, v2, gam, gp, gm := make([]float64, n), make([]float64, n), make([]float64, n), make([]float64, n), make([]float64, n)
		g := make([]float64, n*n)
		for trial := range 20 {
			scale := math.Pow(10, float64(trial%4)-2)
			for k := range n {
				vc[k] = p.VHat[c.Row+k] + scale*rng.NormFloat64()
				v2[k] = p.VHat[c.Row+k] + scale*rng.NormFloat64()
			}
			l1 := p.Eval(i, vc, gam, g)
			for col := range n {
				h := 1e-7 * (scale + math.Abs(vc[col]))
				vc[col] += h
				p.Eval(i, vc, gp, nil)
				vc[col] -= 2 * h
				p.Eval(i, vc, gm, nil)
				vc[col] += h
				for r := range n {
					fd := -(gp[r] - gm[r]) / (2 * h)
					if math.Abs(fd-g[r*n+col]) > 1e-5*(1+math.Abs(g[r*n+col])) && !nearKink(p, i, vc, h) {
						t.Errorf("constraint %d (%v) G[%d][%d] = %g, finite difference %g", i, c.Kind, r, col, g[r*n+col], fd)
					}
				}
			}
			l2 := p.Eval(i, v2, gam, nil)
			for _, s := range []float64{0.25, 0.5, 0.75} {
				for k := range n {
					gp[k] = (1-s)*vc[k] + s*v2[k]
				}
				lm := p.Eval(i, gp, gam, nil)
				if lm > (1-s)*l1+s*l2+1e-9*(1+math.Abs(l1)+math.Abs(l2)) {
					t.Errorf("constraint %d (%v): ℓ not convex: ℓ(mid) %g > %g", i, c.Kind, lm, (1-s)*l1+s*l2)
				}
			}
		}
	}
}

// nearKink reports whether an interval constraint's y is within the
// difference step of a bound (where γ has a kink).
func nearKink(p *solver.Problem, i int, vc []float64, h float64) bool {
	c := p.Constraints[i]
	if c.Kind != solver.Interval {
		return false
	}
	par := p.Par(i)
	r := p.R[c.Row]
	y := -(vc[0] - p.VHat[c.Row]) / r
	return math.Abs(y-par[0]) < 2*h/r || math.Abs(y-par[1]) < 2*h/r
}

func TestSignals(t *testing.T) {
	tb, err := NewTable([][2]float64{{0, 1}, {1, 3}, {3, -1}})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ t, v, r float64 }{{-1, 1, 0}, {0, 1, 2}, {0.5, 2, 2}, {1, 3, -2}, {2, 1, -2}, {3, -1, 0}, {9, -1, 0}} {
		if v, r := tb.Eval(c.t); v != c.v || r != c.r {
			t.Errorf("table(%v) = %v, %v; want %v, %v", c.t, v, r, c.v, c.r)
		}
	}
	if _, err := NewTable([][2]float64{{0, 1}, {0, 2}}); err == nil {
		t.Error("non-increasing table accepted")
	}
	s := Sine{Offset: 0.1, Amplitude: 0.3, Frequency: 1.7, Phase: 0.4}
	for _, x := range []float64{0, 0.3, 1.1} {
		v, r := s.Eval(x)
		vp, _ := s.Eval(x + 1e-6)
		vm, _ := s.Eval(x - 1e-6)
		if math.Abs(r-(vp-vm)/2e-6) > 1e-7 || math.Abs(v-(0.1+0.3*math.Sin(2*math.Pi*1.7*x+0.4))) > 1e-15 {
			t.Errorf("sine at %v: %v, %v", x, v, r)
		}
	}
}

func TestBallAngle(t *testing.T) {
	for _, th := range []float64{0, 0.3, 2, math.Pi} {
		q := spatial.QuatFromAxisAngle(spatial.Vec3{0, 0.6, 0.8}, th)
		for _, sgn := range []float64{1, -1} {
			got, axis := BallAngle([]float64{sgn * q.W, sgn * q.X, sgn * q.Y, sgn * q.Z})
			if math.Abs(got-th) > 1e-12 || (th > 0 && th < math.Pi && axis.Sub(spatial.Vec3{0, 0.6, 0.8}).Norm() > 1e-12) {
				t.Errorf("θ = %v: got %v, axis %v", th, got, axis)
			}
		}
	}
}

// TestDiagonalizedRows: the rows of balls and near-rigid welds are the
// eigenvectors of their Delassus block (W' = J' A⁻¹ J'ᵀ is diagonal), R
// is the near-rigid value of each eigenvalue, and the basis is orthonormal.
func TestDiagonalizedRows(t *testing.T) {
	tm := newTestModel(t)
	rng := rand.New(rand.NewPCG(5, 6))
	s0 := tm.randomState(rng, 0.3)
	p, a, _ := assembleAt(t, tm, tm.fullSet(s0), s0)
	a0 := p.DenseA()
	jd := p.DenseJ()
	nv := tm.m.NV
	ainv := invert(t, a0, nv)
	n := 0
	for _, e := range a.entries {
		if e.vec < 0 {
			continue
		}
		n++
		c := p.Constraints[e.block]
		v := a.vecs[e.vec:]
		for r := range c.Size {
			for k := range c.Size {
				w, vv := 0.0, 0.0
				for i := range nv {
					for j := range nv {
						w += jd[(c.Row+r)*nv+i] * ainv[i*nv+j] * jd[(c.Row+k)*nv+j]
					}
				}
				for x := range c.Size {
					vv += v[x*c.Size+r] * v[x*c.Size+k]
				}
				if r != k && math.Abs(w) > 1e-9*(1+math.Abs(p.R[c.Row+r])) {
					t.Errorf("%v block: W'[%d][%d] = %g, not diagonal", e.typ, r, k, w)
				}
				if r == k && w > 1e-9 && math.Abs(p.R[c.Row+r]-solver.NearRigidR(w, 1)) > 1e-9*p.R[c.Row+r] {
					t.Errorf("%v block row %d: R = %g, near-rigid value of W'_rr = %g", e.typ, r, p.R[c.Row+r], solver.NearRigidR(w, 1))
				}
				if want := map[bool]float64{true: 1, false: 0}[r == k]; math.Abs(vv-want) > 1e-12 {
					t.Errorf("%v block: basis not orthonormal (VᵀV)[%d][%d] = %g", e.typ, r, k, vv)
				}
			}
		}
	}
	if n != 4 { // two welds (near-rigid) and two balls
		t.Errorf("%d diagonalized blocks, want 4", n)
	}
}

// invert returns the inverse of the n×n row-major SPD matrix a by
// Gauss–Jordan elimination (tests only).
func invert(t *testing.T, a []float64, n int) []float64 {
	t.Helper()
	m := append([]float64(nil), a...)
	inv := make([]float64, n*n)
	for i := range n {
		inv[i*n+i] = 1
	}
	for c := range n {
		piv := m[c*n+c]
		if piv == 0 {
			t.Fatal("singular")
		}
		for j := range n {
			m[c*n+j] /= piv
			inv[c*n+j] /= piv
		}
		for r := range n {
			if r == c {
				continue
			}
			f := m[r*n+c]
			for j := range n {
				m[r*n+j] -= f * m[c*n+j]
				inv[r*n+j] -= f * inv[c*n+j]
			}
		}
	}
	return inv
}
