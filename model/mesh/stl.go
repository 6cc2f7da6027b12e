package mesh

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/stiction-sim/stiction/spatial"
)

// ReadSTL reads a binary or ASCII STL file held in data; name is used in
// errors. A file whose size is exactly 84 + 50·n bytes, n being the
// triangle count in bytes 80–83, is binary (binary files may also begin with
// "solid"); otherwise a file beginning with "solid" is ASCII. Normals in the
// file are ignored: the winding gives the orientation.
func ReadSTL(name string, data []byte) (*Mesh, error) {
	m, err := readSTL(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if err := m.Validate(); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return m, nil
}

func readSTL(data []byte) (*Mesh, error) {
	if len(data) == 0 {
		return nil, fmt.Errorf("empty STL file")
	}
	if len(data) >= 84 {
		n := uint64(binary.LittleEndian.Uint32(data[80:84]))
		if uint64(len(data)) == 84+50*n {
			return readBinarySTL(data[84:], int(n))
		}
	}
	trimmed := bytes.TrimLeft(data, " \t\r\n")
	if bytes.HasPrefix(trimmed, []byte("solid")) && isText(data) {
		return readASCIISTL(data)
	}
	if len(data) < 84 {
		return nil, fmt.Errorf("truncated binary STL: %d bytes, less than the 84-byte header", len(data))
	}
	n := uint64(binary.LittleEndian.Uint32(data[80:84]))
	return nil, fmt.Errorf("binary STL size mismatch: the header announces %d triangles (%d bytes), the file has %d bytes (truncated or corrupt)",
		n, 84+50*n, len(data))
}

// isText reports whether data looks like text (no NUL bytes in its first
// kilobyte).
func isText(data []byte) bool {
	head := data[:min(len(data), 1024)]
	return bytes.IndexByte(head, 0) < 0
}

func readBinarySTL(body []byte, n int) (*Mesh, error) {
	if n == 0 {
		return nil, fmt.Errorf("empty mesh: the binary STL has 0 triangles")
	}
	if n > MaxTriangles {
		return nil, fmt.Errorf("binary STL has %d triangles, more than the limit %d", n, MaxTriangles)
	}
	w := newWelder()
	w.m.Triangles = make([][3]int32, 0, n)
	var idx [3]int32
	for t := range n {
		rec := body[50*t : 50*t+50]
		for k := range 3 {
			var v spatial.Vec3
			for c := range 3 {
				off := 12 + 12*k + 4*c
				v[c] = float64(math.Float32frombits(binary.LittleEndian.Uint32(rec[off : off+4])))
			}
			if !v.IsFinite() {
				return nil, fmt.Errorf("triangle %d: vertex %v is not finite", t, v)
			}
			idx[k] = w.add(v)
		}
		w.triangle(idx[0], idx[1], idx[2])
	}
	return w.m, nil
}

// readASCIISTL reads "solid … facet normal … outer loop vertex x y z ×3
// endloop endfacet … endsolid". Only vertex lines carry data; the facet
// structure is checked so that a truncated file is an error.
func readASCIISTL(data []byte) (*Mesh, error) {
	w := newWelder()
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 64*1024), 1<<20)
	line, inLoop, ended := 0, false, false
	var loop []int32
	for sc.Scan() {
		line++
		f := strings.Fields(sc.Text())
		if len(f) == 0 {
			continue
		}
		switch strings.ToLower(f[0]) {
		case "solid", "facet", "endfacet":
		case "outer":
			if inLoop {
				return nil, fmt.Errorf("line %d: \"outer loop\" inside a loop", line)
			}
			inLoop, loop = true, loop[:0]
		case "vertex":
			if !inLoop {
				return nil, fmt.Errorf("line %d: vertex outside \"outer loop\"", line)
			}
			if len(f) != 4 {
				return nil, fmt.Errorf("line %d: vertex needs 3 coordinates, got %d", line, len(f)-1)
			}
			var v spatial.Vec3
			for c := range 3 {
				x, err := strconv.ParseFloat(f[1+c], 64)
				if err != nil || math.IsNaN(x) || math.IsInf(x, 0) {
					return nil, fmt.Errorf("line %d: vertex coordinate %q is not a finite number", line, f[1+c])
				}
				v[c] = x
			}
			loop = append(loop, w.add(v))
		case "endloop":
			if !inLoop || len(loop) != 3 {
				return nil, fmt.Errorf("line %d: a facet needs exactly 3 vertices, got %d", line, len(loop))
			}
			inLoop = false
			w.triangle(loop[0], loop[1], loop[2])
			if len(w.m.Triangles) > MaxTriangles {
				return nil, fmt.Errorf("more than %d triangles", MaxTriangles)
			}
		case "endsolid":
			ended = true
		default:
			return nil, fmt.Errorf("line %d: unexpected %q in an ASCII STL", line, f[0])
		}
		if ended {
			break
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("line %d: %w", line+1, err)
	}
	if inLoop || !ended {
		return nil, fmt.Errorf("truncated ASCII STL: the file ends before \"endsolid\" (line %d)", line)
	}
	return w.m, nil
}
