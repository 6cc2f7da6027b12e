package mesh

// Closed reports whether the mesh is a closed, consistently oriented
// surface: every directed edge (a, b) of a triangle is matched by exactly
// one opposite edge (b, a) of another. Only then does MassProperties give
// the volume and inertia of a solid.
func (m *Mesh) Closed() bool {
	edges := make(map[[2]int32]int, 3*len(m.Triangles))
	for _, t := range m.Triangles {
		for k := range 3 {
			edges[[2]int32{t[k], t[(k+1)%3]}]++
		}
	}
	for e, n := range edges {
		if n != 1 || edges[[2]int32{e[1], e[0]}] != 1 {
			return false
		}
	}
	return true
}
