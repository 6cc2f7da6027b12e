package mjccd

import "math"

// face is mjc_BoxBox's face path (code < 12): the face of box q2+1 along
// axis q1 is turned to +z (rotmore) with its centre at the origin, the
// other box's nearest corner lp and the up-to-two edges from it that lie
// within 60° of the face (|r₃ᵢ| < 0.5) span a parallelogram pts, and the
// candidates are the parallelogram's edges crossing the face's sides, the
// face's corners inside the parallelogram (heights interpolated) and the
// parallelogram's corners over the face, kept when their height is at
// most the margin. A contact's dist is half that height (2.2.2 halves the
// point before reading dist back), its point at half the height above
// the face, its normal the face's outward normal (negated when the face
// is box 2's, so it points from box 1 to box 2).
func (st *boxBoxState) face(out []Contact) []Contact {
	q1, q2 := st.code%6, st.code/6
	rotmore, idx, f := faceTurn(q1)
	var r [9]float64
	var p, t1, s vec
	if q2 != 0 { // box 2's face: box 1 is the other box
		r = mulMatMatT3(&rotmore, &st.rot)
		p, t1 = rotAxis(&st.pos12, &idx, &f), rotAxis((*vec)(&st.b2.Size), &idx, &f)
		s = st.b1.Size
	} else {
		r = rotMatX(&st.rot, &idx, &f)
		p, t1 = rotAxis(&st.pos21, &idx, &f), rotAxis((*vec)(&st.b1.Size), &idx, &f)
		s = st.b2.Size
	}
	rt := transpose3(&r)
	ss := vec{math.Abs(t1[0]), math.Abs(t1[1]), math.Abs(t1[2])}
	lx, ly, hz := ss[0], ss[1], ss[2]
	p[2] -= hz
	lp := p
	clcorner := 0
	for i := range 3 {
		if r[6+i] < 0 {
			clcorner += 1 << i
		}
	}
	for i := range 3 {
		addScl3(&lp, row3(&rt, i), s[i]*sgn(clcorner&(1<<i) != 0))
	}
	var pts [6]vec
	m := 0
	pts[m] = lp
	m++
	for i := range 3 {
		if math.Abs(r[6+i]) < 0.5 {
			pts[m] = scl3(row3(&rt, i), s[i]*2*-sgn(clcorner&(1<<i) != 0))
			m++
		}
	}
	pts[3] = add3(pts[0], pts[1])
	pts[4] = add3(pts[0], pts[2])
	pts[5] = add3(pts[3], pts[2])
	var lines [4][2]vec
	k := 0
	if m > 1 {
		lines[k] = [2]vec{pts[0], pts[1]}
		k++
	}
	if m > 2 {
		lines[k] = [2]vec{pts[0], pts[2]}
		lines[k+1] = [2]vec{pts[3], pts[2]}
		lines[k+2] = [2]vec{pts[4], pts[1]}
		k += 3
	}
	var points [MaxBoxBox]vec
	n := 0
	for i := range k {
		for q := range 2 {
			a, b, c, d := lines[i][0][q], lines[i][1][q], lines[i][0][1-q], lines[i][1][1-q]
			if math.Abs(b) <= mjMinVal {
				continue
			}
			for j := -1; j <= 1; j += 2 {
				l := ss[q] * float64(j)
				c1 := (l - a) * (1 / b)
				if c1 < 0 || c1 > 1 {
					continue
				}
				if c2 := c + d*c1; math.Abs(c2) > ss[1-q] {
					continue
				}
				points[n] = lines[i][0]
				addScl3(&points[n], lines[i][1], c1)
				n++
			}
		}
	}
	a, b, c, d := pts[1][0], pts[2][0], pts[1][1], pts[2][1]
	c1 := a*d - b*c
	if m > 2 { // the face's corners inside the parallelogram
		for i := range 4 {
			llx, lly := lx*sgn(i/2 != 0), ly*sgn(i%2 != 0)
			x, y := llx-pts[0][0], lly-pts[0][1]
			u := (x*d - y*b) * (1 / c1)
			v := (y*a - x*c) * (1 / c1)
			if u <= 0 || v <= 0 || u >= 1 || v >= 1 {
				continue
			}
			points[n] = vec{llx, lly, pts[0][2] + u*pts[1][2] + v*pts[2][2]}
			n++
		}
	}
	for i := range 1 << (m - 1) { // the parallelogram's corners over the face
		t := pts[0]
		if i != 0 {
			t = pts[i+2]
			if t[0] <= -lx || t[0] >= lx || t[1] <= -ly || t[1] >= ly {
				continue
			}
		}
		points[n] = t
		n++
	}
	return st.faceContacts(points[:n], q2 != 0, &rotmore, hz, out)
}

