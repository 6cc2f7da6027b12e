package mjcf

import (
	"math"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/stiction-sim/stiction/model"
	"github.com/stiction-sim/stiction/scene"
	"github.com/stiction-sim/stiction/spatial"
)

// The reference numbers of these tests were printed by MuJoCo 2.2.2
// (mj_loadXML, then the mjModel arrays named in each test).

// parseDoc imports an MJCF document or fails the test.
func parseDoc(t *testing.T, doc string) *model.Import {
	t.Helper()
	im, err := Parse("f.xml", []byte(doc), model.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return im
}

// sceneIndex returns the scene index of the named body.
func sceneIndex(t *testing.T, s *scene.Scene, name string) int {
	t.Helper()
	for i := range s.Bodies {
		if s.Bodies[i].Name == name {
			return i
		}
	}
	t.Fatalf("no body %q", name)
	return -1
}

// sameRotation reports whether unit quaternions q and w (w, x, y, z) are
// the same rotation to tol.
func sameRotation(q, w [4]float64, tol float64) bool {
	d := 0.0
	for i := range 4 {
		d += q[i] * w[i]
	}
	return 1-math.Abs(d) <= tol
}

// TestOrientationForms checks every MJCF orientation form (quat,
// axisangle, xyaxes, zaxis, euler with eulerseq, angles in radian) on
// bodies, geoms, sites and inertials against MuJoCo's body_quat,
// geom_quat, site_quat and body_iquat/body_inertia.
func TestOrientationForms(t *testing.T) {
	im := parseDoc(t, `<mujoco>
  <compiler angle="radian" eulerseq="zyX"/>
  <worldbody>
    <body name="a" pos="0 0 1" zaxis="1 1 0">
      <freejoint/>
      <geom name="g1" type="box" size="0.1 0.2 0.3" zaxis="0 1 1"/>
      <geom name="g2" type="box" size="0.1 0.2 0.3" euler="0.3 -0.7 1.1" pos="0.1 0 0"/>
      <geom name="g3" type="box" size="0.1 0.2 0.3" axisangle="1 2 3 0.5"/>
      <geom name="g4" type="box" size="0.1 0.2 0.3" xyaxes="1 1 0 -1 2 0.5"/>
      <site name="s1" zaxis="0 0 -1"/>
      <site name="s2" euler="0.2 0.4 0.6"/>
      <body name="b" axisangle="0 1 0 0.8">
        <joint type="hinge" axis="1 0 0"/>
        <inertial pos="0 0 0" mass="2" diaginertia="0.1 0.2 0.3" zaxis="1 0 1"/>
      </body>
      <body name="c" euler="0.5 0.1 -0.3">
        <joint type="hinge" axis="0 1 0"/>
        <inertial pos="0 0 0" mass="2" diaginertia="0.1 0.2 0.3" xyaxes="0 1 0 -1 0 0.3"/>
      </body>
    </body>
  </worldbody>
</mujoco>`)
	s := im.Scene
	const tol = 1e-15
	check := func(what string, got, want [4]float64) {
		t.Helper()
		if !sameRotation(got, want, tol) {
			t.Errorf("%s: quaternion %v, MuJoCo %v", what, got, want)
		}
	}
	a := &s.Bodies[sceneIndex(t, s, "a")]
	check("body a (zaxis)", a.Pose.Quat(), [4]float64{0.70710678118654757, -0.5, 0.5, 0})
	check("body b (axisangle)", s.Bodies[sceneIndex(t, s, "b")].Joint.ParentFrame.Quat(), [4]float64{0.9210609940028851, 0, 0.38941834230865052, 0})
	check("body c (euler zyX)", s.Bodies[sceneIndex(t, s, "c")].Joint.ParentFrame.Quat(), [4]float64{0.9549874792459806, -0.1568377081940075, 0.084807053247413125, 0.23708355381879528})
	geoms := [][4]float64{
		{0.92387953251128674, -0.38268343236508978, 0, 0},                                       // zaxis
		{0.76506217934845067, 0.52916980894449694, -0.36242009435522565, -0.057539988180335386}, // euler
		{0.96891242171064473, 0.066121489404414646, 0.13224297880882929, 0.19836446821324394},   // axisangle
		{0.9176985493045644, 0.10669003326258623, 0.044192458747399854, 0.38012318529206507},    // xyaxes
	}
	for i, w := range geoms {
		check(a.Collisions[i].Name, a.Collisions[i].Pose.Quat(), w)
	}
	sites := map[string][4]float64{"s1": {6.123233995736766e-17, 1, 0, 0}, "s2": {0.9374770966156204, 0.26923454739107461, 0.15993317091416487, 0.15189085770253108}}
	for _, st := range im.Sites {
		if w, ok := sites[st.Name]; ok {
			q := st.Pose.R
			check("site "+st.Name, [4]float64{q.W, q.X, q.Y, q.Z}, w)
			delete(sites, st.Name)
		}
	}
	if len(sites) > 0 {
		t.Errorf("sites not imported: %v", sites)
	}
	// Inertia in the body frame: MuJoCo's R(iquat) diag(inertia) R(iquat)ᵀ.
	// MuJoCo diagonalises the composite inertia of body a iteratively
	// (mjuu_eig3), to about 1e-8 relative; the others are exact.
	inertias := map[string]struct {
		iquat, diag [4]float64
		tol         float64
	}{
		"a": {[4]float64{0.99394625927640401, -0.098647447901232518, 0.036853514806675931, -0.031326237236720941}, [4]float64{7.3841515316320612, 6.334826005880017, 4.9210224624879304}, 2e-7},
		"b": {[4]float64{0.92387953251128674, 0, 0.38268343236508978, 0}, [4]float64{0.1, 0.2, 0.3}, 1e-15},
		"c": {[4]float64{0.6996117289649223, 0.10268119932447298, 0.10268119932447299, 0.6996117289649223}, [4]float64{0.1, 0.2, 0.3}, 1e-15},
	}
	for n, w := range inertias {
		R := spatial.Quat{W: w.iquat[0], X: w.iquat[1], Y: w.iquat[2], Z: w.iquat[3]}.RotMat()
		want := spatial.RotateInertia(R, spatial.Diag3(spatial.Vec3{w.diag[0], w.diag[1], w.diag[2]}))
		got := im.Links[sceneIndex(t, s, n)].Inertia
		if d := got.Sub(want).FrobeniusNorm(); d > w.tol*want.FrobeniusNorm() {
			t.Errorf("body %s: inertia %v, MuJoCo %v (difference %.3g)", n, got, want, d)
		}
	}
	if m := im.Links[sceneIndex(t, s, "a")].Mass; math.Abs(m-192) > 1e-12 {
		t.Errorf("body a: mass %v, MuJoCo 192", m)
	}
}

// TestFromto checks fromto on box, ellipsoid, cylinder and capsule
// against MuJoCo's geom_size, geom_pos, geom_quat, body_mass and
// body_inertia: the half-length along z from the segment, size[0] as the
// radius or as the x and y half-sizes (a box with one size value, as in
// MuJoCo's pendulum models; a second value is ignored), and the geom's z
// axis pointing from "to" to "from".
func TestFromto(t *testing.T) {
	im := parseDoc(t, `<mujoco>
  <worldbody>
    <body name="a">
      <freejoint/>
      <geom name="box" type="box" size="0.05" fromto="0 0 0 0.3 0.4 0"/>
      <geom name="boxtwo" type="box" size="0.05 0.2" fromto="0 0 0 0 0 -0.5"/>
      <geom name="ell" type="ellipsoid" size="0.02" fromto="0.1 0.2 0.3 0.1 0.6 0.3"/>
      <geom name="cyl" type="cylinder" size="0.03 9" fromto="0 0 0 0 0 0.2"/>
      <geom name="cap" type="capsule" size="0.04" fromto="0 0 0 0.1 0.1 0.1"/>
    </body>
  </worldbody>
</mujoco>`)
	s := im.Scene
	a := &s.Bodies[sceneIndex(t, s, "a")]
	want := []struct {
		size [3]float64 // MuJoCo's geom_size
		pos  [3]float64
		quat [4]float64
	}{
		{[3]float64{0.05, 0.05, 0.25}, [3]float64{0.15, 0.2, 0}, [4]float64{0.70710678118654757, 0.56568542494923801, -0.42426406871192845, 0}},
		{[3]float64{0.05, 0.05, 0.25}, [3]float64{0, 0, -0.25}, [4]float64{1, 0, 0, 0}},
		{[3]float64{0.02, 0.02, 0.2}, [3]float64{0.1, 0.4, 0.3}, [4]float64{0.70710678118654757, 0.70710678118654746, 0, 0}},
		{[3]float64{0.03, 0.1, 0}, [3]float64{0, 0, 0.1}, [4]float64{6.123233995736766e-17, 1, 0, 0}},
		{[3]float64{0.04, 0.086602540378443879, 0}, [3]float64{0.05, 0.05, 0.05}, [4]float64{0.45970084338098305, 0.62796303019955435, -0.62796303019955435, 0}},
	}
	for i, w := range want {
		col := a.Collisions[i]
		sh := col.Shape
		var size [3]float64
		switch sh.Type {
		case "box":
			size = [3]float64{sh.Size[0] / 2, sh.Size[1] / 2, sh.Size[2] / 2}
		case "ellipsoid":
			size = *sh.Radii
		default:
			size = [3]float64{*sh.Radius, *sh.Length / 2, 0}
		}
		for k := range 3 {
			if math.Abs(size[k]-w.size[k]) > 1e-15 || math.Abs(col.Pose.Pos()[k]-w.pos[k]) > 1e-15 {
				t.Errorf("%s: size %v at %v, MuJoCo %v at %v", col.Name, size, col.Pose.Pos(), w.size, w.pos)
				break
			}
		}
		if !sameRotation(col.Pose.Quat(), w.quat, 1e-15) {
			t.Errorf("%s: quaternion %v, MuJoCo %v", col.Name, col.Pose.Quat(), w.quat)
		}
	}
	link := im.Links[sceneIndex(t, s, "a")]
	if math.Abs(link.Mass-12.03929616196783) > 1e-13 {
		t.Errorf("mass %.17g, MuJoCo 12.03929616196783", link.Mass)
	}
	R := spatial.Quat{W: 0.89621487907710684, X: -0.32492418977585891, Y: 0.083947184043080394, Z: -0.29013105954127955}.RotMat()
	I := spatial.RotateInertia(R, spatial.Diag3(spatial.Vec3{0.67910991182663483, 0.53074601687723821, 0.18294407884622327}))
	if d := link.Inertia.Sub(I).FrobeniusNorm(); d > 2e-7*I.FrobeniusNorm() {
		t.Errorf("inertia %v, MuJoCo %v (difference %.3g)", link.Inertia, I, d)
	}
}

// flagDoc is a hinge pendulum held by everything <flag> can turn off: a
// joint limit, frictionloss, damping and stiffness, a motor driven by the
// keyframe, a joint equality and a wall it rests against. FLAGS is
// replaced by the <option> under test.
const flagDoc = `<mujoco>
  <compiler angle="radian"/>
  FLAGS
  <worldbody>
    <geom name="wall" type="box" size="0.05 0.5 0.5" pos="-0.3 0 -0.5"/>
    <body name="bob">
      <joint name="hinge" axis="0 1 0" range="0.4 0.6" limited="true" frictionloss="1" stiffness="3"/>
      <geom type="sphere" size="0.1" pos="0 0 -0.5" mass="1.5"/>
    </body>
  </worldbody>
  <equality><joint joint1="hinge" polycoef="0.5 0 0 0 0"/></equality>
  <actuator><motor joint="hinge" gear="1"/></actuator>
  <keyframe><key name="start" qpos="0.5" ctrl="2"/></keyframe>
</mujoco>`

// TestOptionFlags checks <option><flag>: with limit, frictionloss,
// passive, actuation, equality and contact disabled the pendulum swings
// freely, and after 100 steps of MuJoCo's Euler its angle is MuJoCo
// 2.2.2's 0.3236024156755366 (velocity −1.6441358013691636); with all
// enabled MuJoCo holds it near 0.4997 (two constraint rows after 100
// steps). The model has no damping: with passive disabled, MuJoCo 2.2.2's
// Euler drops the damping force but still divides by M + h·D. constraint="disable" turns off the same constraints,
// gravity="disable" zeroes gravity, and an unsupported flag warns.
func TestOptionFlags(t *testing.T) {
	off := `<option><flag limit="disable" frictionloss="disable" passive="disable" actuation="disable" equality="disable" contact="disable"/></option>`
	for _, opt := range []string{off, `<option><flag constraint="disable" passive="disable" actuation="disable"/></option>`} {
		doc := strings.Replace(flagDoc, "FLAGS", opt, 1)
		im := parseDoc(t, doc)
		s := im.Scene
		bob := &s.Bodies[sceneIndex(t, s, "bob")]
		if j := bob.Joint; j.Limits != nil || j.Friction != nil || j.Damping != nil || j.Stiffness != nil {
			t.Errorf("%s: joint keeps limits %v, friction %v, damping %v, stiffness %v", opt, j.Limits, j.Friction, j.Damping, j.Stiffness)
		}
		w := &s.Bodies[sceneIndex(t, s, "worldbody")]
		if len(bob.Collisions)+len(w.Collisions) != 0 || len(w.Visuals) != 1 || len(s.Actuators) != 0 || len(s.Constraints) != 0 {
			t.Errorf("%s: %d+%d collisions, %d wall visuals, %d actuators, %d constraints, want none but the visual", opt, len(bob.Collisions), len(w.Collisions), len(w.Visuals), len(s.Actuators), len(s.Constraints))
		}
		b, sim := run(t, doc, "start")
		for range steps {
			if _, err := sim.Step(); err != nil {
				t.Fatal(err)
			}
		}
		if d := math.Abs(b.State.Q[0] - 0.3236024156755366); d > 1e-12 {
			t.Errorf("%s: θ(100 h) = %.17g, MuJoCo 0.3236024156755366 (|Δ| %.3g)", opt, b.State.Q[0], d)
		}
		if d := math.Abs(b.State.V[0] + 1.6441358013691636); d > 1e-12 {
			t.Errorf("%s: ω(100 h) = %.17g, MuJoCo −1.6441358013691636 (|Δ| %.3g)", opt, b.State.V[0], d)
		}
	}
	im := parseDoc(t, strings.Replace(flagDoc, "FLAGS", `<option gravity="0 0 -3"><flag gravity="disable" clampctrl="disable" energy="enable"/></option>`, 1))
	warnings := im.Warnings
	if g := im.Scene.Gravity; g == nil || *g != (scene.Vec{}) {
		t.Errorf("gravity %v, want zero", g)
	}
	if s := im.Scene; len(s.Actuators) != 1 || s.Bodies[sceneIndex(t, s, "bob")].Joint.Limits == nil {
		t.Errorf("gravity alone disabled: %d actuators, limits %v", len(s.Actuators), s.Bodies[sceneIndex(t, s, "bob")].Joint.Limits)
	}
	// limit="disable" keeps the lock of a joint equality (a soft coupler
	// q = 0.5 over the one joint, not a limit).
	im = parseDoc(t, strings.Replace(flagDoc, "FLAGS", `<option><flag limit="disable"/></option>`, 1))
	locked := false
	for _, c := range im.Scene.Constraints {
		locked = locked || (c.Type == "coupler" && len(c.Joints) == 1 && c.Joints[0] == "bob" && c.Offset != nil && *c.Offset == 0.5)
	}
	if !locked {
		t.Errorf("limit disabled, joint locked at 0.5 by an equality: constraints %+v", im.Scene.Constraints)
	}
	warned := 0
	for _, w := range warnings {
		if w.Attribute == "clampctrl" {
			warned++
		}
		if w.Attribute == "energy" {
			t.Errorf("energy (no effect on the motion) warns: %s", w)
		}
	}
	if warned != 1 {
		t.Errorf("clampctrl=disable: %d warnings, want 1: %v", warned, warnings)
	}
}

// TestSetTotalMass checks <compiler settotalmass> against MuJoCo's
// body_mass and body_inertia: every body's mass and inertia, the static
// body's included, scaled by 8/6.
func TestSetTotalMass(t *testing.T) {
	im := parseDoc(t, `<mujoco>
  <compiler settotalmass="8"/>
  <worldbody>
    <geom type="box" size="1 1 0.1" pos="0 0 -1"/>
    <body name="static" pos="2 0 0"><geom type="sphere" size="0.1" mass="1"/></body>
    <body name="free" pos="0 0 1"><freejoint/><geom type="box" size="0.1 0.2 0.3" mass="3"/>
      <body name="child" pos="0 0 0.5"><joint axis="1 0 0"/><inertial pos="0 0 0" mass="2" diaginertia="0.1 0.2 0.3"/></body>
      <body name="massless" pos="0 0 0.5"/>
    </body>
  </worldbody>
</mujoco>`)
	s := im.Scene
	for n, w := range map[string][4]float64{
		"static":   {1.3333333333333333, 0.005333333333333334, 0.005333333333333334, 0.005333333333333334},
		"free":     {4, 0.17333333333333334, 0.13333333333333336, 0.06666666666666668},
		"child":    {2.6666666666666665, 0.13333333333333333, 0.26666666666666666, 0.39999999999999997},
		"massless": {0, 0, 0, 0},
	} {
		i := sceneIndex(t, s, n)
		l := im.Links[i]
		got := [4]float64{l.Mass, l.Inertia[0][0], l.Inertia[1][1], l.Inertia[2][2]}
		for k := range 4 {
			if math.Abs(got[k]-w[k]) > 1e-15*math.Max(1, w[k]) {
				t.Errorf("%s: mass and inertia %v, MuJoCo %v", n, got, w)
				break
			}
		}
		if b := s.Bodies[i]; b.Mass != nil && (*b.Mass != l.Mass || (*b.Inertia.Diagonal)[2] != l.Inertia[2][2]) {
			t.Errorf("%s: scene body mass %v inertia %v, link %v", n, *b.Mass, *b.Inertia.Diagonal, l)
		}
	}
}

// tinyDoc has bodies as light as Gymnasium's pusher's: a 4.02e-10 kg
// slider (armature 0.04 and damping 1 from the default class, as the
// pusher's goal) and a free 4.19e-10 kg sphere that rolls on the table.
const tinyDoc = `<mujoco>
  <option timestep="0.01" gravity="0 0 -9.81"/>
  <default><joint armature="0.04" damping="1"/></default>
  <worldbody>
    <geom name="table" type="plane" size="1 1 0.1"/>
    <body name="goal" pos="0 0 0.2">
      <geom type="cylinder" size="0.08 0.001" density="0.00001" contype="0" conaffinity="0"/>
      <joint name="goal_slidex" type="slide" axis="1 0 0"/>
    </body>
    <body name="dust" pos="0 0.5 0.011">
      <freejoint/>
      <geom type="sphere" size="0.01" density="DENSITY"/>
    </body>
  </worldbody>
  <keyframe><key name="k" qpos="0  0 0.5 0.011 1 0 0 0" qvel="1  0.3 0 0 0 0 2"/></keyframe>
</mujoco>`

// TestTinyMasses checks that bodies down to MuJoCo's minimum mass
// (mjMINVAL = 1e-15 kg) load and step: MuJoCo 2.2.2 accepts the 4e-10 kg
// bodies of tinyDoc (body_mass 4.0212385965949362e-10 and
// 4.1887902047863915e-10), and after 100 steps its slider is at
// 0.040000000393975707 (damping implicit: v⁺ = v M/(M + h d)); the free
// sphere stays finite and on the table.
func TestTinyMasses(t *testing.T) {
	doc := strings.Replace(tinyDoc, "DENSITY", "0.0001", 1)
	im := parseDoc(t, doc)
	for n, w := range map[string]float64{"goal": 4.0212385965949362e-10, "dust": 4.1887902047863915e-10} {
		if m := im.Links[sceneIndex(t, im.Scene, n)].Mass; math.Abs(m-w) > 1e-15*w {
			t.Errorf("%s: mass %.17g, MuJoCo %.17g", n, m, w)
		}
	}
	b, s := run(t, doc, "k")
	for i := range steps {
		if _, err := s.Step(); err != nil {
			t.Fatalf("step %d: %v", i, err)
		}
	}
	q := b.State.Q
	for _, x := range q {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			t.Fatalf("state not finite after %d steps: %v", steps, q)
		}
	}
	if d := math.Abs(q[0] - 0.040000000393975707); d > 1e-9 {
		t.Errorf("slider at %.17g after %d steps, MuJoCo 0.040000000393975707 (|Δ| %.3g)", q[0], steps, d)
	}
	t.Logf("slider %.17g (MuJoCo 0.040000000393975707); sphere state %v", q[0], q[1:])
	// Below mjMINVAL, a body is refused (as MuJoCo refuses it), naming it.
	im = parseDoc(t, strings.Replace(tinyDoc, "DENSITY", "1e-10", 1))
	if _, err := scene.Build(im.Scene); err == nil || !strings.Contains(err.Error(), "dust") {
		t.Errorf("a 4e-16 kg body: error %v, want one naming dust", err)
	}
}

