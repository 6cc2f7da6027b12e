package urdf

import (
	"strings"
	"testing"

	"github.com/stiction-sim/stiction/model"
	"github.com/stiction-sim/stiction/multibody"
	"github.com/stiction-sim/stiction/scene"
	"github.com/stiction-sim/stiction/sim"
	"github.com/stiction-sim/stiction/solver"
)

// chainDoc is a fixed base box, l1 above it on a revolute joint, l2 brought
// back onto the base by its joint's origin (overlapping the base by 0.05
// m at q0, not adjacent to it) and l3 1 m away from everything but l2.
const chainDoc = `<robot name="chain">
<link name="base"><collision><geometry><box size="0.2 0.2 0.2"/></geometry></collision></link>
` + `<link name="l1"><inertial><mass value="1"/><inertia ixx="0.01" iyy="0.01" izz="0.01" ixy="0" ixz="0" iyz="0"/></inertial>
  <collision><geometry><box size="0.1 0.1 0.1"/></geometry></collision></link>
<link name="l2"><inertial><mass value="1"/><inertia ixx="0.01" iyy="0.01" izz="0.01" ixy="0" ixz="0" iyz="0"/></inertial>
  <collision><geometry><box size="0.1 0.1 0.1"/></geometry></collision></link>
<link name="l3"><inertial><mass value="1"/><inertia ixx="0.01" iyy="0.01" izz="0.01" ixy="0" ixz="0" iyz="0"/></inertial>
  <collision><geometry><sphere radius="0.05"/></geometry></collision></link>
<joint name="j1" type="revolute"><parent link="base"/><child link="l1"/><origin xyz="0 0 0.3"/><axis xyz="0 0 1"/><limit lower="-1" upper="1" effort="1" velocity="1"/></joint>
<joint name="j2" type="revolute"><parent link="l1"/><child link="l2"/><origin xyz="0 0 -0.2"/><axis xyz="0 0 1"/><limit lower="-1" upper="1" effort="1" velocity="1"/></joint>
<joint name="j3" type="revolute"><parent link="l2"/><child link="l3"/><origin xyz="1 0 0"/><axis xyz="0 0 1"/><limit lower="-1" upper="1" effort="1" velocity="1"/></joint>
</robot>`

// collidable reports whether the first geometries of bodies a and b may
// collide.
func collidable(t *testing.T, m *multibody.Model, a, b string) bool {
	t.Helper()
	ga, gb := -1, -1
	for i, g := range m.Geometries {
		switch m.Bodies[g.Body].Name {
		case a:
			ga = i
		case b:
			gb = i
		}
	}
	if ga < 0 || gb < 0 {
		t.Fatalf("no geometry on %s or %s", a, b)
	}
	return m.Collidable(ga, gb)
}

// TestSelfCollisionDefault: by default no two links of a robot collide.
func TestSelfCollisionDefault(t *testing.T) {
	im, err := Parse("chain.urdf", []byte(chainDoc), model.Options{})
	if err != nil {
		t.Fatal(err)
	}
	b, err := scene.Build(im.Scene)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range [][2]string{{"base", "l2"}, {"base", "l3"}, {"l1", "l3"}, {"l1", "l2"}} {
		if collidable(t, b.Model, p[0], p[1]) {
			t.Errorf("%s and %s collide without self-collision", p[0], p[1])
		}
	}
}

// TestSelfCollisionOverlap: with self-collision, non-adjacent links
// collide, except the pair that overlaps at q0 (base and l2), which is
// excluded with a warning naming both links; adjacent links never collide.
// A run under gravity (l2 resting inside the base) gains no energy.
func TestSelfCollisionOverlap(t *testing.T) {
	im, err := Parse("chain.urdf", []byte(chainDoc), model.Options{SelfCollision: true})
	if err != nil {
		t.Fatal(err)
	}
	warned := false
	for _, w := range im.Warnings {
		s := w.String()
		if strings.Contains(s, "chain.urdf") && strings.Contains(s, `"base"`) && strings.Contains(s, `"l2"`) && strings.Contains(s, "overlap by 0.05 m") {
			warned = true
		}
	}
	if !warned {
		t.Errorf("no warning naming base, l2 and the 0.05 m overlap: %v", im.Warnings)
	}
	b, err := scene.Build(im.Scene)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		a, b string
		want bool
	}{{"base", "l2", false}, {"base", "l1", false}, {"l1", "l2", false}, {"l2", "l3", false}, {"base", "l3", true}, {"l1", "l3", true}} {
		if got := collidable(t, b.Model, c.a, c.b); got != c.want {
			t.Errorf("%s–%s collidable %v, want %v", c.a, c.b, got, c.want)
		}
	}
	s, err := sim.New(b.Model, b.State, b.Config)
	if err != nil {
		t.Fatal(err)
	}
	b.State.V[0] = 1 // turn the chain about j1
	e0 := s.PotentialEnergy() + b.Model.KineticEnergy(b.State)
	for range 500 {
		st, err := s.Step()
		if err != nil || st.Status != solver.Converged {
			t.Fatalf("step %d: %v %v", st.Step, st.Status, err)
		}
		if e := st.KineticEnergy + st.PotentialEnergy; e > e0+1e-9 {
			t.Fatalf("step %d: energy %.9g > %.9g at the start", st.Step, e, e0)
		}
	}
}
