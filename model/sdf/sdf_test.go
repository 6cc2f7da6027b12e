package sdf

import (
	"math"
	"testing"

	"github.com/stiction-sim/stiction/model"
	"github.com/stiction-sim/stiction/scene"
	"github.com/stiction-sim/stiction/spatial"
)

// TestWorldIncludes reads a <world> that includes one model twice through
// model:// (found with a model path; its model.config names its file) with
// names and poses, and a free box. It checks scoped names, the include
// pose replacing the model's own, SDFormat 1.7 relative_to frames (the
// link relative to its joint, the joint relative to its parent link) and
// an axis expressed in the model frame, gravity and the step size.
func TestWorldIncludes(t *testing.T) {
	im, err := Read("testdata/world.sdf", model.Options{ModelPaths: []string{"testdata/models"}})
	if err != nil {
		t.Fatal(err)
	}
	s := im.Scene
	if s.DT != 0.004 || (*s.Gravity)[2] != -9.8 {
		t.Errorf("dt %v gravity %v", s.DT, *s.Gravity)
	}
	b, err := scene.Build(s)
	if err != nil {
		t.Fatal(err)
	}
	m := b.Model
	for _, c := range []struct {
		body string
		pos  spatial.Vec3
	}{
		{"left::base", spatial.Vec3{1, 0, 0}},
		{"left::upper", spatial.Vec3{1, 0, 0.8}},
		{"right::base", spatial.Vec3{-1, 0, 0}},
		{"right::upper", spatial.Vec3{-1, 0, 0.8}},
		{"box::body", spatial.Vec3{0, 0, 2}},
	} {
		k := m.BodyByName(c.body)
		if k < 0 {
			t.Fatalf("no body %s", c.body)
		}
		if p := m.BodyPose(b.State, k).P; p.Sub(c.pos).Norm() > 1e-12 {
			t.Errorf("%s at %v, want %v", c.body, p, c.pos)
		}
	}
	if m.NV != 1+1+6 {
		t.Errorf("nv %d, want two shoulders and a free box", m.NV)
	}
	// The shoulder's axis is the model's y, whatever the joint frame's yaw
	// of 90°: in the world it is the include's yaw applied to y.
	for _, c := range []struct {
		body string
		axis spatial.Vec3
	}{{"left::upper", spatial.Vec3{0, 1, 0}}, {"right::upper", spatial.Vec3{0, -1, 0}}} {
		body := m.Bodies[m.BodyByName(c.body)]
		xp := spatial.PoseIdentity() // the base is welded: the joint hangs from the world
		if body.Joint.Parent >= 0 {
			xp = m.BodyPose(b.State, body.Joint.Parent)
		}
		w := xp.Compose(body.Joint.ParentFrame).R.Rotate(body.Joint.Axis)
		if w.Sub(c.axis).Norm() > 1e-12 {
			t.Errorf("%s: axis %v in the world, want %v", c.body, w, c.axis)
		}
	}
	if in := m.Bodies[m.BodyByName("left::upper")].Inertia; math.Abs(in.Com[2]-0.1) > 1e-15 || in.Mass != 1 {
		t.Errorf("upper inertia %+v", in)
	}
}
