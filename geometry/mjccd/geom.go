package mjccd

import "math"

// Type is a MuJoCo geom type (mjtGeom), numbered as MuJoCo numbers them.
type Type int

// MuJoCo's geom types.
const (
	Plane Type = iota
	HField
	Sphere
	Capsule
	Ellipsoid
	Cylinder
	Box
	Mesh
	numTypes
)

// Table reports whether MuJoCo 2.2.2 collides geom types a and b with
// mjc_Convex (mjCOLLISIONFUNC in engine_collision_driver.c, either
// order): every pair of sphere, capsule, ellipsoid, cylinder, box and
// mesh except sphere–sphere, sphere–capsule, sphere–box, capsule–capsule,
// capsule–box and box–box, which have native colliders. Planes and height
// fields never do (mjc_PlaneConvex and mjc_ConvexHField are other paths).
func Table(a, b Type) bool {
	if a > b {
		a, b = b, a
	}
	if a < Sphere || b >= numTypes {
		return false
	}
	native := a == Sphere && (b == Sphere || b == Capsule || b == Box) || a == Capsule && (b == Capsule || b == Box) || a == Box && b == Box
	return !native
}

// MeshData is a mesh as MuJoCo 2.2.2 compiles it: Vert, its vertices in
// single precision in MuJoCo's mesh frame (mesh_vert: centred on the
// mesh's centre of mass and turned to its principal axes), and Graph,
// mjCMesh::MakeGraph's vertex graph (mesh_graph: numvert, numface,
// vert_edgeadr, vert_globalid, edge_localid, face_globalid), nil when
// MuJoCo has none (fewer than 4 vertices), which makes the support an
// exhaustive search.
type MeshData struct {
	Vert  []float32
	Graph []int32
}

// Geom is one geom as mjc_Convex reads it from mjModel and mjData.
type Geom struct {
	Type   Type
	Size   [3]float64  // geom_size
	Pos    [3]float64  // geom_xpos
	Mat    [9]float64  // geom_xmat, row-major
	RBound float64     // geom_rbound
	Mesh   *MeshData   // Type Mesh only
	Field  *HFieldData // Type HField only
	// meshIndex is the last support's vertex (mjtCCD.meshindex).
	meshIndex int
	// prism is the cell prism of a Type HField geom (ConvexHField), in
	// the field's frame.
	prism prism
}

// center is mjccd_center: the geom's position, or mjccd_prism_center
// for a height field's prism.
func (g *Geom) center() vec {
	if g.Type == HField {
		return g.prism.center()
	}
	return g.Pos
}

// support is mjccd_support: the point of the geom (inflated by margin/2)
// farthest along world direction d.
func (g *Geom) support(d *vec, margin float64) vec {
	if g.Type == HField { // mjccd_prism_support: no margin
		return g.prism.support(d)
	}
	dir := rotVecMatT(d, &g.Mat)
	s := &g.Size
	var res vec
	switch g.Type {
	case Sphere:
		res = vec{dir[0] * s[0], dir[1] * s[0], dir[2] * s[0]}
	case Capsule:
		res = vec{dir[0] * s[0], dir[1] * s[0], dir[2] * s[0]}
		res[2] += mjSign(dir[2]) * s[1]
	case Ellipsoid:
		for i := range 3 {
			res[i] = dir[i] * s[i]
		}
		mjNormalize(&res)
		for i := range 3 {
			res[i] *= s[i]
		}
	case Cylinder:
		if t := math.Sqrt(dir[0]*dir[0] + dir[1]*dir[1]); t > mjMinVal {
			res[0] = dir[0] / t * s[0]
			res[1] = dir[1] / t * s[0]
		}
		res[2] = mjSign(dir[2]) * s[1]
	case Box:
		for i := range 3 {
			res[i] = mjSign(dir[i]) * s[i]
		}
	case Mesh:
		res = g.meshSupport(&dir)
	}
	for i := range 3 {
		res[i] += dir[i] * margin / 2
	}
	out := rotVecMat(&res, &g.Mat)
	out[0] += g.Pos[0]
	out[1] += g.Pos[1]
	out[2] += g.Pos[2]
	return out
}

