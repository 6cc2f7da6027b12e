package geometry

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/stiction-sim/stiction/spatial"
)

// Tolerances of the hull builder, relative to the size L of the point
// cloud (the diagonal of its bounding box).
const (
	// hullOutsideTol: a point less than this above every face is inside.
	hullOutsideTol = 1e-10
	// hullFlatTol: a cloud whose points all lie within this of a line or a
	// plane has no volume and is rejected.
	hullFlatTol = 1e-7
	// hullMergeTol: adjacent triangles whose vertices all lie within this of
	// the plane of the largest of them form one polygonal face. Meshes
	// stored in single precision (STL) are flat to about 1e-7.
	hullMergeTol = 1e-6
	// hullConvexTol: every vertex must lie below every face plane up to this.
	hullConvexTol = 1e-5
)

// maxHullFaceVerts bounds the vertices of a face; a larger merged face is
// cut into coplanar pieces (splitLoop). It bounds the clipping buffers.
const maxHullFaceVerts = 64

// NewConvexHull returns the convex hull of the points as a ConvexHull
// shape. The hull is described in the frame of the points (it is not
// re-centred: see Shape.Centroid); its vertices are a subset of the points,
// coplanar triangles are merged into polygonal faces, and points inside or
// on the hull (including duplicates) are ignored; so are points within
// about 1e-6 of the cloud's size outside a face, which merging nearly
// coplanar triangles into one face absorbs. Fewer than 4 points,
// non-finite coordinates, and clouds without volume (all points equal,
// collinear or coplanar up to 1e-7 of their size) give an error. It runs
// Quickhull (Barber, Dobkin and Huhdanpaa, 1996) with a fixed processing
// order, so the result is a deterministic function of the input.
func NewConvexHull(points []spatial.Vec3) (Shape, error) {
	h, err := buildHull(points)
	if err != nil {
		return Shape{}, fmt.Errorf("convex hull of %d points: %w", len(points), err)
	}
	return Shape{Kind: ConvexHull, Hull: h}, nil
}

// qhFace is a triangle of the hull under construction, counter-clockwise
// seen from outside. nb[k] is the face across the edge v[k] → v[k+1].
type qhFace struct {
	v     [3]int32
	nb    [3]int32
	n     spatial.Vec3
	d     float64
	alive bool
	out   []int32 // conflict list: points outside this face
}

type quickhull struct {
	p       []spatial.Vec3 // points relative to the centre of their bounding box
	f       []qhFace
	tol     float64
	mark    []int // visit stamp per face
	stamp   int
	visible []int32
	horizon [][2]int32 // (face, edge) pairs, in order around the horizon
}

func buildHull(points []spatial.Vec3) (*Hull, error) {
	if len(points) < 4 {
		return nil, errors.New("need at least 4 points")
	}
	lo, hi := points[0], points[0]
	for i, p := range points {
		if !p.IsFinite() {
			return nil, fmt.Errorf("point %d = %v is not finite", i, p)
		}
		lo, hi = lo.Min(p), hi.Max(p)
	}
	size := hi.Sub(lo).Norm()
	if !(size > 0) || math.IsInf(size, 0) {
		return nil, fmt.Errorf("points span %v: need a positive, finite extent", size)
	}
	mid := lo.Add(hi).Scale(0.5)
	q := &quickhull{tol: hullOutsideTol * size}
	q.p = make([]spatial.Vec3, len(points))
	for i, p := range points {
		q.p[i] = p.Sub(mid)
	}
	if err := q.simplex(size); err != nil {
		return nil, err
	}
	if err := q.run(); err != nil {
		return nil, err
	}
	return q.finish(points, size)
}

