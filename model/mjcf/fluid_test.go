package mjcf

import (
	"strings"
	"testing"

	"github.com/stiction-sim/stiction/model"
	"github.com/stiction-sim/stiction/scene"
)

// TestFluidShape: fluidshape="ellipsoid" geoms become the fluid's
// ellipsoids with MuJoCo's semi-axes (mju_geomSemiAxes) and fluidcoef (the
// class's, or the default 0.5 0.25 1.5 1 1); geoms of a massless body and
// of the world take none, nor does a model without a fluid; a negative
// coefficient is an error naming the attribute; a mesh warns.
func TestFluidShape(t *testing.T) {
	doc := `<mujoco><option density="1.2"/>
  <default><default class="f"><geom fluidshape="ellipsoid" fluidcoef="1 2 3 4 5"/></default></default>
  <worldbody><geom type="box" size="1 1 1" pos="0 0 -3" fluidshape="ellipsoid"/>
    <body name="a"><freejoint/>
      <geom type="capsule" size="0.1 0.3" fluidshape="ellipsoid"/>
      <geom type="cylinder" size="0.2 0.4" pos="1 0 0" class="f"/>
      <geom type="box" size="0.1 0.2 0.3"/>
      <body name="b" pos="0 0 1"><geom type="sphere" size="0.5" fluidshape="ellipsoid"/></body>
      <body name="c" pos="0 0 2"><geom type="sphere" size="0.5" mass="0" fluidshape="ellipsoid"/></body>
    </body></worldbody></mujoco>`
	im, err := Parse("fluid.xml", []byte(doc), model.Options{})
	if err != nil {
		t.Fatal(err)
	}
	f := im.Scene.Fluid
	if f == nil || len(f.Ellipsoids) != 3 {
		t.Fatalf("fluid %+v: want 3 ellipsoids", f)
	}
	want := []struct {
		body string
		semi scene.Vec
		coef [5]float64
	}{
		{"a", scene.Vec{0.1, 0.1, 0.4}, [5]float64{0.5, 0.25, 1.5, 1, 1}},
		{"a", scene.Vec{0.2, 0.2, 0.4}, [5]float64{1, 2, 3, 4, 5}},
		{"b", scene.Vec{0.5, 0.5, 0.5}, [5]float64{0.5, 0.25, 1.5, 1, 1}},
	}
	for i, w := range want {
		e := f.Ellipsoids[i]
		if e.Body != w.body || e.SemiAxes != w.semi || e.Coefs == nil || *e.Coefs != w.coef {
			t.Errorf("ellipsoid %d: %s %v %v, want %s %v %v", i, e.Body, e.SemiAxes, e.Coefs, w.body, w.semi, w.coef)
		}
	}
	if p := f.Ellipsoids[1].Pose.Position; p == nil || *p != (scene.Vec{1, 0, 0}) {
		t.Errorf("cylinder's pose %v, want at (1, 0, 0)", p)
	}
	if _, err := scene.Build(im.Scene); err != nil {
		t.Fatal(err)
	}
	noFluid := strings.Replace(doc, `<option density="1.2"/>`, "", 1)
	if im, err := Parse("fluid.xml", []byte(noFluid), model.Options{}); err != nil || im.Scene.Fluid != nil {
		t.Errorf("without density or viscosity: fluid %v, error %v", im.Scene.Fluid, err)
	}
	bad := strings.Replace(doc, `fluidcoef="1 2 3 4 5"`, `fluidcoef="1 2 -3 4 5"`, 1)
	if _, err := Parse("fluid.xml", []byte(bad), model.Options{}); err == nil || !strings.Contains(err.Error(), "fluidcoef") {
		t.Errorf("negative fluidcoef: error %v", err)
	}
	mesh := `<mujoco><option viscosity="0.1"/><asset><mesh name="m" vertex="0 0 0 1 0 0 0 1 0 0 0 1"/></asset>
  <worldbody><body><freejoint/><geom type="mesh" mesh="m" fluidshape="ellipsoid"/></body></worldbody></mujoco>`
	im, err = Parse("mesh.xml", []byte(mesh), model.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(im.Scene.Fluid.Ellipsoids) != 0 || !strings.Contains(strings.Join(warningTexts(im), "\n"), "fluidshape") {
		t.Errorf("mesh: ellipsoids %v, warnings %v", im.Scene.Fluid.Ellipsoids, im.Warnings)
	}
}

func warningTexts(im *model.Import) []string {
	var out []string
	for _, w := range im.Warnings {
		out = append(out, w.String())
	}
	return out
}