// TestFreejointDefaults checks that <freejoint> takes no damping,
// armature, stiffness or frictionloss from the default class, while
// <joint type="free"> does: MuJoCo 2.2.2's dof_damping, dof_armature and
// dof_frictionloss are 0 for the first and 0.7, 0.1, 0.2 for the second,
// jnt_stiffness 0 and 3.
func TestFreejointDefaults(t *testing.T) {
	im := parseDoc(t, `<mujoco>
  <default><joint damping="0.7" armature="0.1" stiffness="3" frictionloss="0.2"/></default>
  <worldbody>
    <body name="a"><freejoint/><geom type="sphere" size="0.1"/></body>
    <body name="b" pos="1 0 0"><joint type="free"/><geom type="sphere" size="0.1"/></body>
  </worldbody>
</mujoco>`)
	s := im.Scene
	if j := s.Bodies[sceneIndex(t, s, "a")].Joint; j != nil && (j.Damping != nil || j.Armature != nil || j.Friction != nil) {
		t.Errorf("<freejoint>: damping %v, armature %v, friction %v, want none (MuJoCo)", j.Damping, j.Armature, j.Friction)
	}
	j := s.Bodies[sceneIndex(t, s, "b")].Joint
	if j == nil || j.Damping == nil || *j.Damping != 0.7 || j.Armature == nil || *j.Armature != 0.1 {
		t.Errorf(`<joint type="free">: %+v, want damping 0.7 and armature 0.1 from the class`, j)
	}
	for _, f := range im.JointFriction {
		if f.Body == "a" {
			t.Errorf("<freejoint> has joint friction %v", f.Value)
		}
	}
	for _, w := range im.Warnings {
		if w.Line == 4 {
			t.Errorf("<freejoint> warns: %s", w)
		}
	}
}