// faceContacts ends mjc_BoxBox's face path: the points at most the margin
// above the face, halved in height, turned back to the world.
func (st *boxBoxState) faceContacts(points []vec, second bool, rotmore *[9]float64, hz float64, out []Contact) []Contact {
	mat, pos, sign := &st.b1.Mat, st.b1.Pos, 1.0
	if second {
		mat, pos, sign = &st.b2.Mat, st.b2.Pos, -1
	}
	r := mulMatMatT3(mat, rotmore)
	normal := [3]float64{sign * r[2], sign * r[5], sign * r[8]}
	for _, pt := range points {
		if pt[2] > st.margin {
			continue
		}
		pt[2] *= 0.5
		dist := pt[2]
		pt[2] += hz
		w := rotVecMat(&pt, &r)
		out = append(out, Contact{Dist: dist, Pos: [3]float64{w[0] + pos[0], w[1] + pos[1], w[2] + pos[2]}, Normal: normal})
	}
	return out
}

// edgeFrame is the frame of mjc_BoxBox's edge path: box 1's face clface
// turned to +z with its centre at the origin.
type edgeFrame struct {
	rotmore   [9]float64
	p, rnorm  vec // box 2's centre and the edge axis
	r, rt     [9]float64
	s         vec // box 1's half sizes in the turned frame
	ax1, ax2  int // box 2's axes across its edge q2, the nearer to the axis first
	q2        int
	innorm    float64
	pu        [4]vec // box 2's face corners
	projected [4]vec // pu projected along rnorm onto the face's plane
}

// edge is mjc_BoxBox's edge path (code ≥ 12): edge q1 of box 1 and edge q2
// of box 2 give the least penetration. Box 1's face next to its edge
// (clface) is turned to +z; box 2's face next to its edge (ax1, ax2 the
// axes across it, the one more aligned with box 1's edge first) is
// projected along the axis onto that face's plane, and the candidates
// are the projected face's edges crossing the face's sides, the face's
// corners inside the projection (clamped to it when no edge crosses) and
// the projected corners over the face, each kept within the margin, with
// its depth and its point midway between the two boxes.
func (st *boxBoxState) edge(out []Contact) []Contact {
	var e edgeFrame
	if !st.edgeSetup(&e) {
		return out
	}
	var points [MaxBoxBox]vec
	var depth [MaxBoxBox]float64
	n := st.edgeLines(&e, points[:], depth[:])
	nl := n
	n = st.edgeFaceCorners(&e, nl, n, points[:], depth[:])
	n = st.edgeBoxCorners(&e, nl, n, points[:], depth[:])
	r := mulMatMatT3(&st.b1.Mat, &e.rotmore)
	t := rotVecMat(&e.rnorm, &r)
	normal := [3]float64(scl3(t, sgn(!st.in)))
	for i := range n {
		pt := points[i]
		pt[2] += e.s[2]
		w := rotVecMat(&pt, &r)
		out = append(out, Contact{Dist: depth[i], Pos: [3]float64{w[0] + st.b1.Pos[0], w[1] + st.b1.Pos[1], w[2] + st.b1.Pos[2]}, Normal: normal})
	}
	return out
}

