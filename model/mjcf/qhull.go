package mjcf

import (
	"errors"
	"math"
	"slices"
	"sort"

	"github.com/stiction-sim/stiction/spatial"
)

// MuJoCo 2.2.2 gives a mesh that has only vertices the faces of the
// convex hull qhull builds (user_mesh.cc, mjCMesh::MakeGraph: options
// "qhull Qt", the Debian build linking qhull 2020.2, libqhull_r 8.0.2),
// and its non-exact mesh inertia sums depend on the triangles in single
// precision. qhull's triangulation (qh_triangulate_facet) splits each
// merged flat face into a fan from the face's first vertex, the one qhull
// created last (vertex sets are sorted by decreasing vertex id), and lists
// each triangle's vertices by decreasing id, the first two swapped when
// the facet is top-oriented, which MakeGraph undoes so that the triangle
// faces outward. So the triangles follow from the faces and the order in
// which qhull made the points vertices. qhullTriangles reproduces that
// order by following qhull's incremental construction (qh_qhull) for the
// cases its options exercise on small meshes:
//
//   - the initial simplex of qh_maxsimplex from qh_maxmin's extreme
//     points (first the minimum and maximum x, then the point of largest
//     |determinant| in the first i coordinates, all points searched when
//     the ratio to the width is below qh_RATIOmaxsimplex = 1e-3), its
//     vertices numbered in that order and its facets made as
//     qh_createsimplex does;
//   - qh_partitionall (a point goes to the first facet it is outside of,
//     the furthest last in the outside set; the rest to their best facet),
//     qh_furthestnext, and qh_nextfurthest (the furthest point of the
//     first facet with outside points);
//   - qh_addpoint: the visible facets by qh_findhorizon's breadth-first
//     walk, a cone of new facets appended to the facet list, new facets on
//     a coplanar horizon facet merged into it (qh_mergecycle_all, which
//     moves it to the end of the list), and the visible facets' outside
//     points placed as qh_partitionvisible places them (qh_findbestnew's
//     first new facet the point is outside of after a merge, qh_findbest's
//     walk otherwise), with qhull's plane, distance and determinant
//     arithmetic;
//   - qhull's ridge sets and vertex neighbour lists through the cone and
//     the merges (qhull_ridges.go: qh_makenew_nonsimplicial's cone order
//     over a visible facet's ridges, qh_makeridges, qh_mergesimplex,
//     qh_mergecycle's neighbours, ridges and vertex neighbours, and
//     qh_setdel moving the last element into the deleted one's place);
//   - qh_triangulate on the final facets: each merged facet split from
//     its apex in ridge order (qh_triangulate_facet); where a merged
//     facet's ridges are not its polygon's edges (qhull deleted a vertex
//     inside it or on an edge between two corners, not modelled), a fan
//     from its newest corner over its polygon, the same triangles.
//
// Not reproduced: merges of new facets with each other (qh_all_merges),
// vertex merges and deletions, and qhull's roundoff thresholds (a point
// within 1e-12 of the largest coordinate of a plane counts as on it).
// Checked against MuJoCo's own triangles (mesh_face) in
// TestQhullTriangles and TestQhullTrianglesMuJoCo.

// qhFacet is one facet of the hull under construction.
type qhFacet struct {
	verts    []int // point indices, by decreasing vertex id
	nb       []*qhFacet
	out      []int // outside points, the furthest last
	furthest float64
	n        spatial.Vec3
	off      float64
	horizon  *qhFacet // a new facet's horizon facet
	replace  *qhFacet // a visible or merged facet's replacement (f.replace)
	visible  bool
	coplanar bool // a coplanar horizon facet of the point being added
	qhRidgeState
}

// qhBuild is the state of one construction.
type qhBuild struct {
	p        []spatial.Vec3
	vid      []int // vertex id of each point, 0 if not a vertex
	order    []int // points in the order they became vertices
	vlist    []int // qhull's vertex list (qh.vertex_list), as point indices
	vnew     []bool
	facets   []*qhFacet
	interior spatial.Vec3
	// vnb is each vertex's neighbouring facets (vertex->neighbors) once
	// qhull keeps them (after the first merge), else nil; unmodelled is
	// set when a merge deletes a vertex, which qhBuild does not follow.
	vnb        [][]*qhFacet
	unmodelled bool
	tol        float64
}

