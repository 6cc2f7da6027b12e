package geometry

import (
	"fmt"
	"math"

	"github.com/stiction-sim/stiction/geometry/mjccd"
	"github.com/stiction-sim/stiction/spatial"
)

// HeightMap is the immutable data of a height field (terrain), built
// once by NewHeightMap and shared by pointer between every copy of its
// Shape. It is a grid of Rows × Cols elevations over the rectangle
// [−hx, hx] × [−hy, hy] of the shape frame's xy plane: the point of row r
// and column c is (−hx + 2hx·c/(Cols−1), −hy + 2hy·r/(Rows−1), h[r·Cols+c]),
// so rows run along +y and columns along +x (MuJoCo's layout). Each cell
// is split along its diagonal from (r, c) to (r+1, c+1) into two
// triangles; the solid is the union of the triangular prisms between
// them and the base plane z = −Base.
type HeightMap struct {
	rows, cols int
	hx, hy     float64
	base       float64
	h          []float64
	dx, dy     float64 // cell sizes along x and y
	minH, maxH float64
	volume     float64
	mujoco     mjccd.HFieldData // the field as MuJoCo's mjc_ConvexHField reads it (MuJoCo)
}

// maxHeightFieldPoints bounds Rows·Cols so that every vertex, edge and
// triangle index fits the contact features (heightfield.go).
const maxHeightFieldPoints = 1 << 24

// NewHeightMap returns the height field of rows × cols elevations (in
// the shape frame's length unit, row-major with row 0 at y = −halfY and
// column 0 at x = −halfX; nil means all zero) over the rectangle of half
// extents halfX and halfY, on a base reaching down to z = −base. It needs
// at least 2 rows and 2 columns, positive finite half extents and base,
// and finite heights above −base.
func NewHeightMap(rows, cols int, halfX, halfY, base float64, heights []float64) (*HeightMap, error) {
	if rows < 2 || cols < 2 {
		return nil, fmt.Errorf("height field of %d rows and %d columns: want at least 2 of each", rows, cols)
	}
	if rows*cols > maxHeightFieldPoints || rows > maxHeightFieldPoints || cols > maxHeightFieldPoints {
		return nil, fmt.Errorf("height field of %d rows and %d columns: at most %d points", rows, cols, maxHeightFieldPoints)
	}
	for _, d := range []struct {
		name string
		v    float64
	}{{"half extent x", halfX}, {"half extent y", halfY}, {"base", base}} {
		if err := checkDim("height field "+d.name, d.v); err != nil {
			return nil, err
		}
	}
	if heights != nil && len(heights) != rows*cols {
		return nil, fmt.Errorf("height field has %d heights, want rows × columns = %d × %d = %d", len(heights), rows, cols, rows*cols)
	}
	f := &HeightMap{rows: rows, cols: cols, hx: halfX, hy: halfY, base: base, h: make([]float64, rows*cols),
		dx: 2 * halfX / float64(cols-1), dy: 2 * halfY / float64(rows-1)}
	copy(f.h, heights)
	f.minH, f.maxH = math.Inf(1), math.Inf(-1)
	for i, z := range f.h {
		if math.IsNaN(z) || math.IsInf(z, 0) || !(z > -base) {
			return nil, fmt.Errorf("height field height %v at row %d, column %d must be finite and above the base at %v", z, i/cols, i%cols, -base)
		}
		f.minH, f.maxH = min(f.minH, z), max(f.maxH, z)
	}
	// Volume: each cell is two prisms over triangles of area dx·dy/2,
	// whose mean heights above the base are the means of their corners.
	for r := range rows - 1 {
		for c := range cols - 1 {
			h00, h10, h11, h01 := f.at(r, c), f.at(r, c+1), f.at(r+1, c+1), f.at(r+1, c)
			f.volume += f.dx * f.dy / 6 * (h00 + h10 + h11 + h00 + h11 + h01 + 6*base)
		}
	}
	f.mujoco = mjccd.HFieldData{Rows: rows, Cols: cols, Size: [4]float64{halfX, halfY, f.maxH, base}, Height: f.h}
	return f, nil
}

// NewHeightFieldShape returns the shape of the height field f.
func NewHeightFieldShape(f *HeightMap) Shape { return Shape{Kind: HeightField, Field: f} }

// MuJoCo returns f as MuJoCo 2.2.2's height-field collider
// (mjccd.ConvexHField) reads it, sharing f's heights (read only): the
// elevation scale Size[2] is the highest height, which bounds the field
// as MuJoCo's scale of data normalised to [0, 1] does and gives the same
// contacts.
func (f *HeightMap) MuJoCo() *mjccd.HFieldData { return &f.mujoco }

