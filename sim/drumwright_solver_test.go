package sim_test

import (
	"fmt"
	"math"
	"testing"
	"time"

	"github.com/stiction-sim/stiction/constraint"
	"github.com/stiction-sim/stiction/internal/experiment"
	"github.com/stiction-sim/stiction/multibody"
	"github.com/stiction-sim/stiction/scene"
	"github.com/stiction-sim/stiction/sim"
	"github.com/stiction-sim/stiction/solver"
	"github.com/stiction-sim/stiction/solver/drumwright"
	"github.com/stiction-sim/stiction/spatial"
)

// drumwrightScene builds an embedded scene with overrides and Drumwright's
// solver in place of SAP, with the paper's purely compliant constraint
// model: contact β = 1e-6, so that SAP eq. 29's near-rigid bound
// β²w/(4π²) lies far below every compliant R = 1/(h(hk + b)) and R is the
// spring–damper's own.
func drumwrightScene(t testing.TB, name string, sets ...string) (*sim.Simulator, *scene.Built) {
	t.Helper()
	return drumwrightSceneWith(t, nil, name, sets...)
}

// drumwrightSceneWith is drumwrightScene with solver sv (nil: Drumwright's).
func drumwrightSceneWith(t testing.TB, sv solver.Solver, name string, sets ...string) (*sim.Simulator, *scene.Built) {
	t.Helper()
	sc, err := scene.Load(name, append([]string{"contact.beta=1e-6"}, sets...))
	if err != nil {
		t.Fatal(err)
	}
	return drumwrightBuild(t, sc, sv)
}

// drumwrightBuild builds sc with solver sv (nil: Drumwright's at the
// scene's time step).
func drumwrightBuild(t testing.TB, sc *scene.Scene, sv solver.Solver) (*sim.Simulator, *scene.Built) {
	t.Helper()
	b, err := scene.Build(sc)
	if err != nil {
		t.Fatal(err)
	}
	if sv == nil {
		sv = drumwright.New(drumwright.DefaultParams(b.Config.DT))
	}
	b.Config.Solver = sv
	s, err := sim.New(b.Model, b.State, b.Config)
	if err != nil {
		t.Fatal(err)
	}
	return s, b
}

// stepsConverged runs n steps and fails on an error or a solve that did not
// converge.
func stepsConverged(t testing.TB, s *sim.Simulator, n int) []sim.StepStats {
	t.Helper()
	stats := runSteps(t, s, n)
	for i, st := range stats {
		if st.Status != solver.Converged {
			t.Fatalf("step %d: %v", i+1, st.Status)
		}
	}
	return stats
}

// TestDrumwrightFig9Incline: Drumwright's Fig. 9, the box (1 kg, 0.2 × 0.1
// × 0.05 m) on a 15° incline for 1 s at h = 0.01 s, with the paper's
// contact parameters — normal stiffness 1e10 N/m (D. eq. 122: E*√r with
// E* = 1e11 Pa, r = 0.01 m), damping 1 N·s/m, friction damping
// B_r ≈ 1e6/h (R_t = σ w_t with σ = 1e-6) — slides ½ g (sin 15° − μ cos 15°)
// t² within 2% for μ = 0, 0.125, 0.25 and sticks (< 0.1 mm) for
// μ = 0.375 > tan 15°.
func TestDrumwrightFig9Incline(t *testing.T) {
	th := 15 * math.Pi / 180
	for _, mu := range []float64{0, 0.125, 0.25, 0.375} {
		t.Run(fmt.Sprintf("mu=%g", mu), func(t *testing.T) {
			s, _ := drumwrightScene(t, "incline", fmt.Sprintf("materials.default.friction=%g", mu),
				"materials.default.stiffness=1e10", "materials.default.dissipation=1e-10", "contact.sigma=1e-6")
			x0 := position(t, s, "box")
			stats := stepsConverged(t, s, 100)
			it := 0
			for _, st := range stats {
				it += st.Iterations
			}
			d := position(t, s, "box").Sub(x0).Norm()
			a := g * (math.Sin(th) - mu*math.Cos(th))
			if a < 0 {
				t.Logf("μ = %g: moved %.3g m (sticks), %d interior-point iterations", mu, d, it)
				if d > 1e-4 {
					t.Errorf("moved %g m, want < 1e-4 m", d)
				}
				return
			}
			want := 0.5 * a
			t.Logf("μ = %g: slid %.6f m, closed form %.6f m (rel. error %.3g), %d interior-point iterations", mu, d, want, (d-want)/want, it)
			if math.Abs(d-want) > 0.02*want {
				t.Errorf("slid %g m, want %g ± 2%%", d, want)
			}
		})
	}
}

