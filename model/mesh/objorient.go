package mesh

import (
	"bufio"
	"bytes"
	"fmt"
	"strings"
)

// CheckOBJOrientation returns an error when two faces of the OBJ file held
// in data run along the same edge in the same direction (faces with
// inconsistent orientation), which MuJoCo 2.2.2 refuses: mjCMesh sorts
// the directed edges (v_i, v_j) of its faces, with the file's vertex
// numbers, and throws "faces have inconsistent orientation" when one
// repeats (user_mesh.cc, mjCMesh::Compile and CheckMesh). Polygons are
// split into the fan of triangles ReadOBJ makes. The error names the file
// (name), both lines and the edge; data that ReadOBJ cannot read gives
// no error here (ReadOBJ reports it).
func CheckOBJOrientation(name string, data []byte) error {
	type edge struct{ a, b int }
	seen := map[edge]int{} // directed edge → line of its first face
	nv, line := 0, 0
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 64*1024), 1<<20)
	var f []string
	var face []int
	for sc.Scan() {
		line++
		text, _, _ := strings.Cut(sc.Text(), "#")
		f = fields(f[:0], text)
		if len(f) == 0 {
			continue
		}
		switch f[0] {
		case "v":
			nv++
		case "f":
			face = face[:0]
			for _, ref := range f[1:] {
				k, err := objIndex(ref, nv)
				if err != nil {
					return nil
				}
				face = append(face, k)
			}
			for i := 1; i+1 < len(face); i++ {
				tri := [3]int{face[0], face[i], face[i+1]}
				for j := range 3 {
					e := edge{tri[j], tri[(j+1)%3]}
					if first, dup := seen[e]; dup {
						return fmt.Errorf("%s: line %d: faces have inconsistent orientation: the edge from vertex %d to vertex %d runs the same way in the face of line %d (MuJoCo refuses the mesh)",
							name, line, e.a+1, e.b+1, first)
					}
					seen[e] = line
				}
			}
		}
	}
	return nil
}
