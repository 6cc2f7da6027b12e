package mesh

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stiction-sim/stiction/model/embedded"
	"github.com/stiction-sim/stiction/spatial"
)

// boxMesh returns a closed, outward-wound box with the given full sides,
// centred at c.
func boxMesh(size, c spatial.Vec3) *Mesh {
	m := &Mesh{}
	for i := range 8 {
		v := spatial.Vec3{float64(i&1) - 0.5, float64(i>>1&1) - 0.5, float64(i>>2&1) - 0.5}
		m.Vertices = append(m.Vertices, v.Mul(size).Add(c))
	}
	// Faces as quads (outward normal by the right-hand rule), split in two.
	for _, q := range [6][4]int32{{0, 2, 3, 1}, {4, 5, 7, 6}, {0, 1, 5, 4}, {2, 6, 7, 3}, {0, 4, 6, 2}, {1, 3, 7, 5}} {
		m.Triangles = append(m.Triangles, [3]int32{q[0], q[1], q[2]}, [3]int32{q[0], q[2], q[3]})
	}
	return m
}

func near(a, b, tol float64) bool { return math.Abs(a-b) <= tol*math.Max(1, math.Abs(b)) }

// TestBoxMassProperties checks the divergence-theorem integrals against the
// closed form of a box: V = abc, I = V(b²+c², a²+c², a²+b²)/12, off-centre
// and rotated.
func TestBoxMassProperties(t *testing.T) {
	size, c := spatial.Vec3{0.3, 0.5, 1.1}, spatial.Vec3{2, -1, 0.5}
	p, err := boxMesh(size, c).MassProperties()
	if err != nil {
		t.Fatal(err)
	}
	a, b, h := size[0], size[1], size[2]
	V := a * b * h
	want := spatial.Diag3(spatial.Vec3{b*b + h*h, a*a + h*h, a*a + b*b}.Scale(V / 12))
	if !near(p.Volume, V, 1e-14) || p.COM.Sub(c).Norm() > 1e-14 {
		t.Errorf("volume %v com %v, want %v %v", p.Volume, p.COM, V, c)
	}
	for i := range 3 {
		for j := range 3 {
			if math.Abs(p.I[i][j]-want[i][j]) > 1e-15 {
				t.Errorf("I[%d][%d] = %v, want %v", i, j, p.I[i][j], want[i][j])
			}
		}
	}
	// Rotated: I' = R I Rᵀ, and inward winding gives the same answer.
	R := spatial.QuatFromAxisAngle(spatial.Vec3{1, 2, 3}, 0.7)
	x := spatial.Pose{R: R}
	rot := boxMesh(size, spatial.Vec3{}).Transformed(spatial.Vec3{1, 1, 1}, x)
	for i := range rot.Triangles {
		rot.Triangles[i][1], rot.Triangles[i][2] = rot.Triangles[i][2], rot.Triangles[i][1]
	}
	pr, err := rot.MassProperties()
	if err != nil {
		t.Fatal(err)
	}
	wr := spatial.RotateInertia(R.RotMat(), want)
	if d := pr.I.Sub(wr).FrobeniusNorm(); d > 1e-15 || !near(pr.Volume, V, 1e-14) {
		t.Errorf("rotated: |ΔI| = %g, volume %v", d, pr.Volume)
	}
}

// TestSphereMassConverges checks a finely tessellated sphere approaches
// 4πr³/3 and 2/5 r² per unit mass from below (an inscribed polyhedron).
func TestSphereMassConverges(t *testing.T) {
	var prev float64
	for _, n := range []int{8, 16, 32, 64} {
		m := uvSphere(1, n)
		p, err := m.MassProperties()
		if err != nil {
			t.Fatal(err)
		}
		errV := 4*math.Pi/3 - p.Volume
		if errV <= 0 || (prev != 0 && errV > prev/3.5) {
			t.Errorf("n=%d: volume error %g (previous %g): want positive and second-order convergence", n, errV, prev)
		}
		prev = errV
		if n == 64 && (!near(p.I[0][0]/p.Volume, 0.4, 2e-3) || p.COM.Norm() > 1e-12) {
			t.Errorf("n=64: I/V = %v, com %v", p.I[0][0]/p.Volume, p.COM)
		}
	}
}

func uvSphere(r float64, n int) *Mesh {
	w := newWelder()
	pt := func(i, j int) int32 {
		th, ph := math.Pi*float64(i)/float64(n), 2*math.Pi*float64(j%(2*n))/float64(2*n)
		if i == 0 || i == n {
			ph = 0
		}
		return w.add(spatial.Vec3{r * math.Sin(th) * math.Cos(ph), r * math.Sin(th) * math.Sin(ph), r * math.Cos(th)})
	}
	for i := range n {
		for j := range 2 * n {
			a, b, c, d := pt(i, j), pt(i+1, j), pt(i+1, j+1), pt(i, j+1)
			w.triangle(a, b, c)
			w.triangle(a, c, d)
		}
	}
	return w.m
}

