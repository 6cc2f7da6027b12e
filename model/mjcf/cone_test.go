package mjcf

import (
	"strings"
	"testing"

	"github.com/stiction-sim/stiction/model"
)

// TestConeOption: <option cone> sets the scene's friction cone of MuJoCo's
// soft contacts: pyramidal without the attribute (MuJoCo's default, also
// without any <option>), elliptic when asked; any other value is refused
// with an error naming the attribute and the value.
func TestConeOption(t *testing.T) {
	for _, c := range []struct{ option, want string }{
		{``, "pyramidal"},
		{`<option timestep="0.002"/>`, "pyramidal"},
		{`<option cone="pyramidal"/>`, "pyramidal"},
		{`<option cone="elliptic"/>`, "elliptic"},
	} {
		im := parseDoc(t, `<mujoco>`+c.option+`<worldbody><geom type="plane" size="1 1 1"/></worldbody></mujoco>`)
		if got := im.Scene.Contact.Cone; got != c.want {
			t.Errorf("%q: cone %q, want %q", c.option, got, c.want)
		}
	}
	_, err := Parse("f.xml", []byte(`<mujoco><option cone="round"/><worldbody/></mujoco>`), model.Options{})
	if err == nil || !strings.Contains(err.Error(), "cone") || !strings.Contains(err.Error(), "round") {
		t.Errorf("cone=\"round\": error %v, want one naming the attribute and the value", err)
	}
}

// TestEllipticCondimWarns: no condim warns under either cone: package sim
// builds MuJoCo's elliptic cone over the torsional and rolling rows for
// condim 4 and 6 (sim/elliptic.go, solver.ContactEllipticN), as it
// builds the pyramid.
func TestEllipticCondimWarns(t *testing.T) {
	for _, c := range []struct {
		cone, condim string
		warns        bool
	}{
		{"elliptic", "6", false},
		{"elliptic", "4", false},
		{"elliptic", "3", false},
		{"pyramidal", "6", false},
	} {
		im := parseDoc(t, `<mujoco><option cone="`+c.cone+`"/><worldbody><geom type="plane" size="1 1 1"/>
<body pos="0 0 0.1"><freejoint/><geom type="sphere" size="0.1" condim="`+c.condim+`"/></body></worldbody></mujoco>`)
		warned := false
		for _, w := range im.Warnings {
			if strings.Contains(w.String(), "condim") && strings.Contains(w.String(), "elliptic") {
				warned = true
			}
		}
		if warned != c.warns {
			t.Errorf("cone %s, condim %s: warned %v, want %v (warnings %v)", c.cone, c.condim, warned, c.warns, im.Warnings)
		}
	}
}