// Rows returns the number of rows (along y).
func (f *HeightMap) Rows() int { return f.rows }

// Cols returns the number of columns (along x).
func (f *HeightMap) Cols() int { return f.cols }

// HalfExtents returns the half extents of the rectangle along x and y.
func (f *HeightMap) HalfExtents() (x, y float64) { return f.hx, f.hy }

// Base returns the depth of the base below z = 0.
func (f *HeightMap) Base() float64 { return f.base }

// Height returns the elevation at row r and column c.
func (f *HeightMap) Height(r, c int) float64 { return f.h[r*f.cols+c] }

// Point returns the grid point of row r and column c in the shape frame.
func (f *HeightMap) Point(r, c int) spatial.Vec3 {
	return spatial.Vec3{-f.hx + float64(c)*f.dx, -f.hy + float64(r)*f.dy, f.h[r*f.cols+c]}
}

// Triangles returns the top surface as triangles of grid points (index
// r·Cols + c), counter-clockwise seen from above, two per cell.
func (f *HeightMap) Triangles() [][3]int {
	out := make([][3]int, 0, 2*(f.rows-1)*(f.cols-1))
	for r := range f.rows - 1 {
		for c := range f.cols - 1 {
			v00, v10, v11, v01 := r*f.cols+c, r*f.cols+c+1, (r+1)*f.cols+c+1, (r+1)*f.cols+c
			out = append(out, [3]int{v00, v10, v11}, [3]int{v00, v11, v01})
		}
	}
	return out
}

func (f *HeightMap) at(r, c int) float64 { return f.h[r*f.cols+c] }

// aabb returns the world box of the field with rotation r and position p.
func (f *HeightMap) aabb(r spatial.Mat3, p spatial.Vec3) AABB {
	c := spatial.Vec3{0, 0, (f.maxH - f.base) / 2}
	e := spatial.Vec3{f.hx, f.hy, (f.maxH + f.base) / 2}
	var w spatial.Vec3
	for i := range 3 {
		w[i] = math.Abs(r[i][0])*e[0] + math.Abs(r[i][1])*e[1] + math.Abs(r[i][2])*e[2]
	}
	m := r.MulVec(c).Add(p)
	return AABB{Min: m.Sub(w), Max: m.Add(w)}
}

// triangle returns the corners of triangle t (0 or 1) of cell (r, c) in
// the shape frame, counter-clockwise seen from above.
func (f *HeightMap) triangle(r, c, t int) [3]spatial.Vec3 {
	if t == 0 {
		return [3]spatial.Vec3{f.Point(r, c), f.Point(r, c+1), f.Point(r+1, c+1)}
	}
	return [3]spatial.Vec3{f.Point(r, c), f.Point(r+1, c+1), f.Point(r+1, c)}
}

// owner returns the triangle (2·(r·(Cols−1)+c) + t) whose footprint holds
// the point (x, y) of the shape frame, or −1 outside the rectangle. Each
// point has exactly one owner: a cell owns its lower and left sides (the
// last row and column also their far sides), triangle 0 the diagonal.
func (f *HeightMap) owner(x, y float64) int {
	fc, fr := (x+f.hx)/f.dx, (y+f.hy)/f.dy
	nc, nr := float64(f.cols-1), float64(f.rows-1)
	if !(fc >= 0 && fc <= nc && fr >= 0 && fr <= nr) {
		return -1
	}
	c, r := min(int(fc), f.cols-2), min(int(fr), f.rows-2)
	t := 0
	if fr-float64(r) > fc-float64(c) {
		t = 1
	}
	return 2*(r*(f.cols-1)+c) + t
}

// Features of height-field contacts: bits 29–30 say which feature of the
// top surface made the point (triangle, edge or grid point), bits 3–28
// its index (triangle 2·(r·(Cols−1)+c)+t; edge 3·(r·Cols+c)+k for the edge
// from (r, c) along +x (k = 0), +y (1) or the diagonal (2); point r·Cols+c)
// and bits 0–2 the slot of the point within a triangle's manifold; bit 31
// is set, as for other face manifolds, when the point belongs to one.
const (
	featHFFace   = 1 << 29
	featHFEdge   = 2 << 29
	featHFVertex = 3 << 29
)

func hfFeature(kind uint32, index int, orig uint32) uint32 {
	return orig&featFace | kind | uint32(index&(1<<26-1))<<3 | orig&7
}

// coneTol is the relative slack of the normal-cone tests of edges and
// grid points: a direction within about coneTol rad of a face normal
// belongs to the face.
const coneTol = 1e-7

