package mjref

import (
	"fmt"
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

// TestEllipticConeMuJoCo: with <option cone="elliptic"> the contacts of
// MJCF's soft material are MuJoCo 2.2.2's elliptic rows (sim's
// elliptic.go: SAP's cone with MuJoCo's R_n = R_0, R_t = R_0/impratio and
// μ), solved to convergence, under mujoco-euler and rk4, so bodies follow
// MuJoCo through contact: a sphere and a capsule dropped and resting, a
// box dropped and then creeping under a tangential load within μ m g
// (gravity (1, 0.5, −9.81): 1.12 < 2.94 N) and sliding under one beyond
// it ((3, 2, −9.81): 3.61 N), at impratio 1 and 10, δt 2 and 10 ms, over
// 300 steps from MuJoCo's first contact, every step in contact certified
// (trajectoryGap). The level, 1e-9, was set before
// measuring. Both engines solve to tolerance 1e-13: the elliptic cone's
// cost is not piecewise quadratic where a contact slides (MuJoCo's middle
// zone), so MuJoCo's Newton stops short of the minimum at its default
// tolerance 1e-8 (the sliding box then parted by 3.9e-9 to 9.7e-5; the
// others by ≤ 6.3e-12). Measured: sphere, capsule and creeping box ≤
// 2.5e-16 in every case; the sliding box 2.6e-15 … 1.9e-13 but at δt 10
// ms under mujoco-euler, 1.3e-10 (impratio 1) and 9.7e-10 (impratio 10).
// The sliding box rocks on its edges and hops: 119 to 276 of its steps
// compared have contacts (the others all 300); at least 100 are required.
func TestEllipticConeMuJoCo(t *testing.T) {
	bodies := []struct{ name, body, gravity string }{
		{"sphere", ellipticSphere, "0 0 -9.81"},
		{"capsule", ellipticCapsule, "0 0 -9.81"},
		{"box creeping", ellipticBox, "1 0.5 -9.81"},
		{"box sliding", ellipticBox, "3 2 -9.81"},
	}
	schemes := []struct {
		name, integrator string
		sc               sim.Scheme
	}{{"mujoco-euler", "Euler", sim.MuJoCoEuler}, {"rk4", "RK4", sim.RK4}}
	const after, level = 300, 1e-9
	for _, sch := range schemes {
		for _, dt := range []string{"0.002", "0.01"} {
			for _, ir := range []string{"1", "10"} {
				for _, bd := range bodies {
					name := fmt.Sprintf("%s, %s, δt %s, impratio %s", bd.name, sch.name, dt, ir)
					path := writeModel(t, fmt.Sprintf(ellipticScene, sch.integrator, dt, ir, bd.gravity, bd.body))
					first := firstContact(t, path, sch.sc)
					worst, _, n, _ := trajectoryGap(t, path, sch.sc, Options{Steps: first + after - 1}, level)
					t.Logf("%s: first contact at step %d; max |Δqpos| over the %d steps to 300 after it (%d with contacts) %.3g", name, first, first+after-1, n, worst)
					if n < after/3 || !(worst <= level) {
						t.Errorf("%s: max |Δqpos| %.3g over %d steps, %d with contacts (want ≤ %g, ≥ %d)", name, worst, first+after-1, n, level, after/3)
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
