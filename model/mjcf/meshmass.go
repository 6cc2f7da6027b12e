package mjcf

import (
	"fmt"
	"math"

	"github.com/stiction-sim/stiction/model/mesh"
	"github.com/stiction-sim/stiction/scene"
	"github.com/stiction-sim/stiction/spatial"
)

// MuJoCo 2.2.2's mesh mass properties (user_mesh.cc, mjCMesh::Process,
// and mjCGeom::GetVolume in user_objects.cc), reproduced because a mesh
// geom's mass differs from the exact solid's in two ways:
//
//   - MuJoCo keeps mesh vertices in single precision: a vertex is read as
//     a float, scaled (float(v·scale)), moved to the centre of mass
//     (float(v − c)), and the triangle centres, edges and the products of
//     coordinates in the inertia sums are computed in float arithmetic.
//     That changes a box mesh's inertia by about 1e-7 relative (the
//     collision_convex test models).
//   - Unless <compiler exactmeshinertia="true">, a mesh geom's volume is
//     that of its equivalent inertia box, 8 b0 b1 b2 with
//     b_i = √(6 (I_j + I_k − I_i) / m) / 2, not the mesh's own (a
//     pentagonal prism weighs 2.9 % less), and each pyramid's volume in
//     the centre of mass and the inertia sums is taken positive
//     (|c·n| a/3): a non-convex or open mesh weighs more than its solid
//     (the Menagerie Allegro hand 0.5307 kg, as in MuJoCo 2.2.2; its
//     exact solids 0.357 kg).
//     The Debian build of 2.2.2 takes |·| in the centre-of-mass pass too
//     (its Allegro link_0.0 weighs 6.948855e-3 kg at density 800; without
//     it, 7.876e-3).
//
// The inertia per unit mass is the equivalent box's either way, in the
// principal frame of MuJoCo's Jacobi iteration (mju_eig3), which stops at
// off-diagonal entries below 1e-12 (absolute, the inertia times the
// density of the mesh's class): a cube's keeps its float-rounded diagonal
// (5e-11 relative from the exact eigenvalues of stacked_boxes.xml's box).

// mjMinVal is MuJoCo's mjMINVAL: faces with a smaller doubled area are
// skipped.
const mjMinVal = 1e-15

// f32Vec is a vertex as MuJoCo stores it.
type f32Vec [3]float32

// mjMeshProps are a mesh geom's mass properties per unit density: the
// volume its mass is density × Volume of, the centre of mass in the mesh
// frame, and the inertia per unit mass about it.
type mjMeshProps struct {
	Volume float64
	COM    spatial.Vec3
	Unit   spatial.Mat3
	// Quat is the principal frame's orientation in the mesh frame
	// (mju_eig3's quaternion: MuJoCo's mesh quat).
	Quat mjQuat
	// BoxVolume is the volume of the equivalent inertia box, 8 b0 b1 b2
	// (MuJoCo's boxsz_volume), and Tris the triangles the properties
	// were summed over (the shell pass reuses both: meshShellMass).
	BoxVolume float64
	Tris      [][3]int32
}

// mujocoMeshVerts returns the vertices vs scaled as MuJoCo stores them:
// float(float(v) · scale), component by component.
func mujocoMeshVerts(vs []spatial.Vec3, scale spatial.Vec3) []f32Vec {
	out := make([]f32Vec, len(vs))
	for i, v := range vs {
		for k := range 3 {
			out[i][k] = float32(float64(float32(v[k])) * scale[k])
		}
	}
	return out
}