// simplex builds the initial tetrahedron from extreme points and assigns
// every other point to a face it is outside of.
func (q *quickhull) simplex(size float64) error {
	var ext [6]int
	for i, p := range q.p {
		for k := range 3 {
			if p[k] < q.p[ext[2*k]][k] {
				ext[2*k] = i
			}
			if p[k] > q.p[ext[2*k+1]][k] {
				ext[2*k+1] = i
			}
		}
	}
	i0, i1, best := 0, 0, -1.0
	for a := range ext {
		for b := a + 1; b < len(ext); b++ {
			if d := q.p[ext[a]].Sub(q.p[ext[b]]).Norm2(); d > best {
				i0, i1, best = ext[a], ext[b], d
			}
		}
	}
	flat := hullFlatTol * size
	dir, _ := q.p[i1].Sub(q.p[i0]).Normalize()
	i2, best := -1, flat
	for i, p := range q.p {
		r := p.Sub(q.p[i0])
		if d := r.AddScaled(-r.Dot(dir), dir).Norm(); d > best {
			i2, best = i, d
		}
	}
	if i2 < 0 {
		return fmt.Errorf("the points are collinear (within %.3g of a line): a hull needs volume", flat)
	}
	n, _ := q.p[i1].Sub(q.p[i0]).Cross(q.p[i2].Sub(q.p[i0])).Normalize()
	i3, best := -1, flat
	for i, p := range q.p {
		if d := math.Abs(n.Dot(p.Sub(q.p[i0]))); d > best {
			i3, best = i, d
		}
	}
	if i3 < 0 {
		return fmt.Errorf("the points are coplanar (within %.3g of a plane): a hull needs volume", flat)
	}
	a, b, c, d := int32(i0), int32(i1), int32(i2), int32(i3)
	if n.Dot(q.p[i3].Sub(q.p[i0])) > 0 {
		b, c = c, b
	}
	q.f = []qhFace{q.newFace(a, b, c), q.newFace(a, d, b), q.newFace(b, d, c), q.newFace(c, d, a)}
	q.linkAll()
	used := [4]int32{a, b, c, d}
	all := make([]int32, 0, len(q.p))
	for i := range q.p {
		if !slices.Contains(used[:], int32(i)) {
			all = append(all, int32(i))
		}
	}
	q.assign(all, []int32{0, 1, 2, 3}, -1)
	return nil
}

// newFace returns the face (a, b, c) with its plane. A face too thin to
// have a normal (its apex on the line of its base) gets the normal of
// the neighbour across its base later, in fixDegenerate.
func (q *quickhull) newFace(a, b, c int32) qhFace {
	f := qhFace{v: [3]int32{a, b, c}, nb: [3]int32{-1, -1, -1}, alive: true}
	cr := q.p[b].Sub(q.p[a]).Cross(q.p[c].Sub(q.p[a]))
	if l := cr.Norm(); l > 0 {
		f.n = cr.Scale(1 / l)
	}
	f.d = f.n.Dot(q.p[a])
	return f
}

// linkAll sets the neighbours of every face from shared edges.
func (q *quickhull) linkAll() {
	type loc struct{ f, k int32 }
	m := map[[2]int32]loc{}
	for i, f := range q.f {
		for k := range 3 {
			m[[2]int32{f.v[k], f.v[(k+1)%3]}] = loc{int32(i), int32(k)}
		}
	}
	for i := range q.f {
		for k := range 3 {
			f := &q.f[i]
			f.nb[k] = m[[2]int32{f.v[(k+1)%3], f.v[k]}].f
		}
	}
}

func (q *quickhull) dist(f int32, p int32) float64 {
	return q.f[f].n.Dot(q.p[p]) - q.f[f].d
}

// assign moves each point to the conflict list of the face among fs it is
// furthest outside of; points outside none are dropped (they are inside
// the hull). The point skip is dropped too.
func (q *quickhull) assign(pts []int32, fs []int32, skip int32) {
	for _, p := range pts {
		if p == skip {
			continue
		}
		best, bd := int32(-1), q.tol
		for _, f := range fs {
			if d := q.dist(f, p); d > bd {
				best, bd = f, d
			}
		}
		if best >= 0 {
			q.f[best].out = append(q.f[best].out, p)
		}
	}
}

// run adds the furthest outside point of each face with a non-empty
// conflict list, in a fixed order, until no point is outside.
func (q *quickhull) run() error {
	queue := []int32{0, 1, 2, 3}
	for len(queue) > 0 {
		fi := queue[0]
		queue = queue[1:]
		f := &q.f[fi]
		if !f.alive || len(f.out) == 0 {
			continue
		}
		eye, bd := int32(-1), math.Inf(-1)
		for _, p := range f.out {
			if d := q.dist(fi, p); d > bd {
				eye, bd = p, d
			}
		}
		nf, err := q.addPoint(fi, eye)
		if err != nil {
			return err
		}
		queue = append(queue, nf...)
		if len(q.f) > 64*len(q.p)+64 {
			return errors.New("hull construction did not terminate (internal error)")
		}
	}
	return nil
}

