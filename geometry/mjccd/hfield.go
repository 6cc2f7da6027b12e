package mjccd

import "math"

// HFieldData is a height field as mjc_ConvexHField reads it: Rows
// (hfield_nrow, along y) × Cols (hfield_ncol, along x) elevations, Size
// (hfield_size: the half extents along x and y, the elevation scale and
// the base depth) and Height, row-major, the products data·Size[2] of
// MuJoCo's normalised elevation with its scale (row 0 at y = −Size[1],
// column 0 at x = −Size[0]).
type HFieldData struct {
	Rows, Cols int
	Size       [4]float64
	Height     []float64
}

// MaxHFieldContacts is mjMAXCONPAIR, the most contacts ConvexHField
// returns for one pair.
const MaxHFieldContacts = 50

// prism is a height-field cell's triangular prism as mjc_ConvexHField
// builds it (mjCCDObj.prism): vertices 0–2 on the base, 3–5 on the
// top, vertex k+3 above vertex k.
type prism [6]vec

// addVert is mjc_ConvexHField's addVert: the prism's oldest vertical
// edge dropped and (x, y) added with top z.
func (p *prism) addVert(x, y, z float64) {
	p[0], p[1], p[3], p[4] = p[1], p[2], p[4], p[5]
	p[2][0], p[5][0] = x, x
	p[2][1], p[5][1] = y, y
	p[5][2] = z
}

// support is mjccd_prism_support: the first vertex of largest dot
// product with d among the base (d_z < 0) or the top vertices; no margin
// (the top is raised by it instead).
func (p *prism) support(d *vec) vec {
	start := 3
	if d[2] < 0 {
		start = 0
	}
	best, val := start, dot(&p[start], d)
	for i := start + 1; i < start+3; i++ {
		if t := dot(&p[i], d); t > val {
			best, val = i, t
		}
	}
	return p[best]
}

// center is mjccd_prism_center: the mean of the six vertices, summed in
// order and scaled by 1/6.
func (p *prism) center() vec {
	var c vec
	for i := range p {
		addTo(&c, &p[i])
	}
	scale(&c, 1.0/6.0)
	return c
}

