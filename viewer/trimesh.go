package viewer

import (
	"github.com/stiction-sim/stiction/record"
	"github.com/stiction-sim/stiction/spatial"
)

// TriMesh returns a drawable mesh of a scene.json triangle mesh. With flat
// set (convex hulls) every triangle gets its own vertices and face normal;
// otherwise vertices are shared and their normals are the area-weighted
// mean of their triangles' (smooth shading, as three.js's
// computeVertexNormals).
func TriMesh(m record.MeshJSON, flat bool) Mesh {
	pos := func(i uint32) spatial.Vec3 {
		return spatial.Vec3{float64(m.Positions[3*i]), float64(m.Positions[3*i+1]), float64(m.Positions[3*i+2])}
	}
	nv := uint32(len(m.Positions) / 3)
	var out Mesh
	if flat {
		for t := 0; t+2 < len(m.Indices); t += 3 {
			a, b, c := m.Indices[t], m.Indices[t+1], m.Indices[t+2]
			if a >= nv || b >= nv || c >= nv {
				continue
			}
			n, _ := pos(b).Sub(pos(a)).Cross(pos(c).Sub(pos(a))).Normalize()
			base := uint32(len(out.Positions))
			for _, k := range [3]uint32{a, b, c} {
				out.Positions = append(out.Positions, [3]float32{m.Positions[3*k], m.Positions[3*k+1], m.Positions[3*k+2]})
				out.Normals = append(out.Normals, [3]float32{float32(n[0]), float32(n[1]), float32(n[2])})
			}
			out.Indices = append(out.Indices, base, base+1, base+2)
		}
		return out
	}
	normals := make([]spatial.Vec3, nv)
	for t := 0; t+2 < len(m.Indices); t += 3 {
		a, b, c := m.Indices[t], m.Indices[t+1], m.Indices[t+2]
		if a >= nv || b >= nv || c >= nv {
			continue
		}
		n := pos(b).Sub(pos(a)).Cross(pos(c).Sub(pos(a))) // length 2·area
		normals[a], normals[b], normals[c] = normals[a].Add(n), normals[b].Add(n), normals[c].Add(n)
		out.Indices = append(out.Indices, a, b, c)
	}
	for i := range nv {
		n, _ := normals[i].Normalize()
		out.Positions = append(out.Positions, [3]float32{m.Positions[3*i], m.Positions[3*i+1], m.Positions[3*i+2]})
		out.Normals = append(out.Normals, [3]float32{float32(n[0]), float32(n[1]), float32(n[2])})
	}
	return out
}

// EllipsoidMesh returns an ellipsoid with semi-axes r: a unit sphere
// scaled, with normals ∝ (x/a², y/b², z/c²).
func EllipsoidMesh(r [3]float64) Mesh {
	m := SphereMesh(1)
	for i, p := range m.Positions {
		n := spatial.Vec3{float64(p[0]) / r[0], float64(p[1]) / r[1], float64(p[2]) / r[2]}
		n, _ = n.Normalize()
		m.Positions[i] = [3]float32{p[0] * float32(r[0]), p[1] * float32(r[1]), p[2] * float32(r[2])}
		m.Normals[i] = [3]float32{float32(n[0]), float32(n[1]), float32(n[2])}
	}
	return m
}
