package mjref

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stiction-sim/stiction/model/load"
	"github.com/stiction-sim/stiction/multibody"
	"github.com/stiction-sim/stiction/scene"
	"github.com/stiction-sim/stiction/sim"
)

// spatialModels exercise spatial tendons without limits or contacts: a
// spring–damper through sites on two pendulums in different trees (and a
// site of the world), and paths wrapping over a sphere and a cylinder,
// with and without a side site; actuators on them at zero control add
// nothing. Each must follow MuJoCo 2.2.2 from its initial state and from a
// perturbed one within tol over steps steps (measured values in the
// comments).
var spatialModels = []struct {
	name  string
	xml   string
	steps int
	tol   float64
}{
	{"sites", `<mujoco><option timestep="0.002"/><worldbody>
  <site name="w" pos="0 .25 .3"/>
  <body name="a"><joint name="ja" type="hinge" axis="0 1 0"/><geom type="capsule" size=".02" fromto="0 0 0 .3 0 0"/>
    <site name="a1" pos=".15 0 .02"/><site name="a2" pos=".3 0 0"/>
    <body name="a2" pos=".3 0 0"><joint type="hinge" axis="1 0 0"/><geom type="capsule" size=".02" fromto="0 0 0 0 .2 0"/><site name="a3" pos="0 .2 0"/></body></body>
  <body name="b" pos="0 .5 0"><joint name="jb" type="hinge" axis="0 1 0"/><geom type="capsule" size=".02" fromto="0 0 0 0 0 -.3"/><site name="b1" pos="0 0 -.3"/></body>
  </worldbody>
  <tendon><spatial name="t" stiffness="40" damping="0.3" springlength="0.5"><site site="a1"/><site site="a2"/><site site="a3"/><site site="w"/><site site="b1"/></spatial></tendon>
  <actuator><motor tendon="t" gear="2"/></actuator>
</mujoco>`, 300, 1e-9},
	{"wrap sphere and cylinder", `<mujoco><option timestep="0.002"/><worldbody>
  <site name="s0" pos="-.3 0 .05"/><site name="side" pos="0 0 .5"/>
  <geom name="ball" type="sphere" size=".1" contype="0" conaffinity="0"/>
  <body name="a" pos=".3 0 0"><joint type="hinge" axis="0 1 0"/><geom type="capsule" size=".02" fromto="0 0 0 .3 0 0"/>
    <geom name="drum" type="cylinder" size=".06 .02" pos=".3 0 0" euler="90 0 0" contype="0" conaffinity="0"/>
    <site name="s1" pos=".05 0 .12"/>
    <body name="b" pos=".3 0 0"><joint type="hinge" axis="0 1 0"/><geom type="capsule" size=".02" fromto="0 0 0 .25 0 0"/><site name="s2" pos=".25 0 -.05"/></body></body>
  </worldbody>
  <tendon>
    <spatial name="over" stiffness="30" damping="0.2" springlength="0.3"><site site="s0"/><geom geom="ball"/><site site="s1"/><geom geom="drum"/><site site="s2"/></spatial>
    <spatial name="side" stiffness="20" springlength="0.4"><site site="s0"/><geom geom="ball" sidesite="side"/><site site="s1"/></spatial>
  </tendon>
</mujoco>`, 300, 1e-9},
}

// TestSpatialTendonsAgainstMuJoCo: spatial tendons' lengths and Jacobians
// (through the spring–dampers' forces) as MuJoCo 2.2.2 computes them.
func TestSpatialTendonsAgainstMuJoCo(t *testing.T) {
	for _, c := range spatialModels {
		t.Run(c.name, func(t *testing.T) {
			path := writeModel(t, c.xml)
			b, im, err := stiction(path)
			if err != nil {
				t.Fatal(err)
			}
			if len(im.Warnings) > 0 {
				t.Errorf("warnings: %v", im.Warnings)
			}
			mj := run(t, path, Options{Steps: c.steps, Every: 1})
			worst := followMuJoCo(t, path, mj)
			q := append([]float64(nil), mj.QInit...)
			v := make([]float64, b.Model.NV)
			for i := range q {
				q[i] += 0.3 * math.Sin(float64(i)+1)
				v[i] = 2 * math.Cos(1.3*float64(i)+0.2)
			}
			mjp := run(t, path, Options{Steps: c.steps, Every: 1, QPos: q, QVel: v})
			worst = math.Max(worst, followMuJoCo(t, path, mjp))
			t.Logf("%s: max |Δqpos| over %d steps (initial and perturbed states) %.3g (tolerance %g)", c.name, c.steps, worst, c.tol)
			if !(worst <= c.tol) {
				t.Errorf("%s: qpos differs from MuJoCo's by %.3g, more than %g", c.name, worst, c.tol)
			}
		})
	}
}

// TestSpatialTendonStepsAllocateNothing: a warmed-up step with spatial
// tendons allocates nothing: ball_in_cup (its string's limit active once
// the ball hangs), arm26 (paths wrapping over cylinders, with side sites),
// the wrapping spring–dampers of spatialModels and the limited three-branch
// pulley tendon of pulleyModel under both integrators.
func TestSpatialTendonStepsAllocateNothing(t *testing.T) {
	pulley := func(integ string) string {
		return writeModel(t, strings.NewReplacer("INTEGRATOR", integ, "DIVISOR2", "2", "DIVISOR3", "3").Replace(pulleyModel))
	}
	paths := []string{filepath.Join("testdata", "dm_control/suite/ball_in_cup.xml"), filepath.Join("testdata", "mujoco/model/tendon_arm/arm26.xml"), writeModel(t, spatialModels[1].xml),
		pulley("Euler"), pulley("RK4")}
	for _, f := range paths {
		b, _, err := stiction(f)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		s, err := sim.New(b.Model, b.State, b.Config)
		if err != nil {
			t.Fatal(err)
		}
		for range 300 {
			if _, err := s.Step(); err != nil {
				t.Fatalf("%s: %v", f, err)
			}
		}
		allocs := testing.AllocsPerRun(20, func() {
			if _, err := s.Step(); err != nil {
				t.Fatal(err)
			}
		})
		if allocs != 0 {
			t.Errorf("%s: %v allocations per warmed-up step", f, allocs)
		}
	}
}