// withDrumwright configures Drumwright's solver and the purely compliant
// constraint model (β = 1e-6, see drumwrightScene).
func withDrumwright(c *sim.Config) {
	c.Solver = drumwright.New(drumwright.DefaultParams(c.DT))
	c.Contact.Beta = 1e-6
}

// TestDrumwrightSolverFig4StiffPendulum: Drumwright's Fig. 4 under his own
// solver: the free bob on a point coupler of k = 1e15 N/m, b = 1 N·s/m,
// released horizontally, symplectic Euler for 1 s. The deviation from the
// pivot is O(h²) (fitted slope ≥ 1.8 over h = 1e-3 … 0.1) and stays below
// 0.1 L at h = 0.1 s; the energy does not grow by more than 0.1 m g L.
func TestDrumwrightSolverFig4StiffPendulum(t *testing.T) {
	checkStiffPendulum(t, []float64{0.1, 0.05, 0.02, 0.01, 0.005, 0.002, 0.001}, withDrumwright)
}

// TestDrumwrightSolverFig6Limit: Drumwright's Fig. 6 pendulum (point mass
// 1 kg at L = 1 m) with the range-of-motion limit θ ≥ 0 of k = 1e12, b = 0,
// released at rest from θ = π/2, under his solver (the limit is a
// unilateral row, D. §5). For every h from 1e-4 to 0.1 s (2 s simulated)
// it is stable — the energy never rises above its initial value by more
// than symplectic Euler's O(h) error — the limit is never passed by more
// than one step's travel at the impact speed, and the impact is dead (the
// paper: "for h ≥ 1e-5 the impact appears dead").
func TestDrumwrightSolverFig6Limit(t *testing.T) {
	hs := []float64{0.1, 0.05, 0.02, 0.01, 0.005, 0.001, 1e-4}
	for _, h := range hs {
		m := &multibody.Model{Gravity: spatial.Vec3{0, 0, -g}}
		b := mustAdd(t, m, "arm", pointMass(1, spatial.Vec3{0, 0, -1}), revolute(-1, at(0, 0, 2), spatial.Vec3{0, 1, 0}))
		s := m.NewState()
		s.Q[0] = math.Pi / 2
		set := &constraint.Set{Limits: []constraint.Limit{{Name: "limit", Body: b, Lower: 0, Upper: math.Inf(1),
			Compliance: constraint.Compliance{Stiffness: 1e12}}}}
		sm := newConstrained(t, m, s, set, h, sim.SymplecticEuler, withDrumwright)
		e0 := sm.Model.KineticEnergy(sm.State) + sm.PotentialEnergy()
		var rise, pen, speed float64
		for range int(math.Round(2 / h)) {
			st := step(t, sm)
			rise = math.Max(rise, st.KineticEnergy+st.PotentialEnergy-e0)
			pen = math.Max(pen, -sm.State.Q[0])
			speed = math.Max(speed, math.Abs(sm.State.V[0]))
		}
		swing := (sm.Model.KineticEnergy(sm.State) + sm.PotentialEnergy() - (e0 - g)) / g
		t.Logf("h = %-6g energy rise %.3g J, max penetration %.3g rad (bound ω_max h = %.3g), swing energy left %.3g m g L",
			h, rise, pen, speed*h, swing)
		if math.IsNaN(sm.State.Q[0]) || rise > 0.1*g*(1+10*h) || pen > speed*h || swing > 0.05 {
			t.Errorf("h = %g: unstable or not dead: rise %g, penetration %g, swing energy %g", h, rise, pen, swing)
		}
	}
}

