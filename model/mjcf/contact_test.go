package mjcf

import (
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/stiction-sim/stiction/model"
	"github.com/stiction-sim/stiction/sim"
)

// TestSolrefMaterials checks the documented mapping of solref to a geom's
// material: k = m/(T ζ)², τd = 2 T ζ² with m the body's mass, T at least
// two time steps; the direct form (−k', −b') gives k = m k', τd = b'/k';
// geoms on bodies that do not move are rigid (10¹²); μ is friction's
// first value.
func TestSolrefMaterials(t *testing.T) {
	doc := `<mujoco><option timestep="0.005"/><worldbody><geom type="plane" size="1 1 1" friction="0.8"/>
  <body name="a" pos="0 0 1"><freejoint/><geom type="sphere" size="0.1" mass="2" solref="0.03 0.5" friction="0.6 0.01 0.001"/></body>
  <body name="b" pos="1 0 1"><freejoint/><geom type="sphere" size="0.1" mass="3" solref="0.004 1"/></body>
  <body name="c" pos="2 0 1"><freejoint/><geom type="sphere" size="0.1" mass="4" solref="-5000 -80"/></body>
</worldbody></mujoco>`
	im, err := Parse("m.xml", []byte(doc), model.Options{})
	if err != nil {
		t.Fatal(err)
	}
	s := im.Scene
	mat := func(body string) (k, tau, mu float64) {
		for _, b := range s.Bodies {
			if b.Name == body {
				m := s.Materials[b.Collisions[0].Material]
				return *m.Stiffness, *m.Dissipation, *m.Friction
			}
		}
		t.Fatalf("no body %s", body)
		return
	}
	for _, c := range []struct {
		body       string
		k, tau, mu float64
	}{
		{"worldbody", 1e12, 2 * 0.02, 0.8},
		{"a", 2 / (0.03 * 0.5 * 0.03 * 0.5), 2 * 0.03 * 0.25, 0.6},
		{"b", 3 / (0.01 * 0.01), 2 * 0.01, 1}, // T = max(0.004, 2 × 0.005)
		{"c", 4 * 5000, 80.0 / 5000, 1},
	} {
		k, tau, mu := mat(c.body)
		if math.Abs(k-c.k) > 1e-9*c.k || math.Abs(tau-c.tau) > 1e-15 || mu != c.mu {
			t.Errorf("%s: k %v τd %v μ %v, want %v %v %v", c.body, k, tau, mu, c.k, c.tau, c.mu)
		}
	}
}

// TestRestingPenetration: with the mapping, a sphere resting on a plane
// sinks by the static deflection of MuJoCo's reference spring, g (T ζ)²,
// whatever its mass — which is what makes solref mean the same here as in
// MuJoCo. Default solref (0.02, 1): 9.81 × 0.02² = 3.92 mm.
func TestRestingPenetration(t *testing.T) {
	for _, mass := range []float64{0.1, 1, 10} {
		doc := `<mujoco><worldbody><geom type="plane" size="1 1 1"/>
  <body name="ball" pos="0 0 0.1"><freejoint/><geom type="sphere" size="0.1" mass="` + ftoa(mass) + `"/></body></worldbody></mujoco>`
		b, s := run(t, doc, "")
		for range 1000 { // 2 s: the critically damped contact settles
			if _, err := s.Step(); err != nil {
				t.Fatal(err)
			}
		}
		z := b.State.Q[6]
		pen := 0.1 - z
		want := 9.81 * 0.02 * 0.02
		if math.Abs(pen-want) > 0.005*want {
			t.Errorf("mass %g: penetration %.4g m, want g T² = %.4g m", mass, pen, want)
		}
		t.Logf("mass %g kg: resting penetration %.4g mm (g T² = %.4g mm)", mass, 1e3*pen, 1e3*want)
	}
}

func ftoa(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }

// TestIntegratorMapping: MuJoCo's Euler (the default) maps to
// mujoco-euler with or without joint damping (MuJoCo 2.2.2's mj_Euler
// treats the damping implicitly, as mujoco-euler does, so a damped model
// no longer needs implicit-euler nor a warning), RK4 to rk4, and implicit
// and implicitfast to mujoco-euler with a warning naming what differs.
func TestIntegratorMapping(t *testing.T) {
	for _, c := range []struct{ option, damping, scheme, warning string }{
		{"", "0", "mujoco-euler", ""},
		{"", "0.1", "mujoco-euler", ""},
		{` integrator="Euler"`, "0.1", "mujoco-euler", ""},
		{` integrator="RK4"`, "0", "rk4", ""},
		{` integrator="implicit"`, "0.1", "mujoco-euler", "Coriolis"},
		{` integrator="implicitfast"`, "0.1", "mujoco-euler", "tendon damping"},
	} {
		doc := `<mujoco><option timestep="0.002"` + c.option + `/><worldbody><body><joint damping="` + c.damping + `"/><geom size="0.01" mass="0.003"/></body></worldbody></mujoco>`
		im, err := Parse("d.xml", []byte(doc), model.Options{})
		if err != nil {
			t.Fatal(err)
		}
		var warned []string
		for _, w := range im.Warnings {
			if w.Attribute == "integrator" || strings.Contains(w.Msg, "integrat") {
				warned = append(warned, w.Msg)
			}
		}
		if im.Scene.Scheme != c.scheme || (c.warning == "") != (len(warned) == 0) || (c.warning != "" && !strings.Contains(strings.Join(warned, " "), c.warning)) {
			t.Errorf("option%q damping %s: scheme %s, want %s; integrator warnings %q, want one naming %q", c.option, c.damping, im.Scene.Scheme, c.scheme, warned, c.warning)
		}
		if _, err := sim.ParseScheme(im.Scene.Scheme); err != nil {
			t.Error(err)
		}
	}
}
