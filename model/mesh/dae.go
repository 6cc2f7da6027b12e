package mesh

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/stiction-sim/stiction/spatial"
)

// COLLADA (.dae), the minimal part robot descriptions use: the
// <triangles>, <polylist> and <polygons> of every <mesh> in
// <library_geometries> (their VERTEX input's POSITION source), placed by
// the nodes of the first <visual_scene> that instance them (<matrix>,
// <translate>, <rotate>, <scale>, nested), scaled by <asset><unit meter>
// and turned from <up_axis> Y_UP or X_UP to Z_UP. Geometries that no node
// instances are read as they are when the file has no visual scene.
// Materials, normals, texture coordinates, <lines>, controllers and
// <instance_node> are not read.

type daeDoc struct {
	Asset struct {
		Unit struct {
			Meter string `xml:"meter,attr"`
		} `xml:"unit"`
		UpAxis string `xml:"up_axis"`
	} `xml:"asset"`
	Geometries []daeGeometry `xml:"library_geometries>geometry"`
	Scenes     []struct {
		Nodes []daeNode `xml:"node"`
	} `xml:"library_visual_scenes>visual_scene"`
}

type daeGeometry struct {
	ID   string `xml:"id,attr"`
	Mesh *struct {
		Sources []struct {
			ID       string `xml:"id,attr"`
			Floats   string `xml:"float_array"`
			Accessor struct {
				Stride string `xml:"stride,attr"`
			} `xml:"technique_common>accessor"`
		} `xml:"source"`
		Vertices struct {
			ID     string     `xml:"id,attr"`
			Inputs []daeInput `xml:"input"`
		} `xml:"vertices"`
		Prims []daePrim `xml:",any"`
	} `xml:"mesh"`
}

type daeInput struct {
	Semantic string `xml:"semantic,attr"`
	Source   string `xml:"source,attr"`
	Offset   string `xml:"offset,attr"`
}

type daePrim struct {
	XMLName xml.Name
	Count   string     `xml:"count,attr"`
	Inputs  []daeInput `xml:"input"`
	VCount  string     `xml:"vcount"`
	P       []string   `xml:"p"`
}

type daeNode struct {
	Ops []struct {
		XMLName xml.Name
		Text    string `xml:",chardata"`
	} `xml:",any"`
	Instances []struct {
		URL string `xml:"url,attr"`
	} `xml:"instance_geometry"`
	Nodes []daeNode `xml:"node"`
}

// maxDAE bounds what a COLLADA file may hold (vertices and indices).
const maxDAE = 1 << 26