// TestGeomMargin checks geom margin and gap: the scene's contact margin
// becomes the largest geom margin (a pair is detected within it, as in
// MuJoCo), each collision's standoff is its margin − gap (a class's margin
// 0.004 included; 0 for margin = gap), where MuJoCo's force holds the
// surfaces (MuJoCo 2.2.2 rests a 0.1 m sphere with margin 0.01 at
// z = 0.10963, 1 cm higher than without: TestRestingPenetration), a gap
// warns once, and a negative margin is an error naming the attribute.
func TestGeomMargin(t *testing.T) {
	im := parseDoc(t, `<mujoco>
  <default><geom margin="0.004"/></default>
  <worldbody>
    <geom type="plane" size="1 1 0.1"/>
    <body pos="0 0 0.1"><freejoint/><geom type="sphere" size="0.1" margin="0.01"/></body>
    <body pos="1 0 0.1"><freejoint/><geom type="sphere" size="0.1" margin="0.02" gap="0.02"/></body>
  </worldbody>
</mujoco>`)
	if m := im.Scene.Contact.Margin; m == nil || *m != 0.02 {
		t.Errorf("contact margin %v, want the largest geom margin 0.02", m)
	}
	var got []float64
	for _, b := range im.Scene.Bodies {
		for _, c := range b.Collisions {
			x := 0.0
			if c.Standoff != nil {
				x = *c.Standoff
			}
			got = append(got, x)
		}
	}
	if want := []float64{0.004, 0.01, 0}; !slices.Equal(got, want) {
		t.Errorf("standoffs %v, want %v", got, want)
	}
	n := 0
	for _, w := range im.Warnings {
		switch w.Attribute {
		case "margin":
			t.Errorf("margin warns: %s", w)
		case "gap":
			n++
			if w.Line != 6 || !strings.Contains(w.Msg, "margin − gap = 0") {
				t.Errorf("gap warning %s, want line 6 and margin − gap = 0", w)
			}
		}
	}
	if n != 1 {
		t.Errorf("%d gap warnings, want 1: %v", n, im.Warnings)
	}
	_, err := Parse("f.xml", []byte(`<mujoco><worldbody><geom type="sphere" size="0.1" margin="-1"/></worldbody></mujoco>`), model.Options{})
	if err == nil || !strings.Contains(err.Error(), "f.xml:1") || !strings.Contains(err.Error(), "margin") {
		t.Errorf("negative margin: error %v, want one naming f.xml:1 and margin", err)
	}
}