// addPoint replaces the faces visible from eye (starting at face fi) by a
// cone of new faces from eye to the horizon, and returns the new faces.
func (q *quickhull) addPoint(fi, eye int32) ([]int32, error) {
	for len(q.mark) < len(q.f) {
		q.mark = append(q.mark, 0)
	}
	q.stamp++
	q.visible, q.horizon = q.visible[:0], q.horizon[:0]
	q.findHorizon(fi, 0, eye, true)
	h := q.horizon
	if len(h) < 3 {
		return nil, errors.New("degenerate horizon (internal error)")
	}
	seen := map[int32]bool{}
	for i, e := range h {
		a := q.f[e[0]].v[e[1]]
		next := h[(i+1)%len(h)]
		if q.f[e[0]].v[(e[1]+1)%3] != q.f[next[0]].v[next[1]] || seen[a] {
			return nil, errors.New("horizon is not a simple loop (internal error)")
		}
		seen[a] = true
	}
	first := int32(len(q.f))
	nh := int32(len(h))
	newFaces := make([]int32, 0, nh)
	for i, e := range h {
		f := q.f[e[0]]
		a, b, g := f.v[e[1]], f.v[(e[1]+1)%3], f.nb[e[1]]
		nf := q.newFace(a, b, eye)
		id := first + int32(i)
		nf.nb = [3]int32{g, first + (int32(i)+1)%nh, first + (int32(i)+nh-1)%nh}
		for k := range 3 {
			if q.f[g].nb[k] == e[0] && q.f[g].v[k] == b {
				q.f[g].nb[k] = id
			}
		}
		if nf.n == (spatial.Vec3{}) { // apex on the line of the base: lies in g's plane
			nf.n = q.f[g].n
			nf.d = nf.n.Dot(q.p[a])
		}
		q.f = append(q.f, nf)
		newFaces = append(newFaces, id)
	}
	var pts []int32
	for _, v := range q.visible {
		q.f[v].alive = false
		pts = append(pts, q.f[v].out...)
		q.f[v].out = nil
	}
	q.assign(pts, newFaces, eye)
	return newFaces, nil
}

// findHorizon visits the faces visible from eye depth first, starting at
// face f entered across its edge from, and records the horizon edges in
// order around the visible region.
func (q *quickhull) findHorizon(f int32, from int, eye int32, root bool) {
	q.mark[f] = q.stamp
	q.visible = append(q.visible, f)
	start, n := from+1, 2
	if root {
		start, n = 0, 3
	}
	for k := range n {
		e := (start + k) % 3
		g := q.f[f].nb[e]
		if q.mark[g] == q.stamp {
			continue
		}
		if q.dist(g, eye) > q.tol {
			back := 0
			for j := range 3 {
				if q.f[g].nb[j] == f && q.f[g].v[(j+1)%3] == q.f[f].v[e] {
					back = j
				}
			}
			q.findHorizon(g, back, eye, false)
		} else {
			q.horizon = append(q.horizon, [2]int32{f, int32(e)})
		}
	}
}

// finish merges coplanar triangles into polygons and builds the Hull.
func (q *quickhull) finish(points []spatial.Vec3, size float64) (*Hull, error) {
	var tris []int32
	for i := range q.f {
		if q.f[i].alive {
			tris = append(tris, int32(i))
		}
	}
	loops, err := dropEdgeVertices(q.mergeFaces(tris, hullMergeTol*size))
	if err != nil {
		return nil, err
	}
	// Renumber the vertices used by the faces in increasing input order.
	used := map[int32]bool{}
	for _, l := range loops {
		for _, v := range l {
			used[v] = true
		}
	}
	ids := make([]int32, 0, len(used))
	for v := range used {
		ids = append(ids, v)
	}
	slices.Sort(ids)
	remap := make(map[int32]int32, len(ids))
	h := &Hull{}
	for i, v := range ids {
		remap[v] = int32(i)
		h.verts = append(h.verts, points[v])
	}
	for _, l := range loops {
		f := hullFace{verts: make([]int32, len(l))}
		for k, v := range l {
			f.verts[k] = remap[v]
		}
		h.faces = append(h.faces, f)
	}
	if err := h.derive(size); err != nil {
		return nil, err
	}
	return h, nil
}