// qhullTriangles returns the triangles MuJoCo 2.2.2 makes from qhull's
// hull of points pts (indices into pts, outward by the right-hand rule).
func qhullTriangles(pts []spatial.Vec3) ([][3]int32, error) {
	b, err := qhullBuild(pts)
	if err != nil {
		return nil, err
	}
	tris, _, _, _ := b.triangulate()
	return tris, nil
}

// qhullGraph returns the vertex graph MuJoCo 2.2.2 compiles for the hull
// of points pts (mjCMesh::MakeGraph, mesh_graph): numvert, numface,
// vert_edgeadr[numvert], vert_globalid[numvert],
// edge_localid[numvert+3*numface], face_globalid[3*numface]. MakeGraph
// walks qhull's vertex list (FORALLvertices: the vertices in the order
// qhull created them, qh_appendvertex, each moved to the end when a new
// facet or a merge makes it new: qh_makenewfacet, qh_newvertices) and,
// for each, its neighbouring facets (vertex->neighbors: in facet-list
// order after qh_triangulate when nothing merged, else the lists qhull
// kept from its first merge, vertexFacets), appending each facet vertex
// not yet listed (in the facet's vertex-set order, by decreasing vertex
// id) and a −1; the neighbours' point ids are then replaced by their
// positions in the vertex list. qh_triangulate puts the triangles of
// merged (flat, non-simplicial) facets at the end of the facet list, in
// each facet's ridge order, and qh_makenewfacet moves their vertices (and
// those of the null facets of the ridges through the apex) to the end of
// the vertex list on first touch. face_globalid is those triangles. It
// fails with errUnmodelledRidges where a merge deleted a vertex.
// TestQhullGraphMuJoCo measures the matches.
func qhullGraph(pts []spatial.Vec3) ([]int32, error) {
	b, err := qhullBuild(pts)
	if err != nil {
		return nil, err
	}
	return b.graph()
}

// qhullCollisionGraph returns qhullGraph's graph for pts where it is
// measured to be MuJoCo's, else nil: the construction merged facets
// (flat faces: boxes, prisms) and the model followed every merge
// (TestQhullGraphMuJoCo checks that every graph it returns equals
// MuJoCo's). Hulls without merges are left out: for 3 of 20 random
// clouds qhBuild's facet order departs from qhull's.
func qhullCollisionGraph(pts []spatial.Vec3) []int32 {
	b, err := qhullBuild(pts)
	if err != nil || b.vnb == nil {
		return nil
	}
	g, err := b.graph()
	if err != nil {
		return nil
	}
	return g
}

// graph is qhullGraph on a finished construction.
func (b *qhBuild) graph() ([]int32, error) {
	pts := b.p
	tris, sets, touched, ok := b.triangulate()
	if !ok || b.unmodelled {
		return nil, errUnmodelledRidges
	}
	// qh_triangulate: qh_makenewfacet moves the vertices of each facet it
	// makes (null facets included) to the end of the vertex list on first
	// touch.
	seen := make([]bool, len(pts))
	for _, st := range touched {
		for _, v := range st {
			if !seen[v] {
				seen[v] = true
				k := slices.Index(b.vlist, v)
				b.vlist = append(slices.Delete(b.vlist, k, k+1), v)
			}
		}
	}
	used := make([]bool, len(pts))
	for _, t := range tris {
		for _, v := range t {
			used[v] = true
		}
	}
	local := make([]int32, len(pts))
	var verts []int
	for _, q := range b.vlist {
		if used[q] {
			local[q] = int32(len(verts))
			verts = append(verts, q)
		}
	}
	nv, nf := len(verts), len(tris)
	g := make([]int32, 0, 2+3*nv+6*nf)
	g = append(g, int32(nv), int32(nf))
	edgeadr := len(g)
	g = append(g, make([]int32, nv)...)
	for _, q := range verts {
		g = append(g, int32(q))
	}
	nb := b.vertexFacets(sets)
	start := len(g)
	for i, q := range verts {
		g[edgeadr+i] = int32(len(g) - start)
		first := len(g)
		for _, fi := range nb[q] {
			for _, v := range sets[fi] {
				if v != q && !slices.Contains(g[first:], local[v]) {
					g = append(g, local[v])
				}
			}
		}
		g = append(g, -1)
	}
	if len(g)-start != nv+3*nf {
		return nil, errors.New("hull graph: a facet is not a triangle")
	}
	for _, t := range tris {
		g = append(g, t[0], t[1], t[2])
	}
	return g, nil
}

