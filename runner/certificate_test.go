package runner

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/stiction-sim/stiction/record"
)

// boxSliding is a box sliding on a plane under a sideways gravity: every
// step has contacts, solved by MuJoCo's Newton under the MJCF default.
const boxSliding = `<mujoco><option gravity="3 0 -9.81"/><worldbody>
  <geom type="plane" size="1 1 0.1" friction="0.2"/>
  <body pos="0 0 0.099"><freejoint/><geom type="box" size="0.1 0.1 0.1" mass="1"/></body>
</worldbody></mujoco>`

// TestPortCertificate: a run of an MJCF file solved by the port of
// MuJoCo's Newton (the MJCF default) names it in its summary, reports its
// steps' momentum error e_m (finite and positive) and no failed step;
// capped at one
// iteration its unconverged steps are failed steps and the status says
// so; with contact.mujoco_newton=false the converged solve (SAP) runs.
func TestPortCertificate(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "box.xml")
	if err := os.WriteFile(path, []byte(boxSliding), 0o644); err != nil {
		t.Fatal(err)
	}
	for i, c := range []struct {
		set    string
		solver string
		failed bool
	}{
		{"duration=0.2", "mujoco-newton + sap", false},
		{"contact.pgs_iterations=1", "mujoco-newton + sap", true},
		{"contact.mujoco_newton=false", "sap", false},
	} {
		src, err := NewSource(path, []string{"duration=0.2", c.set}, 0)
		if err != nil {
			t.Fatal(err)
		}
		b, err := src.Build()
		if err != nil {
			t.Fatal(err)
		}
		sum, _ := Simulate(context.Background(), b, Options{Out: filepath.Join(dir, string(rune('a'+i)))})
		t.Logf("%s: solver %q, status %s, failed steps %d, max e_m %.3g, iterations max %d", c.set, sum.Solver, sum.Status, sum.FailedSteps, sum.MomentumErrorMax, sum.IterationsMax)
		if sum.Solver != c.solver {
			t.Errorf("%s: solver %q, want %q", c.set, sum.Solver, c.solver)
		}
		if !(sum.MomentumErrorMax > 0) || math.IsInf(sum.MomentumErrorMax, 0) {
			t.Errorf("%s: max e_m %g, want a finite positive momentum error", c.set, sum.MomentumErrorMax)
		}
		if got := sum.Status == record.StatusFailedSteps && sum.FailedSteps > 0; got != c.failed {
			t.Errorf("%s: status %s with %d failed steps, want failed %v", c.set, sum.Status, sum.FailedSteps, c.failed)
		}
	}
}