// TestCondim checks condim and friction's torsional and rolling values.
// Materials: a geom keeps its own coefficients that some pair it can form
// uses (MuJoCo: the pair's larger condim; 4 adds torsional, 6 rolling),
// so the condim-1 sphere that can touch the condim-3 plane keeps its
// sliding friction (MuJoCo's contact: dim 3, μ 0.9), and the plane has
// torsional and rolling friction for the condim-4 and 6 spheres. Motion:
// a 0.1 m sphere spinning at 5 rad/s on a plane, condim 4 (torsional
// coefficient 0.01 m) slows to MuJoCo 2.2.2's 2.5463197406425331 rad/s
// after 100 steps of 1 ms (closed form 5 − 5 μ g t/(2 r²) = 2.5475; we
// measure 2.584: the sphere starts 0.4 mm deep, MuJoCo's resting depth,
// and settles to our deeper one, 3.9 mm, carrying less than its weight
// meanwhile; started at our resting depth it spins at 2.54754), and with
// condim 3 keeps spinning (MuJoCo: 5).
func TestCondim(t *testing.T) {
	im := parseDoc(t, `<mujoco>
  <worldbody>
    <geom type="plane" size="1 1 0.1" friction="0.5 0.002 0.0003"/>
    <body name="g1" pos="0 0 0.09"><freejoint/><geom type="sphere" size="0.1" condim="1" friction="0.9 0.001 0.001"/></body>
    <body name="g2" pos="1 0 0.09"><freejoint/><geom type="sphere" size="0.1" condim="6" friction="0.3 0.01 0.02" contype="2" conaffinity="2"/></body>
    <body name="g3" pos="2 0 0.09"><freejoint/><geom type="sphere" size="0.1" condim="4" friction="0.3 0.001 0.02" contype="2" conaffinity="1"/></body>
    <body name="g4" pos="3 0 0.09"><freejoint/><geom type="sphere" size="0.1" condim="1" contype="0" conaffinity="2"/></body>
  </worldbody>
</mujoco>`)
	s := im.Scene
	val := func(p *float64) float64 {
		if p == nil {
			return 0
		}
		return *p
	}
	for _, c := range []struct {
		body string
		want [3]float64
	}{
		{"worldbody", [3]float64{0.5, 0.002, 0}}, // g2 (rolling) cannot touch it: contype 2, conaffinity 2
		{"g1", [3]float64{0.9, 0.001, 0}},        // with g3: condim 4
		{"g2", [3]float64{0.3, 0.01, 0.02}},
		{"g3", [3]float64{0.3, 0.001, 0.02}}, // with g2: condim 6
		{"g4", [3]float64{1, 0.005, 0.0001}}, // with g2: condim 6, MuJoCo's default friction
	} {
		m := s.Materials[s.Bodies[sceneIndex(t, s, c.body)].Collisions[0].Material]
		if got := [3]float64{*m.Friction, val(m.SpinFriction), val(m.RollingFriction)}; got != c.want {
			t.Errorf("%s: friction, spin, rolling %v, want %v", c.body, got, c.want)
		}
	}
	spin := `<mujoco>
  <option timestep="0.001"/>
  <worldbody>
    <geom type="plane" size="1 1 0.1" friction="0.5 0.01 0.0001"/>
    <body pos="0 0 0.1"><freejoint/><geom type="sphere" size="0.1" condim="COND" friction="0.5 0.01 0.001"/></body>
  </worldbody>
  <keyframe><key name="k" qpos="0 0 0.0996 1 0 0 0" qvel="0 0 0 0 0 5"/></keyframe>
</mujoco>`
	for _, c := range []struct {
		condim string
		w, tol float64
	}{{"3", 5, 1e-6}, {"4", 2.5463197406425331, 0.02}} {
		b, sim := run(t, strings.Replace(spin, "COND", c.condim, 1), "k")
		for range steps {
			if _, err := sim.Step(); err != nil {
				t.Fatal(err)
			}
		}
		if w := b.State.V[2]; math.Abs(w-c.w) > c.tol*c.w {
			t.Errorf("condim %s: spin %.6g rad/s after %d steps, MuJoCo %.6g", c.condim, w, steps, c.w)
		} else {
			t.Logf("condim %s: spin %.10g rad/s, MuJoCo %.10g", c.condim, w, c.w)
		}
	}
	_, err := Parse("f.xml", []byte(`<mujoco><worldbody><geom type="sphere" size="0.1" condim="2"/></worldbody></mujoco>`), model.Options{})
	if err == nil || !strings.Contains(err.Error(), "condim") {
		t.Errorf("condim 2: error %v, want one naming condim", err)
	}
}

