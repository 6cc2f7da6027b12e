package urdf

import (
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stiction-sim/stiction/model"
	"github.com/stiction-sim/stiction/scene"
	"github.com/stiction-sim/stiction/spatial"
)

// parseOK imports a URDF document and builds it, failing the test on an
// error; it returns the import and its warnings joined.
func parseOK(t *testing.T, doc string, opts model.Options) (*model.Import, *scene.Built, string) {
	t.Helper()
	im, err := Parse("testdata/r.urdf", []byte(doc), opts)
	if err != nil {
		t.Fatal(err)
	}
	b, err := scene.Build(im.Scene)
	if err != nil {
		t.Fatal(err)
	}
	var w []string
	for _, x := range im.Warnings {
		w = append(w, x.String())
	}
	return im, b, strings.Join(w, "\n")
}

const pendulumLink = `<link name="b"><inertial><origin xyz="0 0 -1"/><mass value="2"/><inertia ixx="0.1" iyy="0.1" izz="0.1"/></inertial></link>`

// TestWorldRoot: a root link named world is the world; the fixed joint to
// it places the base, which is fixed (DART and Pinocchio read it so).
func TestWorldRoot(t *testing.T) {
	doc := `<robot name="r"><link name="world"/>
<link name="base"><inertial><mass value="4"/><inertia ixx="1" iyy="1" izz="1"/></inertial></link>` + pendulumLink + `
<joint name="fix" type="fixed"><origin xyz="0 0 0.5"/><axis xyz="0 0 0"/><parent link="world"/><child link="base"/></joint>
<joint name="j" type="revolute"><axis xyz="0 1 0"/><limit lower="-1" upper="1"/><parent link="base"/><child link="b"/></joint></robot>`
	im, b, _ := parseOK(t, doc, model.Options{})
	if len(im.Scene.Bodies) != 2 || !im.Scene.Bodies[0].Fixed || im.Scene.Bodies[0].Name != "base" {
		t.Fatalf("bodies %+v, want a fixed base and b", im.Scene.Bodies)
	}
	if b.Model.NV != 1 {
		t.Errorf("%d dofs, want 1", b.Model.NV)
	}
	x := b.Model.BodyPose(b.State, b.Model.BodyByName("b"))
	if math.Abs(x.P[2]-0.5) > 1e-15 {
		t.Errorf("b at %v, want z = 0.5 (the weld's origin)", x.P)
	}
	// A revolute joint straight to the world link.
	doc2 := `<robot name="r"><link name="world"/>` + pendulumLink + `
<joint name="j" type="revolute"><axis xyz="0 1 0"/><limit lower="-1" upper="1"/><parent link="world"/><child link="b"/></joint></robot>`
	_, b2, _ := parseOK(t, doc2, model.Options{})
	if b2.Model.NV != 1 {
		t.Errorf("revolute joint to world: %d dofs, want 1", b2.Model.NV)
	}
	// Floating: the base becomes free.
	_, b3, w := parseOK(t, doc, model.Options{Floating: true})
	if b3.Model.NV != 7 {
		t.Errorf("floating: %d dofs, want 7 (%s)", b3.Model.NV, w)
	}
}

// TestInertiaRepair: non-physical inertias are projected onto the
// nearest physical ones, with a warning naming the link and the values.
func TestInertiaRepair(t *testing.T) {
	for _, c := range []struct {
		name, inertia string
		want          [3]float64 // repaired principal moments, ascending
	}{
		{"triangle", `ixx="1" iyy="1" izz="3"`, [3]float64{4.0 / 3, 4.0 / 3, 8.0 / 3}},
		{"negative", `ixx="-3.5e-8" iyy="1" izz="1"`, [3]float64{1e-6, 1, 1}},
		{"zero", `ixx="0" iyy="0" izz="0"`, [3]float64{}},
	} {
		doc := `<robot name="r"><link name="a"/><link name="b"><inertial><mass value="2"/><inertia ` + c.inertia + `/></inertial></link>
<joint name="j" type="continuous"><axis xyz="0 1 0"/><parent link="a"/><child link="b"/></joint></robot>`
		im, _, w := parseOK(t, doc, model.Options{})
		if !strings.Contains(w, `link "b": inertia`) || !strings.Contains(w, "is not physical") {
			t.Errorf("%s: warnings %q do not report the repair", c.name, w)
		}
		l := im.Links[1]
		if l.Repaired == "" {
			t.Errorf("%s: Link.Repaired empty", c.name)
		}
		ev, _ := eigSym(l.Inertia)
		sortAsc(&ev)
		want := c.want
		if c.name == "zero" {
			k := sphereInertia(2)[0][0]
			want = [3]float64{k, k, k}
		}
		for i := range 3 {
			if math.Abs(ev[i]-want[i]) > 1e-12*math.Max(1, want[2]) {
				t.Errorf("%s: moments %v, want %v", c.name, ev, want)
				break
			}
		}
	}
	// A physical inertia is kept exactly.
	I := spatial.Mat3{{1, 0.1, 0}, {0.1, 2, 0}, {0, 0, 2.5}}
	if J, msg := repairInertia(I, 1); msg != "" || J != I {
		t.Errorf("physical inertia changed: %v %q", J, msg)
	}
}