// mujocoVertexMesh returns the convex hull of a <mesh vertex> point list
// as MuJoCo builds it: the single-precision scaled points and the
// triangles of qhull's hull of the unscaled ones, in qhull's
// triangulation (qhullTriangles). Should those triangles not close the
// same solid as our own hull of the points (qhullTriangles leaves some of
// qhull's precision handling out), our hull's triangles are used: the same
// solid, split along other diagonals (about 1e-8 relative in mass). With
// qhull's triangles it also returns MuJoCo's vertex graph of them where
// qhullCollisionGraph is confident of it (else nil).
func mujocoVertexMesh(pts []scene.Vec, scale spatial.Vec3) ([]f32Vec, [][3]int32, []int32, error) {
	raw := make([]spatial.Vec3, len(pts))
	unscaled := make([]spatial.Vec3, len(pts))
	for i, p := range pts {
		raw[i] = spatial.Vec3(p)
		for k := range 3 {
			unscaled[i][k] = float64(float32(p[k]))
		}
	}
	fv := mujocoMeshVerts(raw, scale)
	rounded := make([]scene.Vec, len(fv))
	for i, v := range fv {
		rounded[i] = scene.Vec{float64(v[0]), float64(v[1]), float64(v[2])}
	}
	m, err := scene.VertexMesh(&scene.Shape{Type: "mesh", Vertices: rounded})
	if err != nil {
		return nil, nil, nil, err
	}
	hv := make([]f32Vec, len(m.Vertices))
	for i, v := range m.Vertices {
		hv[i] = f32Vec{float32(v[0]), float32(v[1]), float32(v[2])}
	}
	tris, err := qhullTriangles(unscaled)
	if err != nil || !closedSurface(tris) || !sameVolume(fv, tris, hv, m.Triangles) {
		return hv, m.Triangles, nil, nil
	}
	return fv, tris, qhullCollisionGraph(unscaled), nil
}

// closedSurface reports whether every edge of tris is shared by exactly
// two triangles in opposite directions.
func closedSurface(tris [][3]int32) bool {
	edges := make(map[[2]int32]int, 3*len(tris))
	for _, t := range tris {
		for i := range 3 {
			edges[[2]int32{t[i], t[(i+1)%3]}]++
		}
	}
	for e, n := range edges {
		if n != 1 || edges[[2]int32{e[1], e[0]}] != 1 {
			return false
		}
	}
	return len(tris) > 0
}

// sameVolume reports whether two triangle meshes enclose the same volume
// to 1e-6 relative (the sum of the signed tetrahedra from the origin,
// (a × b)·c / 6): two triangulations of the same single-precision points
// differ by about 1e-8 where a nearly flat face is split along the other
// diagonal, a hull that misses a point by much more.
func sameVolume(va []f32Vec, ta [][3]int32, vb []f32Vec, tb [][3]int32) bool {
	vol := func(v []f32Vec, ts [][3]int32) float64 {
		var s float64
		for _, t := range ts {
			a, b, c := v[t[0]], v[t[1]], v[t[2]]
			p := spatial.Vec3{float64(a[0]), float64(a[1]), float64(a[2])}
			q := spatial.Vec3{float64(b[0]), float64(b[1]), float64(b[2])}
			r := spatial.Vec3{float64(c[0]), float64(c[1]), float64(c[2])}
			s += p.Cross(q).Dot(r) / 6
		}
		return s
	}
	a, b := vol(va, ta), vol(vb, tb)
	return math.Abs(a-b) <= 1e-6*math.Abs(b) && b > 0
}

// mujocoFileMesh returns a mesh file's single-precision scaled vertices
// and its triangles.
func mujocoFileMesh(m *mesh.Mesh, scale spatial.Vec3) ([]f32Vec, [][3]int32) {
	return mujocoMeshVerts(m.Vertices, scale), m.Triangles
}

// areaNrmCen is user_mesh.cc's _areaNrmCen: a triangle's area, unit
// normal and centre; the centre and the edges are float sums, as there.
func areaNrmCen(v1, v2, v3 f32Vec) (float64, spatial.Vec3, spatial.Vec3) {
	var cen, b, c spatial.Vec3
	for i := range 3 {
		cen[i] = float64(float32(float32(v1[i]+v2[i])+v3[i]) / 3)
		b[i] = float64(v2[i] - v1[i])
		c[i] = float64(v3[i] - v1[i])
	}
	n := spatial.Vec3{b[1]*c[2] - b[2]*c[1], b[2]*c[0] - b[0]*c[2], b[0]*c[1] - b[1]*c[0]}
	l := math.Sqrt(n[0]*n[0] + n[1]*n[1] + n[2]*n[2])
	if l < mjMinVal {
		return 0, spatial.Vec3{}, cen
	}
	return l / 2, spatial.Vec3{n[0] / l, n[1] / l, n[2] / l}, cen
}