// qhullBuild runs the incremental construction on pts.
func qhullBuild(pts []spatial.Vec3) (*qhBuild, error) {
	if len(pts) < 4 {
		return nil, errors.New("at least 4 vertices are needed for a hull")
	}
	b := &qhBuild{p: pts, vid: make([]int, len(pts))}
	var scale float64
	for _, q := range pts {
		for k := range 3 {
			scale = math.Max(scale, math.Abs(q[k]))
		}
	}
	b.tol = 1e-12 * scale
	s, err := b.maxSimplex()
	if err != nil {
		return nil, err
	}
	b.createSimplex(s)
	b.partitionAll(s)
	for {
		f := b.nextFurthest()
		if f == nil {
			break
		}
		b.addPoint(f.out[len(f.out)-1], f)
	}
	return b, nil
}

// maxMin returns qh_maxmin's extreme points: for each axis the minimum and
// maximum (the first of equals; a point is tested for the minimum only if
// it is not a new maximum).
func (b *qhBuild) maxMin() []int {
	var mp []int
	for k := range 3 {
		mn, mx := 0, 0
		for i, q := range b.p {
			if b.p[mx][k] < q[k] {
				mx = i
			} else if b.p[mn][k] > q[k] {
				mn = i
			}
		}
		mp = append(mp, mn, mx)
	}
	return mp
}

// detSimplex is qh_detsimplex: |det| of the rows s[j] − p, j < i, in the
// first i coordinates, expanded as qhull's det2_ and det3_ macros (the
// order matters where determinants tie in exact arithmetic). The float64
// conversions keep each product rounded (no fused multiply-add).
func (b *qhBuild) detSimplex(p int, s []int, i int) float64 {
	r := func(j, k int) float64 { return b.p[s[j]][k] - b.p[p][k] }
	det2 := func(a1, a2, b1, b2 float64) float64 { return float64(a1*b2) - float64(a2*b1) }
	if i == 2 {
		return math.Abs(det2(r(0, 0), r(0, 1), r(1, 0), r(1, 1)))
	}
	a1, a2, a3 := r(0, 0), r(0, 1), r(0, 2)
	b1, b2, b3 := r(1, 0), r(1, 1), r(1, 2)
	c1, c2, c3 := r(2, 0), r(2, 1), r(2, 2)
	return math.Abs(float64(a1*det2(b2, b3, c2, c3)) - float64(b1*det2(a2, a3, c2, c3)) + float64(c1*det2(a2, a3, b2, b3)))
}

// maxSimplex is qh_maxsimplex for the 3-d hull (qh_RATIOmaxsimplex 1e-3).
func (b *qhBuild) maxSimplex() ([]int, error) {
	mp := b.maxMin()
	var width float64
	for k := range 3 {
		width = math.Max(width, b.p[mp[2*k+1]][k]-b.p[mp[2*k]][k])
	}
	maxc, minc := math.Inf(-1), math.Inf(1)
	var maxx, minx int
	for _, q := range mp {
		if maxc < b.p[q][0] {
			maxc, maxx = b.p[q][0], q
		}
		if minc > b.p[q][0] {
			minc, minx = b.p[q][0], q
		}
	}
	s := []int{minx}
	if maxx != minx {
		s = append(s, maxx)
	}
	if len(s) < 2 || width <= 0 {
		return nil, errors.New("the vertices have the same x coordinate")
	}
	maxdet := maxc - minc
	for i := len(s); i < 4; i++ {
		prev := maxdet
		best, maxdet := -1, -1.0
		for _, q := range mp {
			if !slices.Contains(s, q) && q != best {
				if d := b.detSimplex(q, s, i); d > maxdet {
					maxdet, best = d, q
				}
			}
		}
		target := prev * width
		if best < 0 || maxdet/target < 1e-3 {
			mindet := 10 * 1e-3 * target
			for q := range b.p {
				if slices.Contains(mp, q) || slices.Contains(s, q) {
					continue
				}
				if d := b.detSimplex(q, s, i); d > maxdet {
					maxdet, best = d, q
					if maxdet > mindet {
						break
					}
				}
			}
		}
		if best < 0 || maxdet <= 0 {
			return nil, errors.New("the vertices are coplanar: no initial simplex")
		}
		s = append(s, best)
	}
	return s, nil
}