func sortAsc(v *[3]float64) {
	for i := range 3 {
		for j := i + 1; j < 3; j++ {
			if v[j] < v[i] {
				v[i], v[j] = v[j], v[i]
			}
		}
	}
}

// TestSloppyFilesLoad: what real files write and other libraries accept
// loads, with a warning.
func TestSloppyFilesLoad(t *testing.T) {
	massless := `<robot name="r"><link name="a"/><link name="b"><inertial><mass value="0"/><inertia ixx="0.01" iyy="0.01" izz="0.01"/></inertial></link>` + strings.Replace(pendulumLink, `"b"`, `"c.0"`, 1) + `
<joint name="j" type="continuous"><axis xyz="0 1 0"/><parent link="a"/><child link="b"/></joint>
<joint name="k" type="continuous"><axis xyz="0 1 0"/><parent link="b"/><child link="c.0"/><mimic joint="nowhere"/></joint>
<joint name="f" type="fixed"><axis xyz="0 0 0"/><parent link="a"/><child link="d"/></joint><link name="d"/>
<joint name="m" type="continuous"><axis xyz="0 1 0"/><parent link="a"/><child link="e"/><mimic joint="f"/></joint>` + strings.Replace(pendulumLink, `"b"`, `"e"`, 1) + `
<transmission name="t0"><type>transmission_interface/SimpleTransmission</type></transmission>
<transmission name="t2"><joint name="j"/><joint name="k"/></transmission>
<transmission name="t3"><joint name="zz"/></transmission></robot>`
	im, b, w := parseOK(t, massless, model.Options{})
	for _, s := range []string{
		`link "b" has no mass but moves on its continuous joint "j": no mass on a moving joint: mass 1e-09 kg, its inertia kept`,
		`link "c.0" renamed "c_0"`,
		`"nowhere", which is not a joint of this file: the mimic is skipped`,
		`"f" is fixed`,
		`transmission "t0" has 0 <joint>s`,
		`transmission "t2" has 2 <joint>s`,
		`transmission "t3" drives "zz", which is not a joint of this file`,
	} {
		if !strings.Contains(w, s) {
			t.Errorf("no warning %q in\n%s", s, w)
		}
	}
	if b.Model.NV != 3 || len(im.Scene.Constraints) != 0 || len(im.Scene.Actuators) != 0 {
		t.Errorf("%d dofs, %d constraints, %d actuators; want 3, 0, 0", b.Model.NV, len(im.Scene.Constraints), len(im.Scene.Actuators))
	}
	// The massless link keeps its inertia: M about j is 0.01 + c's.
	bi := b.Model.Bodies[b.Model.BodyByName("b")]
	if got := bi.Inertia.Icom[0][0]; got != 0.01 {
		t.Errorf("b's inertia %g, want 0.01 as written", got)
	}
}

// TestPackageURIs: package:///PKG/... is read as package://PKG/..., and
// ROS_PACKAGE_PATH lists package roots.
func TestPackageURIs(t *testing.T) {
	dir := t.TempDir()
	mesh := "solid s\nfacet normal 0 0 1\nouter loop\nvertex 0 0 0\nvertex 1 0 0\nvertex 0 1 0\nendloop\nendfacet\nfacet normal 0 0 1\nouter loop\nvertex 0 0 0\nvertex 0 1 0\nvertex 0 0 1\nendloop\nendfacet\nendsolid s\n"
	if err := writeFile(dir+"/mypkg/m.STL", mesh); err != nil {
		t.Fatal(err)
	}
	t.Setenv("ROS_PACKAGE_PATH", dir)
	doc := `<robot name="r"><link name="a"><visual><geometry><mesh filename="package:///mypkg/m.STL"/></geometry></visual></link></robot>`
	im, _, w := parseOK(t, doc, model.Options{})
	if !strings.Contains(w, `read as package://mypkg/m.STL`) {
		t.Errorf("warnings %q", w)
	}
	if f := im.Scene.Bodies[0].Visuals[0].Shape.File; f != dir+"/mypkg/m.STL" {
		t.Errorf("mesh resolved to %q", f)
	}
	t.Setenv("ROS_PACKAGE_PATH", "")
	if _, err := Parse("testdata/r.urdf", []byte(doc), model.Options{}); err == nil || !strings.Contains(err.Error(), `package "mypkg" not found`) {
		t.Errorf("without ROS_PACKAGE_PATH: %v", err)
	}
}

