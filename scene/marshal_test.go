package scene

import (
	"reflect"
	"strings"
	"testing"
)

// full uses every field of the schema.
const full = `name: full
description: every field
gravity: [0.1, -0.2, -9.7]
dt: 0.002
duration: 0.5
record_every: 5
contact: {beta: 0.7, sigma: 0.002, margin: 0.0005, delassus: rms}
solver: {type: sap, tolerance: 1e-7, abs_tolerance: 1e-14, line_search: backtracking, max_iterations: 50}
materials:
  steel: {stiffness: 1e9, dissipation: 0.02, friction: 0.4}
  rubber: {stiffness: 1e6, dissipation: 0.1, friction: 1.2}
bodies:
  - name: floor
    fixed: true
    shape: {type: halfspace}
    material: steel
    pose: {position: [0, 0, -0.1], rpy_deg: [1, 2, 0]}
  - name: step
    fixed: true
    shape: {type: box, size: [1, 1, 0.1]}
    material: steel
  - name: can
    shape: {type: cylinder, radius: 0.04, length: 0.12}
    material: rubber
    mass: 0.3
    inertia: {diagonal: [0.0005, 0.0005, 0.0002]}
    pose: {position: [0.1, 0, 0.5], quaternion: [1, 0.1, 0, 0]}
    velocity: {linear: [0, 0, -1], angular: [0, 3, 0]}
  - name: pill
    shape: {type: capsule, radius: 0.02, length: 0.1}
    material: rubber
    mass: 0.1
    inertia:
      matrix:
        - [0.001, 0.0001, 0]
        - [0.0001, 0.001, 0]
        - [0, 0, 0.0005]
    pose:
      position: [-0.1, 0, 0.5]
      axis_angle: {axis: [1, 1, 0], angle_deg: 33}
    velocity: {angular: [1, 0, 0]}
  - name: ball
    shape: {type: sphere, radius: 0.05}
    material: steel
    density: 7800
`

func roundTrip(t *testing.T, name string, s *Scene) {
	t.Helper()
	data, err := Marshal(s)
	if err != nil {
		t.Fatalf("%s: Marshal: %v", name, err)
	}
	back, err := Parse(name+".yaml", data, nil)
	if err != nil {
		t.Fatalf("%s: Parse(Marshal(s)): %v\n%s", name, err, data)
	}
	want := *s
	want.ApplyDefaults()
	if !reflect.DeepEqual(back, &want) {
		t.Errorf("%s: round trip changed the scene:\n%s", name, data)
	}
}

func TestRoundTrip(t *testing.T) {
	s, err := Parse("full.yaml", []byte(full), nil)
	if err != nil {
		t.Fatal(err)
	}
	roundTrip(t, "full", s)
	for _, name := range Names() {
		if data, _ := Embedded(name); includesModels(data) {
			continue
		}
		roundTrip(t, name, loadEmbedded(t, name))
	}
	roundTrip(t, "clutter3", Clutter(3, true))
	// Without defaults applied, Marshal leaves the optional fields out.
	data, err := Marshal(Clutter(1, false))
	if err != nil {
		t.Fatal(err)
	}
	for _, absent := range []string{"gravity", "contact", "solver", "record_every"} {
		if strings.Contains(string(data), absent+":") {
			t.Errorf("Marshal wrote unset field %s:\n%s", absent, data)
		}
	}
	if !strings.Contains(string(data), "position: [") {
		t.Errorf("vectors should be written in flow style:\n%s", data)
	}
	if _, err := Marshal(nil); err == nil {
		t.Error("Marshal(nil) succeeded")
	}
}

// TestMarshalStable checks that Marshal of a parsed scene (defaults applied)
// reads back to text that marshals identically.
func TestMarshalStable(t *testing.T) {
	s := loadEmbedded(t, "incline")
	a, err := Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	s2, err := Parse("incline.yaml", a, nil)
	if err != nil {
		t.Fatal(err)
	}
	b, err := Marshal(s2)
	if err != nil {
		t.Fatal(err)
	}
	if string(a) != string(b) {
		t.Errorf("Marshal not stable:\n%s\n---\n%s", a, b)
	}
}
