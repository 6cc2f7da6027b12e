package scene

import (
	"strings"
	"testing"

	"github.com/stiction-sim/stiction/constraint"
)

// TestFrictionSolRef: friction_solref and friction_solimp make a joint's
// friction MuJoCo's soft constraint (default solimp with solref alone),
// and their lengths are validated with the field named.
func TestFrictionSolRef(t *testing.T) {
	s := &Scene{
		DT: 0.01, Duration: 1,
		Materials: map[string]Material{"m": {Stiffness: ptr(1.0), Dissipation: ptr(0.0), Friction: ptr(0.5)}},
		Bodies: []Body{
			{Name: "b", Shape: &Shape{Type: "sphere", Radius: ptr(0.1)}, Material: "m", Mass: ptr(1.0),
				Joint: &Joint{Type: "revolute", Parent: "world", Friction: ptr(0.5), FrictionSolRef: []float64{0.03, 1}}},
		},
	}
	b, err := Build(s)
	if err != nil {
		t.Fatalf("valid scene: %v", err)
	}
	fr := b.Config.Constraints.Frictions
	if len(fr) != 1 || fr[0].Compliance.SolRef != [2]float64{0.03, 1} || fr[0].Compliance.SolImp != constraint.DefaultSolImp {
		t.Errorf("frictions %+v, want solref (0.03, 1) with MuJoCo's default solimp", fr)
	}
	s.Bodies[0].Joint.FrictionSolRef = []float64{0.03}
	s.Bodies[0].Joint.FrictionSolImp = []float64{0.9}
	err = s.Validate("go")
	for _, w := range []string{"bodies[0].joint.friction_solref: 1 values; want 2", "bodies[0].joint.friction_solimp: 1 values; want 5"} {
		if err == nil || !strings.Contains(err.Error(), w) {
			t.Errorf("error %v does not contain %q", err, w)
		}
	}
}