// collideHeightField reports the contacts of a pair in which a or b is a
// height field, with the normal from a to b. A pair of height fields, or
// of a height field and a half-space, has none.
func collideHeightField(a Shape, xa spatial.Pose, b Shape, xb spatial.Pose, margin float64, out []Contact) []Contact {
	if (a.Kind == HeightField) == (b.Kind == HeightField) || a.Kind == HalfSpace || b.Kind == HalfSpace {
		return out
	}
	if b.Kind == HeightField {
		n := len(out)
		pf, po := newPosed(b, xb), newPosed(a, xa)
		out = heightFieldShape(&pf, &po, margin, out)
		for i := n; i < len(out); i++ {
			out[i].Normal = out[i].Normal.Neg()
		}
		return out
	}
	pf, po := newPosed(a, xa), newPosed(b, xb)
	return heightFieldShape(&pf, &po, margin, out)
}

// heightFieldShape reports the contacts of the height field a with the
// convex shape b, the normal pointing from a to b, in three families, each
// a contact of the top surface only (the base and the sides of the field
// are not surfaces):
//
//   - faces: b against the plane of each triangle under b's bounding box,
//     exactly as against a half-space (so a face manifold for boxes,
//     hulls and cylinder caps), keeping the points whose foot on the plane
//     lies in the triangle's own footprint (owner);
//   - edges: the segment of each grid edge against b (GJK/EPA), kept when
//     the normal is orthogonal to the edge and strictly between the normals
//     of the two triangles at it (a convex ridge);
//   - grid points: each point against b, kept when the normal is strictly
//     inside the point's normal cone (every neighbour below the plane
//     through the point): a peak.
//
// On a flat field only faces report, so a shape rests on it exactly as on
// a half-space.
func heightFieldShape(a, b *posed, margin float64, out []Contact) []Contact {
	f := a.s.Field
	m0 := len(out)
	rl := a.rot.T().Mul(b.rot)
	bb := b.s.aabbMat(rl, a.toLocal(b.pos)).Inflate(max(margin, 0))
	if bb.Min[2] > f.maxH || bb.Max[2] < -f.base || bb.Max[0] < -f.hx || bb.Min[0] > f.hx || bb.Max[1] < -f.hy || bb.Min[1] > f.hy {
		return out
	}
	c0, c1 := cellRange(bb.Min[0], bb.Max[0], f.hx, f.dx, f.cols)
	r0, r1 := cellRange(bb.Min[1], bb.Max[1], f.hy, f.dy, f.rows)
	for r := r0; r <= r1; r++ {
		for c := c0; c <= c1; c++ {
			for t := range 2 {
				out = f.faceContacts(a, b, r, c, t, margin, out)
			}
		}
	}
	cb := coreOf(b)
	bs := b.size()
	for r := r0; r <= r1+1; r++ {
		for c := c0; c <= c1+1; c++ {
			out = f.pointContact(a, &cb, bs, r, c, margin, out)
			for k := range 3 {
				out = f.edgeContact(a, &cb, bs, r, c, k, margin, out)
			}
		}
	}
	// The points of face manifolds beyond the margin stay only when some
	// point of the pair is within it (the deepest point of a triangle's
	// manifold may belong to another triangle).
	for _, c := range out[m0:] {
		if c.Phi <= margin {
			return out
		}
	}
	return out[:m0]
}

// cellRange returns the cells [i0, i1] along one axis (n points, spacing
// d, half extent h) that overlap [lo, hi], which overlaps [−h, h].
func cellRange(lo, hi, h, d float64, n int) (int, int) {
	i0 := int(math.Floor((lo + h) / d))
	i1 := int(math.Floor((hi + h) / d))
	return max(i0, 0), min(i1, n-2)
}

// faceContacts appends the contacts of b with the plane of triangle t of
// cell (r, c) whose foot lies in the triangle.
func (f *HeightMap) faceContacts(a, b *posed, r, c, t int, margin float64, out []Contact) []Contact {
	tri := f.triangle(r, c, t)
	n, _ := unit(tri[1].Sub(tri[0]).Cross(tri[2].Sub(tri[0])), spatial.Vec3{0, 0, 1})
	// The plane's frame: (u, v, n) with u the projection of local x.
	u := spatial.Vec3{1, 0, 0}
	if n != (spatial.Vec3{0, 0, 1}) {
		u, _ = unit(u.AddScaled(-n[0], n), spatial.Vec3{1, 0, 0})
	}
	v := n.Cross(u)
	rt := spatial.Mat3{{u[0], v[0], n[0]}, {u[1], v[1], n[1]}, {u[2], v[2], n[2]}}
	plane := posed{s: Shape{Kind: HalfSpace}, rot: a.rot.Mul(rt), pos: a.toWorld(tri[0])}
	id := 2*(r*(f.cols-1)+c) + t
	m := len(out)
	out = halfSpaceFor(b.s.Kind).collide(&plane, b, margin, out)
	k := m
	for _, ct := range out[m:] {
		foot := a.toLocal(ct.Point.AddScaled(-ct.Phi/2, ct.Normal))
		if f.owner(foot[0], foot[1]) != id {
			continue
		}
		ct.Feature = hfFeature(featHFFace, id, ct.Feature)
		out[k] = ct
		k++
	}
	return out[:k]
}