// pairDoc: three spheres on a floor; a and b have no collision bits and
// collide only through <pair>s (floor–a, a–b, the latter with its own
// friction), c collides with the floor by its bits unless an <exclude>
// with the world removes it. EXCLUDE is replaced by the exclusion or
// nothing.
const pairDoc = `<mujoco>
  <worldbody>
    <geom name="floor" type="plane" size="2 2 0.1"/>
    <body name="a" pos="0 0 0.09"><freejoint/><geom name="a" type="sphere" size="0.1" contype="0" conaffinity="0"/></body>
    <body name="b" pos="0.15 0 0.09"><freejoint/><geom name="b" type="sphere" size="0.1" contype="0" conaffinity="0"/></body>
    <body name="c" pos="-0.15 0 0.09"><freejoint/><geom name="c" type="sphere" size="0.1"/></body>
  </worldbody>
  <contact>
    <pair geom1="floor" geom2="a"/>
    <pair geom1="a" geom2="b" friction="0.5 0.5 0.005 0.0001 0.0001"/>
    EXCLUDE
  </contact>
</mujoco>`

// TestContactPairs checks contype/conaffinity, <exclude> (with the world
// body too) and <pair> against MuJoCo 2.2.2's contacts (mj_forward):
// with the exclusion, floor–a and a–b; without it, floor–c too. a–c and
// floor–b overlap but have no matching bits and no pair. The pair's own
// friction warns (not used).
func TestContactPairs(t *testing.T) {
	for _, c := range []struct {
		exclude string
		want    []string
	}{
		{`<exclude body1="world" body2="c"/>`, []string{"a–b", "a–floor"}},
		{"", []string{"a–b", "a–floor", "c–floor"}},
	} {
		doc := strings.Replace(pairDoc, "EXCLUDE", c.exclude, 1)
		im := parseDoc(t, doc)
		b, err := scene.Build(im.Scene)
		if err != nil {
			t.Fatal(err)
		}
		m := b.Model
		var got []string
		for i := range m.Geometries {
			for j := i + 1; j < len(m.Geometries); j++ {
				if m.Collidable(i, j) {
					p := []string{m.Geometries[i].Name, m.Geometries[j].Name}
					sort.Strings(p)
					got = append(got, p[0]+"–"+p[1])
				}
			}
		}
		sort.Strings(got)
		if strings.Join(got, " ") != strings.Join(c.want, " ") {
			t.Errorf("%q: collidable pairs %v, MuJoCo's contacts %v", c.exclude, got, c.want)
		}
		n := 0
		for _, w := range im.Warnings {
			if w.Attribute == "friction" && w.Element == "pair" {
				n++
			}
		}
		if n != 1 {
			t.Errorf("%d warnings for the pair's friction, want 1: %v", n, im.Warnings)
		}
	}
	_, err := Parse("f.xml", []byte(`<mujoco><worldbody><geom name="g" type="sphere" size="0.1"/></worldbody><contact><pair geom1="g" geom2="h"/></contact></mujoco>`), model.Options{})
	if err == nil || !strings.Contains(err.Error(), "geom2") {
		t.Errorf("pair with an unknown geom: error %v, want one naming geom2", err)
	}
}

