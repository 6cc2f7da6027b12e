package mjref

import (
	"errors"
	"math"
	"testing"

	"github.com/stiction-sim/stiction/multibody"
	"github.com/stiction-sim/stiction/spatial"
)

// TestBuildToolWithoutGCC: without gcc on the PATH, BuildTool reports
// ErrNoMuJoCo (so that the tests skip) rather than another error.
func TestBuildToolWithoutGCC(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	if _, err := BuildTool(t.TempDir()); !errors.Is(err, ErrNoMuJoCo) {
		t.Errorf("BuildTool without gcc: %v, want ErrNoMuJoCo", err)
	}
}

const chain = `<mujoco>
  <worldbody>
    <body name="root" pos="0 0 1">
      <freejoint name="free"/>
      <geom type="box" size="0.1 0.2 0.3" density="800"/>
      <body name="ball" pos="0.1 0.3 0.2" euler="10 20 30">
        <joint name="ball" type="ball" pos="0 0 0"/>
        <geom type="capsule" fromto="0 0 0 0.1 0.4 0.1" size="0.05"/>
        <body name="arm" pos="0.1 0.4 0.1">
          <joint name="hinge" type="hinge" axis="0.3 1 0.2" pos="0 0 0.05"/>
          <geom type="box" size="0.05 0.1 0.3" pos="0.05 0 -0.2" density="2000"/>
          <body name="slider" pos="0 0 -0.4">
            <joint name="slide" type="slide" axis="1 0.2 -0.5"/>
            <geom type="sphere" size="0.07" pos="0.02 0.01 0"/>
          </body>
        </body>
      </body>
    </body>
  </worldbody>
</mujoco>`

// TestMapFreeBallHingeSlide: at a configuration with every quaternion away
// from the identity, the converted coordinates put every body where MuJoCo
// does, and Tᵀ M T equals MuJoCo's M, which checks both the coordinate and
// the velocity maps (Jacobian) of free, ball, hinge and slide joints.
func TestMapFreeBallHingeSlide(t *testing.T) {
	file := writeModel(t, chain)
	q := []float64{0.3, -0.2, 1.1, 0.8, 0.2, -0.4, 0.3, 0.7, -0.3, 0.5, 0.4, 0.6, -0.15}
	for _, o := range []int{3, 7} {
		n := math.Sqrt(q[o]*q[o] + q[o+1]*q[o+1] + q[o+2]*q[o+2] + q[o+3]*q[o+3])
		for i := range 4 {
			q[o+i] /= n
		}
	}
	v := []float64{0.1, 0.2, -0.3, 1, -2, 0.5, 0.7, 0.3, -0.2, 1.5, -0.4}
	mj := run(t, file, Options{Steps: 0, QPos: q, QVel: v})
	b, im, err := stiction(file)
	if err != nil {
		t.Fatal(err)
	}
	mp, err := NewMap(mj, b.Model)
	if err != nil {
		t.Fatal(err)
	}
	massErr, body, mErr, err := compareMass(mj, b, im, mp)
	if err != nil {
		t.Fatal(err)
	}
	if massErr > massTol || mErr > massTol {
		t.Errorf("spatial inertia %.2g (body %q), M %.2g relative; want ≤ %g", massErr, body, mErr, massTol)
	}
	st := make([]float64, b.Model.NQ)
	mp.QToStiction(mj.QInit, st)
	back := make([]float64, mj.NQ)
	mp.QToMuJoCo(st, back)
	for i := range back {
		if back[i] != mj.QInit[i] {
			t.Fatalf("q round trip: %v, want %v", back, mj.QInit)
		}
	}
	names := mj.BodyNames()
	for i := 1; i < len(mj.Bodies); i++ {
		p := b.Model.BodyPose(&multibody.State{Q: st, V: make([]float64, b.Model.NV)}, b.Model.BodyByName(names[i])).P
		if d := p.Sub(spatial.Vec3(mj.Bodies[i].XPos)).Norm(); d > 1e-12 {
			t.Errorf("body %q at %v in Stiction, %v in MuJoCo", names[i], p, mj.Bodies[i].XPos)
		}
	}
	sv := make([]float64, b.Model.NV)
	mp.VToStiction(mj.QInit, mj.VInit, sv)
	vb := make([]float64, mj.NV)
	mp.VToMuJoCo(mj.QInit, sv, vb)
	for i := range vb {
		if math.Abs(vb[i]-v[i]) > 1e-15 {
			t.Fatalf("v round trip: %v, want %v", vb, v)
		}
	}
}
