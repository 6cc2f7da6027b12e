package mjccd

import "math"

// MaxBoxBox bounds the contacts BoxBox gives: mjc_BoxBox's candidate
// points, at most 16 edge crossings, 4 face corners and 4 box corners
// (MuJoCo's own bound, mjMAXCONPAIR, is 50).
const MaxBoxBox = 24

// boxBoxState holds mjc_BoxBox's (engine_collision_box.c, MuJoCo 2.2.2)
// quantities shared by its separating-axis test and its two contact
// paths, all in the frame of box 1 unless named otherwise.
type boxBoxState struct {
	b1, b2       *Geom
	margin       float64
	pos21, pos12 vec        // centre of 2 in 1's frame, of 1 in 2's
	rot, rott    [9]float64 // mat1ᵀ·mat2 and its transpose
	rotabs       [9]float64 // |rot|
	rottabs      [9]float64 // |rott|
	code         int        // the axis of least penetration (0–17)
	cle1, cle2   int        // the closest edges' corner bits (code ≥ 12)
	clnorm       vec        // the edge–edge axis (code ≥ 12)
	in           bool       // the edge–edge axis points from 2 to 1
}

// BoxBox appends to out the contacts of boxes b1 and b2 as MuJoCo 2.2.2's
// mjc_BoxBox (engine_collision_box.c) finds them: a separating-axis test
// over the 6 face normals and the 9 edge–edge cross products picks the
// axis of least penetration (an edge axis only when it beats the best
// face by a relative 1e-12); a face axis clips the other box's face (or
// edge, or corner) nearest that face against it (boxFace), an edge axis
// projects the other box's closest face onto the closest face of box 1
// along the axis and clips (boxEdge). Each contact's normal points from
// b1 to b2. The arithmetic is MuJoCo's, step for step, including what
// 2.2.2 does that later versions changed: a face contact's dist is half
// its corner's depth, and the edge path's corner loop reuses the
// determinant's variable for a squared distance. Repeated points are
// then removed as mj_collideGeoms does (dedupe), and each normal is
// normalized as its mju_makeFrame does (geom_xmat is orthonormal only to
// round-off, and so is the face normal read from it).
func BoxBox(b1, b2 *Geom, margin float64, out []Contact) []Contact {
	st := boxBoxState{b1: b1, b2: b2, margin: margin, code: -1}
	if !st.separate() || st.code == -1 {
		return out
	}
	start := len(out)
	if st.code >= 12 {
		out = st.edge(out)
	} else {
		out = st.face(out)
	}
	for i := start; i < len(out); i++ { // mj_collideGeoms' mju_makeFrame: the normal normalized
		mjNormalize((*vec)(&out[i].Normal))
	}
	return dedupe(out, start)
}

// dedupe removes from out[start:] each contact whose position a later one
// repeats exactly, keeping the order of the rest, as mj_collideGeoms
// (engine_collision_driver.c) does after mjc_BoxBox ("remove repeated
// contacts in box-box"): corners where a clipped edge meets a face's side
// come out twice.
func dedupe(out []Contact, start int) []Contact {
	k := start
	for i := start; i < len(out); i++ {
		repeated := false
		for j := i + 1; j < len(out); j++ {
			if out[i].Pos == out[j].Pos {
				repeated = true
				break
			}
		}
		if !repeated {
			out[k] = out[i]
			k++
		}
	}
	return out[:k]
}

// separate runs mjc_BoxBox's separating-axis test and reports false when
// an axis separates the boxes by more than the margin.
func (st *boxBoxState) separate() bool {
	b1, b2, margin := st.b1, st.b2, st.margin
	d := sub((*vec)(&b2.Pos), (*vec)(&b1.Pos))
	st.pos21 = rotVecMatT(&d, &b1.Mat)
	d = sub((*vec)(&b1.Pos), (*vec)(&b2.Pos))
	st.pos12 = rotVecMatT(&d, &b2.Mat)
	st.rot = mulMatTMat3(&b1.Mat, &b2.Mat) // mju_mulMatTMat
	for i := range 3 {
		for j := range 3 {
			st.rott[3*j+i] = st.rot[3*i+j]
		}
	}
	for i := range 9 {
		st.rotabs[i] = math.Abs(st.rot[i])
		st.rottabs[i] = math.Abs(st.rott[i])
	}
	s1, s2 := (*vec)(&b1.Size), (*vec)(&b2.Size)
	plen2 := rotVecMat(s2, &st.rotabs)
	plen1 := rotVecMatT(s1, &st.rotabs)
	pen := margin
	for i := range 3 {
		pen += s1[i]*3 + s2[i]*3
	}
	for i := range 3 { // the face axes of box 1 (codes 0–5) and box 2 (6–11)
		c1 := -math.Abs(st.pos21[i]) + s1[i] + plen2[i]
		c2 := -math.Abs(st.pos12[i]) + s2[i] + plen1[i]
		if c1 < -margin || c2 < -margin {
			return false
		}
		if c1 < pen {
			pen, st.code = c1, i+3*b2i(st.pos21[i] < 0)
		}
		if c2 < pen {
			pen, st.code = c2, i+3*b2i(st.pos12[i] < 0)+6
		}
	}
	for i := range 3 { // edge i of box 1 × edge j of box 2 (codes 12–20)
		for j := range 3 {
			if !st.edgeAxis(i, j, &pen) {
				return false
			}
		}
	}
	return true
}