// TestDefaultOrientation checks orientations from default classes against
// MuJoCo 2.2.2's geom_quat and site_quat: geoms and sites take pos and
// orientation from their class, and the alternative forms (axisangle,
// xyaxes, zaxis, euler), from the element or a class, apply in that order,
// the last winning, quat only without any (mjCAlternative::Set): a class's
// euler overrides the element's quat, zaxis and axisangle, which warns.
func TestDefaultOrientation(t *testing.T) {
	im := parseDoc(t, `<mujoco>
  <default><geom euler="0 0 90" pos="0 0 1"/><site zaxis="1 0 0"/></default>
  <worldbody>
    <body><freejoint/>
      <geom name="e" type="box" size="0.1 0.2 0.3"/>
      <geom name="eq" type="box" size="0.1 0.2 0.3" quat="0 1 0 0"/>
      <geom name="ez" type="box" size="0.1 0.2 0.3" zaxis="1 0 0"/>
      <site name="s"/>
    </body>
  </worldbody>
</mujoco>`)
	r := math.Sqrt(0.5)
	b := im.Scene.Bodies[0]
	for i, w := range [][4]float64{{r, 0, 0, r}, {r, 0, 0, r}, {r, 0, 0, r}} {
		col := b.Collisions[i]
		if !sameRotation(col.Pose.Quat(), w, 1e-15) || col.Pose.Pos() != [3]float64{0, 0, 1} {
			t.Errorf("geom %s: %v at %v, MuJoCo %v at [0 0 1]", col.Name, col.Pose.Quat(), col.Pose.Pos(), w)
		}
	}
	q := im.Sites[0].Pose.R
	if !sameRotation([4]float64{q.W, q.X, q.Y, q.Z}, [4]float64{r, 0, r, 0}, 1e-15) {
		t.Errorf("site: %v, MuJoCo [%g 0 %g 0]", q, r, r)
	}
	n := 0
	for _, w := range im.Warnings {
		if strings.Contains(w.Msg, "overridden by the default class's euler") {
			n++
		}
	}
	if n != 2 {
		t.Errorf("%d override warnings, want 2 (quat, zaxis): %v", n, im.Warnings)
	}
	// The main class's zaxis (1 0 0 → (√½, 0, √½, 0)), inherited by class
	// aa, overrides the element's axisangle and xyaxes (applied before
	// zaxis) and quat, and aa's own axisangle.
	im = parseDoc(t, `<mujoco>
  <default><geom zaxis="1 0 0"/>
    <default class="aa"><geom axisangle="0 0 1 90"/></default></default>
  <worldbody>
    <body><freejoint/><geom type="box" size="0.1 0.2 0.3" axisangle="1 0 0 90"/>
    <geom class="aa" type="box" size="0.1 0.2 0.3" xyaxes="0 1 0 -1 0 0"/>
    <geom class="aa" type="box" size="0.1 0.2 0.3" quat="0 1 0 0"/></body>
  </worldbody>
</mujoco>`)
	for _, col := range im.Scene.Bodies[0].Collisions {
		if !sameRotation(col.Pose.Quat(), [4]float64{r, 0, r, 0}, 1e-15) {
			t.Errorf("geom with a class zaxis: %v, MuJoCo [%g 0 %g 0]", col.Pose.Quat(), r, r)
		}
	}
}

