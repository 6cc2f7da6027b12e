package mjref

import (
	"fmt"
	"math"
	"path/filepath"
	"testing"

	"github.com/stiction-sim/stiction/sim"
)

// condimSphere is a 10 cm, 1 kg sphere on a free joint, yawed by %g°,
// on a plane, both of condim %d and friction (0.7, %g, %g) (sliding,
// torsional, rolling), with MuJoCo's integrator %s and timestep %g and
// the option attributes %s.
const condimSphere = `<mujoco><option integrator="%[5]s" timestep="%[6]g"%[7]s/><worldbody>
  <geom type="plane" size="5 5 0.1" condim="%[2]d" friction="0.7 %[3]g %[4]g"/>
  <body pos="0 0 0.1" euler="0 0 %[1]g"><freejoint/><geom type="sphere" size="0.1" mass="1" condim="%[2]d" friction="0.7 %[3]g %[4]g"/></body>
</worldbody></mujoco>`

// TestCondim46PyramidMuJoCo: with MuJoCo's pyramidal cone (MJCF's
// default), contacts of condim 4 and 6 are MuJoCo 2.2.2's pyramid
// (2(condim − 1) edges J_n ± μ_k J_k over the sliding, torsional and
// rolling directions; sim/pyramid.go), under mujoco-euler and rk4: a
// sphere spinning on a plane with condim 4 (torsional friction 0.02 m)
// and a sphere rolling and spinning with condim 6 (torsional 0.01 m,
// rolling 0.005 m; and with both 0, which MuJoCo raises to mjMINMU =
// 1e-5: 8.1e-6 off at 2 ms when they stayed 0), started 0.5 mm into the plane, with several spin
// axes and yaws (MuJoCo's contact tangents follow the world's y, not the
// body), follow MuJoCo's qpos to 1e-12 over 300 steps at δt = 2 ms and
// 10 ms (measured: 7.0e-16 to 3.3e-14), with MuJoCo's Newton tolerance
// and SAP's εr at 1e-10 in both engines (<option tolerance>). At MuJoCo's
// default 1e-8 the sliding condim-4 sphere at 10 ms parts by 2.6e-12
// (Euler) and 3.7e-12 (RK4), as the same sphere does with condim 3
// (5.1e-12, 7.3e-12): MuJoCo's Newton stops within its tolerance
// (the gap appears in one step, 3.9e-12 in z, and scales with the
// tolerance: 5.0e-14 at 1e-10, 5.4e-16 at 1e-12 for condim 3).
func TestCondim46PyramidMuJoCo(t *testing.T) {
	for _, c := range condim46Cases {
		for _, sc := range []sim.Scheme{sim.MuJoCoEuler, sim.RK4} {
			for _, dt := range []float64{0.002, 0.01} {
				integ := "Euler"
				if sc.Method == sim.RungeKutta4 {
					integ = "RK4"
				}
				name := fmt.Sprintf("%s/%s/dt=%g", c.name, integ, dt)
				path := writeModel(t, fmt.Sprintf(condimSphere, c.yaw, c.condim, c.tor, c.roll, integ, dt, ` tolerance="1e-10"`))
				worst, ncon := condimFollow(t, path, sc, c.qvel, 300, false)
				t.Logf("%s: max |Δqpos| %.3g over 300 steps (%d steps in contact in MuJoCo)", name, worst, ncon)
				if ncon < 200 || !(worst <= 1e-12) {
					t.Errorf("%s: max |Δqpos| %.3g over 300 steps, %d in contact (want ≤ 1e-12, ≥ 200)", name, worst, ncon)
				}
			}
		}
	}
}

