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

// TestCombinePriority: two MaxFriction materials of different Priority
// take the higher one's condim, coefficients, solref and solimp as they
// are (mj_contactParam of MuJoCo 2.2.2), whichever side it is on:
// dm_control's quadruped's ball (priority 1, condim 6, friction 0.7,
// 0.005, 0.005, solref (−10000, −30)) on the torso (condim 1, friction
// 1) has the ball's ten-edge pyramid and parameters, not the larger of
// the two frictions; the bodies' weights still add up; a higher-priority
// condim-1 geom makes the pair frictionless, its slip time (1 + μ²)/B
// at μ = 0.
func TestCombinePriority(t *testing.T) {
	ball := Material{Stiffness: 1e5, MaxFriction: true, Priority: 1, Condim: 6, Friction: 0.7, Spin: 0.005, Rolling: 0.005,
		SlipTime: (1 + 0.49) / 30, SlipRef: [2]float64{-10000, -30}, SlipImp: [5]float64{0.9, 0.99, 0.003, 0.5, 2}, SlipWeight: 2}
	torso := Material{Stiffness: 2e5, MaxFriction: true, Condim: 1, Friction: 1, Spin: 0.005, Rolling: 0.0001,
		SlipTime: 2.0 / 200, SlipRef: [2]float64{0.01, 1}, SlipImp: [5]float64{0.9, 0.95, 0.001, 0.5, 2}, SlipWeight: 3}
	for _, m := range []Material{Combine(ball, torso), Combine(torso, ball)} {
		if m.Condim != 6 || m.Friction != 0.7 || m.Spin != 0.005 || m.Rolling != 0.005 || m.Priority != 1 {
			t.Errorf("condim %d, μ %v, spin %v, rolling %v, priority %d: want the ball's 6, 0.7, 0.005, 0.005, 1", m.Condim, m.Friction, m.Spin, m.Rolling, m.Priority)
		}
		if m.SlipRef != ball.SlipRef || m.SlipImp != ball.SlipImp || m.SlipTime != ball.SlipTime {
			t.Errorf("solref %v, solimp %v, slip time %v: want the ball's %v, %v, %v", m.SlipRef, m.SlipImp, m.SlipTime, ball.SlipRef, ball.SlipImp, ball.SlipTime)
		}
		if m.SlipWeight != 5 {
			t.Errorf("slip weight %v, want the sides' sum 5", m.SlipWeight)
		}
	}
	top := torso
	top.Priority = 2
	m := Combine(ball, top)
	if m.Condim != 1 || m.Friction != 0 || m.Spin != 0 || m.Rolling != 0 {
		t.Errorf("under a condim-1 geom of higher priority: condim %d, μ %v, spin %v, rolling %v; want 1, 0, 0, 0", m.Condim, m.Friction, m.Spin, m.Rolling)
	}
	if want := top.SlipTime / 2; math.Abs(m.SlipTime-want) > 1e-15 {
		t.Errorf("slip time %v, want (1 + 0²)/B = %v", m.SlipTime, want)
	}
	same := Combine(ball, Material{Stiffness: 1e5, MaxFriction: true, Priority: 1, Condim: 3, Friction: 1})
	if same.Friction != 1 || same.Condim != 6 {
		t.Errorf("equal priorities: μ %v, condim %d; want the larger of each, 1 and 6", same.Friction, same.Condim)
	}
}