// addVertex numbers point q as the next vertex.
func (b *qhBuild) addVertex(q int) {
	b.order = append(b.order, q)
	b.vid[q] = len(b.order)
}

// byID sorts point indices by decreasing vertex id.
func (b *qhBuild) byID(vs []int) []int {
	sort.Slice(vs, func(i, j int) bool { return b.vid[vs[i]] > b.vid[vs[j]] })
	return vs
}

// setPlane sets f's outward unit normal and offset as qh_sethyperplane_det
// does for 3-d (differences from the first vertex, each component divided
// by the norm), outward being away from the initial simplex's centre,
// qhull's interior point (qhull's orientation flag gives the same sign).
func (b *qhBuild) setPlane(f *qhFacet) {
	p0, p1, p2 := b.p[f.verts[0]], b.p[f.verts[1]], b.p[f.verts[2]]
	d1, d2 := p1.Sub(p0), p2.Sub(p0)
	det2 := func(a1, a2, b1, b2 float64) float64 { return float64(a1*b2) - float64(a2*b1) }
	n := spatial.Vec3{det2(d2[1], d2[2], d1[1], d1[2]), det2(d1[0], d1[2], d2[0], d2[2]), det2(d2[0], d2[1], d1[0], d1[1])}
	l := math.Sqrt(float64(n[0]*n[0]) + float64(n[1]*n[1]) + float64(n[2]*n[2]))
	if n.Dot(b.interior.Sub(p0)) > 0 {
		l = -l
	}
	n = spatial.Vec3{n[0] / l, n[1] / l, n[2] / l}
	f.n, f.off = n, -(float64(p0[0]*n[0]) + float64(p0[1]*n[1]) + float64(p0[2]*n[2]))
}

// dist is qh_distplane: the offset plus the coordinates times the normal,
// summed in that order.
func (b *qhBuild) dist(q int, f *qhFacet) float64 {
	p := b.p[q]
	return f.off + float64(p[0]*f.n[0]) + float64(p[1]*f.n[1]) + float64(p[2]*f.n[2])
}

// createSimplex is qh_createsimplex: one facet per simplex vertex, without
// it, in the order of the vertices by decreasing id.
func (b *qhBuild) createSimplex(s []int) {
	for _, q := range s {
		b.addVertex(q)
		b.interior = b.interior.AddScaled(0.25, b.p[q])
	}
	vs := b.byID(slices.Clone(s))
	// qh_createsimplex appends the vertices in set order (decreasing id).
	b.vlist = append(b.vlist, vs...)
	for i := range vs {
		f := &qhFacet{}
		f.simp = true
		for j, v := range vs {
			if j != i {
				f.verts = append(f.verts, v)
			}
		}
		b.setPlane(f)
		b.facets = append(b.facets, f)
	}
	for _, f := range b.facets {
		for _, g := range b.facets {
			if g != f {
				f.nb = append(f.nb, g)
			}
		}
	}
}

// addOutside appends q to f's outside set as qh_partitionpoint does: last
// if it is the furthest, else second to last.
func (b *qhBuild) addOutside(q int, f *qhFacet, d float64) {
	if len(f.out) == 0 || d > f.furthest {
		f.out = append(f.out, q)
		f.furthest = d
		return
	}
	f.out = slices.Insert(f.out, len(f.out)-1, q)
}