// mujocoMeshMass returns a mesh geom's mass properties as MuJoCo 2.2.2
// computes them (mjCMesh::Process, volume mesh; mjCGeom::GetVolume and
// SetInertia) for the density of the mesh's default class; verts are
// moved to the centre of mass in place, as there.
func mujocoMeshMass(verts []f32Vec, tris [][3]int32, exact bool, density float64) (mjMeshProps, error) {
	// Centroid of the faces, then the centre of mass from pyramids with
	// their apex there.
	var facecen spatial.Vec3
	var area float64
	for _, t := range tris {
		a, _, cen := areaNrmCen(verts[t[0]], verts[t[1]], verts[t[2]])
		facecen = facecen.AddScaled(a, cen)
		area += a
	}
	if area < mjMinVal {
		return mjMeshProps{}, fmt.Errorf("mesh surface area %g is too small", area)
	}
	facecen = facecen.Scale(1 / area)
	var com spatial.Vec3
	var vol float64
	for _, t := range tris {
		a, nrm, cen := areaNrmCen(verts[t[0]], verts[t[1]], verts[t[2]])
		v := cen.Sub(facecen).Dot(nrm) * a / 3
		if !exact {
			v = math.Abs(v) // as in the second pass (MuJoCo 2.2.2's legacy rule)
		}
		vol += v
		for j := range 3 {
			com[j] += v * (cen[j]*3.0/4.0 + facecen[j]/4.0)
		}
	}
	if vol < mjMinVal {
		return mjMeshProps{}, fmt.Errorf("mesh volume %g is too small", vol)
	}
	com = com.Scale(1 / vol)
	for i := range verts {
		for j := range 3 {
			verts[i][j] = float32(float64(verts[i][j]) - com[j])
		}
	}
	vol, P := mujocoProducts(verts, tris, exact, density)
	// Products of inertia to moments (times the density, as MuJoCo's),
	// diagonalized by MuJoCo's Jacobi iteration (mju_eig3, decreasing).
	ev, q := mjEig3([9]float64{
		P[1] + P[2], -P[3], -P[4],
		-P[3], P[0] + P[2], -P[5],
		-P[4], -P[5], P[0] + P[1],
	})
	if ev[2] <= 0 || ev[0]+ev[1] < ev[2] || ev[0]+ev[2] < ev[1] || ev[1]+ev[2] < ev[0] {
		return mjMeshProps{}, fmt.Errorf("mesh inertia's principal moments %v are not those of a solid", ev)
	}
	// The equivalent inertia box: its half-sizes from the principal
	// moments; the geom's inertia is the box's (SetInertia), in the
	// principal frame R, and its volume the box's unless exact
	// (GetVolume).
	mass := vol * density
	b := [3]float64{
		math.Sqrt(6*(ev[1]+ev[2]-ev[0])/mass) / 2,
		math.Sqrt(6*(ev[0]+ev[2]-ev[1])/mass) / 2,
		math.Sqrt(6*(ev[0]+ev[1]-ev[2])/mass) / 2,
	}
	d := [3]float64{(b[1]*b[1] + b[2]*b[2]) / 3, (b[0]*b[0] + b[2]*b[2]) / 3, (b[0]*b[0] + b[1]*b[1]) / 3}
	R := quat2Mat(q)
	var unit spatial.Mat3 // R diag(d) Rᵀ
	for i := range 3 {
		for j := range 3 {
			for k := range 3 {
				unit[i][j] += R[3*i+k] * d[k] * R[3*j+k]
			}
		}
	}
	props := mjMeshProps{Volume: vol, COM: com, Unit: unit, Quat: q, BoxVolume: b[0] * b[1] * b[2] * 8, Tris: tris}
	if !exact {
		props.Volume = props.BoxVolume
	}
	return props, nil
}

