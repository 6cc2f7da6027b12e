package mjcf

import (
	"strings"
	"testing"

	"github.com/stiction-sim/stiction/model"
)

// TestOptionTolerance: <option tolerance> sets the SAP tolerance εr of the
// scene (MuJoCo's default 1e-8 without it, 0 keeps 1e-8), and a negative
// one is refused with an error naming the attribute and the value.
func TestOptionTolerance(t *testing.T) {
	for _, c := range []struct {
		option string
		want   float64
	}{
		{"", DefaultTolerance},
		{`<option timestep="0.002"/>`, 1e-8},
		{`<option tolerance="1e-5"/>`, 1e-5},
		{`<option tolerance="0"/>`, 1e-8},
	} {
		im := parseDoc(t, `<mujoco>`+c.option+`<worldbody><body><joint/><geom size="0.01" mass="0.003"/></body></worldbody></mujoco>`)
		if got := im.Scene.Solver.Tolerance; got == nil || *got != c.want {
			t.Errorf("%q: solver tolerance %v, want %g", c.option, got, c.want)
		}
		for _, w := range im.Warnings {
			if w.Attribute == "tolerance" {
				t.Errorf("%q: warning %q", c.option, w.Msg)
			}
		}
	}
	_, err := Parse("f.xml", []byte(`<mujoco><option tolerance="-1"/><worldbody/></mujoco>`), model.Options{})
	if err == nil || !strings.Contains(err.Error(), "tolerance") || !strings.Contains(err.Error(), "-1") || !strings.Contains(err.Error(), "f.xml") {
		t.Errorf("tolerance -1: error %v, want one naming f.xml, tolerance and -1", err)
	}
}
