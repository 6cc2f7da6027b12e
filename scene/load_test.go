package scene

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/stiction-sim/stiction/solver"
	"testing"
)

// base is a valid scene; the malformed cases below are edits of it. Its line
// numbers matter: 1 name, 2 dt, 3 duration, 4 materials, 5 default,
// 6 bodies, 7–10 ground, 11–16 ball.
const base = `name: t
dt: 0.001
duration: 1
materials:
  default: {stiffness: 1e12, dissipation: 0, friction: 1}
bodies:
  - name: ground
    fixed: true
    shape: {type: halfspace}
    material: default
  - name: ball
    shape: {type: sphere, radius: 0.05}
    material: default
    density: 1000
    pose:
      position: [0, 0, 0.05]
`

// edit returns base with old replaced by new (old must occur exactly once).
func edit(t *testing.T, old, new string) string {
	t.Helper()
	if strings.Count(base, old) != 1 {
		t.Fatalf("edit: %q occurs %d times in base", old, strings.Count(base, old))
	}
	return strings.Replace(base, old, new, 1)
}

func TestParseBase(t *testing.T) {
	s, err := Parse("t.yaml", []byte(base), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Bodies) != 2 || s.Bodies[1].Name != "ball" || *s.Bodies[1].Shape.Radius != 0.05 {
		t.Errorf("decoded %+v", s)
	}
	if s.Bodies[1].Pose.Pos() != [3]float64{0, 0, 0.05} {
		t.Errorf("position %v", s.Bodies[1].Pose.Pos())
	}
}

func TestDefaults(t *testing.T) {
	s, err := Parse("t.yaml", []byte(base), nil)
	if err != nil {
		t.Fatal(err)
	}
	if *s.Gravity != (Vec{0, 0, -9.81}) || s.RecordEvery != 1 {
		t.Errorf("gravity %v record_every %d", *s.Gravity, s.RecordEvery)
	}
	c, v := s.Contact, s.Solver
	if *c.Beta != 1 || *c.Sigma != 1e-3 || *c.Margin != 1e-3 || c.Delassus != "diagonal" {
		t.Errorf("contact defaults %v %v %v %q", *c.Beta, *c.Sigma, *c.Margin, c.Delassus)
	}
	if v.Type != "sap" || *v.Tolerance != 1e-6 || *v.AbsTolerance != 1e-16 || v.LineSearch != "exact" || *v.MaxIterations != 100 {
		t.Errorf("solver defaults %+v", v)
	}
	// Given values are kept.
	s, err = Parse("t.yaml", []byte(base+`gravity: [0, 0, -1.62]
record_every: 10
contact: {beta: 0.5, sigma: 0.01, margin: 0, delassus: rms}
solver: {type: sap, tolerance: 1e-8, abs_tolerance: 0, line_search: backtracking, max_iterations: 7}
`), nil)
	if err != nil {
		t.Fatal(err)
	}
	c, v = s.Contact, s.Solver
	if *s.Gravity != (Vec{0, 0, -1.62}) || s.RecordEvery != 10 || *c.Beta != 0.5 || *c.Sigma != 0.01 ||
		*c.Margin != 0 || c.Delassus != "rms" || *v.Tolerance != 1e-8 || *v.AbsTolerance != 0 ||
		v.LineSearch != "backtracking" || *v.MaxIterations != 7 {
		t.Errorf("given values changed: %+v %+v %+v", s, c, v)
	}
}

