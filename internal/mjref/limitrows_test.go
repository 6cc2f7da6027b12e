package mjref

import (
	"path/filepath"
	"testing"
)

// TestLimitRowsMatchMuJoCo: dm_control's humanoid_CMU, from its initial
// state, has MuJoCo's limit rows on 5 to 9 joints from step 0 (its knees
// start below their lower bound). With MuJoCo's limit rows in mujoco-euler
// steps (constraint.Params.MuJoCoLimits) and MuJoCo's solver tolerance
// (<option tolerance>, 1e-8) qpos matches MuJoCo 2.2.2 to 1e-9 up to the
// state before MuJoCo's first contact (measured 1.8e-10 over 65 steps,
// over 64 when a speculative contact acted one step earlier; with SAP's
// default εr = 1e-6, 6.5e-7, over 1e-9 from step 45; with SAP's limit rows
// inside the bounds the harness compared 0 steps).
func TestLimitRowsMatchMuJoCo(t *testing.T) {
	const file = "dm_control/suite/humanoid_CMU.xml"
	path := filepath.Join("testdata", file)
	mj := run(t, path, Options{Steps: shortSteps, Every: 1})
	_, mp := mappedModel(t, path, mj)
	h, cut, at := horizonOf(mj, false) // up to the state before MuJoCo's first contact
	if cut != "contact" || h < 2 {
		t.Fatalf("%s: horizon %d (%s at step %d), want a contact after step 2", file, h, cut, at)
	}
	if l := firstLimit(mj, h); l < 0 {
		t.Fatalf("%s: MuJoCo has no limit row within %d steps", file, h)
	}
	worst, first, err := compareTrajectory(path, mj, nil, mp, h)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%s: %d steps through MuJoCo's limit rows, max |Δqpos| %.2g", file, h, worst)
	if worst > trajTol {
		t.Errorf("%s: qpos %.2g from MuJoCo's over %d steps (first over %g at step %d)", file, worst, h, trajTol, first)
	}
}
