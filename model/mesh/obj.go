package mesh

import (
	"bufio"
	"bytes"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/stiction-sim/stiction/spatial"
)

// ReadOBJ reads a Wavefront OBJ file held in data; name is used in errors.
// It reads v (x y z, an optional w is ignored) and f lines (v, v/vt,
// v//vn, v/vt/vn, negative indices counting back from the last vertex;
// polygons are split into a fan of triangles). Texture coordinates,
// normals, groups, objects, smoothing and materials are ignored: the mesh
// carries only shape.
func ReadOBJ(name string, data []byte) (*Mesh, error) {
	m, err := readOBJ(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if err := m.Validate(); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return m, nil
}

func readOBJ(data []byte) (*Mesh, error) {
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, fmt.Errorf("empty OBJ file")
	}
	if !isText(data) {
		return nil, fmt.Errorf("not a text file (an OBJ file is text)")
	}
	w := newWelder()
	var verts []int32 // file vertex number − 1 → welded index
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 64*1024), 1<<20)
	line := 0
	var face []int32
	var f []string
	for sc.Scan() {
		line++
		text := sc.Text()
		if i := strings.IndexByte(text, '#'); i >= 0 {
			text = text[:i]
		}
		f = fields(f[:0], text)
		if len(f) == 0 {
			continue
		}
		switch f[0] {
		case "v":
			if len(f) != 4 && len(f) != 5 && len(f) != 7 { // x y z [w] or x y z r g b
				return nil, fmt.Errorf("line %d: v needs 3 coordinates, got %d", line, len(f)-1)
			}
			var v spatial.Vec3
			for c := range 3 {
				x, err := strconv.ParseFloat(f[1+c], 64)
				if err != nil || math.IsNaN(x) || math.IsInf(x, 0) {
					return nil, fmt.Errorf("line %d: vertex coordinate %q is not a finite number", line, f[1+c])
				}
				v[c] = x
			}
			verts = append(verts, w.add(v))
		case "f":
			if len(f) < 4 {
				return nil, fmt.Errorf("line %d: a face needs at least 3 vertices, got %d", line, len(f)-1)
			}
			face = face[:0]
			for _, ref := range f[1:] {
				k, err := objIndex(ref, len(verts))
				if err != nil {
					return nil, fmt.Errorf("line %d: %w", line, err)
				}
				face = append(face, verts[k])
			}
			for i := 1; i+1 < len(face); i++ {
				w.triangle(face[0], face[i], face[i+1])
			}
			if len(w.m.Triangles) > MaxTriangles {
				return nil, fmt.Errorf("line %d: more than %d triangles", line, MaxTriangles)
			}
		case "vt", "vn", "vp", "g", "o", "s", "usemtl", "mtllib", "l", "p":
		default:
			return nil, fmt.Errorf("line %d: unknown OBJ statement %q", line, f[0])
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("line %d: %w", line+1, err)
	}
	return w.m, nil
}

// fields appends the white-space separated fields of s to out (reusing
// its storage, unlike strings.Fields).
func fields(out []string, s string) []string {
	start := -1
	for i := 0; i < len(s); i++ {
		if c := s[i]; c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f' {
			if start >= 0 {
				out = append(out, s[start:i])
				start = -1
			}
		} else if start < 0 {
			start = i
		}
	}
	if start >= 0 {
		out = append(out, s[start:])
	}
	return out
}

// objIndex returns the 0-based vertex number of a face reference "v",
// "v/vt", "v//vn" or "v/vt/vn" among n vertices read so far.
func objIndex(ref string, n int) (int, error) {
	s, _, _ := strings.Cut(ref, "/")
	k, err := strconv.Atoi(s)
	switch {
	case err != nil:
		return 0, fmt.Errorf("face vertex %q is not an index", ref)
	case k > 0 && k <= n:
		return k - 1, nil
	case k < 0 && -k <= n:
		return n + k, nil
	}
	return 0, fmt.Errorf("face vertex index %d out of range (%d vertices so far)", k, n)
}

// ReadOBJPoints returns the vertices of an OBJ file that has vertices and
// no faces: a point cloud, which MuJoCo meshes as its convex hull (its
// test model test/user/testdata/cube.obj). It returns nil and no error
// when the file has faces (read it with ReadOBJ), and an error naming the
// file when it cannot be read or has fewer than 4 points.
func ReadOBJPoints(name string, data []byte) ([]spatial.Vec3, error) {
	m, err := readOBJ(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if len(m.Triangles) > 0 {
		return nil, nil
	}
	if len(m.Vertices) < 4 {
		return nil, fmt.Errorf("%s: no faces and %d vertices: a point cloud needs at least 4 points", name, len(m.Vertices))
	}
	return m.Vertices, nil
}
