package contact

import (
	"math"
	"testing"
)

// TestCombineCondim: two MaxFriction materials take the larger of their
// condims (MuJoCo's mj_contactParam) and drop the coefficients it does not
// use: two condim-1 geoms whose sliding friction is there for the floor
// slide freely on each other, a condim-1 geom on the condim-3 floor keeps
// μ (the larger of the two) and no spin, a condim-4 pair keeps its spin
// and no rolling; without Condim every coefficient stays. The soft
// friction's slip time follows the pair's μ (SlipTime = (1 + μ²)/B).
func TestCombineCondim(t *testing.T) {
	base := Material{Stiffness: 1e5, Dissipation: 0.01, MaxFriction: true, SlipTime: 2 / 50.0}
	mk := func(mu, spin, roll float64, cd int) Material {
		m := base
		m.Friction, m.Spin, m.Rolling, m.Condim = mu, spin, roll, cd
		m.SlipTime = (1 + mu*mu) / 50 // B = 50 for every geom
		return m
	}
	for _, c := range []struct {
		name              string
		a, b              Material
		mu, spin, rolling float64
	}{
		{"limb on limb (1, 1)", mk(1, 0, 0, 1), mk(0.8, 0, 0, 1), 0, 0, 0},
		{"limb on floor (1, 3)", mk(0.8, 0, 0, 1), mk(1, 0.1, 0.1, 3), 1, 0, 0},
		{"ball on floor (4, 3)", mk(0.5, 0.01, 0.01, 4), mk(1, 0.1, 0.1, 3), 1, 0.1, 0},
		{"(6, 3)", mk(0.5, 0.01, 0.01, 6), mk(1, 0.1, 0.1, 3), 1, 0.1, 0.1},
		{"no condim", mk(1, 0.1, 0.1, 0), mk(0.8, 0, 0, 1), 1, 0.1, 0.1},
	} {
		m := Combine(c.a, c.b)
		if m.Friction != c.mu || m.Spin != c.spin || m.Rolling != c.rolling {
			t.Errorf("%s: μ %v spin %v rolling %v, want %v %v %v", c.name, m.Friction, m.Spin, m.Rolling, c.mu, c.spin, c.rolling)
		}
		if want := (1 + c.mu*c.mu) / 50; math.Abs(m.SlipTime-want) > 1e-15 {
			t.Errorf("%s: slip time %v, want (1 + μ²)/B = %v", c.name, m.SlipTime, want)
		}
	}
}