// TestBoundMassInertia checks compiler boundmass and boundinertia against
// MuJoCo 2.2.2's body_mass, body_inertia and body_iquat: every body but
// the world, static and massless ones too, gets at least 0.5 kg, and its
// principal moments (not the body-frame diagonal) at least 0.01 kg·m².
func TestBoundMassInertia(t *testing.T) {
	im := parseDoc(t, `<mujoco>
  <compiler boundmass="0.5" boundinertia="0.01"/>
  <worldbody>
    <body name="static" pos="2 0 0"/>
    <body name="free" pos="0 0 1"><freejoint/><geom type="box" size="0.01 0.02 0.3" mass="0.1" euler="0 0 30"/>
      <body name="child" pos="0 0 0.5"><joint axis="1 0 0"/><inertial pos="0 0 0" mass="2" diaginertia="0.001 0.2 0.2" euler="30 0 0"/></body>
      <body name="tilted" pos="0 0 0.5"><joint axis="1 0 0"/><inertial pos="0 0 0" mass="2" diaginertia="0.001 0.2 0.2" euler="30 40 0"/></body>
      <body name="massless" pos="0 0 0.5"/>
    </body>
  </worldbody>
</mujoco>`)
	s := im.Scene
	for _, c := range []struct {
		body       string
		mass       float64
		iquat, eig [4]float64
	}{
		{"static", 0.5, [4]float64{1, 0, 0, 0}, [4]float64{0.01, 0.01, 0.01}},
		{"free", 0.5, [4]float64{1, 0, 0, 0}, [4]float64{0.01, 0.01, 0.01}},
		{"child", 2, [4]float64{0.96592582628906831, 0.25881904510252074, 0, 0}, [4]float64{0.01, 0.2, 0.2}},
		{"tilted", 2, [4]float64{0.90767337119036873, 0.24321034680169396, 0.33036608954935215, 0.088521326901376859}, [4]float64{0.01, 0.2, 0.2}},
		{"massless", 0.5, [4]float64{1, 0, 0, 0}, [4]float64{0.01, 0.01, 0.01}},
	} {
		l := im.Links[sceneIndex(t, s, c.body)]
		R := spatial.Quat{W: c.iquat[0], X: c.iquat[1], Y: c.iquat[2], Z: c.iquat[3]}.RotMat()
		want := spatial.RotateInertia(R, spatial.Diag3(spatial.Vec3{c.eig[0], c.eig[1], c.eig[2]}))
		if l.Mass != c.mass || l.Inertia.Sub(want).FrobeniusNorm() > 1e-12 {
			t.Errorf("%s: mass %v inertia %v, MuJoCo %v and %v", c.body, l.Mass, l.Inertia, c.mass, want)
		}
	}
}

// TestCondimOnePairMaterials: two condim-1 spheres that can both touch
// the condim-3 floor each keep its sliding friction for the floor (μ = 1),
// and their materials keep condim 1, so that their own pair takes MuJoCo's
// larger condim, 1, and no friction (contact.Material.Condim); the floor's
// material says 3. No condim warning remains.
func TestCondimOnePairMaterials(t *testing.T) {
	im := parseDoc(t, `<mujoco>
  <worldbody>
    <geom name="floor" type="plane" size="1 1 0.1"/>
    <body name="a" pos="0 0 1"><freejoint/><geom type="sphere" size="0.1" condim="1"/></body>
    <body name="b" pos="1 0 1"><freejoint/><geom type="sphere" size="0.1" condim="1"/></body>
  </worldbody>
</mujoco>`)
	s := im.Scene
	for _, w := range im.Warnings {
		if w.Attribute == "condim" {
			t.Errorf("condim warning: %v", w)
		}
	}
	for _, c := range []struct {
		body   string
		condim int
	}{{"a", 1}, {"b", 1}} {
		b := s.Bodies[sceneIndex(t, s, c.body)]
		m := s.Materials[b.Collisions[0].Material]
		if m.Condim != c.condim || m.Friction == nil || *m.Friction != 1 || m.FrictionCombine != "max" {
			t.Errorf("body %q: material condim %d, friction %v, combine %q (want %d, 1, max)", c.body, m.Condim, m.Friction, m.FrictionCombine, c.condim)
		}
	}
	floor := false
	for _, b := range s.Bodies {
		for _, col := range b.Collisions {
			if col.Name != "floor" {
				continue
			}
			floor = true
			if m := s.Materials[col.Material]; m.Condim != 3 {
				t.Errorf("floor: material condim %d, want 3", m.Condim)
			}
		}
	}
	if !floor {
		t.Error("no collision named floor")
	}
}