// edgeSetup sets e as mjc_BoxBox's edge path does before clipping and
// reports false where the axis lies in the face's plane (MuJoCo's
// "shouldn't happen").
func (st *boxBoxState) edgeSetup(e *edgeFrame) bool {
	code := st.code - 12
	q1, q2 := code/3, code%3
	ax1, ax2 := [3]int{1, 0, 1}[q2], [3]int{2, 2, 0}[q2]
	pax1, pax2 := [3]int{1, 0, 1}[q1], [3]int{2, 2, 0}[q1]
	if st.rotabs[3*q1+ax1] < st.rotabs[3*q1+ax2] {
		ax1 = ax2
		ax2 = 3 - q2 - ax1
	}
	if st.rottabs[3*q2+pax1] < st.rottabs[3*q2+pax2] {
		pax1 = pax2
		pax2 = 3 - q1 - pax1
	}
	clface := pax2 + 3
	if st.cle1&(1<<pax2) != 0 {
		clface = pax2
	}
	rotmore, idx, f := faceTurn(clface)
	e.rotmore, e.ax1, e.ax2, e.q2 = rotmore, ax1, ax2, q2
	e.p = rotAxis(&st.pos21, &idx, &f)
	e.rnorm = rotAxis(&st.clnorm, &idx, &f)
	e.r = rotMatX(&st.rot, &idx, &f)
	t := rotVecMatT((*vec)(&st.b1.Size), &rotmore)
	e.s = vec{math.Abs(t[0]), math.Abs(t[1]), math.Abs(t[2])}
	e.rt = transpose3(&e.r)
	e.p[2] -= e.s[2]
	s2 := &st.b2.Size
	var pts [4]vec
	for h := range 2 { // the edge's two ends, then the face's far edge's two ends
		pts[2*h] = e.p
		addScl3(&pts[2*h], row3(&e.rt, ax1), s2[ax1]*sgn((st.cle2&(1<<ax1) != 0) == (h == 0)))
		addScl3(&pts[2*h], row3(&e.rt, ax2), s2[ax2]*sgn(st.cle2&(1<<ax2) != 0))
		pts[2*h+1] = pts[2*h]
		addScl3(&pts[2*h], row3(&e.rt, q2), s2[q2])
		addScl3(&pts[2*h+1], row3(&e.rt, q2), -s2[q2])
	}
	if math.Abs(e.rnorm[2]) < mjMinVal {
		return false
	}
	e.innorm = (1 / e.rnorm[2]) * -sgn(st.in)
	for i := range 4 {
		c1 := -pts[i][2] * (1 / e.rnorm[2])
		e.pu[i] = pts[i]
		addScl3(&pts[i], e.rnorm, c1)
		e.projected[i] = pts[i]
	}
	return true
}

// edgeLines adds to points the crossings of the projected face's edges
// with box 1's face's sides (mjc_BoxBox's line loop) and returns their
// count.
func (st *boxBoxState) edgeLines(e *edgeFrame, points []vec, depth []float64) int {
	pp := &e.projected
	pts := [3]vec{pp[0], sub(&pp[1], &pp[0]), sub(&pp[2], &pp[0])}
	pu := &e.pu
	axi := [3]vec{pu[0], sub(&pu[1], &pu[0]), sub(&pu[2], &pu[0])}
	lines := [4][2]vec{{pts[0], pts[1]}, {pts[0], pts[2]}, {add3(pts[0], pts[1]), pts[2]}, {add3(pts[0], pts[2]), pts[1]}}
	linesu := [4][2]vec{{axi[0], axi[1]}, {axi[0], axi[2]}, {add3(axi[0], axi[1]), axi[2]}, {add3(axi[0], axi[2]), axi[1]}}
	n := 0
	for i := range 4 {
		for q := range 2 {
			a, b, c, d := lines[i][0][q], lines[i][1][q], lines[i][0][1-q], lines[i][1][1-q]
			if math.Abs(b) <= mjMinVal {
				continue
			}
			for j := -1; j <= 1; j += 2 {
				l := e.s[q] * float64(j)
				c1 := (l - a) * (1 / b)
				if c1 < 0 || c1 > 1 {
					continue
				}
				c2 := c + d*c1
				if math.Abs(c2) > e.s[1-q] {
					continue
				}
				if (linesu[i][0][2]+linesu[i][1][2]*c1)*e.innorm > st.margin {
					continue
				}
				points[n] = scl3(linesu[i][0], 0.5)
				addScl3(&points[n], linesu[i][1], 0.5*c1)
				points[n][q] += 0.5 * l
				points[n][1-q] += 0.5 * c2
				depth[n] = points[n][2] * e.innorm * 2
				n++
			}
		}
	}
	return n
}

