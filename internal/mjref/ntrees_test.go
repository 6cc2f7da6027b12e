package mjref

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stiction-sim/stiction/sim"
)

// pendulums returns n hinged pendulums, each its own kinematic tree
// (bodies p0 … p(n−1), hinges j0 … j(n−1) about y, 0.5 m apart), with a
// site s<k> at each tip and the extra body XML each gets.
func pendulums(n int) string {
	var b strings.Builder
	for k := range n {
		fmt.Fprintf(&b, `<body name="p%d" pos="0 %g 0"><joint name="j%d" axis="0 1 0" damping="%g"/>`+
			`<geom type="capsule" size=".03" fromto="0 0 0 %g 0 %g"/><site name="s%d" pos="%g 0 %g"/></body>`,
			k, 0.5*float64(k), k, 0.01*float64(k), 0.3+0.05*float64(k), -0.1*float64(k), k, 0.3+0.05*float64(k), -0.1*float64(k))
	}
	return b.String()
}

// fixedTendon returns a fixed tendon named t over j0 … j(n−1) with the
// given attributes and alternating coefficients.
func fixedTendon(n int, attrs string) string {
	var b strings.Builder
	fmt.Fprintf(&b, `<tendon><fixed name="t" %s>`, attrs)
	for k := range n {
		fmt.Fprintf(&b, `<joint joint="j%d" coef="%g"/>`, k, 1-0.3*float64(k))
	}
	b.WriteString(`</fixed></tendon>`)
	return b.String()
}

// nTreeModels are models whose tendon constraints and actuators span
// three or four kinematic trees (MuJoCo has no limit on the trees a
// tendon spans; Stiction's constraint blocks have one J block per tree).
var nTreeModels = []struct {
	name, xml string
	o         Options
}{
	// The limit L = Σ c_k q_k ≤ 0.2 is hit within the first steps as
	// gravity swings the pendulums.
	{"fixed tendon limit, 3 trees", `<mujoco><option timestep="0.002"/><worldbody>` + pendulums(3) + `</worldbody>` +
		fixedTendon(3, `limited="true" range="-0.2 0.2"`) + `</mujoco>`, Options{Steps: 200}},
	{"fixed tendon limit, 4 trees", `<mujoco><option timestep="0.002"/><worldbody>` + pendulums(4) + `</worldbody>` +
		fixedTendon(4, `limited="true" range="-0.1 0.25"`) + `</mujoco>`, Options{Steps: 200}},
	// A tendon equality Σ c_k q_k = 0.05 over three trees, started off it.
	{"tendon equality, 3 trees", `<mujoco><option timestep="0.002"/><worldbody>` + pendulums(3) + `</worldbody>` +
		fixedTendon(3, "") + `<equality><tendon tendon1="t" polycoef="0.05 0 0 0 0" solref=".01 1"/></equality></mujoco>`,
		Options{Steps: 200}},
	// A motor on a tendon over three trees, driven by a control pattern,
	// with the tendon's limit.
	{"motor on a 3-tree tendon", `<mujoco><option timestep="0.002" gravity="0 0 -2"/><worldbody>` + pendulums(3) + `</worldbody>` +
		fixedTendon(3, `limited="true" range="-0.3 0.3"`) + `<actuator><motor tendon="t" gear="0.5"/></actuator></mujoco>`,
		Options{Steps: 200, Ctrl: []float64{0.8}, CtrlFreq: 2}},
	// A spatial tendon through sites on three bodies of different trees,
	// with a limit that is hit and a motor on it.
	{"spatial tendon over 3 trees", `<mujoco><option timestep="0.002"/><worldbody>` + pendulums(3) + `</worldbody>` +
		`<tendon><spatial name="sp" limited="true" range="1.02 1.028"><site site="s0"/><site site="s1"/><site site="s2"/></spatial></tendon>` +
		`<actuator><motor tendon="sp" gear="0.3"/></actuator></mujoco>`,
		Options{Steps: 200, Ctrl: []float64{-1}, CtrlFreq: 3}},
	// The same two with MuJoCo's PGS (sim's port, mujoco_pgs.go).
	{"fixed tendon limit, 4 trees, PGS", `<mujoco><option timestep="0.002" solver="PGS"/><worldbody>` + pendulums(4) + `</worldbody>` +
		fixedTendon(4, `limited="true" range="-0.1 0.25"`) + `</mujoco>`, Options{Steps: 200}},
	{"spatial tendon over 3 trees, PGS", `<mujoco><option timestep="0.002" solver="PGS"/><worldbody>` + pendulums(3) + `</worldbody>` +
		`<tendon><spatial name="sp" limited="true" range="1.02 1.028"><site site="s0"/><site site="s1"/><site site="s2"/></spatial></tendon>` +
		`<actuator><motor tendon="sp" gear="0.3"/></actuator></mujoco>`, Options{Steps: 200, Ctrl: []float64{-1}, CtrlFreq: 3}},
}

