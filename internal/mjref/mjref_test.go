package mjref

import (
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/stiction-sim/stiction/spatial"
)

var (
	toolOnce sync.Once
	toolPath string
	toolErr  error
	toolDir  string
)

func TestMain(m *testing.M) {
	code := m.Run()
	if toolDir != "" {
		os.RemoveAll(toolDir)
	}
	os.Exit(code)
}

// tool builds the C tool once per test process; it skips the test where
// gcc or libmujoco is missing and fails it on any other build error.
func tool(t testing.TB) string {
	t.Helper()
	toolOnce.Do(func() {
		toolDir, toolErr = os.MkdirTemp("", "mjref")
		if toolErr == nil {
			toolPath, toolErr = BuildTool(toolDir)
		}
	})
	if errors.Is(toolErr, ErrNoMuJoCo) {
		t.Skipf("skipping: %v (the MuJoCo reference needs gcc and Debian's libmujoco-dev)", toolErr)
	}
	if toolErr != nil {
		t.Fatal(toolErr)
	}
	return toolPath
}

// run executes the tool and fails the test on error.
func run(t testing.TB, file string, o Options) *Run {
	t.Helper()
	r, err := Exec(tool(t), file, o)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// writeModel writes an MJCF model into a temporary file.
func writeModel(t *testing.T, xml string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "model.xml")
	if err := os.WriteFile(p, []byte(xml), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestToolErrorsNameFile: a missing file, a malformed model and a bad
// option fail with the file named in the error.
func TestToolErrorsNameFile(t *testing.T) {
	exe := tool(t)
	bad := writeModel(t, `<mujoco><worldbody><body><geom type="sphere"/></body></worldbody>`)
	for _, c := range []struct {
		file string
		o    Options
		want string
	}{
		{"/nonexistent/model.xml", Options{}, "/nonexistent/model.xml"},
		{bad, Options{}, bad},
		{"testdata/dm_control/suite/pendulum.xml", Options{Integrator: "leapfrog"}, "leapfrog"},
		{"testdata/dm_control/suite/pendulum.xml", Options{Key: "7"}, "keyframe"},
	} {
		_, err := Exec(exe, c.file, c.o)
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), c.file) {
			t.Errorf("%s %+v: error %v, want one naming %q and the file", c.file, c.o, err, c.want)
		}
	}
}

// TestToolPendulum: the tool reports dm_control's pendulum as the file
// describes it, and its mass matrix is the parallel-axis sum of the pole.
func TestToolPendulum(t *testing.T) {
	r := run(t, "testdata/dm_control/suite/pendulum.xml", Options{Steps: 10, Every: 1})
	if r.NQ != 1 || r.NV != 1 || r.NBody != 2 || r.Joints[0].Name != "hinge" || r.Bodies[1].Name != "pole" {
		t.Fatalf("pendulum: nq %d nv %d nbody %d joint %q body %q", r.NQ, r.NV, r.NBody, r.Joints[0].Name, r.Bodies[1].Name)
	}
	p := r.Bodies[1]
	// Hinge about y through the body origin: M = m (x² + z²) + I_yy.
	I := r.Inertia(1).Icom
	want := p.Mass*(p.IPos[0]*p.IPos[0]+p.IPos[2]*p.IPos[2]) + I[1][1]
	if math.Abs(r.M[0]-want) > 1e-15*want {
		t.Errorf("M = %v, want m(x²+z²) + I_yy = %v", r.M[0], want)
	}
	if len(r.Steps) != 11 || math.Abs(r.Steps[10].Time-10*r.Timestep) > 1e-12 {
		t.Errorf("%d steps recorded, last at t = %v; want 11, t = %v", len(r.Steps), r.Steps[len(r.Steps)-1].Time, 10*r.Timestep)
	}
	// From a given state: the pole (its centre of mass above the hinge)
	// falls away from upright, towards larger q.
	r = run(t, "testdata/dm_control/suite/pendulum.xml", Options{Steps: 1, QPos: []float64{0.5}, QVel: []float64{0}})
	if r.QInit[0] != 0.5 || !(r.Steps[1].QVel[0] > 0) {
		t.Errorf("from q = 0.5: qinit %v, v after a step %v (want > 0)", r.QInit, r.Steps[1].QVel)
	}
}

const spinner = `<mujoco>
  <option gravity="0 0 0" timestep="0.001"/>
  <worldbody>
    <body name="b" pos="0.1 0.2 0.3" euler="20 30 40">
      <JOINT/>
      <geom type="box" size="0.1 0.2 0.4" density="1000"/>
    </body>
  </worldbody>
</mujoco>`

