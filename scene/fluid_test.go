package scene

import (
	"strings"
	"testing"
)

// TestFluidBoxes: fluid.boxes is validated (mass ≥ 0, an inertia when the
// mass is positive) and a box naming no moving body is refused at build,
// naming the field and the body.
func TestFluidBoxes(t *testing.T) {
	s := &Scene{
		DT: 0.01, Duration: 1,
		Materials: map[string]Material{"m": {Stiffness: ptr(1.0), Dissipation: ptr(0.0), Friction: ptr(0.5)}},
		Bodies: []Body{
			{Name: "b", Shape: &Shape{Type: "sphere", Radius: ptr(0.1)}, Material: "m", Mass: ptr(1.0)},
		},
		Fluid: &Fluid{Density: 1.2, Boxes: []FluidBox{{Body: "b", Mass: 0.5, Inertia: &Inertia{Diagonal: &Vec{1, 1, 1}}}}},
	}
	if err := s.Validate("go"); err != nil {
		t.Fatalf("valid scene: %v", err)
	}
	if _, err := Build(s); err != nil {
		t.Fatalf("valid scene: %v", err)
	}
	s.Fluid.Boxes = []FluidBox{{Body: "b", Mass: -1}, {Body: "b", Mass: 1}}
	err := s.Validate("go")
	for _, w := range []string{"fluid.boxes[0].mass: -1", "fluid.boxes[1].inertia: required when mass > 0"} {
		if err == nil || !strings.Contains(err.Error(), w) {
			t.Errorf("error %v does not contain %q", err, w)
		}
	}
	s.Fluid.Boxes = []FluidBox{{Body: "nope"}}
	if _, err := Build(s); err == nil || !strings.Contains(err.Error(), `fluid.boxes[0].body: "nope" is not a moving body`) {
		t.Errorf("Build with an unknown body: %v", err)
	}
}