// bestFacet returns the facet of fs that q is furthest above, if above
// any.
func (b *qhBuild) bestFacet(q int, fs []*qhFacet) (*qhFacet, float64) {
	var best *qhFacet
	bd := math.Inf(-1)
	for _, f := range fs {
		if d := b.dist(q, f); d > bd {
			best, bd = f, d
		}
	}
	if bd <= b.tol {
		return nil, bd
	}
	return best, bd
}

// partitionAll is qh_partitionall, then qh_furthestnext.
func (b *qhBuild) partitionAll(s []int) {
	var pts []int
	for q := range b.p {
		if !slices.Contains(s, q) {
			pts = append(pts, q)
		}
	}
	for _, f := range b.facets {
		best, bd := -1, 0.0
		var rest []int
		for _, q := range pts {
			d := b.dist(q, f)
			switch {
			case d < b.tol:
				rest = append(rest, q)
			case best < 0:
				best, bd = q, d
			case d > bd:
				f.out = append(f.out, best)
				best, bd = q, d
			default:
				f.out = append(f.out, q)
			}
		}
		if best >= 0 {
			f.out, f.furthest = append(f.out, best), bd
		}
		pts = rest
	}
	for _, q := range pts {
		if f, d := b.bestFacet(q, b.facets); f != nil {
			b.addOutside(q, f, d)
		}
	}
	var best *qhFacet
	for _, f := range b.facets {
		if len(f.out) > 0 && (best == nil || f.furthest > best.furthest) {
			best = f
		}
	}
	if best != nil {
		b.moveFront(best)
	}
}

func (b *qhBuild) remove(f *qhFacet) {
	b.facets = slices.DeleteFunc(b.facets, func(g *qhFacet) bool { return g == f })
}

func (b *qhBuild) moveFront(f *qhFacet) {
	b.remove(f)
	b.facets = slices.Insert(b.facets, 0, f)
}

func (b *qhBuild) moveEnd(f *qhFacet) {
	b.remove(f)
	b.facets = append(b.facets, f)
}

// nextFurthest is qh_nextfurthest: the first facet with outside points
// (the facets before qh.facet_next have none).
func (b *qhBuild) nextFurthest() *qhFacet {
	for _, f := range b.facets {
		if len(f.out) > 0 {
			return f
		}
	}
	return nil
}

// findHorizon is qh_findhorizon: the visible facets, breadth first from
// f, each moved to the end of the facet list; horizon facets the point
// is within the tolerance of are marked coplanar.
func (b *qhBuild) findHorizon(q int, f *qhFacet) []*qhFacet {
	b.moveEnd(f)
	f.visible = true
	vis := []*qhFacet{f}
	seen := map[*qhFacet]bool{f: true}
	for k := 0; k < len(vis); k++ {
		for _, g := range vis[k].nb {
			if seen[g] {
				continue
			}
			seen[g] = true
			if d := b.dist(q, g); d > b.tol {
				b.moveEnd(g)
				g.visible = true
				vis = append(vis, g)
			} else {
				g.coplanar = d >= -b.tol
			}
		}
	}
	return vis
}

// shares reports whether all of vs but q are vertices of f.
func shares(f *qhFacet, vs []int, q int) bool {
	for _, v := range vs {
		if v != q && !slices.Contains(f.verts, v) {
			return false
		}
	}
	return true
}

// addPoint is qh_addpoint for point q, furthest above facet f.
func (b *qhBuild) addPoint(q int, f *qhFacet) {
	f.out = f.out[:len(f.out)-1]
	vis := b.findHorizon(q, f)
	b.addVertex(q)
	for _, v := range vis {
		b.remove(v)
	}
	for _, g := range b.facets {
		g.isnew = false
	}
	cone := b.makeCone(q, vis)
	b.linkCone(q, cone)
	b.facets = append(b.facets, cone...)
	b.moveVertices(q, cone)
	b.coneVertexNeighbours(cone, vis)
	newf, merged := b.mergeCoplanarHorizons(q, cone)
	for _, v := range vis {
		for _, p := range v.out {
			b.partitionPoint(p, v, newf, merged)
		}
	}
	for _, g := range b.facets {
		g.coplanar = false
	}
}

