package mesh

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/stiction-sim/stiction/spatial"
)

// daeCube writes the unit cube [0, 1]³ as a COLLADA polylist (quads) or
// triangles, in a node with the given transform elements, unit and up axis.
func daeCube(prim, unit, up, transform string) []byte {
	box := boxMesh(spatial.Vec3{1, 1, 1}, spatial.Vec3{0.5, 0.5, 0.5})
	var pos, p strings.Builder
	for _, v := range box.Vertices {
		fmt.Fprintf(&pos, "%g %g %g ", v[0], v[1], v[2])
	}
	for _, t := range box.Triangles {
		fmt.Fprintf(&p, "%d 0 %d 0 %d 0 ", t[0], t[1], t[2])
	}
	n := len(box.Triangles)
	body := fmt.Sprintf(`<triangles count="%d"><input semantic="VERTEX" source="#v" offset="0"/><input semantic="NORMAL" source="#n" offset="1"/><p>%s</p></triangles>`, n, p.String())
	if prim == "polylist" {
		vc := strings.Repeat("3 ", n)
		body = fmt.Sprintf(`<polylist count="%d"><input semantic="VERTEX" source="#v" offset="0"/><input semantic="NORMAL" source="#n" offset="1"/><vcount>%s</vcount><p>%s</p></polylist>`, n, vc, p.String())
	}
	return []byte(fmt.Sprintf(`<?xml version="1.0"?>
<COLLADA xmlns="http://www.collada.org/2005/11/COLLADASchema" version="1.4.1">
<asset><unit meter="%s"/><up_axis>%s</up_axis></asset>
<library_geometries><geometry id="g"><mesh>
<source id="p"><float_array id="pa" count="%d">%s</float_array><technique_common><accessor source="#pa" count="%d" stride="3"/></technique_common></source>
<source id="n"><float_array id="na" count="3">0 0 1</float_array></source>
<vertices id="v"><input semantic="POSITION" source="#p"/></vertices>
%s
</mesh></geometry></library_geometries>
<library_visual_scenes><visual_scene id="s"><node id="a">%s<instance_geometry url="#g"/></node></visual_scene></library_visual_scenes>
<scene><instance_visual_scene url="#s"/></scene></COLLADA>`, unit, up, 3*len(box.Vertices), pos.String(), len(box.Vertices), body, transform))
}

// TestDAE reads a cube through triangles and polylists, units, up axes and
// node transforms, and checks its volume and bounds.
func TestDAE(t *testing.T) {
	for _, c := range []struct {
		name, prim, unit, up, transform string
		lo, hi                          spatial.Vec3
		volume                          float64
	}{
		{"triangles", "triangles", "1", "Z_UP", "", spatial.Vec3{0, 0, 0}, spatial.Vec3{1, 1, 1}, 1},
		{"polylist cm", "polylist", "0.01", "Z_UP", "", spatial.Vec3{0, 0, 0}, spatial.Vec3{0.01, 0.01, 0.01}, 1e-6},
		{"Y_UP", "triangles", "1", "Y_UP", "", spatial.Vec3{0, -1, 0}, spatial.Vec3{1, 0, 1}, 1},
		{"translate scale", "polylist", "1", "Z_UP", `<translate>1 2 3</translate><scale>2 1 1</scale>`, spatial.Vec3{1, 2, 3}, spatial.Vec3{3, 3, 4}, 2},
		{"matrix rotate", "triangles", "1", "Z_UP", `<matrix>1 0 0 5 0 1 0 0 0 0 1 0 0 0 0 1</matrix><rotate>0 0 1 90</rotate>`, spatial.Vec3{4, 0, 0}, spatial.Vec3{5, 1, 1}, 1},
	} {
		m, err := ReadDAE(c.name+".dae", daeCube(c.prim, c.unit, c.up, c.transform))
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		lo, hi := m.Vertices[0], m.Vertices[0]
		for _, v := range m.Vertices {
			for i := range 3 {
				lo[i], hi[i] = math.Min(lo[i], v[i]), math.Max(hi[i], v[i])
			}
		}
		p, err := m.MassProperties()
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if lo.Sub(c.lo).Norm() > 1e-12 || hi.Sub(c.hi).Norm() > 1e-12 || math.Abs(p.Volume-c.volume) > 1e-12*c.volume {
			t.Errorf("%s: bounds %v–%v, volume %g; want %v–%v, %g", c.name, lo, hi, p.Volume, c.lo, c.hi, c.volume)
		}
	}
	for _, bad := range []struct{ text, msg string }{
		{`<COLLADA><asset><unit meter="-1"/></asset></COLLADA>`, "unit meter"},
		{`<COLLADA><library_geometries><geometry id="g"><mesh><source id="p"><float_array>0 0 0 1 0 0 0 1 0</float_array></source><vertices id="v"><input semantic="POSITION" source="#p"/></vertices><triangles><input semantic="VERTEX" source="#v" offset="0"/><p>0 1 7</p></triangles></mesh></geometry></library_geometries></COLLADA>`, "out of range"},
		{`<COLLADA><library_geometries/></COLLADA>`, "triangles"},
	} {
		if _, err := ReadDAE("bad.dae", []byte(bad.text)); err == nil || !strings.Contains(err.Error(), bad.msg) {
			t.Errorf("%s: error %v, want one naming %q", bad.text, err, bad.msg)
		}
	}
}

// FuzzDAE is FuzzSTL for the COLLADA reader.
func FuzzDAE(f *testing.F) {
	f.Add(daeCube("triangles", "1", "Z_UP", ""))
	f.Add(daeCube("polylist", "0.001", "Y_UP", `<translate>1 2 3</translate><rotate>1 0 0 30</rotate>`))
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := ReadDAE("fuzz.dae", data)
		if err == nil {
			if err := m.Validate(); err != nil {
				t.Fatalf("accepted an invalid mesh: %v", err)
			}
			_, _ = m.MassProperties()
		}
	})
}

// TestDAEHector reads hector_quadrotor's body (example-robot-data, a
// COLLADA file exported by SketchUp): 300 vertices, 540 triangles, the
// rotor arms spanning ±0.3956 m in x and y.
func TestDAEHector(t *testing.T) {
	m, err := Load("../urdf/testdata/example-robot-data/robots/hector_description/meshes/quadrotor/quadrotor_base.dae")
	if err != nil {
		t.Fatal(err)
	}
	lo, hi := m.Vertices[0], m.Vertices[0]
	for _, v := range m.Vertices {
		for i := range 3 {
			lo[i], hi[i] = math.Min(lo[i], v[i]), math.Max(hi[i], v[i])
		}
	}
	if len(m.Vertices) != 300 || len(m.Triangles) != 540 || math.Abs(hi[0]-0.395567043816) > 1e-12 || math.Abs(lo[1]+0.395567043816) > 1e-12 {
		t.Errorf("%d vertices, %d triangles, bounds %v–%v", len(m.Vertices), len(m.Triangles), lo, hi)
	}
}