// TestRefsafe: MuJoCo raises solref's time constant to two time steps
// unless <flag refsafe="disable">: a 2 kg sphere with solref (0.001, 1)
// at δt = 2 ms (alone: no pair, μ 1) gets k = κ/w = m κ with κ, τd from
// solref (T = 0.004, or 0.001)
// and the default solimp (contactRate, checked against MuJoCo's resting
// depths in TestSolrefMaterials).
func TestRefsafe(t *testing.T) {
	doc := `<mujoco>FLAG<worldbody>
  <body name="a"><freejoint/><geom type="sphere" size="0.1" mass="2" solref="0.001 1"/></body>
</worldbody></mujoco>`
	for _, c := range []struct {
		flag string
		T    float64
	}{{"", 0.004}, {`<option><flag refsafe="disable"/></option>`, 0.001}} {
		im := parseDoc(t, strings.Replace(doc, "FLAG", c.flag, 1))
		s := im.Scene
		m := s.Materials[s.Bodies[sceneIndex(t, s, "a")].Collisions[0].Material]
		kappa, tau := contactRate([]float64{c.T, 1}, []float64{0.9, 0.95, 0.001, 0.5, 2}, 0, 9.81)
		if want := 2 * kappa; math.Abs(*m.Stiffness-want) > 1e-9*want || math.Abs(*m.Dissipation-tau) > 1e-12 {
			t.Errorf("%q: k %v τd %v, want %v %v", c.flag, *m.Stiffness, *m.Dissipation, want, tau)
		}
	}
}

// TestOptionFlagsCompound: <flag> applies to each joint of a body with
// several joints (a compound joint's parts): with limit, frictionloss and
// passive disabled, two hinges on one body, started outside their ranges,
// swing freely; after 100 steps MuJoCo 2.2.2 has qpos
// (0.32125512026716613, 0.1782140817359589).
func TestOptionFlagsCompound(t *testing.T) {
	doc := `<mujoco>
  <compiler angle="radian"/>
  <option><flag limit="disable" frictionloss="disable" passive="disable"/></option>
  <worldbody>
    <body name="bob">
      <joint name="j1" axis="0 1 0" range="0.4 0.6" limited="true" frictionloss="1" stiffness="3"/>
      <joint name="j2" axis="1 0 0" pos="0 0 -0.1" range="-0.1 0.1" limited="true" frictionloss="1" stiffness="3"/>
      <geom type="sphere" size="0.1" pos="0 0 -0.5" mass="1.5"/>
    </body>
  </worldbody>
  <keyframe><key name="start" qpos="0.5 0.3"/></keyframe>
</mujoco>`
	im := parseDoc(t, doc)
	for _, p := range im.Scene.Bodies[sceneIndex(t, im.Scene, "bob")].Joint.Parts {
		if p.Limits != nil || p.Friction != nil || p.Stiffness != nil || p.Damping != nil {
			t.Errorf("part %s keeps limits %v, friction %v, stiffness %v", p.Name, p.Limits, p.Friction, p.Stiffness)
		}
	}
	b, sim := run(t, doc, "start")
	for range steps {
		if _, err := sim.Step(); err != nil {
			t.Fatal(err)
		}
	}
	for i, w := range []float64{0.32125512026716613, 0.1782140817359589} {
		if d := math.Abs(b.State.Q[i] - w); d > 1e-9 {
			t.Errorf("q[%d] = %.17g after %d steps, MuJoCo %.17g (|Δ| %.3g)", i, b.State.Q[i], steps, w, d)
		}
	}
}

// TestGeomPriority: a geom's priority goes to its material
// (scene Material.Priority → contact.Material.Priority, so that a pair of
// different priorities takes the higher geom's parameters, as MuJoCo
// 2.2.2's mj_contactParam), from the geom or its default class; a
// non-integer priority is an error naming the attribute.
func TestGeomPriority(t *testing.T) {
	im := parseDoc(t, `<mujoco>
  <default><default class="p"><geom priority="2"/></default></default>
  <worldbody>
    <geom type="plane" size="1 1 0.1"/>
    <body name="a" pos="0 0 0.2"><freejoint/><geom type="sphere" size="0.1" priority="1" condim="6"/></body>
    <body name="b" pos="1 0 0.2"><freejoint/><geom class="p" type="sphere" size="0.1"/></body>
  </worldbody>
</mujoco>`)
	s := im.Scene
	for body, want := range map[string]int{"worldbody": 0, "a": 1, "b": 2} {
		if got := s.Materials[s.Bodies[sceneIndex(t, s, body)].Collisions[0].Material].Priority; got != want {
			t.Errorf("%s: material priority %d, want %d", body, got, want)
		}
	}
	_, err := Parse("f.xml", []byte(`<mujoco><worldbody><body><freejoint/><geom type="sphere" size="0.1" priority="1.5"/></body></worldbody></mujoco>`), model.Options{})
	if err == nil || !strings.Contains(err.Error(), "priority") || !strings.Contains(err.Error(), "f.xml") {
		t.Errorf("priority 1.5: error %v, want one naming the file and priority", err)
	}
}