// TestMalformed checks that each malformed scene fails with an error naming
// the file, the field path (or line) and the offending value.
func TestMalformed(t *testing.T) {
	cases := []struct {
		name string
		yaml string
		want []string // substrings of the error
	}{
		{"unknown field", edit(t, "radius: 0.05", "radiuss: 0.05"),
			[]string{`bad.yaml:12: bodies[1].shape.radiuss: unknown field (did you mean "radius"?) "radiuss"`}},
		{"unknown top-level field", base + "gravty: [0, 0, -1]\n",
			[]string{`bad.yaml:17: gravty: unknown field`, `"gravity"`}},
		{"negative mass", edit(t, "density: 1000", "mass: -1"),
			[]string{`bad.yaml:14: bodies[1].mass: -1 must be positive`}},
		{"zero radius", edit(t, "radius: 0.05", "radius: 0"),
			[]string{`bad.yaml:12: bodies[1].shape.radius: 0 must be positive`}},
		{"NaN position", edit(t, "[0, 0, 0.05]", "[0, .nan, 0.05]"),
			[]string{`bad.yaml:16: bodies[1].pose.position[1]: NaN is not a finite number`}},
		{"Inf dt", edit(t, "dt: 0.001", "dt: .inf"),
			[]string{`bad.yaml:2: dt: +Inf is not a finite number`}},
		{"-Inf gravity", base + "gravity: [0, 0, -.Inf]\n",
			[]string{`bad.yaml:17: gravity[2]: -Inf is not a finite number`}},
		{"NaN stiffness", edit(t, "stiffness: 1e12", "stiffness: .NaN"),
			[]string{`bad.yaml:5: materials.default.stiffness: NaN is not a finite number`}},
		{"missing shape", edit(t, "    shape: {type: sphere, radius: 0.05}\n", ""),
			[]string{`bad.yaml:11: bodies[1].shape: missing (required)`}},
		{"unknown shape type", edit(t, "type: sphere", "type: cube"),
			[]string{`bad.yaml:12: bodies[1].shape.type: "cube" must be one of halfspace, sphere, box, capsule, cylinder`}},
		{"missing shape type", edit(t, "type: sphere, ", ""),
			[]string{`bad.yaml:12: bodies[1].shape.type: missing`}},
		{"unknown material", edit(t, "material: default\n    density", "material: steel\n    density"),
			[]string{`bad.yaml:13: bodies[1].material: "steel" is not a defined material (defined: default)`}},
		{"missing material", edit(t, "    material: default\n    density", "    density"),
			[]string{`bad.yaml:11: bodies[1].material: missing (required`}},
		{"duplicate body name", edit(t, "name: ball", "name: ground"),
			[]string{`bad.yaml:11: bodies[1].name: "ground" is already the name of bodies[0]`}},
		{"empty body name", edit(t, "name: ball", `name: ""`),
			[]string{`bad.yaml:11: bodies[1].name: "": a body name must not be empty`}},
		{"dotted body name", edit(t, "name: ball", `name: a.b`),
			[]string{`bad.yaml:11: bodies[1].name: "a.b": a body name must not contain '.'`}},
		{"halfspace not fixed", edit(t, "    fixed: true\n", ""),
			[]string{`bad.yaml:7: bodies[0].fixed: false, but a halfspace body must be fixed`}},
		{"density and mass", edit(t, "density: 1000", "density: 1000\n    mass: 2"),
			[]string{`bad.yaml:15: bodies[1].mass: 2 given together with density 1000`}},
		{"neither density nor mass", edit(t, "    density: 1000\n", ""),
			[]string{`bad.yaml:11: bodies[1]: a free body needs density or mass`}},
		{"invalid YAML", edit(t, "  - name: ball\n", "  - name: ball\n   bad: [\n"),
			[]string{`bad.yaml:`, `invalid YAML`}},
		{"tab indentation", edit(t, "    material: default\n    density", "\tmaterial: default\n    density"),
			[]string{`bad.yaml:13: invalid YAML`}},
		{"empty file", "", []string{`bad.yaml: empty scene file`}},
		{"comment-only file", "# nothing\n\n", []string{`bad.yaml: empty scene file`}},
		{"null document", "~\n", []string{`bad.yaml:1: empty scene file`}},
		{"top-level list", "- a\n- b\n", []string{`bad.yaml:1: a list: the top level must be a mapping`}},
		{"two documents", base + "---\nname: u\n", []string{`bad.yaml:17: a scene file must hold exactly one YAML document`}},
		{"duplicate key", edit(t, "dt: 0.001", "dt: 0.001\ndt: 0.002"),
			[]string{`bad.yaml:3: dt: duplicate key (first given at line 2)`}},
		{"shape as scalar", edit(t, "shape: {type: sphere, radius: 0.05}", "shape: sphere"),
			[]string{`bad.yaml:12: bodies[1].shape: "sphere" must be a mapping with fields type, radius, length, size`}},
		{"mass not a number", edit(t, "density: 1000", "density: heavy"),
			[]string{`bad.yaml:14: bodies[1].density: "heavy" is not a number`}},
		{"quoted number", edit(t, "density: 1000", `density: "1000"`),
			[]string{`bad.yaml:14: bodies[1].density: "1000" is not a number`}},
		{"fixed not a bool", edit(t, "fixed: true", "fixed: 1"),
			[]string{`bad.yaml:8: bodies[0].fixed: "1" must be true or false`}},
		{"fractional max_iterations", base + "solver: {max_iterations: 2.5}\n",
			[]string{`bad.yaml:17: solver.max_iterations: "2.5" is not an integer`}},
		{"short position", edit(t, "[0, 0, 0.05]", "[0, 0.05]"),
			[]string{`bad.yaml:16: bodies[1].pose.position: [0, 0.05] must have 3 elements, has 2`}},
		{"bodies not a list", strings.SplitAfter(base, "bodies:")[0] + " {ball: 1}\n",
			[]string{`bad.yaml:6: bodies: a mapping must be a list`}},
		{"size on a sphere", edit(t, "radius: 0.05}", "radius: 0.05, size: [1, 1, 1]}"),
			[]string{`bad.yaml:12: bodies[1].shape.size: [1, 1, 1] not allowed for a sphere (it takes radius)`}},
		{"radius on a box", edit(t, "type: sphere, radius: 0.05", "type: box, radius: 0.05, size: [1, 1, 1]"),
			[]string{`bad.yaml:12: bodies[1].shape.radius: 0.05 not allowed for a box (it takes size)`}},
		{"box without size", edit(t, "type: sphere, radius: 0.05", "type: box"),
			[]string{`bad.yaml:12: bodies[1].shape.size: missing (required for a box)`}},
		{"box with zero side", edit(t, "type: sphere, radius: 0.05", "type: box, size: [1, 0, 1]"),
			[]string{`bad.yaml:12: bodies[1].shape.size: [1, 0, 1]: every side must be positive (side 1 is 0)`}},
		{"capsule without length", edit(t, "type: sphere", "type: capsule"),
			[]string{`bad.yaml:12: bodies[1].shape.length: missing (required for a capsule)`}},
		{"cylinder negative length", edit(t, "type: sphere, radius: 0.05", "type: cylinder, radius: 0.05, length: -2"),
			[]string{`bad.yaml:12: bodies[1].shape.length: -2 must be positive`}},
		{"radius on a halfspace", edit(t, "{type: halfspace}", "{type: halfspace, radius: 1}"),
			[]string{`bad.yaml:9: bodies[0].shape.radius: 1 not allowed for a halfspace (it takes no dimensions)`}},
		{"mass on a fixed body", edit(t, "    fixed: true\n", "    fixed: true\n    mass: 3\n"),
			[]string{`bad.yaml:9: bodies[0].mass: 3 given for a fixed body`}},
		{"velocity on a fixed body", edit(t, "    fixed: true\n", "    fixed: true\n    velocity: {linear: [1, 0, 0]}\n"),
			[]string{`bad.yaml:9: bodies[0].velocity: given for a fixed body`}},
		{"inertia with density", edit(t, "density: 1000", "density: 1000\n    inertia: {diagonal: [1, 1, 1]}"),
			[]string{`bad.yaml:15: bodies[1].inertia: given without mass`}},
		{"inertia triangle", edit(t, "density: 1000", "mass: 1\n    inertia: {diagonal: [1, 1, 3]}"),
			[]string{`bad.yaml:15: bodies[1].inertia.diagonal: [1, 1, 3] violates the triangle inequality`}},
		{"inertia zero moment", edit(t, "density: 1000", "mass: 1\n    inertia: {diagonal: [1, 0, 1]}"),
			[]string{`bad.yaml:15: bodies[1].inertia.diagonal: [1, 0, 1]: every principal moment must be positive`}},
		{"inertia both forms", edit(t, "density: 1000", "mass: 1\n    inertia: {diagonal: [1, 1, 1], matrix: [[1, 0, 0], [0, 1, 0], [0, 0, 1]]}"),
			[]string{`bad.yaml:15: bodies[1].inertia: both diagonal and matrix given`}},
		{"inertia not symmetric", edit(t, "density: 1000", "mass: 1\n    inertia:\n      matrix: [[1, 0.1, 0], [0, 1, 0], [0, 0, 1]]"),
			[]string{`bad.yaml:16: bodies[1].inertia.matrix: [[1, 0.1, 0], [0, 1, 0], [0, 0, 1]] is not symmetric`}},
		{"inertia not positive definite", edit(t, "density: 1000", "mass: 1\n    inertia:\n      matrix: [[1, 2, 0], [2, 1, 0], [0, 0, 1]]"),
			[]string{`bad.yaml:16: bodies[1].inertia.matrix: [[1, 2, 0], [2, 1, 0], [0, 0, 1]] is not positive definite (smallest eigenvalue -1)`}},
		{"inertia matrix triangle", edit(t, "density: 1000", "mass: 1\n    inertia:\n      matrix: [[1, 0, 0], [0, 1, 0], [0, 0, 2.5]]"),
			[]string{`bad.yaml:16: bodies[1].inertia.matrix: [[1, 0, 0], [0, 1, 0], [0, 0, 2.5]]: its principal moments [1, 1, 2.5] violate the triangle inequality`}},
		{"two orientations", edit(t, "position: [0, 0, 0.05]", "position: [0, 0, 0.05]\n      rpy_deg: [0, 0, 1]\n      quaternion: [1, 0, 0, 0]"),
			[]string{`bad.yaml:15: bodies[1].pose: quaternion and rpy_deg given together; give at most one`}},
		{"zero quaternion", edit(t, "position: [0, 0, 0.05]", "quaternion: [0, 0, 0, 0]"),
			[]string{`bad.yaml:16: bodies[1].pose.quaternion: [0, 0, 0, 0] must be non-zero`}},
		{"zero axis", edit(t, "position: [0, 0, 0.05]", "axis_angle: {axis: [0, 0, 0], angle_deg: 3}"),
			[]string{`bad.yaml:16: bodies[1].pose.axis_angle.axis: [0, 0, 0] must be non-zero`}},
		{"missing dt", edit(t, "dt: 0.001\n", ""),
			[]string{`bad.yaml:1: dt: missing (required)`}},
		{"zero dt", edit(t, "dt: 0.001", "dt: 0"),
			[]string{`bad.yaml:2: dt: 0 must be positive`}},
		{"negative duration", edit(t, "duration: 1", "duration: -1"),
			[]string{`bad.yaml:3: duration: -1 must be positive`}},
		{"too many steps", edit(t, "duration: 1", "duration: 1e6"),
			[]string{`bad.yaml:3: duration: 1e+06 s at dt = 0.001 s is 1e+09 steps, more than the limit of 1e+08`}},
		{"record_every zero", base + "record_every: 0\n",
			[]string{`bad.yaml:17: record_every: 0 must be ≥ 1`}},
		{"record_every negative", base + "record_every: -2\n",
			[]string{`bad.yaml:17: record_every: -2 must be ≥ 1`}},
		{"beta zero", base + "contact: {beta: 0}\n", []string{`bad.yaml:17: contact.beta: 0 must be positive`}},
		{"sigma negative", base + "contact: {sigma: -1}\n", []string{`bad.yaml:17: contact.sigma: -1 must be positive`}},
		{"margin negative", base + "contact: {margin: -0.1}\n", []string{`bad.yaml:17: contact.margin: -0.1 must be ≥ 0`}},
		{"delassus unknown", base + "contact: {delassus: full}\n",
			[]string{`bad.yaml:17: contact.delassus: "full" must be one of diagonal, rms`}},
		{"solver unknown", base + "solver: {type: gurobi}\n", []string{`bad.yaml:17: solver.type: "gurobi" must be one of ` + strings.Join(solver.Names(), ", ")}},
		{"tolerance one", base + "solver: {tolerance: 1}\n", []string{`bad.yaml:17: solver.tolerance: 1 must be in (0, 1)`}},
		{"tolerance zero", base + "solver: {tolerance: 0}\n", []string{`bad.yaml:17: solver.tolerance: 0 must be in (0, 1)`}},
		{"abs_tolerance negative", base + "solver: {abs_tolerance: -1e-9}\n",
			[]string{`bad.yaml:17: solver.abs_tolerance: -1e-09 must be ≥ 0`}},
		{"line_search unknown", base + "solver: {line_search: armijo}\n",
			[]string{`bad.yaml:17: solver.line_search: "armijo" must be one of exact, backtracking`}},
		{"max_iterations zero", base + "solver: {max_iterations: 0}\n",
			[]string{`bad.yaml:17: solver.max_iterations: 0 must be ≥ 1`}},
		{"omega two", base + "solver: {type: pgs, omega: 2}\n",
			[]string{`bad.yaml:17: solver.omega: 2 must be in (0, 2)`}},
		{"omega zero", base + "solver: {type: pgs, omega: 0}\n",
			[]string{`bad.yaml:17: solver.omega: 0 must be in (0, 2)`}},
		{"stiffness zero", edit(t, "stiffness: 1e12", "stiffness: 0"),
			[]string{`bad.yaml:5: materials.default.stiffness: 0 must be positive`}},
		{"dissipation negative", edit(t, "dissipation: 0", "dissipation: -0.1"),
			[]string{`bad.yaml:5: materials.default.dissipation: -0.1 must be ≥ 0`}},
		{"friction negative", edit(t, "friction: 1", "friction: -1"),
			[]string{`bad.yaml:5: materials.default.friction: -1 must be ≥ 0`}},
		{"friction_combine unknown", edit(t, "friction: 1", "friction: 1, friction_combine: min"),
			[]string{`bad.yaml:5: materials.default.friction_combine: "min": want "harmonic" (default) or "max"`}},
		{"condim 2", edit(t, "friction: 1", "friction: 1, condim: 2"),
			[]string{`bad.yaml:5: materials.default.condim: 2: want 1, 3, 4 or 6 (or none)`}},
		{"slip_solref mixed forms", edit(t, "friction: 1", "friction: 1, slip_solref: [0.02, -1]"),
			[]string{`bad.yaml:5: materials.default.slip_solref: [0.02 -1]: want 2 finite numbers, time constant and damping ratio > 0 or −stiffness and −damping ≤ 0`}},
		{"friction missing", edit(t, ", friction: 1", ""),
			[]string{`bad.yaml:5: materials.default.friction: missing (required)`}},
		{"no materials", edit(t, "  default: {stiffness: 1e12, dissipation: 0, friction: 1}\n", ""),
			[]string{`bad.yaml:4: materials: no materials defined`}},
		{"no bodies", strings.SplitAfter(base, "bodies:")[0] + "\n",
			[]string{`bad.yaml:6: bodies: no bodies defined`}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s, err := Parse("bad.yaml", []byte(tc.yaml), nil)
			if err == nil {
				t.Fatalf("no error; decoded %+v", s)
			}
			if s != nil {
				t.Errorf("got a scene along with the error")
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error\n  %v\ndoes not contain\n  %s", err, w)
				}
			}
			var fe *FieldError
			if !errors.As(err, &fe) {
				t.Errorf("error %v is not a *FieldError", err)
			}
			for _, line := range strings.Split(err.Error(), "\n") {
				if !strings.HasPrefix(line, "bad.yaml") {
					t.Errorf("error line %q does not name the file", line)
				}
			}
		})
	}
}

