package mjcf

import (
	"strings"
	"testing"

	"github.com/stiction-sim/stiction/model"
)

// TestSolverOption: <option solver="PGS"> sets the scene's PGS with the
// file's iterations and tolerance (MuJoCo's defaults 100 and 1e-8 when
// absent); Newton (MuJoCo's default) and CG leave PGS off; a bad solver
// name or an iteration count < 1 is refused with an error naming the
// attribute and the value.
func TestSolverOption(t *testing.T) {
	for _, c := range []struct {
		option string
		iter   int // 0: PGS off
		tol    float64
	}{
		{``, 0, 0},
		{`<option solver="Newton" iterations="50"/>`, 0, 0},
		{`<option solver="CG"/>`, 0, 0},
		{`<option solver="PGS"/>`, 100, 1e-8},
		{`<option solver="PGS" iterations="50" tolerance="1e-10"/>`, 50, 1e-10},
	} {
		im := parseDoc(t, `<mujoco>`+c.option+`<worldbody><geom type="plane" size="1 1 1"/></worldbody></mujoco>`)
		ct := im.Scene.Contact
		switch {
		case c.iter == 0 && ct.PGSIterations != nil:
			t.Errorf("%q: PGS iterations %d, want PGS off", c.option, *ct.PGSIterations)
		case c.iter > 0 && (ct.PGSIterations == nil || *ct.PGSIterations != c.iter || ct.PGSTolerance == nil || *ct.PGSTolerance != c.tol):
			t.Errorf("%q: PGS %v / %v, want %d iterations, tolerance %g", c.option, ct.PGSIterations, ct.PGSTolerance, c.iter, c.tol)
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