func writeFile(path, text string) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return os.WriteFile(path, []byte(text), 0o644)
}

// TestMasslessShapedLinkMass: a massless link on a moving joint that has
// collision shapes gets ShapedMinMass of its nearest massive ancestor's
// mass (through massless links), with the inertia of a solid sphere of
// that mass holding its shapes; one without shapes gets MinMass.
func TestMasslessShapedLinkMass(t *testing.T) {
	doc := `<robot name="r">
<link name="a"><inertial><mass value="2"/><inertia ixx="0.1" iyy="0.1" izz="0.1"/></inertial></link>
<link name="b"><collision><geometry><box size="0.02 0.02 0.02"/></geometry></collision></link>
<link name="c"><inertial><mass value="0"/><inertia ixx="0" iyy="0" izz="0"/></inertial><collision><origin xyz="0.03 0 0"/><geometry><sphere radius="0.01"/></geometry></collision></link>
<link name="d"/>
<joint name="j" type="revolute"><axis xyz="0 1 0"/><limit lower="-1" upper="1" effort="1" velocity="1"/><parent link="a"/><child link="b"/></joint>
<joint name="k" type="revolute"><axis xyz="0 1 0"/><limit lower="-1" upper="1" effort="1" velocity="1"/><parent link="b"/><child link="c"/></joint>
<joint name="l" type="continuous"><axis xyz="0 1 0"/><parent link="a"/><child link="d"/></joint></robot>`
	_, b, w := parseOK(t, doc, model.Options{})
	want := map[string]struct{ m, r float64 }{
		"b": {ShapedMinMass * 2, math.Sqrt(3) * 0.01},
		"c": {ShapedMinMass * 2, 0.04},
		"d": {MinMass, math.Cbrt(3 * MinMass / (4 * math.Pi * 1000))},
	}
	for name, x := range want {
		bi := b.Model.Bodies[b.Model.BodyByName(name)].Inertia
		if math.Abs(bi.Mass-x.m) > 1e-15*x.m {
			t.Errorf("%s: mass %g, want %g", name, bi.Mass, x.m)
		}
		if I := 0.4 * x.m * x.r * x.r; math.Abs(bi.Icom[0][0]-I) > 1e-9*I {
			t.Errorf("%s: inertia %g, want %g", name, bi.Icom[0][0], I)
		}
		if !strings.Contains(w, `link "`+name+`" has no mass but moves`) {
			t.Errorf("no warning for %s in\n%s", name, w)
		}
	}
}

// TestMissingMeshSkipped: a mesh file that does not exist is skipped with
// a warning naming it (as ROS tools do, where DART and Drake refuse the
// file); a mesh that Options.Access refuses is still an error.
func TestMissingMeshSkipped(t *testing.T) {
	doc := `<robot name="r"><link name="a"><inertial><mass value="1"/><inertia ixx="1" iyy="1" izz="1"/></inertial>
<visual><geometry><mesh filename="file:///nowhere/v.stl"/></geometry></visual>
<collision><geometry><mesh filename="package://pkg/meshes/c.stl"/></geometry></collision>
<collision><geometry><box size="1 1 1"/></geometry></collision></link></robot>`
	dir := t.TempDir()
	if err := writeFile(dir+"/pkg/package.xml", "<package><name>pkg</name></package>"); err != nil {
		t.Fatal(err)
	}
	im, err := Parse(dir+"/pkg/urdf/r.urdf", []byte(doc), model.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var ws []string
	for _, x := range im.Warnings {
		ws = append(ws, x.String())
	}
	w := strings.Join(ws, "\n")
	for _, s := range []string{
		"file /nowhere/v.stl not found: this <visual> is skipped",
		`package "pkg" found, but not the file`,
		"this <collision> is skipped: the link has no contact shape there",
	} {
		if !strings.Contains(w, s) {
			t.Errorf("no warning %q in\n%s", s, w)
		}
	}
	b := im.Scene.Bodies[0]
	if len(b.Visuals) != 0 || len(b.Collisions) != 1 || b.Collisions[0].Shape.Type != "box" {
		t.Errorf("%d visuals, %d collisions; want 0 and the box", len(b.Visuals), len(b.Collisions))
	}
	refuse := model.Options{Access: func(p string) (string, error) { return "", errors.New("not among the files the job carries") }}
	one := `<robot name="r"><link name="a"><visual><geometry><mesh filename="file:///nowhere/v.stl"/></geometry></visual></link></robot>`
	if _, err := Parse(dir+"/pkg/urdf/r.urdf", []byte(one), refuse); err == nil || !strings.Contains(err.Error(), "not among the files") {
		t.Errorf("refused access: %v", err)
	}
}
