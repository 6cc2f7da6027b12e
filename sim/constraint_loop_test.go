package sim_test

import (
	"math"
	"testing"

	"github.com/stiction-sim/stiction/constraint"
	"github.com/stiction-sim/stiction/multibody"
	"github.com/stiction-sim/stiction/sim"
	"github.com/stiction-sim/stiction/spatial"
)

// rodInertia is a 1 kg rod of length l along its body x axis, its centre
// of mass at l/2.
func rodInertia(l float64) spatial.SpatialInertia {
	i := l * l / 12
	return spatial.SpatialInertia{Mass: 1, Com: spatial.Vec3{l / 2, 0, 0}, Icom: spatial.Diag3(spatial.Vec3{1e-4, i, i})}
}

// fourBar builds a planar four-bar linkage in the x–z plane (revolute
// joints about y, gravity −z): ground pivots A = 0 and D = (0.8, 0, 0), a
// crank AB (0.3 m), a coupler BC (1 m) on the crank, a rocker DC (0.7 m) on
// the world (a second tree), the loop closed at C by a ball constraint
// between the coupler's tip and the rocker's tip, near-rigid or with the
// given compliance. The crank starts at angle th1 at rest.
func fourBar(t *testing.T, th1 float64, cp constraint.Compliance, dt float64, sc sim.Scheme, relin int) *sim.Simulator {
	const a, b, c, d = 0.3, 1.0, 0.7, 0.8
	m := &multibody.Model{Gravity: spatial.Vec3{0, 0, -g}}
	y := spatial.Vec3{0, 1, 0}
	crank := mustAdd(t, m, "crank", rodInertia(a), revolute(-1, spatial.PoseIdentity(), y))
	coupler := mustAdd(t, m, "coupler", rodInertia(b), revolute(crank, at(a, 0, 0), y))
	rocker := mustAdd(t, m, "rocker", rodInertia(c), revolute(-1, at(d, 0, 0), y))
	// Loop closure: C on the circles |C − B| = b and |C − D| = c (upper branch).
	bx, bz := a*math.Cos(th1), -a*math.Sin(th1)
	ex, ez := d-bx, -bz
	l := math.Hypot(ex, ez)
	u := (b*b - c*c + l*l) / (2 * l)
	h := math.Sqrt(b*b - u*u)
	cx, cz := bx+(u*ex-h*ez)/l, bz+(u*ez+h*ex)/l
	if cz < bz+(u*ez-h*ex)/l {
		cx, cz = bx+(u*ex+h*ez)/l, bz+(u*ez-h*ex)/l
	}
	angle := func(x, z float64) float64 { return math.Atan2(-z, x) } // R_y(θ) x = (cos θ, 0, −sin θ)
	s := m.NewState()
	s.Q[m.Bodies[crank].QOff] = th1
	s.Q[m.Bodies[coupler].QOff] = angle(cx-bx, cz-bz) - th1
	s.Q[m.Bodies[rocker].QOff] = angle(cx-d, cz)
	set := &constraint.Set{Balls: []constraint.Ball{{Name: "loop", BodyA: coupler, PointA: spatial.Vec3{b, 0, 0}, BodyB: rocker, PointB: spatial.Vec3{c, 0, 0}, Compliance: cp}}}
	set.ExcludeCollisions(m)
	return newConstrained(t, m, s, set, dt, sc, func(c *sim.Config) { c.Relinearizations = relin })
}

// fourBarRun runs the four-bar for 10 s and returns the energy error's
// band and secular drift (least-squares slope × 10 s) relative to the
// largest kinetic energy, the largest loop error, the largest ratio of the
// loop error at the start of a step to the error the regularization allows
// under the previous step's impulse (Report.Allowed), and the mean number
// of re-linearizations per step.
func fourBarRun(t *testing.T, dt float64, relin int) (band, drift, loop, ratio, iters float64) {
	sm := fourBar(t, 0.3, constraint.Compliance{}, dt, sim.Midpoint, relin)
	e0 := sm.Model.KineticEnergy(sm.State) + sm.PotentialEnergy()
	n := int(math.Round(10 / dt))
	ts, es := make([]float64, n), make([]float64, n)
	kmax, allowed := 0.0, 0.0
	for i := range n {
		st := step(t, sm)
		r := report(t, sm, "loop")
		if i > 0 {
			ratio = math.Max(ratio, r.Violation/allowed)
		}
		allowed = r.Allowed
		ts[i], es[i] = st.T, st.KineticEnergy+st.PotentialEnergy-e0
		loop = math.Max(loop, r.Violation)
		kmax = math.Max(kmax, st.KineticEnergy)
		band = math.Max(band, math.Abs(es[i]))
		iters += float64(st.Relinearizations) / float64(n)
	}
	return band / kmax, fitSlope(ts, es) * 10 / kmax, loop, ratio, iters
}

// TestFourBarEnergy: a four-bar closed by a near-rigid ball coupler (two
// trees, a closed loop), midpoint rule, no damping, released at rest,
// 10 s. With the step re-linearized at its solution (Newton on the
// constrained momentum balance, Config.Relinearizations) the energy error
// is bounded and second order (δt = 10 ms → 1 ms divides its band by
// ≥ 50) and its drift is ≤ 1e-6 of the largest kinetic energy at 1 ms; the
// loop error stays within the regularization's bound and shrinks as δt²:
// the midpoint constraint spring is undamped, so the error oscillates
// about the quasi-static value δt θq θvq ‖R γ‖ (Report.Allowed) of the
// previous step, within 3× of it.
// SAP's single linearization (logged) drifts at first order.
func TestFourBarEnergy(t *testing.T) {
	b1, d1, l1, r1, i1 := fourBarRun(t, 1e-2, 20)
	b2, d2, l2, r2, i2 := fourBarRun(t, 1e-3, 20)
	t.Logf("δt 10 ms: energy band %.3g, drift %.3g (of KE max), loop error max %.3g m (%.2f× allowed), %.1f re-linearizations/step", b1, d1, l1, r1, i1)
	t.Logf("δt 1 ms:  energy band %.3g, drift %.3g, loop error max %.3g m (%.2f× allowed), %.1f re-linearizations/step", b2, d2, l2, r2, i2)
	if long() {
		b3, d3, l3, r3, i3 := fourBarRun(t, 2.5e-4, 20)
		t.Logf("δt 0.25 ms: energy band %.3g, drift %.3g, loop error max %.3g m (%.2f× allowed), %.1f re-linearizations/step", b3, d3, l3, r3, i3)
		if b2/b3 < 10 || math.Abs(d3) > 1e-7 {
			t.Errorf("δt 0.25 ms: energy band %g (from %g), drift %g", b3, b2, d3)
		}
	}
	b0, d0, _, _, _ := fourBarRun(t, 1e-2, 0)
	t.Logf("δt 10 ms without re-linearization: energy band %.3g, drift %.3g", b0, d0)
	if b1/b2 < 50 || math.Abs(d2) > 1e-6 {
		t.Errorf("energy band %g → %g (ratio %g), drift %g: not second order or drifting", b1, b2, b1/b2, d2)
	}
	if r1 > 3 || r2 > 3 || l1/l2 < 50 {
		t.Errorf("loop error %g, %g (%g×, %g× the regularization's bound): not within the bound or not O(δt²)", l1, l2, r1, r2)
	}
}
