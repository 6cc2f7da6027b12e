package mjcf

import (
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/stiction-sim/stiction/model"
	"github.com/stiction-sim/stiction/scene"
)

// ropeDoc is MuJoCo's model/composite/rope.xml reduced to the rope, with a
// default class that the generated elements must not take (MuJoCo builds
// them from its built-in defaults).
const ropeDoc = `<mujoco>
  <default><joint damping="7"/><geom density="5"/></default>
  <worldbody>
    <body name="B2" pos="0 0 1">
      <freejoint/>
      <composite type="rope" count="5 1 1" spacing="0.04" offset="9 9 9">
        <joint kind="main" damping="0.005" limited="true"/>
        <geom type="capsule" size=".01 .015"/>
        <skin subgrid="3"/>
      </composite>
    </body>
  </worldbody>
</mujoco>`

// TestCompositeRope: the rope's bodies, their order (right chain, then
// left), positions, joints and masses are MuJoCo's (AddRopeBody), and the
// skin is accepted while the joint's limited (which MuJoCo 2.2.2 does not
// read) is reported with its line.
func TestCompositeRope(t *testing.T) {
	imp, err := Parse("rope.xml", []byte(ropeDoc), model.Options{})
	if err != nil {
		t.Fatal(err)
	}
	s := imp.Scene
	var names []string
	for _, b := range s.Bodies {
		names = append(names, b.Name)
	}
	if got, want := strings.Join(names, " "), "B2 B3 B4 B1 B0"; got != want {
		t.Fatalf("bodies %q, want %q", got, want)
	}
	// Capsule r 0.01, half-length 0.015, density 1000 (not the class's 5).
	wantMass := 1000 * math.Pi * 0.01 * 0.01 * (2*0.015 + 4.0/3*0.01)
	for _, b := range s.Bodies {
		if b.Mass == nil || math.Abs(*b.Mass-wantMass) > 1e-12*wantMass {
			t.Errorf("body %s mass %v, want %.6g", b.Name, b.Mass, wantMass)
		}
	}
	for name, want := range map[string]scene.Vec{"B4": {0.04, 0, 0}, "B0": {-0.04, 0, 0}} {
		j := findBody(t, s, name).Joint
		if j == nil || j.ParentFrame == nil || j.ParentFrame.Position == nil || *j.ParentFrame.Position != want {
			t.Errorf("%s's joint %+v: want its frame at %v in the parent's", name, j, want)
		}
	}
	var jnames []string
	for _, p := range findBody(t, s, "B3").Joint.Parts {
		jnames = append(jnames, p.Name+":"+p.Type)
	}
	if got, want := strings.Join(jnames, " "), "J0_3:revolute J1_3:revolute"; got != want {
		t.Errorf("B3's joints %q, want %q (MuJoCo's order)", got, want)
	}
	var limited bool
	for _, w := range imp.Warnings {
		if w.Attribute == "limited" && w.Line == 7 {
			limited = true
		}
		if w.Element == "skin" || w.Element == "composite" {
			t.Errorf("unexpected warning %v", w)
		}
	}
	if !limited {
		t.Errorf("no warning for the composite joint's limited on line 7: %v", imp.Warnings)
	}
}

// TestCompositeErrors: a composite MuJoCo refuses is refused with the
// file, line and attribute.
func TestCompositeErrors(t *testing.T) {
	for _, c := range []struct{ doc, want string }{
		{`<mujoco><worldbody><body name="B1"><freejoint/><composite type="flex" count="5 1 1" spacing="0.04"/></body></worldbody></mujoco>`, "type"},
		{`<mujoco><worldbody><body name="B1"><freejoint/><composite type="box" count="5 5 1" spacing="0.04"/></body></worldbody></mujoco>`, "three-dimensional"},
		{`<mujoco><worldbody><body name="B1_1"><freejoint/><composite type="cloth" count="5 1 1" spacing="0.04"/></body></worldbody></mujoco>`, "two-dimensional"},
		{`<mujoco><worldbody><body name="B1"><freejoint/><composite type="cloth" count="5 5 1" spacing="0.04"/></body></worldbody></mujoco>`, "X_Y"},
		{`<mujoco><worldbody><body name="A2"><freejoint/><composite type="rope" count="5 1 1" spacing="0.04"/></body></worldbody></mujoco>`, "B must be the beginning"},
		{`<mujoco><worldbody><body name="B7"><freejoint/><composite type="rope" count="5 1 1" spacing="0.04"/></body></worldbody></mujoco>`, "out of range"},
		{`<mujoco><worldbody><body name="B1"><freejoint/><composite type="rope" count="5 2 1" spacing="0.04"/></body></worldbody></mujoco>`, "one-dimensional"},
		{`<mujoco><worldbody><composite type="particle" count="1 5 1" spacing="0.04"><geom size=".1"/></composite></worldbody></mujoco>`, "singleton counts must come last"},
		{`<mujoco><worldbody><composite type="particle" count="2 2 2" spacing="0"><geom size=".1"/></composite></worldbody></mujoco>`, "spacing"},
		{`<mujoco><worldbody><composite type="particle" count="2 2 -2" spacing="1"><geom size=".1"/></composite></worldbody></mujoco>`, "count"},
		{`<mujoco><worldbody><composite type="particle" count="100 100 100" spacing="1"><geom size=".1"/></composite></worldbody></mujoco>`, "at most 10000"},
		{`<mujoco><worldbody><composite type="particle" count="2 2 2" spacing="1"><geom type="box" size=".1"/></composite></worldbody></mujoco>`, "sphere, capsule or ellipsoid"},
		{`<mujoco><worldbody><body name="B0"><freejoint/><composite type="loop" count="5 1 1" spacing="1" solrefsmooth="1 2 3"><geom size=".1"/></composite></body></worldbody></mujoco>`, "solrefsmooth"},
	} {
		_, err := Parse("c.xml", []byte(c.doc), model.Options{})
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "c.xml:1") {
			t.Errorf("%s: error %v, want one at c.xml:1 containing %q", c.doc, err, c.want)
		}
	}
}