// TestAllProblems checks that validation reports every problem, not just
// the first.
func TestAllProblems(t *testing.T) {
	y := strings.NewReplacer("radius: 0.05", "radius: -1", "dt: 0.001", "dt: 0", "friction: 1", "friction: -2").Replace(base)
	_, err := Parse("many.yaml", []byte(y), nil)
	if err == nil {
		t.Fatal("no error")
	}
	joined, ok := err.(interface{ Unwrap() []error })
	if !ok {
		t.Fatalf("error %T is not a joined error", err)
	}
	want := []string{
		"many.yaml:2: dt: 0 must be positive",
		"many.yaml:5: materials.default.friction: -2 must be ≥ 0",
		"many.yaml:12: bodies[1].shape.radius: -1 must be positive",
	}
	got := joined.Unwrap()
	if len(got) != len(want) {
		t.Fatalf("got %d problems, want %d:\n%v", len(got), len(want), err)
	}
	for i, w := range want {
		if got[i].Error() != w {
			t.Errorf("problem %d = %q, want %q", i, got[i], w)
		}
	}
	// Several unknown fields are also all reported.
	y = strings.NewReplacer("radius:", "radiuss:", "density:", "densty:").Replace(base)
	_, err = Parse("many.yaml", []byte(y), nil)
	if err == nil || !strings.Contains(err.Error(), "radiuss") || !strings.Contains(err.Error(), "densty") {
		t.Errorf("want both unknown fields reported, got %v", err)
	}
}