// edgeFaceCorners adds box 1's face corners that lie in the projected
// face (mjc_BoxBox's second loop; with no crossing, also those beside it
// on one side, clamped onto it) and returns the count. As in 2.2.2, c1
// holds the parallelogram's determinant until a corner is kept, then that
// corner's squared distance, which the next corners divide by.
func (st *boxBoxState) edgeFaceCorners(e *edgeFrame, nl, n int, points []vec, depth []float64) int {
	pp, pu := &e.projected, &e.pu
	p1, p2 := sub(&pp[1], &pp[0]), sub(&pp[2], &pp[0])
	a, b, c, d := p1[0], p2[0], p1[1], p2[1]
	c1 := a*d - b*c
	for i := range 4 {
		if n >= len(points) {
			break
		}
		llx, lly := e.s[0]*sgn(i/2 != 0), e.s[1]*sgn(i%2 != 0)
		x, y := llx-pp[0][0], lly-pp[0][1]
		u := (x*d - y*b) * (1 / c1)
		v := (y*a - x*c) * (1 / c1)
		if nl == 0 {
			if (u < 0 || u > 1) && (v < 0 || v > 1) {
				continue
			}
		} else if u < 0 || u > 1 || v < 0 || v > 1 {
			continue
		}
		u, v = min(max(u, 0), 1), min(max(v, 0), 1)
		t := scl3(pu[0], 1-u-v)
		addScl3(&t, pu[1], u)
		addScl3(&t, pu[2], v)
		pt := vec{llx, lly, 0}
		t2 := sub(&pt, &t)
		c1 = dot3(&t2, &t2)
		if t[2] > 0 && c1 > st.margin*st.margin {
			continue
		}
		points[n] = scl3(add3(pt, t), 0.5)
		depth[n] = math.Sqrt(c1) * -sgn(t[2] < 0)
		n++
	}
	return n
}

// edgeBoxCorners adds box 2's face corners whose projections lie over box
// 1's face (mjc_BoxBox's third loop) and returns the count.
func (st *boxBoxState) edgeBoxCorners(e *edgeFrame, nl, n int, points []vec, depth []float64) int {
	nf := n
	s := &e.s
	for i := range 4 {
		if n >= len(points) {
			break
		}
		pr, pu := &e.projected[i], &e.pu[i]
		x, y := pr[0], pr[1]
		if nl == 0 {
			if nf != 0 && (x < -s[0] || x > s[0]) && (y < -s[1] || y > s[1]) {
				continue
			}
		} else if x < -s[0] || x > s[0] || y < -s[1] || y > s[1] {
			continue
		}
		c1 := 0.0
		for j := range 2 {
			if pr[j] < -s[j] {
				c1 += (pr[j] + s[j]) * (pr[j] + s[j])
			} else if pr[j] > s[j] {
				c1 += (pr[j] - s[j]) * (pr[j] - s[j])
			}
		}
		c1 += pu[2] * e.innorm * pu[2] * e.innorm
		if pu[2] > 0 && c1 > st.margin*st.margin {
			continue
		}
		t := vec{pr[0] * 0.5, pr[1] * 0.5, 0}
		for j := range 2 {
			if pr[j] < -s[j] {
				t[j] = -s[j] * 0.5
			} else if pr[j] > s[j] {
				t[j] = s[j] * 0.5
			}
		}
		addScl3(&t, *pu, 0.5)
		points[n] = t
		depth[n] = math.Sqrt(c1) * -sgn(pu[2] < 0)
		n++
	}
	return n
}