// moveVertices updates qhull's vertex list for apex q and its cone:
// qh_makenewfacets appends the apex (qh_appendvertex), and
// qh_makenewfacet moves each new facet's vertices that are not yet new
// to the end of the list, facet by facet in set order.
func (b *qhBuild) moveVertices(q int, cone []*qhFacet) {
	if b.vnew == nil {
		b.vnew = make([]bool, len(b.p))
	}
	clear(b.vnew)
	b.vlist = append(b.vlist, q)
	b.vnew[q] = true
	for _, nf := range cone {
		for _, v := range nf.verts {
			if !b.vnew[v] {
				b.vnew[v] = true
				i := slices.Index(b.vlist, v)
				b.vlist = append(slices.Delete(b.vlist, i, i+1), v)
			}
		}
	}
}

// walk is qh_findbest's directed search over the new facets newf for
// point p from start: start if p is outside of it, else the first
// neighbour p is further above, repeatedly, until p is outside of one or
// none is better; it returns the last facet and p's distance to it.
func (b *qhBuild) walk(p int, start *qhFacet, newf []*qhFacet) (*qhFacet, float64) {
	f, best := start, b.dist(p, start)
	seen := map[*qhFacet]bool{start: true}
	for best <= b.tol {
		var next *qhFacet
		for _, g := range f.nb {
			if seen[g] || !slices.Contains(newf, g) {
				continue
			}
			seen[g] = true
			if d := b.dist(p, g); d > best {
				next, best = g, d
				break
			}
		}
		if next == nil {
			break
		}
		f = next
	}
	return f, best
}

// linkCone sets the neighbours of the cone's facets: the horizon facet
// opposite the apex, then the new facet opposite each other vertex
// (qh_matchnewfacets), and puts each in its horizon facet's place of the
// visible facet it replaces.
func (b *qhBuild) linkCone(q int, cone []*qhFacet) {
	for _, nf := range cone {
		g := nf.horizon
		for i, h := range g.nb {
			if h.visible && shares(h, nf.verts, q) {
				g.nb[i] = nf
			}
		}
		nf.nb = []*qhFacet{g}
		for _, opp := range nf.verts[1:] {
			for _, m := range cone {
				if m != nf && slices.Contains(m.verts, q) && !slices.Contains(m.verts, opp) && len(intersect(m.verts, nf.verts)) == 2 {
					nf.nb = append(nf.nb, m)
					break
				}
			}
		}
	}
}

// partitionPoint is qh_partitionvisible's qh_partitionpoint for outside
// point p of visible facet v: from v's replacement, qh_findbestnew (after
// a merge: the first new facet p is outside of, in list order from the
// replacement round to it) or qh_findbest (the replacement if p is outside
// of it, else a walk to better new neighbours); a point outside of no new
// facet goes to the best facet it is outside of, moved to the end of the
// list, or is dropped (inside or coplanar; no 'Qc').
func (b *qhBuild) partitionPoint(p int, v *qhFacet, newf []*qhFacet, merged bool) {
	start := v.replace
	for start != nil && !slices.Contains(newf, start) {
		start = start.replace
	}
	if start == nil && len(newf) > 0 {
		start = newf[0]
	}
	if start == nil {
		return // no new facet (a degenerate horizon): mujocoVertexMesh's check falls back
	}
	if merged {
		i := slices.Index(newf, start)
		for _, f := range append(slices.Clone(newf[i:]), newf[:i]...) {
			if d := b.dist(p, f); d > b.tol {
				b.addOutside(p, f, d)
				return
			}
		}
	} else if f, d := b.walk(p, start, newf); d > b.tol {
		b.addOutside(p, f, d)
		return
	}
	if f, d := b.bestFacet(p, b.facets); f != nil {
		b.addOutside(p, f, d)
		if !slices.Contains(newf, f) {
			b.moveEnd(f)
		}
	}
}