// mujocoProducts returns the volume and the products of inertia times the
// density (xx, yy, zz, xy, xz, yz) about the origin, summed over the
// pyramids from it as MuJoCo does: density·vol/20 times the coordinate
// products in float arithmetic, each pyramid's volume positive unless
// exact.
func mujocoProducts(verts []f32Vec, tris [][3]int32, exact bool, density float64) (float64, [6]float64) {
	k := [6][2]int{{0, 0}, {1, 1}, {2, 2}, {0, 1}, {0, 2}, {1, 2}}
	var P [6]float64
	var vol float64
	for _, t := range tris {
		D, E, F := verts[t[0]], verts[t[1]], verts[t[2]]
		a, nrm, cen := areaNrmCen(D, E, F)
		v := cen.Dot(nrm) * a / 3
		if !exact {
			v = math.Abs(v)
		}
		vol += v
		for j, kk := range k {
			p, q := kk[0], kk[1]
			P[j] += density * v / 20 * float64(productSum(D, E, F, p, q))
		}
	}
	return vol, P
}

// productSum is the single-precision bracket of MuJoCo's inertia sum,
// evaluated in the order it is written there; the conversions keep each
// operation rounded to float (no fused multiply-add).
func productSum(D, E, F f32Vec, p, q int) float32 {
	sq := float32(float32(float32(D[p]*D[q])+float32(E[p]*E[q])) + float32(F[p]*F[q]))
	s := float32(2 * sq)
	for _, t := range [6]float32{float32(D[p] * E[q]), float32(D[q] * E[p]), float32(D[p] * F[q]), float32(D[q] * F[p]), float32(E[p] * F[q]), float32(E[q] * F[p])} {
		s = float32(s + float32(t))
	}
	return s
}

// meshMass returns a mesh geom's mass properties per unit density as
// MuJoCo 2.2.2 computes them (mujocoMeshMass), in the mesh frame.
func (c *compiler) meshMass(v view, sh *scene.Shape) (mjMeshProps, error) {
	p, _, _, err := c.meshCompile(v, sh, true)
	return p, err
}

// meshCompile is meshMass that also returns the mesh's vertices as
// MuJoCo stores them once centred (float(v − c)), in the mesh frame's
// axes, and MuJoCo's vertex graph of them where known (mujocoVertexMesh);
// warn reports an open mesh.
func (c *compiler) meshCompile(v view, sh *scene.Shape, warn bool) (mjMeshProps, []f32Vec, []int32, error) {
	scale := spatial.Vec3{1, 1, 1}
	if sh.Scale != nil {
		scale = spatial.Vec3(*sh.Scale)
	}
	var verts []f32Vec
	var tris [][3]int32
	var graph []int32
	if sh.Vertices != nil {
		var err error
		if verts, tris, graph, err = mujocoVertexMesh(sh.Vertices, scale); err != nil {
			return mjMeshProps{}, nil, nil, c.r.Errorf(v.e, "mesh", "%v", err)
		}
	} else {
		m, err := c.meshCache.Load(sh.File)
		if err != nil {
			return mjMeshProps{}, nil, nil, c.r.Errorf(v.e, "mesh", "%v", err)
		}
		if err := m.Validate(); err != nil {
			return mjMeshProps{}, nil, nil, c.r.Errorf(v.e, "mesh", "mass properties of %s: %v", meshLabel(sh), err)
		}
		if warn && !m.Closed() {
			c.r.Warnf(v.e, "mesh", "mesh %s is not a closed surface: its volume and inertia are approximate", meshLabel(sh))
		}
		verts, tris = mujocoFileMesh(m, scale)
	}
	p, err := mujocoMeshMass(verts, tris, c.exactMeshInertia, c.meshDensity(v))
	if err != nil {
		return mjMeshProps{}, nil, nil, c.r.Errorf(v.e, "mesh", "mass properties of %s: %v", meshLabel(sh), err)
	}
	return p, verts, graph, nil
}

// meshDensity returns the density of the default class of the mesh of
// geom view v (MuJoCo's def->geom.density in mjCMesh::Process; 1000
// when the mesh is unknown, which meshMass reports otherwise).
func (c *compiler) meshDensity(v view) float64 {
	if ma := c.meshes[v.str("mesh", "")]; ma != nil && ma.density > 0 {
		return ma.density
	}
	return 1000
}
