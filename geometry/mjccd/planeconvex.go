package mjccd

// MaxPlaneConvex is the most contacts PlaneConvex gives (MuJoCo 2.2.2's
// maxplanemesh, engine_collision_convex.c).
const MaxPlaneConvex = 3

// tolPlaneMesh is MuJoCo 2.2.2's tolplanemesh: an extra plane–mesh
// contact closer than tolPlaneMesh·geom_rbound to the first one is
// dropped.
const tolPlaneMesh = 0.3

// PlaneConvex appends to out the contacts of plane p (geom 1) and an
// ellipsoid or mesh g (geom 2) as MuJoCo 2.2.2's mjc_PlaneConvex
// (engine_collision_convex.c) finds them. The first is g's support point
// s along −n (mjccd_support, margin 0), n the third column of the
// plane's geom_xmat: dist = n·(s − pos₁), kept when dist ≤ margin (else
// none), at pos s − n·dist/2 with normal n (from the plane to g). An
// ellipsoid has only that one. A mesh then adds vertices v (mesh_vert,
// in g's frame) with locdir·v > n·(pos₂ − pos₁) − margin, locdir =
// mat₂ᵀ(−n), i.e. within margin of the plane, each one (addplanemesh) at
// world point w = mat₂·v + pos₂ with dist n·(w − pos₁) and pos w −
// n·dist/2, unless |w − first pos| < tolplanemesh·geom_rbound, until
// MaxPlaneConvex contacts: without a graph every vertex but the support
// one in index order; with MuJoCo's graph only the edge neighbours of
// the support vertex (vert_edgeadr[meshindex], meshindex the support's
// local id), read from edge_localid as mjc_PlaneConvex reads them (as
// local ids; see meshSupport).
func PlaneConvex(p, g *Geom, margin float64, out []Contact) []Contact {
	n := vec{p.Mat[2], p.Mat[5], p.Mat[8]}
	dir := vec{-p.Mat[2], -p.Mat[5], -p.Mat[8]}
	g.meshIndex = -1 // mjtCCD obj = {m, d, g2, -1, 0, ...}
	s := g.support(&dir, 0)
	dif := vec{s[0] - p.Pos[0], s[1] - p.Pos[1], s[2] - p.Pos[2]}
	dist := dot3(&n, &dif)
	if dist > margin {
		return out
	}
	first := contactAt(&s, &n, dist)
	out = append(out, first)
	if g.Type != Mesh || g.Mesh == nil {
		return out
	}
	locdir := rotVecMatT(&dir, &g.Mat)
	dif = vec{g.Pos[0] - p.Pos[0], g.Pos[1] - p.Pos[1], g.Pos[2] - p.Pos[2]}
	threshold := dot3(&n, &dif) - margin
	m := g.Mesh
	count := 1
	if m.Graph == nil {
		for i := 0; i < len(m.Vert)/3 && count < MaxPlaneConvex; i++ {
			if vdot(&locdir, m.Vert, i) > threshold && i != g.meshIndex {
				out, count = addPlaneMesh(p, g, &n, &first, i, out, count)
			}
		}
		return out
	}
	return g.planeMeshGraph(p, &n, &locdir, threshold, &first, out, count)
}

// planeMeshGraph is mjc_PlaneConvex's graph branch: the edge neighbours
// of the support vertex (local id g.meshIndex) beyond threshold along
// locdir, added with addPlaneMesh until MaxPlaneConvex contacts. Malformed
// graph data ends the walk.
func (g *Geom) planeMeshGraph(p *Geom, n, locdir *vec, threshold float64, first *Contact, out []Contact, count int) []Contact {
	gr, v := g.Mesh.Graph, g.Mesh.Vert
	if g.meshIndex < 0 || len(gr) < 2 {
		return out
	}
	numvert := int(gr[0])
	if numvert <= 0 || g.meshIndex >= numvert || len(gr) < 2+3*numvert {
		return out
	}
	edgeadr := gr[2 : 2+numvert]
	globalid := gr[2+numvert : 2+2*numvert]
	edges := gr[2+2*numvert:]
	for i := int(edgeadr[g.meshIndex]); i >= 0 && i < len(edges) && count < MaxPlaneConvex; i++ {
		loc := int(edges[i])
		if loc < 0 {
			break
		}
		if loc >= numvert || globalid[loc] < 0 || int(globalid[loc]) >= len(v)/3 {
			return out
		}
		if gl := int(globalid[loc]); vdot(locdir, v, gl) > threshold {
			out, count = addPlaneMesh(p, g, n, first, gl, out, count)
		}
	}
	return out
}

// addPlaneMesh is MuJoCo 2.2.2's addplanemesh: it appends the contact of
// mesh vertex i of g (world point w = mat₂·v + pos₂) with plane p unless
// w is within tolplanemesh·geom_rbound of the first contact's position,
// and returns out and count, counted up when it appends.
func addPlaneMesh(p, g *Geom, n *vec, first *Contact, i int, out []Contact, count int) ([]Contact, int) {
	v := vec{float64(g.Mesh.Vert[3*i]), float64(g.Mesh.Vert[3*i+1]), float64(g.Mesh.Vert[3*i+2])}
	w := rotVecMat(&v, &g.Mat)
	w[0] += g.Pos[0]
	w[1] += g.Pos[1]
	w[2] += g.Pos[2]
	f := vec(first.Pos)
	if dist3(&w, &f) < tolPlaneMesh*g.RBound {
		return out, count
	}
	dif := vec{w[0] - p.Pos[0], w[1] - p.Pos[1], w[2] - p.Pos[2]}
	return append(out, contactAt(&w, n, dot3(n, &dif))), count + 1
}

// contactAt is a plane contact of depth dist at point s: pos s + n·(−dist/2)
// (mju_copy3, then mju_addToScl3(pos, normal, -0.5*dist)), normal n.
func contactAt(s, n *vec, dist float64) Contact {
	k := -0.5 * dist
	return Contact{
		Dist:   dist,
		Pos:    [3]float64{s[0] + n[0]*k, s[1] + n[1]*k, s[2] + n[2]*k},
		Normal: [3]float64(*n),
	}
}
