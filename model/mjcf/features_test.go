package mjcf

import (
	"math"
	"testing"

	"github.com/stiction-sim/stiction/model"
	"github.com/stiction-sim/stiction/scene"
	"github.com/stiction-sim/stiction/spatial"
)

// TestCompilerAndGeoms checks MuJoCo's defaults and conversions: angles
// in degrees unless compiler says radian (joint range, euler, axisangle),
// a capsule given by fromto (placed at the segment's midpoint along it,
// mass from density 1000 by default), nested default classes with
// childclass, and the ball and free joints' keyframe velocities turned
// from MuJoCo's body frame into ours.
func TestCompilerAndGeoms(t *testing.T) {
	doc := `<mujoco>
  <default><default class="arm"><joint axis="1 0 0" range="-90 45"/><geom type="capsule" size="0.05"/>
    <default class="thin"><geom size="0.01"/></default></default></default>
  <worldbody>
    <body name="a" euler="0 0 90" childclass="arm"><joint name="j"/>
      <geom fromto="0 0 0 0 0 0.4"/>
      <body name="b" pos="0 0 0.4" axisangle="0 0 1 90"><joint name="k" type="ball"/><geom class="thin" fromto="0 0 0 0.3 0 0"/></body>
    </body>
    <body name="f" pos="1 0 0" quat="0 0 0 1"><freejoint/><geom type="box" size="0.1 0.1 0.1"/></body>
  </worldbody>
  <keyframe><key name="k" qpos="0.5  1 0 0 0  1 0 0  0 0 0 1" qvel="0.1  1 2 3  4 5 6 7 8 9"/></keyframe>
</mujoco>`
	im, err := Parse("f.xml", []byte(doc), model.Options{})
	if err != nil {
		t.Fatal(err)
	}
	s := im.Scene
	body := func(n string) *scene.Body {
		for i := range s.Bodies {
			if s.Bodies[i].Name == n {
				return &s.Bodies[i]
			}
		}
		t.Fatalf("no body %s", n)
		return nil
	}
	a := body("a")
	if l := a.Joint.Limits; l == nil || math.Abs(l.Lower[0]+math.Pi/2) > 1e-15 || math.Abs(l.Upper[0]-math.Pi/4) > 1e-15 || *a.Joint.Axis != (scene.Vec{1, 0, 0}) {
		t.Errorf("joint a: %+v", a.Joint)
	}
	if q := a.Joint.ParentFrame.Quat(); math.Abs(q[0]-math.Sqrt(0.5)) > 1e-15 || math.Abs(q[3]-math.Sqrt(0.5)) > 1e-15 {
		t.Errorf("euler 0 0 90: quaternion %v", q)
	}
	// Capsule r = 0.05 from 0 to 0.4 along z: cylinder part 0.4, centred at
	// z = 0.2; density 1000.
	c := a.Collisions[0]
	mass := 1000 * (math.Pi*0.05*0.05*0.4 + 4*math.Pi*0.05*0.05*0.05/3)
	if *c.Shape.Length != 0.4 || *c.Shape.Radius != 0.05 || c.Pose.Pos() != [3]float64{0, 0, 0.2} || math.Abs(*a.Mass-mass) > 1e-12 || math.Abs((*a.COM)[2]-0.2) > 1e-15 {
		t.Errorf("capsule %+v at %v, mass %v com %v, want mass %v", *c.Shape, c.Pose.Pos(), *a.Mass, *a.COM, mass)
	}
	// The thin class's capsule along x: turned so that its z is −x (MuJoCo
	// points z from "to" to "from").
	cb := body("b").Collisions[0]
	if *cb.Shape.Radius != 0.01 || math.Abs(*cb.Shape.Length-0.3) > 1e-15 {
		t.Errorf("thin capsule %+v", *cb.Shape)
	}
	q := cb.Pose.Quat()
	if z := (spatial.Quat{W: q[0], X: q[1], Y: q[2], Z: q[3]}).Rotate(spatial.Vec3{0, 0, 1}); z.Sub(spatial.Vec3{-1, 0, 0}).Norm() > 1e-15 {
		t.Errorf("fromto along x: capsule axis %v", z)
	}
	if err := s.ApplyKeyframe("k"); err != nil {
		t.Fatal(err)
	}
	// Ball joint at identity: body-frame ω = parent-frame ω.
	if v := body("b").Joint.V0; v[0] != 1 || v[1] != 2 || v[2] != 3 {
		t.Errorf("ball v0 %v", v)
	}
	// Free body turned 180° about z: MuJoCo's body-frame ω (7, 8, 9) is
	// (−7, −8, 9) in the world; its linear velocity (4, 5, 6) is already.
	f := body("f")
	if w, l := spatial.Vec3(*f.Velocity.Angular), *f.Velocity.Linear; w.Sub(spatial.Vec3{-7, -8, 9}).Norm() > 1e-14 || l != (scene.Vec{4, 5, 6}) {
		t.Errorf("free body velocity ω %v v %v", w, l)
	}
	if p := f.Pose.Pos(); p != [3]float64{1, 0, 0} {
		t.Errorf("free body position %v", p)
	}
}