// edgeAxis tests mjc_BoxBox's axis e1ᵢ × e2ⱼ (in box 1's frame), taking
// it as the best axis when its penetration is below *pen by a relative
// 1e-12; it reports false when the axis separates the boxes.
func (st *boxBoxState) edgeAxis(i, j int, pen *float64) bool {
	rott := &st.rott
	var t vec
	switch i {
	case 0:
		t[1], t[2] = -rott[3*j+2], rott[3*j+1]
	case 1:
		t[0], t[2] = rott[3*j+2], -rott[3*j+0]
	case 2:
		t[0], t[1] = -rott[3*j+1], rott[3*j+0]
	}
	c1 := mjNormalize(&t)
	if c1 < mjMinVal {
		return true
	}
	c2 := dot3(&st.pos21, &t)
	c3 := 0.0
	for k := range 3 {
		if k != i {
			c3 += st.b1.Size[k] * math.Abs(t[k])
		}
	}
	for k := range 3 {
		if k != j {
			c3 += st.b2.Size[k] * st.rotabs[3*i+3-k-j] / c1
		}
	}
	c3 -= math.Abs(c2)
	if c3 < -st.margin {
		return false
	}
	if c3 < *pen*(1-1e-12) {
		*pen = c3
		st.cle1, st.cle2 = 0, 0
		for k := range 3 {
			if k != i && (t[k] > 0) != (c2 < 0) {
				st.cle1 += 1 << k
			}
		}
		for k := range 3 {
			if k != j && ((st.rot[3*i+3-k-j] > 0) != (c2 < 0)) != ((k-j+3)%3 == 1) {
				st.cle2 += 1 << k
			}
		}
		st.code = 12 + i*3 + j
		st.clnorm = t
		st.in = c2 < 0
	}
	return true
}

// faceTurn is mjc_BoxBox's rotmore for face q (0–5: −x, −y, +z… as the C
// code numbers them), which turns that face's outward normal to +z, and
// its signed permutation (i0, i1, i2; f0, f1, f2): rotmore·v =
// (f0 v[i0], f1 v[i1], f2 v[i2]).
func faceTurn(q int) (rm [9]float64, idx [3]int, f [3]float64) {
	idx, f = [3]int{0, 1, 2}, [3]float64{1, 1, 1}
	switch q {
	case 0:
		rm[2], rm[4], rm[6] = -1, 1, 1
		idx[0], f[0], idx[2] = 2, -1, 0
	case 1:
		rm[0], rm[5], rm[7] = 1, -1, 1
		idx[1], f[1], idx[2] = 2, -1, 1
	case 2:
		rm[0], rm[4], rm[8] = 1, 1, 1
	case 3:
		rm[2], rm[4], rm[6] = 1, 1, -1
		idx[0], idx[2], f[2] = 2, 0, -1
	case 4:
		rm[0], rm[5], rm[7] = 1, 1, -1
		idx[1], idx[2], f[2] = 2, 1, -1
	case 5:
		rm[0], rm[4], rm[8] = -1, 1, -1
		f[0], f[2] = -1, -1
	}
	return rm, idx, f
}

// rotAxis is mjc_BoxBox's rotaxis macro: v permuted and signed.
func rotAxis(v *vec, idx *[3]int, f *[3]float64) vec {
	return vec{v[idx[0]] * f[0], v[idx[1]] * f[1], v[idx[2]] * f[2]}
}

// rotMatX is mjc_BoxBox's rotmatx macro: m's rows permuted and signed.
func rotMatX(m *[9]float64, idx *[3]int, f *[3]float64) [9]float64 {
	var r [9]float64
	for k := range 3 {
		for c := range 3 {
			r[3*k+c] = m[3*idx[k]+c] * f[k]
		}
	}
	return r
}

// mulMatTMat3 is mju_mulMatTMat for 3×3 matrices: aᵀ·b accumulated row by
// row (res_j += b_i · a_ij, mju_addToScl), skipping zero a_ij.
func mulMatTMat3(a, b *[9]float64) [9]float64 {
	var r [9]float64
	for i := range 3 {
		for j := range 3 {
			if t := a[3*i+j]; t != 0 {
				for c := range 3 {
					r[3*j+c] += b[3*i+c] * t
				}
			}
		}
	}
	return r
}

// mulMatMatT3 is mju_mulMatMatT for 3×3 matrices: a·bᵀ, each entry
// mju_dot of two rows (0 + the three-term sum).
func mulMatMatT3(a, b *[9]float64) [9]float64 {
	var r [9]float64
	for i := range 3 {
		for j := range 3 {
			r[3*i+j] = 0 + (a[3*i]*b[3*j] + a[3*i+1]*b[3*j+1] + a[3*i+2]*b[3*j+2])
		}
	}
	return r
}

// transpose3 is mju_transpose for a 3×3 matrix.
func transpose3(m *[9]float64) [9]float64 {
	return [9]float64{m[0], m[3], m[6], m[1], m[4], m[7], m[2], m[5], m[8]}
}

// row3 is row i of m.
func row3(m *[9]float64, i int) vec { return vec{m[3*i], m[3*i+1], m[3*i+2]} }

// addScl3 is mju_addToScl3: r += v·s.
func addScl3(r *vec, v vec, s float64) {
	r[0] += v[0] * s
	r[1] += v[1] * s
	r[2] += v[2] * s
}

// scl3 is mju_scl3: v·s.
func scl3(v vec, s float64) vec { return vec{v[0] * s, v[1] * s, v[2] * s} }

// add3 is mju_add3.
func add3(a, b vec) vec { return vec{a[0] + b[0], a[1] + b[1], a[2] + b[2]} }

// b2i is 1 for true, 0 for false.
func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// sgn is ±1: +1 when b.
func sgn(b bool) float64 {
	if b {
		return 1
	}
	return -1
}
