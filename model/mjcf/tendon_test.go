package mjcf

import (
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/stiction-sim/stiction/model"
	"github.com/stiction-sim/stiction/scene"
)

// TestFixedTendonImport: a <fixed> tendon over a compound joint's second
// part and a hinge becomes a scene tendon with its coefficients, dofs,
// stiffness, damping, default spring length (Σ coef·springref, MuJoCo
// 2.2.2's length at qpos_spring) and range; actuators on it take its name;
// a <spatial> tendon becomes a path through its sites' bodies and points
// with a motor on it; an actuator on a ball joint takes the gear's first
// three values as its torque (joint_gear), and so does one on a ball part
// of a body with several joints, with the part's first velocity as its
// dof; one with gear[0] = 0 on a hinge warns; a 6-value gear on a hinge
// uses its first value.
func TestFixedTendonImport(t *testing.T) {
	doc := `<mujoco><compiler angle="radian"/><worldbody>
  <body name="a"><joint name="s" type="slide" axis="1 0 0"/><joint name="h" axis="0 1 0" springref="0.2"/>
    <geom type="sphere" size="0.1"/>
    <body name="b" pos="0.3 0 0"><joint name="k" axis="0 1 0" springref="-0.1"/><geom type="sphere" size="0.1"/><site name="s1"/></body>
    <body name="c" pos="0 0.3 0"><joint name="ball" type="ball"/><geom type="sphere" size="0.1"/><site name="s2"/></body></body>
    <body name="d"><joint type="slide" axis="0 0 1"/><joint name="pb" type="ball"/><geom type="sphere" size="0.1"/></body>
  </worldbody>
  <tendon>
    <fixed name="t" stiffness="3" damping="0.5" range="-0.4 0.6"><joint joint="h" coef="2"/><joint joint="k" coef="-1"/></fixed>
    <fixed name="u" springlength="0.7" stiffness="1"><joint joint="s"/></fixed>
    <spatial name="rope"><site site="s1"/><site site="s2"/></spatial>
  </tendon>
  <actuator>
    <position name="servo" tendon="t" kp="4"/>
    <general name="bias" tendon="u" biastype="affine" biasprm="0.5 -1 0" gear="2 0 0 0 0 1"/>
    <motor name="onrope" tendon="rope"/>
    <motor name="onball" joint="ball" gear="0 0 1"/>
    <motor name="onpart" joint="pb" gear="0 0 1"/>
    <motor name="nogear" joint="k" gear="0 1 0 0 0 0"/>
    <motor name="six" joint="k" gear="3 0 0 0 0 1"/>
  </actuator></mujoco>`
	im, err := Parse("tendon.xml", []byte(doc), model.Options{})
	if err != nil {
		t.Fatal(err)
	}
	ts := im.Scene.Tendons
	if len(ts) != 3 {
		t.Fatalf("%d tendons, want 3: %+v", len(ts), ts)
	}
	if r := ts[2]; r.Name != "rope" || len(r.Joints) != 0 || len(r.Path) != 2 || r.Path[0].Body != "b" || r.Path[1].Body != "c" || r.Stiffness != nil || r.Limits != nil {
		t.Errorf("tendon rope: %+v", r)
	}
	tt := ts[0]
	if tt.Name != "t" || len(tt.Joints) != 2 || tt.Joints[0].Joint != "a" || tt.Joints[0].DOF == nil || *tt.Joints[0].DOF != 1 ||
		tt.Joints[0].Coef != 2 || tt.Joints[1].Joint != "b" || tt.Joints[1].DOF != nil || tt.Joints[1].Coef != -1 {
		t.Errorf("tendon t joints: %+v", tt.Joints)
	}
	if *tt.Stiffness != 3 || *tt.Damping != 0.5 || math.Abs(*tt.RestLength-0.5) > 1e-15 {
		t.Errorf("tendon t: stiffness %v damping %v rest length %v, want 3, 0.5, 2·0.2 + 0.1 = 0.5", *tt.Stiffness, *tt.Damping, *tt.RestLength)
	}
	if l := tt.Limits; l == nil || *l.Lower != -0.4 || *l.Upper != 0.6 || len(l.SolRef) != 2 || l.SolRef[0] != 0.02 || len(l.SolImp) != 5 {
		t.Errorf("tendon t limits: %+v (want MuJoCo's default solreflimit and solimplimit)", l)
	}
	if u := ts[1]; *u.RestLength != 0.7 || u.Joints[0].Coef != 1 || u.Limits != nil {
		t.Errorf("tendon u: %+v", u)
	}
	byName := map[string]scene.Actuator{}
	for _, a := range im.Scene.Actuators {
		byName[a.Name] = a
	}
	if a := byName["servo"]; a.Tendon != "t" || a.Joint != "" || a.Type != "position" || *a.Kp != 4 {
		t.Errorf("servo: %+v", a)
	}
	if a := byName["bias"]; a.Tendon != "u" || a.Type != "general" || *a.Gain != 1 || len(a.Bias) != 3 || a.Bias[0] != 0.5 || a.Bias[1] != -1 || *a.Gear != 2 {
		t.Errorf("bias: %+v", a)
	}
	if a := byName["six"]; a.Joint != "b" || a.Type != "motor" || *a.Gear != 3 {
		t.Errorf("six: %+v", a)
	}
	if a := byName["onrope"]; a.Tendon != "rope" || a.Type != "motor" {
		t.Errorf("onrope: %+v", a)
	}
	if a := byName["onball"]; a.Joint != "c" || a.Type != "motor" || !slices.Equal(a.JointGear, []float64{0, 0, 1}) || a.GearInParent || a.DOF != nil {
		t.Errorf("onball: %+v", a)
	}
	if a := byName["onpart"]; a.Joint != "d" || a.Type != "motor" || !slices.Equal(a.JointGear, []float64{0, 0, 1}) || a.DOF == nil || *a.DOF != 1 {
		t.Errorf("onpart: %+v", a)
	}
	if _, ok := byName["nogear"]; ok {
		t.Errorf("nogear is simulated")
	}
	var warned []string
	for _, w := range im.Warnings {
		warned = append(warned, w.String())
	}
	all := strings.Join(warned, "\n")
	if strings.Contains(all, "rope") {
		t.Errorf("a warning names the spatial tendon: %s", all)
	}
	if strings.Contains(all, `"pb"`) {
		t.Errorf("a warning names the ball part's actuator:\n%s", all)
	}
	for _, want := range []string{`joint "k" not simulated: gear[0] = 0`} {
		if !strings.Contains(all, want) {
			t.Errorf("no warning containing %q in:\n%s", want, all)
		}
	}
	b, err := scene.Build(im.Scene)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(b.Config.Constraints.TendonLimits); n != 1 {
		t.Errorf("%d tendon limits built, want 1", n)
	}
}

