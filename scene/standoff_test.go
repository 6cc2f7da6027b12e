package scene

import (
	"strings"
	"testing"
)

// TestStandoffValidated: a collision's standoff must be finite and ≥ 0,
// and reaches the model's geometry.
func TestStandoffValidated(t *testing.T) {
	s := &Scene{
		DT: 0.01, Duration: 1,
		Materials: map[string]Material{"m": {Stiffness: ptr(1.0), Dissipation: ptr(0.0), Friction: ptr(0.5)}},
		Bodies: []Body{
			{Name: "b", Material: "m", Mass: ptr(1.0), Inertia: &Inertia{Diagonal: &Vec{1, 1, 1}},
				Collisions: []Collision{{Shape: &Shape{Type: "sphere", Radius: ptr(0.1)}, Standoff: ptr(0.01)}}},
		},
	}
	b, err := Build(s)
	if err != nil {
		t.Fatalf("valid scene: %v", err)
	}
	if got := b.Model.Geometries[0].Standoff; got != 0.01 {
		t.Errorf("standoff %v, want 0.01", got)
	}
	s.Bodies[0].Collisions[0].Standoff = ptr(-0.5)
	if err := s.Validate("go"); err == nil || !strings.Contains(err.Error(), "bodies[0].collisions[0].standoff: -0.5 must be finite and ≥ 0") {
		t.Errorf("negative standoff: %v", err)
	}
}