// TestNTreeTendonsMuJoCo: fixed-tendon limits over 3 and 4 trees, a tendon
// equality and a motor over 3 trees, and a spatial tendon through sites of
// 3 trees follow MuJoCo 2.2.2 under mujoco-euler, rk4 and mujoco-implicit,
// with MuJoCo's Newton and PGS, from the initial state and from a moving
// one, to 1e-9 (the level set before measuring), MuJoCo's limit rows
// active in most states. Measured: at most 3.1e-15 over 200 steps.
func TestNTreeTendonsMuJoCo(t *testing.T) {
	tool(t)
	for _, c := range nTreeModels {
		path := writeModel(t, c.xml)
		if _, im, err := stiction(path); err != nil || len(im.Warnings) > 0 {
			t.Fatalf("%s: %v, warnings %v", c.name, err, im.Warnings)
		}
		for _, sc := range []sim.Scheme{sim.MuJoCoEuler, sim.RK4, sim.MuJoCoImplicit} {
			for _, moving := range []bool{false, true} {
				o := c.o
				if moving {
					n := strings.Count(c.xml, "<body ")
					o.QPos, o.QVel = make([]float64, n), make([]float64, n)
					for k := range n {
						o.QPos[k], o.QVel[k] = 0.05*float64(k+1), 1.5-float64(k)
					}
				}
				worst, over, _, _, _ := trajectoryGap(t, path, sc, o, 1e-9)
				o.Every, o.Integrator = 1, mujocoIntegrator(sc)
				nl := limitStates(run(t, path, o))
				if strings.Contains(c.xml, `limited="true"`) && nl == 0 {
					t.Errorf("%s, %s, moving %v: MuJoCo's tendon limit is never hit; the test does not test it", c.name, sc.Name, moving)
				}
				t.Logf("%s, %s, moving %v: max |Δqpos| over %d steps %.3g (%d states with MuJoCo's limit rows)", c.name, sc.Name, moving, o.Steps, worst, nl)
				if !(worst <= 1e-9) {
					t.Errorf("%s, %s, moving %v: max |Δqpos| %.3g, first over 1e-9 at step %d", c.name, sc.Name, moving, worst, over)
				}
			}
		}
	}
}

// TestModelXMLMuJoCo: MuJoCo's test model.xml (a spatial tendon with a
// limit, violated from the start, through sites of 3 trees, a motor on
// it, a motor on a fixed tendon, an <intvelocity> servo and a <general>
// with integrator dynamics) simulates, and its qpos follows MuJoCo 2.2.2
// from the initial state and the parity table's perturbed one until
// MuJoCo's first contact, to 1e-9. (Before activation dynamics were
// supported the <intvelocity> was ignored and qpos parted from MuJoCo's
// at step 2; this test then ran the file with it removed.)
func TestModelXMLMuJoCo(t *testing.T) {
	exe := tool(t)
	const file = "mujoco/test/testdata/model.xml"
	src, err := os.ReadFile(filepath.Join("testdata", file))
	if err != nil {
		t.Fatal(err)
	}
	const iv = `<intvelocity joint="hipz_0" kp="100" actrange="-1 1"/>`
	if !strings.Contains(string(src), iv) {
		t.Fatalf("%s has no %s", file, iv)
	}
	path := filepath.Join("testdata", file)
	r := measureShortAt(exe, file, path)
	if r.mjErr != nil || r.loadErr != nil || r.mapErr != nil || r.trajErr != nil {
		t.Fatalf("MuJoCo %v, load %v, map %v, trajectory %v", r.mjErr, r.loadErr, r.mapErr, r.trajErr)
	}
	t.Logf("through contact: %s", summary(r))
	// Before MuJoCo's first contact (horizonOf without rows).
	_, mp := mappedModel(t, path, r.mj)
	q, v := perturbedState(r.mj)
	pr := run(t, path, Options{Steps: shortSteps, Every: 1, QPos: q, QVel: v})
	for _, c := range []struct {
		name       string
		ref, start *Run
	}{{"initial", r.mj, nil}, {"perturbed", pr, pr}} {
		h, _, at := horizonOf(c.ref, false)
		fl := firstLimit(c.ref, h)
		d, _, err := compareTrajectory(path, c.ref, c.start, mp, h)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%s state: max |Δqpos| %.3g over the %d steps before MuJoCo's first contact (state %d); MuJoCo's limit rows from state %d", c.name, d, h, at, fl)
		if !(d <= trajTol) || h < 10 || fl < 0 {
			t.Errorf("%s state: max |Δqpos| %.3g over %d steps (first limit row %d), want ≤ %g over at least 10 with the limit", c.name, d, h, fl, trajTol)
		}
	}
}