// condimFollow runs the model at path from MuJoCo's initial qpos, 0.5 mm
// lower, with velocities qvel (MuJoCo's layout), for steps steps in
// MuJoCo 2.2.2 and in Stiction with scheme sc (with port, both with
// MuJoCo's own solver: portGap), and returns the largest qpos difference
// and the number of MuJoCo's steps with a contact.
func condimFollow(t *testing.T, path string, sc sim.Scheme, qvel []float64, steps int, port bool) (worst float64, ncon int) {
	t.Helper()
	mj0 := run(t, path, Options{Steps: 0})
	qpos := append([]float64(nil), mj0.QInit...)
	qpos[2] -= condimDepth
	mj := run(t, path, Options{Steps: steps, Every: 1, Integrator: mujocoIntegrator(sc), QPos: qpos, QVel: qvel, KeepWarm: port})
	b, mp := mappedModel(t, path, mj)
	b.Config.Scheme = sc
	if port {
		usePort(&b.Config.Contact, mj)
	}
	s := startedSim(t, b, mp, mj)
	q := make([]float64, mj.NQ)
	for k := 1; k <= steps; k++ {
		if _, err := s.Step(); err != nil {
			t.Fatal(err)
		}
		if mj.Steps[k].NCon > 0 {
			ncon++
		}
		mp.QToMuJoCo(s.State.Q, q)
		for i := range q {
			worst = math.Max(worst, math.Abs(q[i]-mj.Steps[k].QPos[i]))
		}
	}
	return worst, ncon
}

// condimDepth is how far into the plane condimFollow starts the sphere.
var condimDepth = 0.0005

// TestQuadrupedBallMuJoCo: dm_control's quadruped (mujoco-euler) follows
// MuJoCo 2.2.2 through its contacts, the feet's (condim 3) from step 10
// and its ball's (condim 6, priority 1, friction 0.7 0.005 0.005, direct
// solref) landing on the torso at step 134: with the ball's pyramid of
// ten edges and the pair's parameters the ball's alone (geom priority,
// contact.Material.Priority), max |Δqpos| 1.1e-13 over 300 steps (8e-16
// through the landing; 2.5e-5 one step after it when the pair combined
// the two geoms' parameters as geoms of equal priority).
func TestQuadrupedBallMuJoCo(t *testing.T) {
	path := filepath.Join("testdata", "dm_control/suite/quadruped.xml")
	const steps = 300
	mj := run(t, path, Options{Steps: steps, Every: 1})
	b, mp := mappedModel(t, path, mj)
	s := startedSim(t, b, mp, mj)
	q := make([]float64, mj.NQ)
	worst, landed := 0.0, -1
	for k := 1; k <= steps; k++ {
		if _, err := s.Step(); err != nil {
			t.Fatal(err)
		}
		if landed < 0 && mj.Steps[k].NCon > 4 {
			landed = k // the four feet and the ball
		}
		mp.QToMuJoCo(s.State.Q, q)
		for i := range q {
			worst = math.Max(worst, math.Abs(q[i]-mj.Steps[k].QPos[i]))
		}
	}
	t.Logf("ball lands at step %d; max |Δqpos| over %d steps %.3g", landed, steps, worst)
	if landed < 0 || !(worst <= 1e-12) {
		t.Errorf("ball lands at step %d (want one in %d steps); max |Δqpos| %.3g (want ≤ 1e-12)", landed, steps, worst)
	}
}