// TestConversionConservesMomentum: a torque-free asymmetric box spinning on
// a free joint and on a ball joint, run by MuJoCo and converted by FreeV
// and BallV into Stiction's world-frame angular velocity, keeps its world
// angular momentum R I Rᵀ ω constant (it would not if the conversion read
// the velocity in the wrong frame), and the conversions round-trip.
func TestConversionConservesMomentum(t *testing.T) {
	for _, joint := range []string{`<freejoint/>`, `<joint type="ball"/>`} {
		file := writeModel(t, strings.Replace(spinner, "<JOINT/>", joint, 1))
		free := strings.HasPrefix(joint, "<free")
		var q, v []float64
		if free {
			q = []float64{0.1, 0.2, 0.3, 0.9, 0.1, -0.3, 0.2}
			v = []float64{0.3, -0.2, 0.1, 2, -1, 3}
		} else {
			q = []float64{0.9, 0.1, -0.3, 0.2}
			v = []float64{2, -1, 3}
		}
		n := math.Sqrt(0.81 + 0.01 + 0.09 + 0.04)
		for i := range 4 {
			q[len(q)-4+i] /= n
		}
		r := run(t, file, Options{Steps: 200, Every: 1, QPos: q, QVel: v})
		I := r.Inertia(1)
		if I.Com.Norm() > 1e-15 {
			t.Fatalf("%s: centre of mass %v, want the origin", joint, I.Com)
		}
		var L0, W0 spatial.Vec3
		wrong := 0.0
		for k, s := range r.Steps {
			st := make([]float64, 6)
			back := make([]float64, 6)
			var quat []float64
			if free {
				FreeV(s.QPos, s.QVel, st)
				FreeVToMuJoCo(s.QPos, st, back)
				quat = s.QPos[3:7]
			} else {
				BallV(s.QPos, s.QVel, st)
				BallVToMuJoCo(s.QPos, st, back)
				quat = s.QPos
			}
			for i := range r.NV {
				if math.Abs(back[i]-s.QVel[i]) > 1e-15*(1+math.Abs(s.QVel[i])) {
					t.Fatalf("%s step %d: round trip %v, want %v", joint, k, back[:r.NV], s.QVel)
				}
			}
			R := quatAt(quat).Normalize().RotMat()
			L := spatial.RotateInertia(R, I.Icom).MulVec(spatial.Vec3{st[0], st[1], st[2]})
			// The same with MuJoCo's body-frame velocity taken as the world's.
			W := spatial.RotateInertia(R, I.Icom).MulVec(spatial.Vec3{s.QVel[r.NV-3], s.QVel[r.NV-2], s.QVel[r.NV-1]})
			if k == 0 {
				L0, W0 = L, W
				continue
			}
			wrong = math.Max(wrong, W.Sub(W0).Norm()/W0.Norm())
			// Semi-implicit Euler conserves L only to O(δt); 200 steps of 1 ms
			// at |ω| ≈ 4 rad/s change it by about 1e-3 relative, while a
			// velocity read in the wrong frame changes it by O(1).
			if d := L.Sub(L0).Norm() / L0.Norm(); d > 0.02 {
				t.Fatalf("%s step %d: world angular momentum %v, at start %v (%.2g relative)", joint, k, L, L0, d)
			}
		}
		if wrong < 0.1 {
			t.Errorf("%s: the test has no power: reading the velocity in the wrong frame changes L by only %.2g", joint, wrong)
		}
		if free {
			st := make([]float64, 7)
			back := make([]float64, 7)
			FreeQ(q, st)
			FreeQToMuJoCo(st, back)
			if st[0] != q[3] || st[4] != q[0] || back[0] != q[0] || back[6] != q[6] {
				t.Errorf("FreeQ: %v → %v → %v", q, st, back)
			}
		}
	}
}

const keyed = `<mujoco>
  <worldbody>
    <body name="arm" pos="0 0 1">
      <joint name="shoulder" type="hinge" axis="0 1 0"/>
      <geom type="capsule" fromto="0 0 0 0.5 0 0" size="0.05"/>
      <site name="tip" pos="0.5 0 0"/>
    </body>
  </worldbody>
  <keyframe>
    <key name="raised" qpos="0.7" qvel="-1.5"/>
  </keyframe>
  <sensor>
    <jointpos name="angle" joint="shoulder"/>
    <jointvel name="rate" joint="shoulder"/>
    <framepos name="tip" objtype="site" objname="tip"/>
  </sensor>
</mujoco>`

