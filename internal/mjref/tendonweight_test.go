package mjref

import (
	"math"
	"strings"
	"testing"

	"github.com/stiction-sim/stiction/model/load"
	"github.com/stiction-sim/stiction/scene"
)

// tendonLimitArm is a double pendulum whose fixed tendon ja + jb is limited
// to [−0.4, 0.4]: its mass matrix, and so the Delassus estimate G M⁻¹ Gᵀ of
// the limit's row, changes with jb.
const tendonLimitArm = `<mujoco><option timestep="0.002"/><worldbody>
  <body name="a" pos="0 0 1"><joint name="ja" type="hinge" axis="0 1 0"/><geom type="capsule" size=".02" fromto="0 0 0 .3 0 0" mass="1"/>
    <body name="b" pos=".3 0 0"><joint name="jb" type="hinge" axis="0 1 0"/><geom type="capsule" size=".02" fromto="0 0 0 .25 0 0" mass="0.6"/></body>
  </body></worldbody>
  <tendon><fixed name="t" limited="true" range="-0.4 0.4"><joint joint="ja" coef="1"/><joint joint="jb" coef="1"/></fixed></tendon>
</mujoco>`

// TestTendonLimitWeightIsMuJoCos: a tendon limit's row has MuJoCo's weight
// in R = (1 − d)/d · w, tendon_invweight0 = G M⁻¹ Gᵀ at qpos0
// (mj_diagApprox, mj_setConst), which the MJCF import computes: the double
// pendulum pushed through its tendon's upper bound (ja + jb from 0.5 rad at
// 3 rad/s) follows MuJoCo 2.2.2 to 1e-9 over 300 steps. With the Delassus
// estimate at each step's start instead (no weight) it does not.
func TestTendonLimitWeightIsMuJoCos(t *testing.T) {
	const steps = 300
	path := writeModel(t, tendonLimitArm)
	mj, mp, worst, first := compareFrom(t, path, Options{Steps: steps, Every: 1, QPos: []float64{0.2, 0.3}, QVel: []float64{1, 2}})
	limits := limitStates(mj)
	// The same without the imported weight.
	sc, _, err := load.Scene(path, nil, load.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if l := sc.Tendons[0].Limits; l == nil || l.Weight == nil {
		t.Fatalf("tendon limits %+v: no weight imported", l)
	}
	sc.Tendons[0].Limits.Weight = nil
	b, err := scene.Build(sc)
	if err != nil {
		t.Fatal(err)
	}
	s := startedSim(t, b, mp, mj)
	q := make([]float64, mj.NQ)
	delassus := 0.0
	for k := 1; k <= steps; k++ {
		if _, err := s.Step(); err != nil {
			t.Fatal(err)
		}
		mp.QToMuJoCo(s.State.Q, q)
		for i := range q {
			delassus = math.Max(delassus, math.Abs(q[i]-mj.Steps[k].QPos[i]))
		}
	}
	t.Logf("tendon limit (MuJoCo's row in %d states): max |Δqpos| over %d steps %.3g with tendon_invweight0, %.3g with the Delassus estimate", limits, steps, worst, delassus)
	if limits == 0 {
		t.Fatal("MuJoCo has no tendon limit row: the model does not reach its bound")
	}
	if worst > trajTol {
		t.Errorf("qpos %.3g from MuJoCo's over %d steps (first over %g at step %d)", worst, steps, trajTol, first)
	}
	if delassus <= trajTol {
		t.Errorf("with the Delassus estimate qpos is still within %.3g of MuJoCo's: the model does not tell the weights apart", delassus)
	}
}

// TestTendonMarginMatchesMuJoCo: the double pendulum of tendonLimitArm with
// tendon margin 0.1 (fixed) and a spatial tendon with margin 0.05 over the
// same two links (limits past which MuJoCo 2.2.2 has a row once the
// distance to the bound is below the margin, measured from it) follows
// MuJoCo to 1e-9 over 300 steps; with the margins ignored it parts by more
// than 1e-3.
func TestTendonMarginMatchesMuJoCo(t *testing.T) {
	const steps = 300
	model := func(fixed, spatial string) string {
		return strings.NewReplacer(`range="-0.4 0.4">`, `range="-0.4 0.4" margin="`+fixed+`">`,
			`</tendon>`, `<spatial name="s" limited="true" range="0 0.62" margin="`+spatial+`"><site site="top"/><site site="tip"/></spatial></tendon>`,
			`<worldbody>`, `<worldbody><site name="top" pos="0.2 0 1.2"/>`,
			`mass="0.6"/>`, `mass="0.6"/><site name="tip" pos=".25 0 0"/>`).Replace(tendonLimitArm)
	}
	path := writeModel(t, model("0.1", "0.05"))
	mj, mp, worst, first := compareFrom(t, path, Options{Steps: steps, Every: 1, QPos: []float64{0.2, 0.3}, QVel: []float64{1, 2}})
	limits := limitStates(mj)
	t.Logf("tendon margins (MuJoCo's limit rows in %d states): max |Δqpos| over %d steps %.3g", limits, steps, worst)
	if worst > trajTol {
		t.Errorf("qpos %.3g from MuJoCo's over %d steps (first over %g at step %d)", worst, steps, trajTol, first)
	}
	for _, c := range [][2]string{{"0", "0.05"}, {"0.1", "0"}} {
		ignored, _, err := compareTrajectory(writeModel(t, model(c[0], c[1])), mj, mj, mp, steps)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("margins %s (fixed), %s (spatial) in Stiction: max |Δqpos| %.3g", c[0], c[1], ignored)
		if ignored < 1e-3 {
			t.Errorf("margins %s, %s move qpos by only %.3g: the model does not exercise both", c[0], c[1], ignored)
		}
	}
}