// vdot is the dot product of dir with mesh vertex i, as mjccd_support
// sums it.
func vdot(dir *vec, v []float32, i int) float64 {
	return dir[0]*float64(v[3*i]) + dir[1]*float64(v[3*i+1]) + dir[2]*float64(v[3*i+2])
}

// meshSupport is mjccd_support's mesh case: the first vertex of largest
// dir·v by exhaustive search, or MuJoCo 2.2.2's hill climb on its graph.
// That climb reads edge_localid's entries, which MakeGraph fills with the
// neighbours' global (point) ids, as local ids (indices into
// vert_edgeadr and vert_globalid); it is reproduced as it is. The climb
// stops after numvert² improvements at most (each improvement raises the
// value strictly, so MuJoCo's ends sooner; the cap only guards bad data).
func (g *Geom) meshSupport(dir *vec) vec {
	m := g.Mesh
	if m == nil || len(m.Vert) < 3 {
		return vec{}
	}
	v := m.Vert
	nv := len(v) / 3
	best := -1
	if m.Graph == nil {
		tmp := -1e10
		for i := range nv {
			if d := vdot(dir, v, i); d > tmp {
				tmp, best = d, i
			}
		}
		g.meshIndex = best
	} else {
		best = g.climb(dir)
	}
	if best < 0 || best >= nv {
		return vec{}
	}
	return vec{float64(v[3*best]), float64(v[3*best+1]), float64(v[3*best+2])}
}

// climb is the graph walk of meshSupport; it returns the global id of
// the vertex found (−1 on malformed data).
func (g *Geom) climb(dir *vec) int {
	gr, v := g.Mesh.Graph, g.Mesh.Vert
	nvert := len(v) / 3
	if len(gr) < 2 {
		return -1
	}
	numvert := int(gr[0])
	if numvert <= 0 || len(gr) < 2+3*numvert {
		return -1
	}
	edgeadr := gr[2 : 2+numvert]
	globalid := gr[2+numvert : 2+2*numvert]
	edges := gr[2+2*numvert:]
	glob := func(loc int) int {
		if loc < 0 || loc >= numvert || int(globalid[loc]) >= nvert || globalid[loc] < 0 {
			return -1
		}
		return int(globalid[loc])
	}
	ibest := 0
	if glob(0) < 0 {
		return -1
	}
	tmp := vdot(dir, v, glob(0))
	for change, steps := true, 0; change && steps <= numvert*numvert; steps++ {
		change = false
		for i := int(edgeadr[ibest]); i >= 0 && i < len(edges); i++ {
			loc := int(edges[i])
			if loc < 0 {
				break
			}
			gl := glob(loc)
			if gl < 0 {
				return -1
			}
			if d := vdot(dir, v, gl); d > tmp {
				tmp, ibest, change = d, loc, true
			}
		}
	}
	g.meshIndex = ibest
	return glob(ibest)
}

// RBound is MuJoCo's geom_rbound of g (mjCGeom::GetRBound), the radius of
// the geom's bounding sphere about its centre; for a mesh, the value g
// already holds (MuJoCo's is the norm of the mesh's bounding-box
// half-extents).
func RBound(g *Geom) float64 {
	s := &g.Size
	switch g.Type {
	case Sphere:
		return s[0]
	case Capsule:
		return s[0] + s[1]
	case Cylinder:
		return math.Sqrt(s[0]*s[0] + s[1]*s[1])
	case Ellipsoid:
		return math.Max(math.Max(s[0], s[1]), s[2])
	case Box:
		return math.Sqrt(s[0]*s[0] + s[1]*s[1] + s[2]*s[2])
	}
	return g.RBound
}