func binarySTL(m *Mesh) []byte {
	var b bytes.Buffer
	b.Write(make([]byte, 80))
	binary.Write(&b, binary.LittleEndian, uint32(len(m.Triangles)))
	for _, t := range m.Triangles {
		binary.Write(&b, binary.LittleEndian, [3]float32{})
		for _, k := range t {
			v := m.Vertices[k]
			binary.Write(&b, binary.LittleEndian, [3]float32{float32(v[0]), float32(v[1]), float32(v[2])})
		}
		b.Write([]byte{0, 0})
	}
	return b.Bytes()
}

func asciiSTL(m *Mesh) []byte {
	var b strings.Builder
	b.WriteString("solid box\n")
	for _, t := range m.Triangles {
		b.WriteString(" facet normal 0 0 0\n  outer loop\n")
		for _, k := range t {
			v := m.Vertices[k]
			fmt.Fprintf(&b, "   vertex %g %g %g\n", v[0], v[1], v[2])
		}
		b.WriteString("  endloop\n endfacet\n")
	}
	b.WriteString("endsolid box\n")
	return []byte(b.String())
}

func objText(m *Mesh) []byte {
	var b strings.Builder
	b.WriteString("# box\no box\n")
	for _, v := range m.Vertices {
		fmt.Fprintf(&b, "v %g %g %g\n", v[0], v[1], v[2])
	}
	b.WriteString("vn 0 0 1\n")
	for i := 0; i < len(m.Triangles); i += 2 { // write quads back as one face, with normals
		t, u := m.Triangles[i], m.Triangles[i+1]
		fmt.Fprintf(&b, "f %d//1 %d//1 %d//1 %d//1\n", t[0]+1, t[1]+1, t[2]+1, u[2]+1)
	}
	return []byte(b.String())
}

// TestReadersRoundTrip writes a box in each format and reads it back.
func TestReadersRoundTrip(t *testing.T) {
	box := boxMesh(spatial.Vec3{1, 2, 4}, spatial.Vec3{0.5, 0, 0})
	for name, read := range map[string]func() (*Mesh, error){
		"binary": func() (*Mesh, error) { return ReadSTL("b.stl", binarySTL(box)) },
		"binary-solid": func() (*Mesh, error) {
			d := binarySTL(box)
			copy(d, "solid header that lies")
			return ReadSTL("b.stl", d)
		},
		"ascii": func() (*Mesh, error) { return ReadSTL("a.stl", asciiSTL(box)) },
		"obj":   func() (*Mesh, error) { return ReadOBJ("a.obj", objText(box)) },
	} {
		m, err := read()
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		p, err := m.MassProperties()
		if len(m.Vertices) != 8 || len(m.Triangles) != 12 || err != nil || !near(p.Volume, 8, 1e-12) {
			t.Errorf("%s: %d vertices, %d triangles, volume %v, %v", name, len(m.Vertices), len(m.Triangles), p.Volume, err)
		}
	}
}

