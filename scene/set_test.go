package scene

import (
	"strings"
	"testing"
)

func loadEmbedded(t *testing.T, name string, sets ...string) *Scene {
	t.Helper()
	s, err := Load(name, sets)
	if err != nil {
		t.Fatalf("Load(%s, %q): %v", name, sets, err)
	}
	return s
}

func body(t *testing.T, s *Scene, name string) *Body {
	t.Helper()
	for i := range s.Bodies {
		if s.Bodies[i].Name == name {
			return &s.Bodies[i]
		}
	}
	t.Fatalf("no body %q", name)
	return nil
}

func TestSetForms(t *testing.T) {
	if s := loadEmbedded(t, "drop", "dt=0.002"); s.DT != 0.002 {
		t.Errorf("dt = %v", s.DT)
	}
	if s := loadEmbedded(t, "drop", "contact.beta=0.5"); *s.Contact.Beta != 0.5 || *s.Contact.Sigma != DefaultSigma {
		t.Errorf("contact.beta = %v (contact mapping should be created, other defaults kept)", *s.Contact.Beta)
	}
	if s := loadEmbedded(t, "incline", "materials.default.friction=0.375"); *s.Materials["default"].Friction != 0.375 ||
		*s.Materials["default"].Stiffness != 1e12 {
		t.Errorf("friction = %v", *s.Materials["default"].Friction)
	}
	// By index, in both spellings, and by name.
	for _, set := range []string{"bodies.1.density=2000", "bodies[1].density=2000", "bodies.ball.density=2000"} {
		if s := loadEmbedded(t, "drop", set); *body(t, s, "ball").Density != 2000 {
			t.Errorf("%s: density = %v", set, *body(t, s, "ball").Density)
		}
	}
	if s := loadEmbedded(t, "incline", "bodies.box.pose.position=[0, 0, 1]"); *body(t, s, "box").Pose.Position != (Vec{0, 0, 1}) {
		t.Errorf("position = %v", *body(t, s, "box").Pose.Position)
	}
	// Missing intermediate mappings (velocity, then linear's parent) are created.
	s := loadEmbedded(t, "incline", "bodies.box.velocity.linear=[1,0,0]", "bodies.box.velocity.angular=[0, 0, 2]")
	if v := body(t, s, "box").Velocity; v == nil || *v.Linear != (Vec{1, 0, 0}) || *v.Angular != (Vec{0, 0, 2}) {
		t.Errorf("velocity = %+v", v)
	}
	if s := loadEmbedded(t, "drop", "gravity=[0,0,-1.62]"); *s.Gravity != (Vec{0, 0, -1.62}) {
		t.Errorf("gravity = %v", *s.Gravity)
	}
	// A flow mapping replaces a whole field.
	s = loadEmbedded(t, "drop", "solver={line_search: backtracking, max_iterations: 7}")
	if s.Solver.LineSearch != "backtracking" || *s.Solver.MaxIterations != 7 || s.Solver.Type != "sap" {
		t.Errorf("solver = %+v", s.Solver)
	}
	// Replacing a list element, and the shape of a body.
	s = loadEmbedded(t, "drop", "bodies.ball.shape={type: box, size: [0.1, 0.2, 0.3]}")
	if sh := body(t, s, "ball").Shape; sh.Type != "box" || *sh.Size != (Vec{0.1, 0.2, 0.3}) {
		t.Errorf("shape = %+v", sh)
	}
	// Later overrides win; an empty value is null, restoring the default.
	if s := loadEmbedded(t, "drop", "contact.beta=0.5", "contact.beta=0.25"); *s.Contact.Beta != 0.25 {
		t.Errorf("beta = %v", *s.Contact.Beta)
	}
	if s := loadEmbedded(t, "drop", "contact.beta=0.5", "contact.beta="); *s.Contact.Beta != DefaultBeta {
		t.Errorf("beta = %v", *s.Contact.Beta)
	}
	if s := loadEmbedded(t, "drop", "record_every=4", "record_every="); s.RecordEvery != DefaultRecordEvery {
		t.Errorf("record_every = %v", s.RecordEvery)
	}
	// A null intermediate value is replaced by a mapping.
	y := base + "contact:\n"
	s, err := Parse("t.yaml", []byte(y), []string{"contact.sigma=0.01"})
	if err != nil || *s.Contact.Sigma != 0.01 {
		t.Errorf("set under a null mapping: %v", err)
	}
	// The name of a body can be changed (and the new name used afterwards).
	if s := loadEmbedded(t, "drop", "bodies.ball.name=rock", "bodies.rock.density=10"); body(t, s, "rock").Density == nil ||
		*body(t, s, "rock").Density != 10 {
		t.Errorf("rename failed")
	}
	// Values are decoded as YAML: a quoted string stays a string.
	if s := loadEmbedded(t, "drop", `name="my drop"`); s.Name != "my drop" {
		t.Errorf("name = %q", s.Name)
	}
}