// TestTendonImportErrors: errors name the file, line and attribute.
func TestTendonImportErrors(t *testing.T) {
	body := `<worldbody><body><joint name="h" axis="0 1 0"/><joint name="b" type="ball" pos=".1 0 0"/><geom type="sphere" size="0.1"/></body></worldbody>`
	for _, c := range []struct{ xml, want string }{
		{`<tendon><fixed><joint joint="nope"/></fixed></tendon>`, `tendon.xml:1: <joint> joint="nope": no joint of this name`},
		{`<tendon><fixed><joint joint="b"/></fixed></tendon>`, `a fixed tendon takes hinge and slide joints; "b" is a ball joint`},
		{`<tendon><fixed name="t"/></tendon>`, `a fixed tendon needs at least one <joint>`},
		{`<tendon><fixed name="t" range="1 0"><joint joint="h"/></fixed></tendon>`, `range="1 0": lower bound above the upper bound`},
		{`<actuator><motor tendon="x"/></actuator>`, `tendon="x": no tendon of this name`},
		{`<tendon><fixed name="t"><joint joint="h"/></fixed></tendon><actuator><motor tendon="t" joint="h"/></actuator>`, `joint and tendon given`},
	} {
		_, err := Parse("tendon.xml", []byte("<mujoco>"+body+c.xml+"</mujoco>"), model.Options{})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want %q", c.xml, err, c.want)
		}
	}
}