// TestCondim4SpinImpulse: the spin impulse decoded from a condim-4
// pyramid (f_3 = μ_3 (f₊ − f₋) onto the contact's spin block) is the one
// that turns the sphere: a 1 kg sphere of 10 cm (I = 0.004 kg m²)
// spinning about the vertical on a plane (mujoco-euler, no damping, so
// the step's velocity is v* + M⁻¹ Jᵀ γ) loses I Δω_z = |γ_spin| per step
// to 1e-9 relative while it spins (measured 6.2e-15), the spin friction opposes the spin, and
// it stays within the pyramid's bound |γ_spin| ≤ μ_3 γ_n.
func TestCondim4SpinImpulse(t *testing.T) {
	path := writeModel(t, fmt.Sprintf(condimSphere, 0.0, 4, 0.02, 0.0, "Euler", 0.002, ""))
	mj := run(t, path, Options{Steps: 0, QVel: []float64{0, 0, 0, 0, 0, 8}, QPos: []float64{0, 0, 0.0996, 1, 0, 0, 0}})
	b, mp := mappedModel(t, path, mj)
	b.Config.Scheme = sim.MuJoCoEuler
	s := startedSim(t, b, mp, mj)
	qv := make([]float64, mj.NV)
	omega := func() float64 {
		mp.VToMuJoCo(mj.QInit, s.State.V, qv) // about z only: body and world z agree
		return qv[5]
	}
	worst, checked := 0.0, 0
	for k := range 100 {
		w0 := omega()
		if _, err := s.Step(); err != nil {
			t.Fatal(err)
		}
		pairs, g := s.Contacts(), s.Impulses()
		if k < 20 || len(pairs) != 1 || len(g) != 4 {
			continue // settling from the start's depth; one contact, its 3 rows and the spin row
		}
		dL := 0.004 * (omega() - w0)
		if dL*w0 > 0 {
			t.Fatalf("step %d: the spin friction speeds the spin up (ΔL %.3g, ω %.3g)", k, dL, w0)
		}
		rel := math.Abs(math.Abs(dL)-math.Abs(g[3])) / math.Abs(g[3])
		worst = math.Max(worst, rel)
		if math.Abs(g[3]) > 0.02*math.Abs(g[2])*(1+1e-12) {
			t.Errorf("step %d: |γ_spin| %.6g beyond μ_3 γ_n = %.6g", k, math.Abs(g[3]), 0.02*math.Abs(g[2]))
		}
		checked++
	}
	t.Logf("%d steps: | |I Δω_z| − |γ_spin| | / |γ_spin| at most %.3g", checked, worst)
	if checked < 50 || !(worst <= 1e-9) {
		t.Errorf("%d steps checked, worst relative difference %.3g (want ≥ 50, ≤ 1e-9)", checked, worst)
	}
}

// TestCondim6PyramidAllocatesNothing: a warmed-up step of the rolling
// condim-6 sphere (ten pyramid edges over its sliding, torsional and
// rolling rows) allocates nothing under mujoco-euler and rk4.
func TestCondim6PyramidAllocatesNothing(t *testing.T) {
	for _, sc := range []sim.Scheme{sim.MuJoCoEuler, sim.RK4} {
		path := writeModel(t, fmt.Sprintf(condimSphere, 50.0, 6, 0.01, 0.005, "Euler", 0.002, ""))
		mj := run(t, path, Options{Steps: 0, QPos: []float64{0, 0, 0.0999, 1, 0, 0, 0}, QVel: []float64{1, 0.5, 0, -3, 2, 4}}) // rolling, sliding, spinning
		b, mp := mappedModel(t, path, mj)
		b.Config.Scheme = sc
		s := startedSim(t, b, mp, mj)
		for range 100 {
			if _, err := s.Step(); err != nil {
				t.Fatal(err)
			}
		}
		inContact := 0 // the sphere chatters on the plane: not every step has its contact
		allocs := testing.AllocsPerRun(20, func() {
			st, err := s.Step()
			if err != nil {
				t.Fatalf("%s: step: %v", sc.Name, err)
			}
			if st.Contacts > 0 {
				inContact++
			}
		})
		t.Logf("%s: %v allocations per step, %d of 21 steps in contact", sc.Name, allocs, inContact)
		if allocs != 0 || inContact < 5 {
			t.Errorf("%s: %v allocations per warmed-up step, %d of 21 steps in contact (want 0, ≥ 5)", sc.Name, allocs, inContact)
		}
	}
}

// condim46Cases are the spinning and rolling spheres that
// TestCondim46PyramidMuJoCo and TestEllipticCondim46MuJoCo run against
// MuJoCo: condim, torsional and rolling friction, the sphere's yaw in
// degrees, and the sphere's initial qvel.
var condim46Cases = []struct {
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
	{"condim 6, torsional and rolling 0 (MuJoCo's 1e-5)", 6, 0, 0, 20, []float64{0.3, 0.8, 0, -8, 3, 4}},
}