// pointContact appends the contact of grid point (r, c) with the core cb
// of b (size bs) when the normal is strictly inside the point's normal
// cone.
func (f *HeightMap) pointContact(a *posed, cb *core, bs float64, r, c int, margin float64, out []Contact) []Contact {
	if r >= f.rows || c >= f.cols {
		return out
	}
	p := f.Point(r, c)
	pw := a.toWorld(p)
	if pw.Sub(cb.pos).Norm()-bs > margin {
		return out
	}
	ca := core{kind: Sphere, rot: spatial.Identity3(), pos: pw}
	m := len(out)
	out = convexCores(&ca, cb, bs+f.dx+f.dy, margin, out)
	if len(out) == m {
		return out
	}
	n := a.rot.MulTVec(out[m].Normal)
	for _, d := range [6][2]int{{0, 1}, {1, 1}, {1, 0}, {0, -1}, {-1, -1}, {-1, 0}} {
		rr, cc := r+d[0], c+d[1]
		if rr < 0 || rr >= f.rows || cc < 0 || cc >= f.cols {
			continue
		}
		e := f.Point(rr, cc).Sub(p)
		if !(n.Dot(e) < -coneTol*e.Norm()) {
			return out[:m]
		}
	}
	out[m].Feature = hfFeature(featHFVertex, r*f.cols+c, 0)
	return out
}

// edgeContact appends the contact of the grid edge k (0: to (r, c+1), 1:
// to (r+1, c), 2: to (r+1, c+1)) with the core cb when the normal is
// orthogonal to the edge and strictly between the normals of its two
// triangles.
func (f *HeightMap) edgeContact(a *posed, cb *core, bs float64, r, c, k int, margin float64, out []Contact) []Contact {
	// The far end and the third corners of the triangles on either side.
	var end, s1, s2 [2]int
	switch k {
	case 0:
		end, s1, s2 = [2]int{r, c + 1}, [2]int{r + 1, c + 1}, [2]int{r - 1, c}
	case 1:
		end, s1, s2 = [2]int{r + 1, c}, [2]int{r + 1, c + 1}, [2]int{r, c - 1}
	default:
		end, s1, s2 = [2]int{r + 1, c + 1}, [2]int{r, c + 1}, [2]int{r + 1, c}
	}
	if r >= f.rows || c >= f.cols || end[0] >= f.rows || end[1] >= f.cols {
		return out
	}
	p, q := f.Point(r, c), f.Point(end[0], end[1])
	mid := p.Add(q).Scale(0.5)
	hl := q.Sub(p).Norm() / 2
	mw := a.toWorld(mid)
	if mw.Sub(cb.pos).Norm()-bs-hl > margin {
		return out
	}
	ez := q.Sub(p).Scale(1 / (2 * hl))
	ex, _ := unit(spatial.Vec3{0, 0, 1}.Cross(ez), spatial.Vec3{1, 0, 0})
	ey := ez.Cross(ex)
	rl := spatial.Mat3{{ex[0], ey[0], ez[0]}, {ex[1], ey[1], ez[1]}, {ex[2], ey[2], ez[2]}}
	ca := core{kind: Capsule, rot: a.rot.Mul(rl), pos: mw, l: hl}
	m := len(out)
	out = convexCores(&ca, cb, bs+hl, margin, out)
	if len(out) == m {
		return out
	}
	n := a.rot.MulTVec(out[m].Normal)
	if math.Abs(n.Dot(ez)) > coneTol {
		return out[:m]
	}
	for _, s := range [2][2]int{s1, s2} {
		if s[0] < 0 || s[0] >= f.rows || s[1] < 0 || s[1] >= f.cols {
			continue
		}
		e := f.Point(s[0], s[1]).Sub(mid)
		if !(n.Dot(e) < -coneTol*e.Norm()) {
			return out[:m]
		}
	}
	out[m].Feature = hfFeature(featHFEdge, 3*(r*f.cols+c)+k, 0)
	return out
}
