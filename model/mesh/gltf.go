package mesh

import (
	"fmt"

	"github.com/qmuntal/gltf"
	"github.com/qmuntal/gltf/modeler"

	"github.com/stiction-sim/stiction/spatial"
)

// ReadGLTF reads the triangles of every mesh of the default scene of a glTF
// 2.0 file (.gltf with its buffers, or .glb) at path, with each node's
// transform applied, into one Mesh. Its Color is the base colour of the
// first primitive's material, if any. Primitives that are not triangle
// lists are skipped; textures are ignored.
func ReadGLTF(path string) (*Mesh, error) {
	doc, err := gltf.Open(path)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	w := newWelder()
	r := gltfReader{doc: doc, w: w}
	roots, err := r.roots()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	for _, n := range roots {
		if err := r.node(n, identity4(), 0); err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
	}
	if err := w.m.Validate(); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return w.m, nil
}

type gltfReader struct {
	doc *gltf.Document
	w   *welder
}

// roots returns the root nodes of the default scene (or of every node that
// is no other node's child when the file has no scene).
func (r *gltfReader) roots() ([]int, error) {
	d := r.doc
	if len(d.Scenes) > 0 {
		s := 0
		if d.Scene != nil {
			s = *d.Scene
		}
		if s < 0 || s >= len(d.Scenes) {
			return nil, fmt.Errorf("scene %d out of range", s)
		}
		return d.Scenes[s].Nodes, nil
	}
	child := make([]bool, len(d.Nodes))
	for _, n := range d.Nodes {
		for _, c := range n.Children {
			if c >= 0 && c < len(child) {
				child[c] = true
			}
		}
	}
	var out []int
	for i, c := range child {
		if !c {
			out = append(out, i)
		}
	}
	return out, nil
}

type mat4 [16]float64 // column-major, as glTF writes it

func identity4() mat4 { return mat4{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1} }

func (a mat4) mul(b mat4) mat4 {
	var c mat4
	for i := range 4 {
		for j := range 4 {
			for k := range 4 {
				c[j*4+i] += a[k*4+i] * b[j*4+k]
			}
		}
	}
	return c
}

func (a mat4) apply(p [3]float32) spatial.Vec3 {
	x, y, z := float64(p[0]), float64(p[1]), float64(p[2])
	return spatial.Vec3{
		a[0]*x + a[4]*y + a[8]*z + a[12],
		a[1]*x + a[5]*y + a[9]*z + a[13],
		a[2]*x + a[6]*y + a[10]*z + a[14],
	}
}

// local returns a node's transform: its matrix, or T·R·S.
func local(n *gltf.Node) mat4 {
	if n.Matrix != [16]float64{} && n.Matrix != identity4() {
		return mat4(n.Matrix)
	}
	t, q, s := n.TranslationOrDefault(), n.RotationOrDefault(), n.ScaleOrDefault()
	R := spatial.Quat{W: q[3], X: q[0], Y: q[1], Z: q[2]}.Normalize().RotMat()
	var m mat4
	for i := range 3 {
		for j := range 3 {
			m[j*4+i] = R[i][j] * s[j]
		}
		m[12+i] = t[i]
	}
	m[15] = 1
	return m
}

func (r *gltfReader) node(i int, parent mat4, depth int) error {
	d := r.doc
	if i < 0 || i >= len(d.Nodes) {
		return fmt.Errorf("node %d out of range", i)
	}
	if depth > 64 {
		return fmt.Errorf("node hierarchy deeper than 64 (a cycle?)")
	}
	n := d.Nodes[i]
	x := parent.mul(local(n))
	if n.Mesh != nil {
		if err := r.mesh(*n.Mesh, x); err != nil {
			return err
		}
	}
	for _, c := range n.Children {
		if err := r.node(c, x, depth+1); err != nil {
			return err
		}
	}
	return nil
}

func (r *gltfReader) mesh(k int, x mat4) error {
	d := r.doc
	if k < 0 || k >= len(d.Meshes) {
		return fmt.Errorf("mesh %d out of range", k)
	}
	for pi, p := range d.Meshes[k].Primitives {
		if p.Mode != gltf.PrimitiveTriangles {
			continue
		}
		pos, ok := p.Attributes[gltf.POSITION]
		if !ok || pos < 0 || pos >= len(d.Accessors) {
			return fmt.Errorf("mesh %d primitive %d: no POSITION accessor", k, pi)
		}
		ps, err := modeler.ReadPosition(d, d.Accessors[pos], nil)
		if err != nil {
			return fmt.Errorf("mesh %d primitive %d: positions: %w", k, pi, err)
		}
		base := make([]int32, len(ps))
		for j, p := range ps {
			v := x.apply(p)
			if !v.IsFinite() {
				return fmt.Errorf("mesh %d primitive %d: vertex %d is not finite", k, pi, j)
			}
			base[j] = r.w.add(v)
		}
		var idx []uint32
		if p.Indices != nil {
			if *p.Indices < 0 || *p.Indices >= len(d.Accessors) {
				return fmt.Errorf("mesh %d primitive %d: indices accessor out of range", k, pi)
			}
			if idx, err = modeler.ReadIndices(d, d.Accessors[*p.Indices], nil); err != nil {
				return fmt.Errorf("mesh %d primitive %d: indices: %w", k, pi, err)
			}
		} else {
			for j := range ps {
				idx = append(idx, uint32(j))
			}
		}
		for t := 0; t+2 < len(idx); t += 3 {
			for _, j := range idx[t : t+3] {
				if int(j) >= len(base) {
					return fmt.Errorf("mesh %d primitive %d: index %d out of range", k, pi, j)
				}
			}
			r.w.triangle(base[idx[t]], base[idx[t+1]], base[idx[t+2]])
		}
		if r.w.m.Color == nil && p.Material != nil && *p.Material >= 0 && *p.Material < len(d.Materials) {
			if pbr := d.Materials[*p.Material].PBRMetallicRoughness; pbr != nil {
				c := pbr.BaseColorFactorOrDefault()
				r.w.m.Color = &c
			}
		}
	}
	return nil
}
