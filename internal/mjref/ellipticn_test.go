package mjref

import (
	"fmt"
	"testing"

	"github.com/stiction-sim/stiction/sim"
)

// TestEllipticCondim46MuJoCo: with <option cone="elliptic">, contacts of
// condim 4 and 6 are MuJoCo 2.2.2's elliptic block over the sliding,
// torsional and rolling rows (sim/elliptic.go: solver.ContactEllipticN
// with R_j = R_1 μ_1²/μ_j², R_1 = R_0/impratio), under mujoco-euler and
// rk4: the spheres of TestCondim46PyramidMuJoCo, spinning (condim 4) and
// rolling (condim 6), at impratio 1 and 10, δt 2 and 10 ms, follow
// MuJoCo's qpos over 300 steps. Both engines solve to tolerance 1e-13
// (the elliptic cone's middle zone is not piecewise quadratic:
// TestEllipticConeMuJoCo). The level, 1e-12, was set before measuring.
func TestEllipticCondim46MuJoCo(t *testing.T) {
	for _, c := range []struct {
		name      string
		condim    int
		tor, roll float64
		yaw       float64
		qvel      []float64
	}{
		{"spin about z", 4, 0.02, 0, 0, []float64{0, 0, 0, 0, 0, 8}},
		{"spin tilted, sliding", 4, 0.02, 0, 30, []float64{0.4, -0.2, 0, 1, -2, 6}},
		{"roll along x", 6, 0.01, 0.005, 0, []float64{1, 0, 0, 0, 10, 0}},
		{"roll and spin, yawed", 6, 0.01, 0.005, 50, []float64{0.3, 0.8, 0, -8, 3, 4}},
	} {
		for _, sc := range []sim.Scheme{sim.MuJoCoEuler, sim.RK4} {
			for _, dt := range []float64{0.002, 0.01} {
				for _, ir := range []string{"1", "10"} {
					integ := "Euler"
					if sc.Method == sim.RungeKutta4 {
						integ = "RK4"
					}
					name := fmt.Sprintf("%s/%s/dt=%g/impratio=%s", c.name, integ, dt, ir)
					opt := fmt.Sprintf(` tolerance="1e-13" cone="elliptic" impratio="%s"`, ir)
					path := writeModel(t, fmt.Sprintf(condimSphere, c.yaw, c.condim, c.tor, c.roll, integ, dt, opt))
					worst, ncon := condimFollow(t, path, sc, c.qvel, 300)
					t.Logf("%s: max |Δqpos| %.3g over 300 steps (%d steps in contact in MuJoCo)", name, worst, ncon)
					if ncon < 200 || !(worst <= 1e-12) {
						t.Errorf("%s: max |Δqpos| %.3g over 300 steps, %d in contact (want ≤ 1e-12, ≥ 200)", name, worst, ncon)
					}
				}
			}
		}
	}
}