// TestToolKeyframeSensorsPoses: a keyframe chosen by name sets the initial
// state; the sensors read back the recorded qpos and qvel, and the tip's
// framepos is where the arm's pose puts it.
func TestToolKeyframeSensorsPoses(t *testing.T) {
	r := run(t, writeModel(t, keyed), Options{Steps: 5, Every: 1, Key: "raised", Poses: true})
	if r.QInit[0] != 0.7 || r.VInit[0] != -1.5 {
		t.Fatalf("keyframe raised: qinit %v vinit %v, want 0.7, −1.5", r.QInit, r.VInit)
	}
	if len(r.Sensors) != 3 || r.Sensors[2].Type != "framepos" || r.Sensors[2].Dim != 3 {
		t.Fatalf("sensors %+v", r.Sensors)
	}
	for _, s := range r.Steps {
		if s.SensorData[0] != s.QPos[0] || s.SensorData[1] != s.QVel[0] {
			t.Errorf("step %d: jointpos, jointvel %v, want qpos %v, qvel %v", s.Step, s.SensorData[:2], s.QPos, s.QVel)
		}
		// Hinge about y by q: the tip at (0.5 cos q, 0, 1 − 0.5 sin q).
		q := s.QPos[0]
		want := spatial.Vec3{0.5 * math.Cos(q), 0, 1 - 0.5*math.Sin(q)}
		got := spatial.Vec3{s.SensorData[2], s.SensorData[3], s.SensorData[4]}
		if got.Sub(want).Norm() > 1e-12 {
			t.Errorf("step %d: tip at %v, want %v", s.Step, got, want)
		}
		if len(s.XPos) != 3*r.NBody || len(s.XQuat) != 4*r.NBody || s.XPos[5] != 1 {
			t.Errorf("step %d: poses %v %v", s.Step, s.XPos, s.XQuat)
		}
	}
}

// TestToolStages: the tool's -stages option records MuJoCo's evaluations
// within one step: one for Euler; four for RK4, at t, t + h/2, t + h/2 and
// t + h, the first at the recorded state before the step, whose RK4
// combination q̇_K = q̇_{K−1} + h Σ_j b_j qacc_j (mj_RungeKutta, RK4_B)
// gives the recorded velocity after it bit for bit (so each qacc is the
// evaluation's own).
func TestToolStages(t *testing.T) {
	const k = 5
	e := run(t, "testdata/dm_control/suite/pendulum.xml", Options{Steps: 8, Every: 1, Stages: k, QPos: []float64{0.5}, QVel: []float64{0}})
	if len(e.Stages) != 1 || e.Stages[0].QPos[0] != e.Steps[k-1].QPos[0] || e.Stages[0].QAcc == nil {
		t.Fatalf("pendulum, Euler: %d stages (want 1 at state %d, with its qacc): %+v", len(e.Stages), k-1, e.Stages)
	}
	r := run(t, "testdata/dm_control/suite/acrobot.xml", Options{Steps: 8, Every: 1, Stages: k, QPos: []float64{0.3, -0.2}, QVel: []float64{0.5, 1}})
	if len(r.Stages) != 4 {
		t.Fatalf("acrobot, RK4: %d stages, want 4", len(r.Stages))
	}
	h, t0 := r.Timestep, r.Steps[k-1].Time
	b := [4]float64{1.0 / 6, 1.0 / 3, 1.0 / 3, 1.0 / 6}
	for i, c := range []float64{0, 0.5, 0.5, 1} {
		if st := r.Stages[i]; math.Abs(st.Time-(t0+c*h)) > 1e-15 || st.QAcc == nil || len(st.EfcType) != 0 {
			t.Errorf("acrobot stage %d: t = %v (want %v), qacc %v, rows %v", i, st.Time, t0+c*h, st.QAcc, st.EfcType)
		}
	}
	for j := range r.NV {
		if r.Stages[0].QPos[j] != r.Steps[k-1].QPos[j] || r.Stages[0].QVel[j] != r.Steps[k-1].QVel[j] {
			t.Errorf("acrobot stage 0 dof %d: (%v, %v), recorded state %d (%v, %v)", j, r.Stages[0].QPos[j], r.Stages[0].QVel[j], k-1, r.Steps[k-1].QPos[j], r.Steps[k-1].QVel[j])
		}
		dv := 0.0
		for i := range b {
			dv += b[i] * r.Stages[i].QAcc[j]
		}
		if v := r.Steps[k-1].QVel[j] + h*dv; v != r.Steps[k].QVel[j] {
			t.Errorf("acrobot dof %d: RK4 of the stages' qacc gives qvel %v, MuJoCo's state %d has %v", j, v, k, r.Steps[k].QVel[j])
		}
	}
}