// mergeFaces groups adjacent triangles lying within tol of the plane of
// the largest triangle of their group (seeds taken by decreasing area,
// ties by index) and returns the boundary loop of every group. A group
// whose boundary is not one simple loop of at most maxHullFaceVerts
// vertices stays split into its triangles.
func (q *quickhull) mergeFaces(tris []int32, tol float64) [][]int32 {
	area := map[int32]float64{}
	for _, t := range tris {
		f := q.f[t]
		area[t] = q.p[f.v[1]].Sub(q.p[f.v[0]]).Cross(q.p[f.v[2]].Sub(q.p[f.v[0]])).Norm()
	}
	order := slices.Clone(tris)
	slices.SortStableFunc(order, func(a, b int32) int { return cmp.Compare(area[b], area[a]) })
	group := map[int32]int{}
	var loops [][]int32
	for _, s := range order {
		if _, ok := group[s]; ok {
			continue
		}
		gid := len(loops)
		members := []int32{s}
		group[s] = gid
		for i := 0; i < len(members); i++ {
			for _, g := range q.f[members[i]].nb {
				if _, ok := group[g]; ok || !q.coplanar(s, g, tol) {
					continue
				}
				group[g] = gid
				members = append(members, g)
			}
		}
		loop := q.boundary(members, group, gid)
		if loop == nil {
			// Not one simple loop: keep the triangles apart. Each one
			// becomes its own group.
			for k, m := range members {
				if k > 0 {
					group[m] = len(loops) + k
				}
			}
			for _, m := range members {
				loops = append(loops, slices.Clone(q.f[m].v[:]))
			}
			continue
		}
		loops = append(loops, splitLoop(loop)...)
	}
	return loops
}

// splitLoop cuts a face loop of more than maxHullFaceVerts vertices into
// pieces of at most maxHullFaceVerts by chords from its first vertex (a
// fan of sub-polygons, each convex as the face is); shorter loops are
// returned whole. The pieces are coplanar faces sharing the chords.
func splitLoop(loop []int32) [][]int32 {
	if len(loop) <= maxHullFaceVerts {
		return [][]int32{loop}
	}
	var out [][]int32
	for s := 1; s < len(loop)-1; s += maxHullFaceVerts - 2 {
		e := min(s+maxHullFaceVerts-1, len(loop)) // piece: loop[0], loop[s:e]
		out = append(out, append([]int32{loop[0]}, loop[s:e]...))
	}
	return out
}

// dropEdgeVertices removes from the face loops every vertex that lies in
// fewer than 3 faces: such a vertex lies on the edge between two merged
// faces, collinear with its neighbours up to the merge tolerance. Around
// it the two faces both hold its neighbours u and w, so a face that
// drops below 3 vertices was a sliver (the triangle u, v, w with v within
// the tolerance of the segment uw: its angles at v in the two faces sum
// to nearly 360°) and is removed; its other vertices then lose a face,
// so the rule repeats until no vertex is in fewer than 3 faces. The
// result is checked by Hull.derive (closed surface, V − E + F = 2,
// convexity).
func dropEdgeVertices(loops [][]int32) ([][]int32, error) {
	for {
		nf := map[int32]int{}
		for _, l := range loops {
			for _, v := range l {
				nf[v]++
			}
		}
		changed := false
		out := loops[:0]
		for _, l := range loops {
			n := len(l)
			l = slices.DeleteFunc(l, func(v int32) bool { return nf[v] < 3 })
			changed = changed || len(l) != n
			if len(l) >= 3 {
				out = append(out, l)
			}
		}
		loops = out
		if !changed {
			break
		}
	}
	if len(loops) < 4 {
		return nil, errors.New("fewer than 4 faces remain after merging coplanar faces (internal error)")
	}
	return loops, nil
}

// coplanar reports whether every vertex of face g lies within tol of the
// plane of face s, on the same side (normals not opposed).
func (q *quickhull) coplanar(s, g int32, tol float64) bool {
	fs, fg := &q.f[s], &q.f[g]
	if fs.n.Dot(fg.n) <= 0 {
		return false
	}
	for _, v := range fg.v {
		if math.Abs(fs.n.Dot(q.p[v])-fs.d) > tol {
			return false
		}
	}
	return true
}

// boundary returns the boundary of a group of triangles as one
// counter-clockwise loop, or nil if it is not a simple loop.
func (q *quickhull) boundary(members []int32, group map[int32]int, gid int) []int32 {
	if len(members) == 1 {
		return slices.Clone(q.f[members[0]].v[:])
	}
	next := map[int32]int32{}
	var start int32 = -1
	count := 0
	for _, m := range members {
		f := q.f[m]
		for k := range 3 {
			if g, in := group[f.nb[k]]; in && g == gid {
				continue
			}
			a, b := f.v[k], f.v[(k+1)%3]
			if _, dup := next[a]; dup {
				return nil
			}
			next[a] = b
			if start < 0 {
				start = a
			}
			count++
		}
	}
	loop := []int32{start}
	for v := next[start]; v != start; v = next[v] {
		if len(loop) > count {
			return nil
		}
		loop = append(loop, v)
	}
	if len(loop) != count {
		return nil
	}
	return loop
}