// TestCompositeParticle: count bodies at offset + spacing·(i − count/2),
// each with three slide joints and a sphere of condim 1.
func TestCompositeParticle(t *testing.T) {
	doc := `<mujoco><worldbody><composite type="particle" count="2 3 1" spacing="0.5" offset="1 2 3"><geom size=".1"/></composite></worldbody></mujoco>`
	imp, err := Parse("p.xml", []byte(doc), model.Options{})
	if err != nil {
		t.Fatal(err)
	}
	s := imp.Scene
	if len(s.Bodies) != 6 {
		t.Fatalf("%d bodies, want 6", len(s.Bodies))
	}
	for _, b := range s.Bodies {
		if b.Joint == nil || len(b.Joint.Parts) != 3 || b.Joint.Parts[2].Type != "prismatic" {
			t.Fatalf("body %s joint %+v: want three slides", b.Name, b.Joint)
		}
	}
	last := s.Bodies[5].Joint.ParentFrame.Position // ix 1, iy 2, iz 0
	if want := (scene.Vec{1 + 0.5*(1-1), 2 + 0.5*(2-1.5), 3 + 0.5*(0-0.5)}); last == nil || *last != want {
		t.Errorf("last particle at %v, want %v", last, want)
	}
	if len(imp.Warnings) != 0 {
		t.Errorf("warnings %v", imp.Warnings)
	}
}

func findBody(t *testing.T, s *scene.Scene, name string) *scene.Body {
	t.Helper()
	i := slices.IndexFunc(s.Bodies, func(b scene.Body) bool { return b.Name == name })
	if i < 0 {
		t.Fatalf("no body %q", name)
	}
	return &s.Bodies[i]
}

// TestCompositeGridCloth: a grid's bodies (pinned ones without joints) and
// its tendon equalities, which become distance constraints; a cloth's
// bodies in MuJoCo's order (the root's column, then its row to the right
// and to the left, each with its column), its flat inertia and the
// tendons of the rows other than the root's.
func TestCompositeGridCloth(t *testing.T) {
	grid := `<mujoco><worldbody><composite type="grid" count="3 3 1" spacing="0.1" offset="0 0 1"><pin coord="0 0"/><geom size=".02"/><tendon kind="shear"/></composite></worldbody></mujoco>`
	imp, err := Parse("g.xml", []byte(grid), model.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var dist int
	for _, c := range imp.Scene.Constraints {
		if c.Type == "distance" && c.SolRef != nil && c.Length != nil {
			dist++
		}
	}
	if dist != 12+4 {
		t.Errorf("%d soft distance constraints, want 16 (12 main, 4 shear tendons)", dist)
	}
	if j := findBody(t, imp.Scene, "B0_0").Joint; j != nil && j.Type != "weld" {
		t.Errorf("pinned B0_0 has joint %+v", j)
	}
	if j := findBody(t, imp.Scene, "B1_0").Joint; j == nil || len(j.Parts) != 3 {
		t.Errorf("B1_0's joint %+v: want three slides", j)
	}
	cloth := `<mujoco><worldbody><body name="B1_1"><freejoint/><composite type="cloth" count="3 3 1" spacing="0.1" flatinertia="0.01"><geom type="sphere" size=".02" density="500"/></composite></body></worldbody></mujoco>`
	imp, err = Parse("c.xml", []byte(cloth), model.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, b := range imp.Scene.Bodies {
		names = append(names, b.Name)
	}
	if got, want := strings.Join(names, " "), "B1_1 B1_2 B1_0 B2_1 B2_2 B2_0 B0_1 B0_2 B0_0"; got != want {
		t.Errorf("bodies %q, want %q", got, want)
	}
	m := 500 * 4.0 / 3.0 * math.Pi * 0.02 * 0.02 * 0.02
	if b := findBody(t, imp.Scene, "B0_2"); b.Mass == nil || math.Abs(*b.Mass-m) > 1e-15 || b.Inertia == nil {
		t.Errorf("B0_2 mass %v, want %g with the flat inertia", b.Mass, m)
	}
	var dist2 int
	for _, c := range imp.Scene.Constraints {
		if c.Type == "distance" {
			dist2++
		}
	}
	if dist2 != 4 {
		t.Errorf("%d distance constraints, want 4 (two rows of two tendons)", dist2)
	}
}