// TestValidateWithoutFile checks Validate on a Scene built in Go: no line
// numbers, unset optional fields accepted.
func TestValidateWithoutFile(t *testing.T) {
	s := &Scene{
		DT: 0.01, Duration: 1,
		Materials: map[string]Material{"m": {Stiffness: ptr(1.0), Dissipation: ptr(0.0), Friction: ptr(0.5)}},
		Bodies: []Body{
			{Name: "g", Fixed: true, Shape: &Shape{Type: "halfspace"}, Material: "m"},
			{Name: "b", Shape: &Shape{Type: "capsule", Radius: ptr(0.1), Length: ptr(0.2)}, Material: "m", Mass: ptr(1.0),
				Inertia: &Inertia{Matrix: &[3]Vec{{2, 0.5, 0}, {0.5, 2, 0}, {0, 0, 3}}}},
		},
	}
	if err := s.Validate("go"); err != nil {
		t.Fatalf("valid scene: %v", err)
	}
	s.Bodies[1].Mass = ptr(-1.0)
	s.DT = 0
	err := s.Validate("go")
	for _, w := range []string{"go: dt: 0 must be positive", "go: bodies[1].mass: -1 must be positive"} {
		if err == nil || !strings.Contains(err.Error(), w) {
			t.Errorf("error %v does not contain %q", err, w)
		}
	}
}