// ConvexHField is mjc_ConvexHField (engine_collision_convex.c, MuJoCo
// 2.2.2): the contacts (at most MaxHFieldContacts, appended to out) of
// the height field g1.Field, placed at g1's Pos and Mat, with
// the convex geom g2 (sphere, capsule, ellipsoid, cylinder, box or mesh)
// within margin. g2 is expressed in the field's frame; a bounding-sphere
// and a support-point box test end early; then each triangular prism of
// the cells under g2's box (a cell's two triangles split along the
// diagonal from (r, c) to (r+1, c+1), walked row by row, the prism
// reaching from the base −Size[3] to the elevation plus margin) whose top
// reaches g2's lowest point is tested with MPR, g2 inflated by margin/2,
// and each overlap gives a contact of distance −depth, turned back to
// world coordinates, its normal fixed (mjc_fixNormal). The normal points
// from the field to g2. g1 and g2 are not modified.
func ConvexHField(g1, g2 *Geom, margin float64, opt Options, out []Contact) []Contact {
	hf := g1.Field
	if hf == nil || hf.Rows < 2 || hf.Cols < 2 || len(hf.Height) < hf.Rows*hf.Cols {
		return out
	}
	size := &hf.Size
	p1, p2 := vec(g1.Pos), vec(g2.Pos)
	rel := sub(&p2, &p1)
	pos := mulMatTVec(&g1.Mat, &rel)
	if !sphereNear(size, &pos, g2.RBound, margin) {
		return out
	}
	b := *g2 // g2 in the field's frame (MuJoCo swaps geom_xmat and geom_xpos in place)
	b.meshIndex = -1
	b.Mat = mulMatTMat3(&g1.Mat, &g2.Mat)
	b.Pos = pos
	lo, hi := localBox(&b)
	if lo[0]-margin > size[0] || hi[0]+margin < -size[0] || lo[1]-margin > size[1] || hi[1]+margin < -size[1] ||
		lo[2]-margin > size[2] || hi[2]+margin < -size[3] {
		return out
	}
	nr, nc := hf.Rows, hf.Cols
	cmin := max(0, int(math.Floor((lo[0]+size[0])/(2*size[0])*float64(nc-1))))
	cmax := min(nc-1, int(math.Ceil((hi[0]+size[0])/(2*size[0])*float64(nc-1))))
	rmin := max(0, int(math.Floor((lo[1]+size[1])/(2*size[1])*float64(nr-1))))
	rmax := min(nr-1, int(math.Ceil((hi[1]+size[1])/(2*size[1])*float64(nr-1))))
	dx := (2.0 * size[0]) / float64(nc-1)
	dy := (2.0 * size[1]) / float64(nr-1)
	pg := Geom{Type: HField}
	pg.prism[0][2], pg.prism[1][2], pg.prism[2][2] = -size[3], -size[3], -size[3]
	s := mpr{g1: &pg, g2: &b, margin: margin, tol: opt.Tolerance, iters: opt.Iterations}
	start := len(out)
	for r := rmin; r < rmax; r++ {
		nvert := 0
		for c := cmin; c <= cmax; c++ {
			for _, dr := range [2]int{1, 0} { // row r+1 first, then r
				pg.prism.addVert(dx*float64(c)-size[0], dy*float64(r+dr)-size[1], hf.Height[(r+dr)*nc+c]+margin)
				if nvert++; nvert <= 2 {
					continue
				}
				if pg.prism[3][2] < lo[2] && pg.prism[4][2] < lo[2] && pg.prism[5][2] < lo[2] {
					continue
				}
				depth, dir, at, ok := s.penetration()
				if origin := (vec{}); !ok || vecEq(&dir, &origin) {
					continue
				}
				out = append(out, Contact{Dist: -depth, Normal: rotVecMat(&dir, &g1.Mat), Pos: addVec(rotVecMat(&at, &g1.Mat), p1)})
				if len(out)-start >= MaxHFieldContacts {
					return fixNormals(g1, g2, out, start)
				}
			}
		}
	}
	return fixNormals(g1, g2, out, start)
}

// sphereNear is mjc_ConvexHField's bounding-sphere test: a sphere of
// radius r2 at pos (in the field's frame) within margin of the field's
// box, from −Size[3] to Size[2] vertically.
func sphereNear(size *[4]float64, pos *vec, r2, margin float64) bool {
	for i := range 2 {
		if size[i] < pos[i]-r2-margin || -size[i] > pos[i]+r2+margin {
			return false
		}
	}
	return !(size[2] < pos[2]-r2-margin) && !(-size[3] > pos[2]+r2+margin)
}

// localBox is g's box in its own world frame (the field's, for
// ConvexHField) from its support points along ±x, ±y and ±z, in
// mjc_ConvexHField's order, with no margin.
func localBox(g *Geom) (lo, hi vec) {
	for k := range 3 {
		d := vec{}
		d[k] = 1
		hi[k] = g.support(&d, 0)[k]
		d[k] = -1
		lo[k] = g.support(&d, 0)[k]
	}
	return lo, hi
}

// fixNormals applies mjc_fixNormal to the contacts of out from start on
// and then normalizes each normal as mj_collideGeoms' mju_makeFrame does.
func fixNormals(g1, g2 *Geom, out []Contact, start int) []Contact {
	for i := start; i < len(out); i++ {
		fixNormal(g1, g2, &out[i])
		n := vec(out[i].Normal)
		mjNormalize(&n)
		out[i].Normal = n
	}
	return out
}

// mulMatTVec is mju_mulMatTVec for a 3×3 matrix: res = 0, then
// res += m_i·v_i row by row (mju_addToScl), skipping zero v_i.
func mulMatTVec(m *[9]float64, v *vec) vec {
	var r vec
	for i := range 3 {
		if t := v[i]; t != 0 {
			for j := range 3 {
				r[j] += m[3*i+j] * t
			}
		}
	}
	return r
}

func addVec(a vec, b vec) vec { addTo(&a, &b); return a }
