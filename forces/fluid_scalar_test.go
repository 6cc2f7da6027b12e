package forces

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stiction-sim/stiction/multibody"
	"github.com/stiction-sim/stiction/spatial"
)

// applyBodyVec is applyBody in its former Vec3 form, the reference of
// TestFluidBodyMatchesVectorForm.
func (e *Fluid) applyBodyVec(c *Context, out *Output, fb *fluidBody) {
	b := fb.body
	x := c.WS.Pose(b)
	R := x.R.RotMat().Mul(fb.axes) // the principal frame in the world (MuJoCo's ximat)
	com := x.Apply(fb.com)
	w, v := c.WS.Velocity(b)
	vc := v.Add(w.Cross(com.Sub(x.P))).Sub(e.Wind)
	lw, lv := R.MulTVec(w), R.MulTVec(vc)
	box := fb.box
	var lt, lf spatial.Vec3
	if e.Viscosity > 0 {
		d := (box[0] + box[1] + box[2]) / 3
		lt = lw.Scale(-math.Pi * d * d * d * e.Viscosity)
		lf = lv.Scale(-3 * math.Pi * d * e.Viscosity)
	}
	if rho := e.Density; rho > 0 {
		for k := range 3 {
			b1, b2 := box[(k+1)%3], box[(k+2)%3]
			lf[k] -= 0.5 * rho * b1 * b2 * math.Abs(lv[k]) * lv[k]
			lt[k] -= rho * box[k] * (pow4(b1) + pow4(b2)) * math.Abs(lw[k]) * lw[k] / 64
		}
	}
	out.pointJacobian(c, b, com, out.jac[0])
	out.addJtF(out.jac[0], R.MulVec(lf))
	if out.Jacobians {
		out.addJtXJ(out.D, out.jac[0], rotDiag(R, e.dragSlopes(box, lv, 3*math.Pi*(box[0]+box[1]+box[2])/3, true)), 1)
	}
	out.angularJacobian(c, b, out.jac[0])
	out.addJtF(out.jac[0], R.MulVec(lt))
	if out.Jacobians {
		d := (box[0] + box[1] + box[2]) / 3
		out.addJtXJ(out.D, out.jac[0], rotDiag(R, e.dragSlopes(box, lw, math.Pi*d*d*d, false)), 1)
	}
}

// TestFluidBodyMatchesVectorForm checks that applyBody, on scalar locals,
// gives the bits of its former Vec3 form: F and D of every body, with
// density only, viscosity only and both, wind, and principal axes that are
// and are not the body frame's.
func TestFluidBodyMatchesVectorForm(t *testing.T) {
	r := rand.New(rand.NewPCG(23, 24))
	n := 0
	for trial := range 12 {
		m, s := system(r)
		ws := multibody.NewWorkspace(m)
		ws.Update(s.Q, s.V)
		c := &Context{Model: m, WS: ws, Q: s.Q, V: s.V}
		rho, eta := []float64{1.2, 0, 1000}[trial%3], []float64{0, 0.02, 0.1}[trial%3]
		e := NewFluid(m, rho, eta, rv(r))
		if trial%2 == 1 { // a body whose box is turned from its frame
			A := spatial.Mat3{{1, 0.2, 0.1}, {0.3, 1, -0.2}, {0.1, 0.4, 1}}
			I := A.Mul(A.T()).Scale(0.1)
			e.SetBox(2, spatial.SpatialInertia{Mass: 1.5, Com: rv(r).Scale(0.1), Icom: I})
		}
		for i := range e.bodies {
			for _, jac := range []bool{false, true} {
				got, want := NewOutput(m), NewOutput(m)
				got.Jacobians, want.Jacobians = jac, jac
				e.applyBody(c, got, &e.bodies[i])
				e.applyBodyVec(c, want, &e.bodies[i])
				if !sameBits(got.F, want.F) || !sameBits(got.D, want.D) {
					t.Fatalf("trial %d body %d (Jacobians %v): F %v D %v; Vec3 form F %v D %v", trial, e.bodies[i].body, jac, got.F, got.D, want.F, want.D)
				}
				if !slices.ContainsFunc(got.F, func(x float64) bool { return x != 0 }) {
					t.Fatalf("trial %d body %d: no force", trial, e.bodies[i].body)
				}
				n++
			}
		}
	}
	if n < 100 {
		t.Fatalf("only %d bodies checked", n)
	}
}

// sameBits reports whether a and b hold the same float64 bits.
func sameBits(a, b []float64) bool {
	return slices.EqualFunc(a, b, func(x, y float64) bool { return math.Float64bits(x) == math.Float64bits(y) })
}

// BenchmarkFluidBody times applyBody against its former Vec3 form in one
// process, on every body of system, without and with Jacobians.
func BenchmarkFluidBody(b *testing.B) {
	r := rand.New(rand.NewPCG(5, 6))
	m, s := system(r)
	ws := multibody.NewWorkspace(m)
	ws.Update(s.Q, s.V)
	c := &Context{Model: m, WS: ws, Q: s.Q, V: s.V}
	e := NewFluid(m, 1000, 0.1, rv(r))
	forms := []struct {
		name  string
		apply func(*Context, *Output, *fluidBody)
	}{{"scalar", e.applyBody}, {"vector", e.applyBodyVec}}
	for _, jac := range []bool{false, true} {
		for _, f := range forms {
			b.Run(fmt.Sprintf("jacobians=%v/%s", jac, f.name), func(b *testing.B) {
				out := NewOutput(m)
				out.Jacobians = jac
				for b.Loop() {
					for i := range e.bodies {
						f.apply(c, out, &e.bodies[i])
					}
				}
			})
		}
	}
}
