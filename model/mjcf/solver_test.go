package mjcf

import (
	"strings"
	"testing"

	"github.com/stiction-sim/stiction/model"
)

// TestSolverOption: <option solver iterations tolerance> sets the scene's
// solver of MuJoCo's rows with the file's iterations and tolerance
// (MuJoCo's defaults 100 and 1e-8 when absent): Newton (MuJoCo's default,
// also without <option>) and CG MuJoCo 2.2.2's own Newton and CG
// (mujoco_newton, mujoco_cg), PGS its PGS (mujoco_newton unset); a second
// <option> keeps what the first set; a bad solver name or an iteration
// count < 1 is refused with an error naming the attribute and the value.
func TestSolverOption(t *testing.T) {
	for _, c := range []struct {
		option string
		solver string // Newton, CG or PGS
		iter   int
		tol    float64
	}{
		{``, "Newton", 100, 1e-8},
		{`<option solver="Newton" iterations="50"/>`, "Newton", 50, 1e-8},
		{`<option solver="CG" tolerance="1e-6"/>`, "CG", 100, 1e-6},
		{`<option solver="PGS"/>`, "PGS", 100, 1e-8},
		{`<option solver="PGS" iterations="50" tolerance="1e-10"/>`, "PGS", 50, 1e-10},
		{`<option solver="PGS" iterations="50"/><option timestep="0.01"/>`, "PGS", 50, 1e-8},
		{`<option solver="CG"/><option iterations="20"/>`, "CG", 20, 1e-8},
	} {
		im := parseDoc(t, `<mujoco>`+c.option+`<worldbody><geom type="plane" size="1 1 1"/></worldbody></mujoco>`)
		ct := im.Scene.Contact
		got := "PGS"
		if ct.MuJoCoNewton != nil && *ct.MuJoCoNewton {
			got = "Newton"
			if ct.MuJoCoCG != nil && *ct.MuJoCoCG {
				got = "CG"
			}
		}
		if got != c.solver || ct.PGSIterations == nil || *ct.PGSIterations != c.iter || ct.PGSTolerance == nil || *ct.PGSTolerance != c.tol {
			t.Errorf("%q: %s, %v iterations, tolerance %v; want %s, %d, %g", c.option, got, ct.PGSIterations, ct.PGSTolerance, c.solver, c.iter, c.tol)
		}
	}
	for _, bad := range []struct{ option, attr, value string }{
		{`<option solver="Jacobi"/>`, "solver", "Jacobi"},
		{`<option solver="PGS" iterations="0"/>`, "iterations", "0"},
	} {
		_, err := Parse("f.xml", []byte(`<mujoco>`+bad.option+`<worldbody/></mujoco>`), model.Options{})
		if err == nil || !strings.Contains(err.Error(), bad.attr) || !strings.Contains(err.Error(), bad.value) {
			t.Errorf("%s: error %v, want one naming %s and %s", bad.option, err, bad.attr, bad.value)
		}
	}
}