// TestBallInCupStringAgainstMuJoCo: dm_control's ball_in_cup from its
// initial state: the ball falls until the string (a spatial tendon
// between two sites, range 0 0.3) becomes taut at step 28 in MuJoCo,
// then hangs from it. Up to the limit qpos matches MuJoCo's to 1e-12;
// over 200 steps, with the limit acting (MuJoCo's soft limit, ours
// near-rigid up to the bound, as for fixed tendons), within the measured
// difference below.
func TestBallInCupStringAgainstMuJoCo(t *testing.T) {
	path := filepath.Join("testdata", "dm_control/suite/ball_in_cup.xml")
	mj := run(t, path, Options{Steps: 200, Every: 1})
	first := -1
	for k, s := range mj.Steps {
		if s.NLimit > 0 {
			first = k
			break
		}
	}
	if first < 2 {
		t.Fatalf("MuJoCo's string limit acts at step %d; expected later", first)
	}
	_, mp := mappedModel(t, path, mj)
	before, _, err := compareTrajectory(path, mj, nil, mp, first-1)
	if err != nil {
		t.Fatal(err)
	}
	all, _, err := compareTrajectory(path, mj, nil, mp, len(mj.Steps)-1)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("ball_in_cup: string taut at step %d in MuJoCo; |Δqpos| %.3g before it, %.3g over %d steps", first, before, all, len(mj.Steps)-1)
	if before > 1e-12 {
		t.Errorf("qpos %.3g from MuJoCo's before the string is taut", before)
	}
	if all > 2e-3 {
		t.Errorf("qpos %.3g from MuJoCo's over %d steps with the string taut", all, len(mj.Steps)-1)
	}
}

// TestArm26TendonsAgainstMuJoCo: the lengths L and velocities G v of the
// six spatial tendons of MuJoCo's arm26 (paths wrapping over the shoulder
// and elbow cylinders, four with side sites) equal MuJoCo 2.2.2's
// tendonpos and tendonvel sensors at each of MuJoCo's states of a 200-step
// swing from a moving state (the wraps engage and release as the joints
// turn; the model's muscles are not simulated, and the joints' limits cut
// the trajectory comparison at step 1, so the kinematics are compared).
func TestArm26TendonsAgainstMuJoCo(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("testdata", "mujoco/model/tendon_arm/arm26.xml"))
	if err != nil {
		t.Fatal(err)
	}
	names := []string{"SF", "SE", "EF", "EE", "BF", "BE"}
	var sens strings.Builder
	sens.WriteString("<sensor>")
	for _, kind := range []string{"tendonpos", "tendonvel"} {
		for _, n := range names {
			fmt.Fprintf(&sens, `<%s tendon="%s"/>`, kind, n)
		}
	}
	sens.WriteString("</sensor></mujoco>")
	doc := strings.Replace(string(src), "</mujoco>", sens.String(), 1)
	path := writeModel(t, doc)
	mj := run(t, path, Options{Steps: 200, Every: 1, QPos: []float64{0.3, 0.2}, QVel: []float64{4, 6}})
	sc, _, err := load.Scene(path, nil, load.Options{})
	if err != nil {
		t.Fatal(err)
	}
	b, err := scene.Build(sc)
	if err != nil {
		t.Fatal(err)
	}
	mp, err := NewMap(mj, b.Model)
	if err != nil {
		t.Fatal(err)
	}
	m := b.Model
	ws := multibody.NewWorkspace(m)
	q, v := make([]float64, m.NQ), make([]float64, m.NV)
	g, local := make([]float64, m.NV), make([]float64, 3*m.NV)
	var worstL, worstV float64
	lo, hi := make([]float64, len(names)), make([]float64, len(names))
	for k, st := range mj.Steps {
		mp.QToStiction(st.QPos, q)
		mp.VToStiction(st.QPos, st.QVel, v)
		ws.Update(q, v)
		for i, n := range names {
			p := scene.TendonPath(m, sc.Tendon(n))
			l := p.Jacobian(m, ws, g, local)
			ld := 0.0
			for j := range v {
				ld += g[j] * v[j]
			}
			worstL = math.Max(worstL, math.Abs(l-st.SensorData[i]))
			worstV = math.Max(worstV, math.Abs(ld-st.SensorData[len(names)+i]))
			if k == 0 || l < lo[i] {
				lo[i] = l
			}
			hi[i] = math.Max(hi[i], l)
		}
	}
	t.Logf("arm26: over %d states (shoulder %.3g→%.3g rad): max |ΔL| %.3g m, max |ΔL̇| %.3g m/s; lengths ranged %v–%v", len(mj.Steps),
		mj.Steps[0].QPos[0], mj.Steps[len(mj.Steps)-1].QPos[0], worstL, worstV, lo, hi)
	if worstL > 1e-12 || worstV > 1e-12 {
		t.Errorf("tendon lengths %.3g, velocities %.3g from MuJoCo's", worstL, worstV)
	}
}