// TestDrumwrightLStability: a 1 kg body on a point spring of k = 1e12 N/m
// (b = 0, no gravity) stretched by 1 mm is stable at every h from 1e-4 to
// 0.1 s, and L-stable: one step scales the stretch by implicit Euler's
// 1/(1 + (ωh)²) (ω = 1e6 rad/s) to 1e-9 relative, and over 100 steps the
// stretch never grows.
func TestDrumwrightLStability(t *testing.T) {
	const k, d0 = 1e12, 1e-3
	for _, h := range []float64{1e-4, 1e-3, 1e-2, 0.1} {
		m := &multibody.Model{}
		bob, err := m.AddFreeBody("bob", pointMass(1, spatial.Vec3{}))
		if err != nil {
			t.Fatal(err)
		}
		s := m.NewState()
		m.SetFreeBodyPose(s, bob, at(d0, 0, 0))
		set := &constraint.Set{Balls: []constraint.Ball{{Name: "spring", BodyA: -1, BodyB: bob, Compliance: constraint.Compliance{Stiffness: k}}}}
		sm := newConstrained(t, m, s, set, h, sim.SymplecticEuler, withDrumwright)
		stretch := func() float64 { return sm.Model.BodyPose(sm.State, bob).P.Norm() }
		step(t, sm)
		d1 := stretch()
		wh := math.Sqrt(k) * h
		want := d0 / (1 + wh*wh)
		if math.Abs(d1-want) > 1e-9*want+1e-18 {
			t.Errorf("h = %g: first step stretch %.10g, implicit Euler %.10g", h, d1, want)
		}
		prev, dmax := d1, d1
		for range 99 {
			step(t, sm)
			dv := stretch()
			dmax = math.Max(dmax, dv)
			if !(dv <= prev*(1+1e-9)+1e-18) {
				t.Fatalf("h = %g: stretch grew from %g to %g", h, prev, dv)
			}
			prev = dv
		}
		t.Logf("h = %-6g ωh = %.3g: stretch after 1 step %.4g m (1/(1+(ωh)²) d0 = %.4g), after 100 steps %.3g m", h, wh, d1, want, prev)
	}
}

// drumwrightStack builds the stack of n spheres with solver sv (nil:
// Drumwright's) and the purely compliant model.
func drumwrightStack(t testing.TB, n int, sv solver.Solver) *sim.Simulator {
	t.Helper()
	sc, err := scene.Parse("stack.yaml", experiment.SphereStackYAML(n), []string{"contact.beta=1e-6"})
	if err != nil {
		t.Fatal(err)
	}
	s, _ := drumwrightBuild(t, sc, sv)
	return s
}

// TestDrumwrightFig10SphereStacks: stacks of 10, 30 and 100 stiff spheres
// fall onto the ground and onto each other and
// stand after 500 steps of 10 ms under Drumwright's solver: every centre
// within 1 mm of the vertical, within 1 mm of its resting height (2i + 1) r,
// and every speed below 1 mm/s.
func TestDrumwrightFig10SphereStacks(t *testing.T) {
	ns := []int{10, 30, 100}
	for _, n := range ns {
		s := drumwrightStack(t, n, nil)
		start := time.Now()
		stats := stepsConverged(t, s, 500)
		wall := time.Since(start)
		it := 0
		for _, st := range stats {
			it += st.Iterations
		}
		var off, dz, speed float64
		for i := range n {
			p := position(t, s, fmt.Sprintf("s%d", i))
			off = math.Max(off, math.Hypot(p[0], p[1]))
			dz = math.Max(dz, math.Abs(p[2]-0.05*float64(2*i+1)))
		}
		for _, v := range s.State.V {
			speed = math.Max(speed, math.Abs(v))
		}
		t.Logf("%3d spheres: 500 steps in %v, %d interior-point iterations; off-axis %.3g m, height error %.3g m, max speed %.3g",
			n, wall.Round(time.Millisecond), it, off, dz, speed)
		if off > 1e-3 || dz > 1e-3 || speed > 1e-3 {
			t.Errorf("%d spheres do not stand: off-axis %g m, height error %g m, speed %g", n, off, dz, speed)
		}
	}
}