func appendNew(fs []*qhFacet, f *qhFacet) []*qhFacet {
	if slices.Contains(fs, f) {
		return fs
	}
	return append(fs, f)
}

func intersect(a, b []int) []int {
	var c []int
	for _, x := range a {
		if slices.Contains(b, x) {
			c = append(c, x)
		}
	}
	return c
}

// triangulate is qh_triangulate with MakeGraph's orientation: the
// simplicial facets in facet-list order, then each non-simplicial facet's
// triangles (ridgeTriangles: from its apex, the newest vertex, in ridge
// order), each triangle's vertices by decreasing vertex id with the first
// two swapped where needed to face outward. It also returns each
// triangle's vertices in qhull's set order (by decreasing vertex id,
// before the swap), the vertex sets qh_makenewfacet touches in order
// (null facets included), and whether every non-simplicial facet's
// ridges were its polygon's edges; where not, that facet is a fan from
// its newest corner over its polygon (the same triangles, another order).
func (b *qhBuild) triangulate() (tris [][3]int32, sets, touched [][3]int, ok bool) {
	ok = true
	emit := func(f *qhFacet, t [3]int) {
		sets = append(sets, t)
		a := b.p[t[0]]
		if b.p[t[1]].Sub(a).Cross(b.p[t[2]].Sub(a)).Dot(f.n) < 0 {
			t[0], t[1] = t[1], t[0]
		}
		tris = append(tris, [3]int32{int32(t[0]), int32(t[1]), int32(t[2])})
	}
	for _, f := range b.facets {
		if f.simp && len(f.verts) == 3 {
			emit(f, [3]int{f.verts[0], f.verts[1], f.verts[2]})
		}
	}
	for _, f := range b.facets {
		if f.simp && len(f.verts) == 3 {
			continue
		}
		poly := b.polygon(f)
		if rs, good := ridgeTriangles(f, poly); good {
			for _, t := range rs {
				touched = append(touched, t)
				if t[1] != t[0] && t[2] != t[0] {
					emit(f, t)
				}
			}
			continue
		}
		ok = false
		m := len(poly)
		k := 0
		for i, v := range poly {
			if b.vid[v] > b.vid[poly[k]] {
				k = i
			}
		}
		for j := 1; j < m-1; j++ {
			t := b.byID([]int{poly[k], poly[(k+j)%m], poly[(k+j+1)%m]})
			touched = append(touched, [3]int{t[0], t[1], t[2]})
			emit(f, [3]int{t[0], t[1], t[2]})
		}
	}
	return tris, sets, touched, ok
}

// polygon returns the corners of facet f in counterclockwise order about
// its outward normal: the convex hull of its vertices in its plane
// (Andrew's monotone chain), without the vertices inside the face or on
// an edge between two corners, which qhull deletes from a merged facet.
func (b *qhBuild) polygon(f *qhFacet) []int {
	if len(f.verts) == 3 {
		return slices.Clone(f.verts)
	}
	u, _ := b.p[f.verts[1]].Sub(b.p[f.verts[0]]).Normalize()
	w := f.n.Cross(u)
	xy := func(v int) (float64, float64) { return b.p[v].Dot(u), b.p[v].Dot(w) }
	pts := slices.Clone(f.verts)
	sort.Slice(pts, func(i, j int) bool {
		xi, yi := xy(pts[i])
		xj, yj := xy(pts[j])
		return xi < xj || (xi == xj && yi < yj)
	})
	// turn > tol: a strict left turn (o, a, c).
	turn := func(o, a, c int) bool {
		ox, oy := xy(o)
		ax, ay := xy(a)
		cx, cy := xy(c)
		return (ax-ox)*(cy-oy)-(ay-oy)*(cx-ox) > b.tol*b.tol
	}
	var hull []int
	for pass := range 2 {
		start := len(hull)
		for _, v := range pts {
			for len(hull) >= start+2 && !turn(hull[len(hull)-2], hull[len(hull)-1], v) {
				hull = hull[:len(hull)-1]
			}
			hull = append(hull, v)
		}
		hull = hull[:len(hull)-1]
		if pass == 0 {
			slices.Reverse(pts)
		}
	}
	return hull
}