func TestLoad(t *testing.T) {
	s, err := Load("drop", nil)
	if err != nil || s.Name != "drop" {
		t.Fatalf("Load(drop) = %v, %v", s, err)
	}
	_, err = Load("drop", []string{"bodies.ball.shape.radius=0"})
	if err == nil || !strings.Contains(err.Error(), "drop.yaml: bodies[1].shape.radius: 0 must be positive (from --set bodies.ball.shape.radius=0)") {
		t.Errorf("embedded scene errors should name drop.yaml: %v", err)
	}

	_, err = Load("no-such-scene", nil)
	want := `unknown scene "no-such-scene" (not an embedded scene and no such file); embedded scenes: arm, chain, clutter, clutter-nowalls, double-pendulum, drop, grasp, incline, pendulum, spring-cylinder, spring-cylinder-frictionless, stack`
	if err == nil || err.Error() != want {
		t.Errorf("Load(unknown) = %v, want %s", err, want)
	}

	dir := t.TempDir()
	path := filepath.Join(dir, "mine.yaml")
	if err := os.WriteFile(path, []byte(edit(t, "radius: 0.05", "radius: 0")), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = Load(path, nil)
	if err == nil || !strings.Contains(err.Error(), path+":12: bodies[1].shape.radius: 0 must be positive") {
		t.Errorf("Load(file) error %v", err)
	}
	if err := os.WriteFile(path, []byte(base), 0o644); err != nil {
		t.Fatal(err)
	}
	if s, err := Load(path, []string{"dt=0.002"}); err != nil || s.DT != 0.002 {
		t.Errorf("Load(file) = %v, %v", s, err)
	}
	if _, err := Load(dir, nil); err == nil {
		t.Error("Load(directory) succeeded")
	}
}

func TestAnchorsAndMerge(t *testing.T) {
	y := `name: t
dt: 0.001
duration: 1
materials:
  default: {stiffness: 1e12, dissipation: 0, friction: 1}
bodies:
  - name: ground
    fixed: true
    shape: {type: halfspace}
    material: default
  - &ball
    name: a
    shape: &sphere {type: sphere, radius: 0.05}
    material: default
    density: 1000
  - <<: *ball
    name: b
    shape: *sphere
    pose: {position: [0, 0, 1]}
`
	s, err := Parse("t.yaml", []byte(y), nil)
	if err != nil {
		t.Fatal(err)
	}
	if b := s.Bodies[2]; b.Name != "b" || *b.Density != 1000 || *b.Shape.Radius != 0.05 || b.Pose.Pos()[2] != 1 {
		t.Errorf("merged body %+v", b)
	}
	// An unknown field inside a merged mapping is still caught.
	_, err = Parse("t.yaml", []byte(strings.Replace(y, "density: 1000", "densty: 1000", 1)), nil)
	if err == nil || !strings.Contains(err.Error(), "t.yaml:15: bodies[1].densty: unknown field") ||
		!strings.Contains(err.Error(), "t.yaml:15: bodies[2].densty: unknown field") {
		t.Errorf("error %v", err)
	}
}

// TestAliasBomb checks that an exponentially expanding document (a
// "billion laughs") fails quickly instead of exhausting memory.
func TestAliasBomb(t *testing.T) {
	var b strings.Builder
	b.WriteString(base)
	b.WriteString("description: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n")
	b.WriteString("x:\n")
	for i := 1; i < 30; i++ {
		fmt.Fprintf(&b, "  - &a%d [", i)
		for j := range 9 {
			if j > 0 {
				b.WriteString(", ")
			}
			fmt.Fprintf(&b, "*a%d", i-1)
		}
		b.WriteString("]\n")
	}
	b.WriteString("gravity: *a29\n")
	_, err := Parse("bomb.yaml", []byte(b.String()), nil)
	if err == nil {
		t.Fatal("no error")
	}
	if !strings.Contains(err.Error(), "bomb.yaml:17: description: a list must be a string") {
		t.Errorf("error %v", err)
	}
}

// TestValidateNoSlip: contact.noslip_iterations below 0 and a
// contact.noslip_tolerance that is not positive are refused with the file,
// the field and the value named.
func TestValidateNoSlip(t *testing.T) {
	s := &Scene{
		DT: 0.01, Duration: 1,
		Materials: map[string]Material{"m": {Stiffness: ptr(1.0), Dissipation: ptr(0.0), Friction: ptr(0.5)}},
		Bodies:    []Body{{Name: "g", Fixed: true, Shape: &Shape{Type: "halfspace"}, Material: "m"}},
	}
	s.Contact.NoSlipIterations, s.Contact.NoSlipTolerance = ptr(2), ptr(1e-7)
	if err := s.Validate("go"); err != nil {
		t.Fatalf("valid scene: %v", err)
	}
	s.Contact.NoSlipIterations, s.Contact.NoSlipTolerance = ptr(-1), ptr(0.0)
	err := s.Validate("go")
	for _, w := range []string{"go: contact.noslip_iterations: -1 must be ≥ 0", "go: contact.noslip_tolerance: 0 must be positive"} {
		if err == nil || !strings.Contains(err.Error(), w) {
			t.Errorf("error %v does not contain %q", err, w)
		}
	}
}
