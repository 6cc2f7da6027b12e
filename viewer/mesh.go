package viewer

import (
	"math"

	"github.com/stiction-sim/stiction/record"
	"github.com/stiction-sim/stiction/spatial"
)

// Mesh is a triangle mesh with per-vertex normals, in a shape's own frame.
type Mesh struct {
	Positions [][3]float32
	Normals   [][3]float32
	Indices   []uint32
}

// profilePoint is a point (r, z) of a surface of revolution about z, with
// the outward normal (nr, nz) there.
type profilePoint struct{ r, z, nr, nz float64 }

// lathe revolves a profile about the z axis in seg segments.
func lathe(profile []profilePoint, seg int) Mesh {
	var m Mesh
	for _, p := range profile {
		for j := 0; j <= seg; j++ {
			a := 2 * math.Pi * float64(j) / float64(seg)
			c, s := math.Cos(a), math.Sin(a)
			m.Positions = append(m.Positions, [3]float32{float32(p.r * c), float32(p.r * s), float32(p.z)})
			m.Normals = append(m.Normals, [3]float32{float32(p.nr * c), float32(p.nr * s), float32(p.nz)})
		}
	}
	w := uint32(seg + 1)
	for i := range uint32(len(profile) - 1) {
		for j := range uint32(seg) {
			a, b := i*w+j, i*w+j+1
			c, d := a+w, b+w
			m.Indices = append(m.Indices, a, b, d, a, d, c)
		}
	}
	return m
}

// arc appends n+1 points of a circle of radius r centred at z = zc on the
// profile, from polar angle t0 to t1 (0 is the +z pole).
func arc(out []profilePoint, r, zc, t0, t1 float64, n int) []profilePoint {
	for i := 0; i <= n; i++ {
		t := t0 + (t1-t0)*float64(i)/float64(n)
		s, c := math.Sin(t), math.Cos(t)
		out = append(out, profilePoint{r * s, zc + r*c, s, c})
	}
	return out
}

// SphereMesh returns a UV sphere of radius r.
func SphereMesh(r float64) Mesh { return lathe(arc(nil, r, 0, math.Pi, 0, 16), 32) }

// CapsuleMesh returns a capsule of radius r and half length h along z.
func CapsuleMesh(r, h float64) Mesh {
	p := arc(nil, r, -h, math.Pi, math.Pi/2, 8)
	return lathe(arc(p, r, h, math.Pi/2, 0, 8), 32)
}

// CylinderMesh returns a closed cylinder of radius r and half length h
// along z, with sharp edges.
func CylinderMesh(r, h float64) Mesh {
	return lathe([]profilePoint{{0, -h, 0, -1}, {r, -h, 0, -1}, {r, -h, 1, 0}, {r, h, 1, 0}, {r, h, 0, 1}, {0, h, 0, 1}}, 32)
}

// BoxMesh returns a box of half extents e, with flat faces.
func BoxMesh(e [3]float64) Mesh {
	var m Mesh
	for axis := range 3 {
		for _, sign := range [2]float64{1, -1} {
			u, v := (axis+1)%3, (axis+2)%3
			base := uint32(len(m.Positions))
			for _, c := range [4][2]float64{{-1, -1}, {1, -1}, {1, 1}, {-1, 1}} {
				var p, n [3]float32
				p[axis], n[axis] = float32(sign*e[axis]), float32(sign)
				p[u], p[v] = float32(sign*c[0]*e[u]), float32(c[1]*e[v])
				m.Positions = append(m.Positions, p)
				m.Normals = append(m.Normals, n)
			}
			m.Indices = append(m.Indices, base, base+1, base+2, base, base+2, base+3)
		}
	}
	return m
}

// PlaneMesh returns the square of side size in the plane z = 0 centred on
// (cx, cy), facing +z: a half-space's boundary drawn finite.
func PlaneMesh(cx, cy, size float64) Mesh {
	h := size / 2
	var m Mesh
	for _, c := range [4][2]float64{{-1, -1}, {1, -1}, {1, 1}, {-1, 1}} {
		m.Positions = append(m.Positions, [3]float32{float32(cx + c[0]*h), float32(cy + c[1]*h), 0})
		m.Normals = append(m.Normals, [3]float32{0, 0, 1})
	}
	m.Indices = []uint32{0, 1, 2, 0, 2, 3}
	return m
}

// sceneBounds returns the centre and a radius of the non-fixed bodies'
// initial positions, as the page computes them.
func sceneBounds(sc record.SceneJSON) (spatial.Vec3, float64) {
	lo := spatial.Vec3{math.Inf(1), math.Inf(1), math.Inf(1)}
	hi := lo.Neg()
	for _, b := range sc.Bodies {
		if !b.Fixed {
			lo, hi = lo.Min(b.Pose.Position), hi.Max(b.Pose.Position)
		}
	}
	if lo[0] > hi[0] {
		return spatial.Vec3{}, 0.3
	}
	return lo.Add(hi).Scale(0.5), max(0.3, hi.Sub(lo).Norm()/2+0.2)
}

// ShapeMesh returns the mesh of geometry g of a body at world pose body,
// in g's frame; half-spaces become squares around the scene of centre c
// and radius r; convex hulls and visual meshes come from meshes
// (SceneJSON.Meshes).
func ShapeMesh(g record.GeometryJSON, meshes []record.MeshJSON, body spatial.Pose, c spatial.Vec3, r float64) Mesh {
	if g.Mesh != nil && *g.Mesh >= 0 && *g.Mesh < len(meshes) {
		return TriMesh(meshes[*g.Mesh], g.Shape == "convexhull")
	}
	switch g.Shape {
	case "ellipsoid":
		if g.Radii != nil {
			return EllipsoidMesh(*g.Radii)
		}
	case "sphere":
		return SphereMesh(g.Radius)
	case "capsule":
		return CapsuleMesh(g.Radius, g.HalfLength)
	case "cylinder":
		return CylinderMesh(g.Radius, g.HalfLength)
	case "box":
		if g.HalfExtents != nil {
			return BoxMesh(*g.HalfExtents)
		}
	case "halfspace":
		local := body.Compose(g.Pose.Pose()).ApplyInv(c)
		return PlaneMesh(local[0], local[1], max(2, 3*r))
	}
	return Mesh{}
}