// TestVertexMeshAndWeldedMass: a <mesh vertex> is the convex hull of its
// points (a unit cube from 8 corners and an interior point, scaled to
// 1 × 2 × 1: 2000 kg at density 1000, centred), and a free body without mass whose welded child
// carries the mesh takes the child's mass properties (MuJoCo's
// tumbling_thin_object).
func TestVertexMeshAndWeldedMass(t *testing.T) {
	doc := `<mujoco><asset><mesh name="cube" vertex="0 0 0 1 0 0 0 1 0 1 1 0 0 0 1 1 0 1 0 1 1 1 1 1 0.5 0.5 0.5" scale="1 2 1"/></asset>
  <worldbody><body name="carrier" pos="0 0 1"><freejoint/>
    <body name="shell" pos="1 0 0"><geom type="mesh" mesh="cube"/></body></body></worldbody></mujoco>`
	im, err := Parse("mesh.xml", []byte(doc), model.Options{})
	if err != nil {
		t.Fatal(err)
	}
	// MuJoCo 2.2.2 (mj_loadXML: body_mass, body_ipos of shell) puts the
	// centre of mass 7.45e-9 off the cube's centre: its triangle centres
	// are single-precision thirds (meshmass.go).
	c := im.Scene.Bodies[0]
	want := [3]float64{1 + 0.5000000074505805, 1.000000014901161, 0.5000000074505805}
	if c.Name != "carrier" || c.Mass == nil || math.Abs(*c.Mass-1999.9999999999995) > 1e-9 || c.COM == nil ||
		math.Abs(c.COM[0]-want[0]) > 1e-15 || math.Abs(c.COM[1]-want[1]) > 1e-15 || math.Abs(c.COM[2]-want[2]) > 1e-15 {
		t.Fatalf("carrier: mass %v, com %v; want MuJoCo's 2000 kg at %v", c.Mass, c.COM, want)
	}
	if s := im.Scene.Bodies[1]; s.Mass != nil || s.Inertia != nil {
		t.Errorf("shell keeps mass properties %v %v", s.Mass, s.Inertia)
	}
	b, err := scene.Build(im.Scene)
	if err != nil {
		t.Fatal(err)
	}
	g := b.Model.Geometries[0]
	if v := g.Shape.Volume(); math.Abs(v-2) > 1e-12 {
		t.Errorf("hull volume %v, want 2 (the interior point is dropped)", v)
	}
}