// ReadDAE reads a COLLADA document; name is used in messages.
func ReadDAE(name string, data []byte) (*Mesh, error) {
	m, err := readDAE(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if err := m.Validate(); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return m, nil
}

func readDAE(data []byte) (*Mesh, error) {
	var doc daeDoc
	d := xml.NewDecoder(bytes.NewReader(data))
	d.Strict = false
	if err := d.Decode(&doc); err != nil {
		return nil, fmt.Errorf("COLLADA: %v", err)
	}
	unit := 1.0
	if s := strings.TrimSpace(doc.Asset.Unit.Meter); s != "" {
		u, err := strconv.ParseFloat(s, 64)
		if err != nil || !(u > 0) || math.IsInf(u, 0) {
			return nil, fmt.Errorf("COLLADA: <unit meter=%q>: want a positive number", s)
		}
		unit = u
	}
	// up: the rotation taking the file's up axis to z.
	up := spatial.Mat3{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}
	switch strings.TrimSpace(doc.Asset.UpAxis) {
	case "Y_UP":
		up = spatial.Mat3{{1, 0, 0}, {0, 0, -1}, {0, 1, 0}}
	case "X_UP":
		up = spatial.Mat3{{0, -1, 0}, {1, 0, 0}, {0, 0, 1}}
	case "", "Z_UP":
	default:
		return nil, fmt.Errorf("COLLADA: <up_axis> %q: want X_UP, Y_UP or Z_UP", doc.Asset.UpAxis)
	}
	geoms := map[string]*daeGeometry{}
	for i := range doc.Geometries {
		geoms[doc.Geometries[i].ID] = &doc.Geometries[i]
	}
	out := &Mesh{}
	add := func(g *daeGeometry, T [4][4]float64) error {
		if g.Mesh == nil {
			return nil
		}
		return addDAEMesh(out, g, T)
	}
	ident := [4][4]float64{{1, 0, 0, 0}, {0, 1, 0, 0}, {0, 0, 1, 0}, {0, 0, 0, 1}}
	if len(doc.Scenes) > 0 {
		var walk func(n []daeNode, T [4][4]float64, depth int) error
		walk = func(ns []daeNode, T [4][4]float64, depth int) error {
			if depth > 64 {
				return fmt.Errorf("COLLADA: nodes nested deeper than 64")
			}
			for _, n := range ns {
				M := T
				for _, op := range n.Ops {
					L, ok, err := daeTransform(op.XMLName.Local, op.Text)
					if err != nil {
						return err
					}
					if ok {
						M = mul4(M, L)
					}
				}
				for _, inst := range n.Instances {
					g := geoms[strings.TrimPrefix(inst.URL, "#")]
					if g == nil {
						return fmt.Errorf("COLLADA: <instance_geometry url=%q>: no such geometry", inst.URL)
					}
					if err := add(g, M); err != nil {
						return err
					}
				}
				if err := walk(n.Nodes, M, depth+1); err != nil {
					return err
				}
			}
			return nil
		}
		if err := walk(doc.Scenes[0].Nodes, ident, 0); err != nil {
			return nil, err
		}
	} else {
		for i := range doc.Geometries {
			if err := add(&doc.Geometries[i], ident); err != nil {
				return nil, err
			}
		}
	}
	for i, v := range out.Vertices {
		out.Vertices[i] = up.MulVec(v).Scale(unit)
	}
	return out, nil
}

// daeTransform returns the 4×4 matrix of a node's transform element; ok
// is false for elements that are not transforms.
func daeTransform(tag, text string) (M [4][4]float64, ok bool, err error) {
	M = [4][4]float64{{1, 0, 0, 0}, {0, 1, 0, 0}, {0, 0, 1, 0}, {0, 0, 0, 1}}
	want := map[string]int{"matrix": 16, "translate": 3, "rotate": 4, "scale": 3}[tag]
	if want == 0 {
		return M, false, nil
	}
	f, err := daeFloats(text, want)
	if err != nil {
		return M, false, fmt.Errorf("COLLADA: <%s>: %v", tag, err)
	}
	if len(f) != want {
		return M, false, fmt.Errorf("COLLADA: <%s>: want %d numbers, got %d", tag, want, len(f))
	}
	switch tag {
	case "matrix":
		for i := range 4 {
			for j := range 4 {
				M[i][j] = f[4*i+j]
			}
		}
	case "translate":
		M[0][3], M[1][3], M[2][3] = f[0], f[1], f[2]
	case "scale":
		M[0][0], M[1][1], M[2][2] = f[0], f[1], f[2]
	case "rotate":
		axis, n := spatial.Vec3{f[0], f[1], f[2]}.Normalize()
		if n == 0 {
			return M, true, nil
		}
		R := spatial.QuatFromAxisAngle(axis, f[3]*math.Pi/180).RotMat()
		for i := range 3 {
			for j := range 3 {
				M[i][j] = R[i][j]
			}
		}
	}
	return M, true, nil
}

func mul4(A, B [4][4]float64) (C [4][4]float64) {
	for i := range 4 {
		for j := range 4 {
			for k := range 4 {
				C[i][j] += A[i][k] * B[k][j]
			}
		}
	}
	return C
}

// daeFloats parses whitespace-separated numbers (at most max; max ≤ 0: no
// bound beyond maxDAE).
func daeFloats(s string, max int) ([]float64, error) {
	var out []float64
	for _, w := range strings.Fields(s) {
		if len(out) >= maxDAE || (max > 0 && len(out) > max) {
			return nil, fmt.Errorf("too many numbers")
		}
		x, err := strconv.ParseFloat(w, 64)
		if err != nil || math.IsNaN(x) || math.IsInf(x, 0) {
			return nil, fmt.Errorf("%q is not a finite number", w)
		}
		out = append(out, x)
	}
	return out, nil
}

func daeInts(s string) ([]int, error) {
	var out []int
	for _, w := range strings.Fields(s) {
		if len(out) >= maxDAE {
			return nil, fmt.Errorf("too many indices")
		}
		x, err := strconv.Atoi(w)
		if err != nil || x < 0 {
			return nil, fmt.Errorf("%q is not an index", w)
		}
		out = append(out, x)
	}
	return out, nil
}

// addDAEMesh appends the triangles of one <mesh>, transformed by T.
func addDAEMesh(out *Mesh, g *daeGeometry, T [4][4]float64) error {
	m := g.Mesh
	// The POSITION source of <vertices>.
	var pos []spatial.Vec3
	for _, in := range m.Vertices.Inputs {
		if in.Semantic != "POSITION" {
			continue
		}
		for _, s := range m.Sources {
			if "#"+s.ID != in.Source {
				continue
			}
			f, err := daeFloats(s.Floats, 0)
			if err != nil {
				return fmt.Errorf("COLLADA: geometry %q: source %q: %v", g.ID, s.ID, err)
			}
			stride := 3
			if st := strings.TrimSpace(s.Accessor.Stride); st != "" {
				if stride, err = strconv.Atoi(st); err != nil || stride < 3 || stride > 64 {
					return fmt.Errorf("COLLADA: geometry %q: source %q: stride %q: want 3 or more", g.ID, s.ID, st)
				}
			}
			for i := 0; i+2 < len(f); i += stride {
				p := spatial.Vec3{f[i], f[i+1], f[i+2]}
				pos = append(pos, spatial.Vec3{
					T[0][0]*p[0] + T[0][1]*p[1] + T[0][2]*p[2] + T[0][3],
					T[1][0]*p[0] + T[1][1]*p[1] + T[1][2]*p[2] + T[1][3],
					T[2][0]*p[0] + T[2][1]*p[1] + T[2][2]*p[2] + T[2][3],
				})
			}
		}
	}
	if len(pos) == 0 {
		return nil
	}
	base := len(out.Vertices)
	if base+len(pos) > maxDAE {
		return fmt.Errorf("COLLADA: more than %d vertices", maxDAE)
	}
	out.Vertices = append(out.Vertices, pos...)
	for _, pr := range m.Prims {
		kind := pr.XMLName.Local
		if kind != "triangles" && kind != "polylist" && kind != "polygons" {
			continue
		}
		stride, voff := 1, -1
		for _, in := range pr.Inputs {
			o, err := strconv.Atoi(strings.TrimSpace(in.Offset))
			if err != nil || o < 0 || o > 64 {
				return fmt.Errorf("COLLADA: geometry %q: <%s> input offset %q: want a small index", g.ID, kind, in.Offset)
			}
			stride = max(stride, o+1)
			if in.Semantic == "VERTEX" {
				voff = o
			}
		}
		if voff < 0 {
			return fmt.Errorf("COLLADA: geometry %q: <%s> has no VERTEX input", g.ID, kind)
		}
		vertexOf := func(idx []int, k int) (int32, error) {
			i := idx[k*stride+voff]
			if i >= len(pos) {
				return 0, fmt.Errorf("COLLADA: geometry %q: vertex index %d out of range (%d positions)", g.ID, i, len(pos))
			}
			return int32(base + i), nil
		}
		// polygon appends the fan of one polygon of n corners from idx.
		polygon := func(idx []int, n int) error {
			if n < 3 || len(idx) < n*stride {
				return fmt.Errorf("COLLADA: geometry %q: <%s>: a polygon of %d corners with %d indices", g.ID, kind, n, len(idx))
			}
			a, err := vertexOf(idx, 0)
			if err != nil {
				return err
			}
			for k := 1; k+1 < n; k++ {
				b, err := vertexOf(idx, k)
				if err != nil {
					return err
				}
				c, err := vertexOf(idx, k+1)
				if err != nil {
					return err
				}
				if len(out.Triangles) >= maxDAE {
					return fmt.Errorf("COLLADA: more than %d triangles", maxDAE)
				}
				out.Triangles = append(out.Triangles, [3]int32{a, b, c})
			}
			return nil
		}
		switch kind {
		case "triangles":
			for _, p := range pr.P {
				idx, err := daeInts(p)
				if err != nil {
					return fmt.Errorf("COLLADA: geometry %q: <p>: %v", g.ID, err)
				}
				for k := 0; k+3*stride <= len(idx); k += 3 * stride {
					if err := polygon(idx[k:], 3); err != nil {
						return err
					}
				}
			}
		case "polylist":
			vc, err := daeInts(pr.VCount)
			if err != nil {
				return fmt.Errorf("COLLADA: geometry %q: <vcount>: %v", g.ID, err)
			}
			var idx []int
			for _, p := range pr.P {
				more, err := daeInts(p)
				if err != nil {
					return fmt.Errorf("COLLADA: geometry %q: <p>: %v", g.ID, err)
				}
				idx = append(idx, more...)
			}
			for _, n := range vc {
				if n > len(idx)/stride {
					return fmt.Errorf("COLLADA: geometry %q: <vcount> asks for more indices than <p> has", g.ID)
				}
				if err := polygon(idx, n); err != nil {
					return err
				}
				idx = idx[n*stride:]
			}
		case "polygons":
			for _, p := range pr.P {
				idx, err := daeInts(p)
				if err != nil {
					return fmt.Errorf("COLLADA: geometry %q: <p>: %v", g.ID, err)
				}
				if err := polygon(idx, len(idx)/stride); err != nil {
					return err
				}
			}
		}
	}
	return nil
}