// TestBadMeshes: empty, truncated and degenerate files give errors naming
// the file.
func TestBadMeshes(t *testing.T) {
	box := boxMesh(spatial.Vec3{1, 1, 1}, spatial.Vec3{})
	full := binarySTL(box)
	line := &Mesh{Vertices: []spatial.Vec3{{0, 0, 0}, {1, 1, 1}, {2, 2, 2}, {3, 3, 3}}, Triangles: [][3]int32{{0, 1, 2}, {1, 2, 3}}}
	cases := []struct {
		name, file string
		data       []byte
		want       string
	}{
		{"empty stl", "e.stl", nil, "empty STL"},
		{"short stl", "s.stl", full[:50], "truncated binary STL"},
		{"truncated binary", "t.stl", full[:len(full)-7], "size mismatch"},
		{"zero triangles", "z.stl", full[:84:84], ""},
		{"collinear stl", "c.stl", binarySTL(line), "degenerate"},
		{"ascii no endsolid", "a.stl", asciiSTL(box)[:bytes.LastIndexByte(asciiSTL(box)[:200], '\n')+1], "truncated ASCII STL"},
		{"ascii cut mid-line", "a.stl", asciiSTL(box)[:200], "line 12"},
		{"ascii bad number", "n.stl", []byte("solid x\nfacet normal 0 0 1\nouter loop\nvertex 1 2 zz\n"), "line 4"},
		{"ascii nan", "n.stl", []byte("solid x\nfacet normal 0 0 1\nouter loop\nvertex 1 2 nan\n"), "not a finite"},
		{"ascii two vertices", "v.stl", []byte("solid x\nfacet\nouter loop\nvertex 0 0 0\nvertex 1 0 0\nendloop\nendfacet\nendsolid\n"), "exactly 3"},
		{"empty obj", "e.obj", []byte("  \n"), "empty OBJ"},
		{"obj comments only", "c.obj", []byte("# nothing\n"), "empty mesh"},
		{"obj bad index", "i.obj", []byte("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 4\n"), "line 4: face vertex index 4 out of range"},
		{"obj zero index", "i.obj", []byte("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 0 1 2\n"), "out of range"},
		{"obj bad vertex", "v.obj", []byte("v 0 0\n"), "line 1: v needs 3"},
		{"obj collinear", "l.obj", []byte("v 0 0 0\nv 1 0 0\nv 2 0 0\nf 1 2 3\n"), "degenerate"},
		{"obj unknown", "u.obj", []byte("v 0 0 0\nfoo 1\n"), "line 2: unknown OBJ statement"},
		{"obj binary", "b.obj", full, "not a text file"},
	}
	for _, c := range cases {
		var err error
		if strings.HasSuffix(c.file, ".stl") {
			_, err = ReadSTL(c.file, c.data)
		} else {
			_, err = ReadOBJ(c.file, c.data)
		}
		if err == nil || !strings.HasPrefix(err.Error(), c.file+": ") || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want an error starting %q containing %q", c.name, err, c.file, c.want)
		}
	}
	// A mesh with a missing face is not closed; a single face has no volume.
	open := boxMesh(spatial.Vec3{1, 1, 1}, spatial.Vec3{})
	if !open.Closed() {
		t.Error("box: not closed")
	}
	open.Triangles = open.Triangles[:10]
	if open.Closed() {
		t.Error("box without a face: closed")
	}
	open.Triangles = open.Triangles[:2]
	if p, err := open.MassProperties(); err == nil {
		t.Errorf("single face: volume %v, no error", p.Volume)
	}
}

// TestModelMeshes reads every mesh of the embedded robot models (package
// model/embedded: STL, OBJ and glTF) and checks a binary STL's triangle
// count against its size and that a glTF file has its base colour.
func TestModelMeshes(t *testing.T) {
	root, err := embedded.Dir()
	if err != nil {
		t.Fatal(err)
	}
	var n int
	filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		ext := strings.ToLower(filepath.Ext(path))
		if err != nil || (ext != ".stl" && ext != ".obj" && ext != ".gltf") {
			return nil
		}
		m, err := Load(path)
		if err != nil {
			t.Errorf("%v", err)
			return nil
		}
		if ext == ".stl" {
			fi, _ := d.Info()
			if want := (fi.Size() - 84) / 50; int64(len(m.Triangles)) > want || len(m.Triangles) == 0 {
				t.Errorf("%s: %d triangles, file has %d", path, len(m.Triangles), want)
			}
		}
		if ext == ".gltf" && m.Color == nil {
			t.Errorf("%s: no base colour", path)
		}
		n++
		return nil
	})
	t.Logf("read %d meshes", n)
	if n < 50 {
		t.Errorf("read %d meshes, want every one of the models (≥ 50)", n)
	}
}

func TestReadOBJPoints(t *testing.T) {
	cube := "v -0.5 -0.5 0.5\nv 0.5 -0.5 0.5\nv -0.5 0.5 0.5\nv 0.5 0.5 0.5\nv -0.5 0.5 -0.5\nv 0.5 0.5 -0.5\nv -0.5 -0.5 -0.5\nv 0.5 -0.5 -0.5\n"
	pts, err := ReadOBJPoints("cube.obj", []byte(cube))
	if err != nil || len(pts) != 8 {
		t.Fatalf("points of a face-less OBJ: %d points, %v; want 8", len(pts), err)
	}
	if pts[7] != (spatial.Vec3{0.5, -0.5, -0.5}) {
		t.Errorf("last point %v, want the file's (0.5, -0.5, -0.5)", pts[7])
	}
	pts, err = ReadOBJPoints("tet.obj", []byte("v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\nf 1 3 2\nf 1 2 4\nf 1 4 3\nf 2 3 4\n"))
	if err != nil || pts != nil {
		t.Errorf("an OBJ with faces: %v, %v; want nil, nil", pts, err)
	}
	if _, err := ReadOBJPoints("three.obj", []byte("v 0 0 0\nv 1 0 0\nv 0 1 0\n")); err == nil || !strings.Contains(err.Error(), "three.obj") {
		t.Errorf("3 points: error %v, want one naming three.obj", err)
	}
}