func TestSetErrors(t *testing.T) {
	cases := []struct {
		set  string
		want string
	}{
		{"dt", `drop.yaml: --set "dt": missing '=' (want path=value`},
		{"=1", `drop.yaml: --set "=1": empty path`},
		{" =1", `drop.yaml: --set " =1": empty path`},
		{"bodies..mass=1", `drop.yaml: --set "bodies..mass=1": empty segment 2`},
		{"bodies.mass.=1", `empty segment 3`},
		{"bodies.7.density=1", `drop.yaml: --set "bodies.7.density=1": index 7 out of range: "bodies" has 2 elements`},
		{"bodies.99999999999999999999999.density=1", `index 99999999999999999999999 out of range`},
		{"bodies.bal.density=1", `drop.yaml: --set "bodies.bal.density=1": no element named "bal" in "bodies" (names: ground, ball)`},
		{"bodies.ball.pose.position.x=1", `no element named "x" in "bodies.ball.pose.position" (its elements have no names; use an index)`},
		{"dt.x=1", `drop.yaml: --set "dt.x=1": cannot set "x" inside "dt": it is the scalar "0.001", not a mapping or list`},
		{"bodies.ball.density.a.b=1", `cannot set "a" inside "bodies.ball.density": it is the scalar "1000"`},
		{"dt=[1", `drop.yaml: --set "dt=[1": value "[1" is not valid YAML`},
		// Errors found after the override name the --set argument.
		{"bodies.ball.density=-5", `drop.yaml: bodies[1].density: -5 must be positive (from --set bodies.ball.density=-5)`},
		{"bodies.ball.shape.radius=abc", `drop.yaml: bodies[1].shape.radius: "abc" is not a number (from --set bodies.ball.shape.radius=abc)`},
		{"bodies.ball.velocty.linear=[1,0,0]", `drop.yaml: bodies[1].velocty: unknown field (did you mean "velocity"?) "velocty"; bodies[1] fields are: name, fixed, shape, material, density, mass, inertia, pose, velocity, joint, shape_pose, com, contype, conaffinity, collisions, visuals (from --set bodies.ball.velocty.linear=[1,0,0])`},
		{"gravity=[0, 0]", `drop.yaml: gravity: [0, 0] must have 3 elements, has 2 (from --set gravity=[0, 0])`},
		{"bodies.1={name: ground}", `drop.yaml: bodies[1].name: "ground" is already the name of bodies[0]; body names must be unique (from --set bodies.1={name: ground})`},
		{"bodies.ball.fixed=true", `drop.yaml:20: bodies[1].density: 1000 given for a fixed body`},
	}
	for _, tc := range cases {
		_, err := Load("drop", []string{tc.set})
		if err == nil {
			t.Errorf("--set %s: no error", tc.set)
			continue
		}
		if !strings.Contains(err.Error(), tc.want) {
			t.Errorf("--set %s: error\n  %v\ndoes not contain\n  %s", tc.set, err, tc.want)
		}
	}
	// All bad --set arguments are reported together.
	_, err := Load("drop", []string{"dt", "bodies.nope.mass=1"})
	if err == nil || !strings.Contains(err.Error(), `"dt"`) || !strings.Contains(err.Error(), `"nope"`) {
		t.Errorf("want both --set errors, got %v", err)
	}
}

// TestSetDoesNotLeak checks that overrides change only the scene being
// loaded, not the embedded text.
func TestSetDoesNotLeak(t *testing.T) {
	loadEmbedded(t, "drop", "dt=0.5")
	if s := loadEmbedded(t, "drop"); s.DT != 0.001 {
		t.Errorf("dt = %v after an earlier --set", s.DT)
	}
}