// TestTendonEquality: <equality><tendon> on a fixed tendon over two joints
// is a coupler q1 = −(c2/c1) q2 + a0/c1 on MuJoCo's row (scale c1), over
// joints of any number of trees the coupler Σ c_k q_k = a0 (coefs; checked
// against MuJoCo in internal/mjref), both MuJoCo's soft constraint with
// its weight; with tendon2 it warns.
func TestTendonEquality(t *testing.T) {
	doc := `<mujoco><worldbody>
  <body name="a"><joint name="ja" axis="0 1 0"/><geom type="sphere" size="0.1"/></body>
  <body name="b" pos="1 0 0"><joint name="jb" axis="0 1 0"/><geom type="sphere" size="0.1"/></body>
  <body name="c" pos="2 0 0"><joint name="jc" axis="0 1 0"/><geom type="sphere" size="0.1"/></body></worldbody>
  <tendon><fixed name="two"><joint joint="ja" coef="-.5"/><joint joint="jb" coef="2"/></fixed>
    <fixed name="three"><joint joint="ja"/><joint joint="jb"/><joint joint="jc"/></fixed></tendon>
  <equality><tendon name="eq" tendon1="two" polycoef="0.1 1 0 0 0"/><tendon tendon1="three"/><tendon tendon1="two" tendon2="three"/></equality>
</mujoco>`
	im, err := Parse("teq.xml", []byte(doc), model.Options{})
	if err != nil {
		t.Fatal(err)
	}
	cs := im.Scene.Constraints
	if len(cs) != 2 {
		t.Fatalf("%d constraints, want 2: %+v", len(cs), cs)
	}
	if c3 := cs[1]; c3.Type != "coupler" || len(c3.Joints) != 3 || len(c3.Coefs) != 3 {
		t.Errorf("tendon equality over three trees: %+v, want a coupler over the three joints", c3)
	}
	c := cs[0]
	// MuJoCo's soft constraint on the row −0.5 q_a + 2 q_b − 0.1 (scale
	// −0.5), weighted by tendon_invweight0 = Σ c_i²/I_i at qpos0 (two
	// independent hinges, each a 0.1 m sphere of density 1000 on its axis).
	I := 0.4 * 1000 * 4.0 / 3.0 * math.Pi * 1e-3 * 0.01
	w := (0.25 + 4) / I
	if c.Type != "coupler" || c.Joints[0] != "a" || c.Joints[1] != "b" || *c.Ratio != 4 || math.Abs(*c.Offset+0.2) > 1e-15 ||
		c.Stiffness != nil || len(c.SolRef) != 2 || c.SolRef[0] != 0.02 || c.Scale == nil || *c.Scale != -0.5 || c.Weight == nil || math.Abs(*c.Weight-w) > 1e-12*w {
		t.Errorf("coupler %+v: want a = 4 b − 0.2, MuJoCo's soft constraint with solref 0.02 1, scale −0.5 and weight %.12g", c, w)
	}
	if _, err := scene.Build(im.Scene); err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, w := range im.Warnings {
		if strings.Contains(w.String(), "tendon equality not simulated") {
			n++
		}
	}
	if n != 1 {
		t.Errorf("%d warnings for the unsupported tendon equalities, want 1 (tendon2): %v", n, im.Warnings)
	}
}

// TestTendonMarginImport: a limited tendon's margin becomes its limits'
// Margin, fixed or spatial, without a warning; an unlimited tendon's margin
// has no effect (as in MuJoCo) and does not warn either; a malformed one is
// an error naming the file, line and attribute.
func TestTendonMarginImport(t *testing.T) {
	doc := `<mujoco><worldbody><site name="w"/>
  <body><joint name="a" type="hinge"/><geom type="sphere" size="0.1"/><site name="s" pos="0 0 -1"/></body></worldbody>
  <tendon>
    <fixed name="f" limited="true" range="-1 1" margin="0.1"><joint joint="a" coef="1"/></fixed>
    <spatial name="p" limited="true" range="0 2" margin="0.05"><site site="w"/><site site="s"/></spatial>
    <fixed name="u" margin="0.3"><joint joint="a" coef="1"/></fixed>
  </tendon></mujoco>`
	im, err := Parse("f.xml", []byte(doc), model.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]float64{"f": 0.1, "p": 0.05} {
		tn := im.Scene.Tendon(name)
		if tn == nil || tn.Limits == nil || tn.Limits.Margin == nil || *tn.Limits.Margin != want {
			t.Errorf("tendon %s: %+v, want limits with margin %v", name, tn, want)
		}
	}
	if u := im.Scene.Tendon("u"); u == nil || u.Limits != nil {
		t.Errorf("unlimited tendon u: %+v, want no limits", u)
	}
	for _, w := range im.Warnings {
		if w.Attribute == "margin" {
			t.Errorf("margin warns: %s", w)
		}
	}
	_, err = Parse("f.xml", []byte(`<mujoco><worldbody><body><joint name="a" type="hinge"/><geom type="sphere" size="0.1"/></body></worldbody>
  <tendon><fixed limited="true" range="-1 1" margin="wide"><joint joint="a" coef="1"/></fixed></tendon></mujoco>`), model.Options{})
	if err == nil || !strings.Contains(err.Error(), "f.xml:2") || !strings.Contains(err.Error(), `margin="wide"`) {
		t.Errorf("malformed margin: error %v, want one naming f.xml:2 and margin=\"wide\"", err)
	}
}
