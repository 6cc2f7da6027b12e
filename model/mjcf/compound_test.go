package mjcf

import (
	"math"
	"os"
	"strings"
	"testing"

	"github.com/stiction-sim/stiction/model"
	"github.com/stiction-sim/stiction/multibody"
	"github.com/stiction-sim/stiction/scene"
	"github.com/stiction-sim/stiction/spatial"
)

// TestSeveralJointsOneBody: testdata/compound.xml has three bodies with
// two or three joints each (slides, hinges with ref in degrees, off-origin
// anchors, a ball). Each body gets one compound joint whose parts keep the
// file's order; nq and nv are MuJoCo's (11, 10); at the neutral
// configuration (q = ref) every body is at the pose the file gives; a
// keyframe's qpos and qvel are split part by part (a ball's body-frame ω
// turned into the frame before it); actuators drive the right part.
func TestSeveralJointsOneBody(t *testing.T) {
	doc, err := os.ReadFile("testdata/compound.xml")
	if err != nil {
		t.Fatal(err)
	}
	src := strings.Replace(string(doc), "</mujoco>", `<actuator><motor joint="hip2"/><position joint="kslide" kp="10"/></actuator></mujoco>`, 1)
	im, err := Parse("compound.xml", []byte(src), model.Options{})
	if err != nil {
		t.Fatal(err)
	}
	b, err := scene.Build(im.Scene)
	if err != nil {
		t.Fatal(err)
	}
	m := b.Model
	if m.NQ != 11 || m.NV != 10 {
		t.Fatalf("nq %d, nv %d; MuJoCo has 11, 10", m.NQ, m.NV)
	}
	torso := m.BodyByName("torso")
	j := m.Bodies[torso].Joint
	if j.Type != multibody.JointCompound || len(j.Parts) != 3 || j.Parts[2].Name != "rooty" || math.Abs(j.Parts[2].Ref-20*math.Pi/180) > 1e-15 {
		t.Fatalf("torso joint %+v", j)
	}
	// Model poses at q = ref.
	deg := math.Pi / 180
	rx := spatial.QuatFromAxisAngle(spatial.Vec3{1, 0, 0}, 10*deg)
	ry := spatial.QuatFromAxisAngle(spatial.Vec3{0, 1, 0}, 20*deg)
	rz := spatial.QuatFromAxisAngle(spatial.Vec3{0, 0, 1}, 30*deg)
	want := spatial.Pose{R: rx.Mul(ry).Mul(rz), P: spatial.Vec3{0, 0, 1.2}}
	for _, c := range []struct {
		body string
		x    spatial.Pose
	}{{"torso", want}, {"thigh", want.Compose(spatial.Pose{R: spatial.QuatIdentity(), P: spatial.Vec3{0, 0, -0.3}})}} {
		got := m.BodyPose(b.State, m.BodyByName(c.body))
		if d := got.P.Sub(c.x.P).Norm() + got.R.Mul(c.x.R.Conj()).Vec().Norm(); d > 1e-14 {
			t.Errorf("%s at q0: pose %v, the file's %v", c.body, got, c.x)
		}
	}
	// Actuators on parts.
	for _, a := range b.Config.Constraints.Actuators {
		wantDOF := map[string]int{"thigh": 1, "shin": 0}[m.Bodies[a.Body].Name]
		if a.DOF != wantDOF {
			t.Errorf("actuator %s drives dof %d of %s, want %d", a.Name, a.DOF, m.Bodies[a.Body].Name, wantDOF)
		}
	}
	// Keyframe split.
	if err := im.Scene.ApplyKeyframe("key0"); err != nil {
		t.Fatal(err)
	}
	b, err = scene.Build(im.Scene)
	if err != nil {
		t.Fatal(err)
	}
	shin := b.Model.BodyByName("shin")
	q, v := b.Model.JointQ(b.State, shin), b.Model.JointV(b.State, shin)
	quat := spatial.Quat{W: 0.9, X: 0.1, Y: 0.2, Z: 0.3}.Normalize()
	w := quat.Rotate(spatial.Vec3{0.7, 0.4, -0.3})
	wantQ := []float64{0.05, quat.W, quat.X, quat.Y, quat.Z}
	wantV := []float64{-0.2, w[0], w[1], w[2]}
	for i := range wantQ {
		if math.Abs(q[i]-wantQ[i]) > 1e-15 {
			t.Fatalf("shin q %v, want %v", q, wantQ)
		}
	}
	for i := range wantV {
		if math.Abs(v[i]-wantV[i]) > 1e-15 {
			t.Fatalf("shin v %v, want %v", v, wantV)
		}
	}
}
