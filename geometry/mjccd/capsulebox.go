package mjccd

import "math"

// MaxCapsuleBox is the most contacts CapsuleBox gives.
const MaxCapsuleBox = 2

// capsuleBox holds mjc_CapsuleBox's (engine_collision_box.c, MuJoCo
// 2.2.2) search state, in the box's frame.
type capsuleBox struct {
	size1, size2   *[3]float64
	pos, axis      vec     // the capsule's centre and unit axis
	halfaxis       vec     // axis · half length
	axisdir        int     // bit a set: halfaxis_a > 0
	bestdist       float64 // the least squared distance found
	bestsegmentpos float64 // its point on the segment, −1…1
	bestboxpos     float64 // its point on the box's edge, −1…1
	cltype         int     // −3/−1: an end over a face; 0–8: an edge (s1·3 + s2)
	clface         int     // the face's axis, −1 inside the box
	clcorner       int     // the closest corner (bits: + side)
	cledge         int     // the closest edge's axis
}

// CapsuleBox appends to out the contacts of capsule c (geom 1) and box b
// (geom 2) as MuJoCo 2.2.2's mjc_CapsuleBox finds them: the point of the
// capsule's segment closest to the box, over the segment's ends clamped
// to the box (faces) and the segment against each of the box's 12 edges
// (a 2×2 system, clamped), then a second point along the segment chosen
// by how the capsule lies across the closest corner, edge or face (up to
// where it leaves the box), each collided as a sphere of the capsule's
// radius with mjc_SphereBox's rules (SphereBox).
func CapsuleBox(c, b *Geom, margin float64, out []Contact) []Contact {
	cb := capsuleBox{size1: &c.Size, size2: &b.Size, cltype: -4}
	t := sub((*vec)(&c.Pos), (*vec)(&b.Pos))
	cb.pos = rotVecMatT(&t, &b.Mat)
	t = vec{c.Mat[2], c.Mat[5], c.Mat[8]}
	cb.axis = rotVecMatT(&t, &b.Mat)
	cb.halfaxis = scl3(cb.axis, c.Size[1])
	for a := range 3 {
		if cb.halfaxis[a] > 0 {
			cb.axisdir += 1 << a
		}
	}
	s2 := &b.Size
	cb.bestdist = margin + 2*(c.Size[0]+c.Size[1]+s2[0]+s2[1]+s2[2])
	cb.faces()
	cb.edges()
	if cb.cltype == -4 {
		return out
	}
	secondpos := cb.second()
	t = cb.pos
	addScl3(&t, cb.halfaxis, cb.bestsegmentpos)
	sphere := Geom{Type: Sphere, Size: c.Size, Mat: c.Mat}
	sphere.Pos = [3]float64(add3(rotVecMat(&t, &b.Mat), vec(b.Pos)))
	out = SphereBox(&sphere, b, margin, out)
	if secondpos > -3 { // a second point
		t = cb.pos
		addScl3(&t, cb.halfaxis, secondpos+cb.bestsegmentpos)
		sphere.Pos = [3]float64(add3(rotVecMat(&t, &b.Mat), vec(b.Pos)))
		out = SphereBox(&sphere, b, margin, out)
	}
	return out
}

// faces tries the segment's ends clamped to the box (an end outside the
// box on at most one axis, so nearest a face or inside).
func (cb *capsuleBox) faces() {
	s2 := cb.size2
	for i := -1; i <= 1; i += 2 {
		t1 := cb.pos
		addScl3(&t1, cb.halfaxis, float64(i))
		t2 := t1
		n, face := 0, -1
		for j := range 3 {
			if t1[j] < -s2[j] {
				n, face, t1[j] = n+1, j, -s2[j]
			} else if t1[j] > s2[j] {
				n, face, t1[j] = n+1, j, s2[j]
			}
		}
		if n > 1 {
			continue
		}
		t1 = sub(&t1, &t2)
		if d := dot3(&t1, &t1); d < cb.bestdist {
			cb.bestdist, cb.bestsegmentpos, cb.cltype, cb.clface = d, float64(i), -2+i, face
		}
	}
}

// edges tries the segment against each box edge along axis j from corner
// i (bit j clear): the closest points of two segments, clamped.
func (cb *capsuleBox) edges() {
	s1, s2, pos, ha := cb.size1, cb.size2, &cb.pos, &cb.halfaxis
	for j := range 3 {
		for i := range 8 {
			if i&(1<<j) != 0 {
				continue
			}
			t3 := vec{sgn(i&1 != 0) * s2[0], sgn(i&2 != 0) * s2[1], sgn(i&4 != 0) * s2[2]}
			t3[j] = 0
			dif := sub(&t3, pos)
			ma, mb, mc := s2[j]*s2[j], -s2[j]*ha[j], s1[1]*s1[1]
			u, v := -s2[j]*dif[j], dot3(ha, &dif)
			det := ma*mc - mb*mb
			if math.Abs(det) < mjMinVal {
				continue
			}
			idet := 1 / det
			x1, x2 := (mc*u-mb*v)*idet, (ma*v-mb*u)*idet
			k1, k2 := 1, 1 // 0, 1, 2: clamped low, inside, clamped high
			if x1 > 1 {
				x1, k1, x2 = 1, 2, (v-mb)*(1/mc)
			} else if x1 < -1 {
				x1, k1, x2 = -1, 0, (v+mb)*(1/mc)
			}
			if x2 > 1 {
				x2, k2 = 1, 2
				x1, k1 = clampEdge((u-mb)*(1/ma), k1)
			} else if x2 < -1 {
				x2, k2 = -1, 0
				x1, k1 = clampEdge((u+mb)*(1/ma), k1)
			}
			dif = sub(&t3, pos)
			addScl3(&dif, *ha, -x2)
			dif[j] += s2[j] * x1
			if d := dot3(&dif, &dif); d < cb.bestdist-mjMinVal {
				c1 := k1*3 + k2
				cb.bestdist, cb.bestsegmentpos, cb.bestboxpos = d, x2, x1
				cb.clcorner, cb.cledge, cb.cltype = i+(1<<j)*(c1/6), j, c1
			}
		}
	}
}

// clampEdge clamps x to [−1, 1], returning the clamp code (0 low, 2 high)
// or k when x is inside.
func clampEdge(x float64, k int) (float64, int) {
	if x > 1 {
		return 1, 2
	} else if x < -1 {
		return -1, 0
	}
	return x, k
}

// second returns mjc_CapsuleBox's secondpos: the second point's offset
// along the segment from the first (−4: none).
func (cb *capsuleBox) second() float64 {
	switch {
	case cb.cltype >= 0 && cb.cltype/3 != 1:
		return cb.secondCorner()
	case cb.cltype >= 0:
		return cb.secondEdge()
	}
	return cb.secondFace()
}

// secondCorner: the closest box point is a corner; along the box's edge
// when the capsule is within 45° of it, else across a face, up to the
// far corner.
func (cb *capsuleBox) secondCorner() float64 {
	s2, ha, bsp := cb.size2, &cb.halfaxis, cb.bestsegmentpos
	c1 := cb.axisdir ^ cb.clcorner
	if c1 == 0 || c1 == 7 { // pointing to or away from the corner
		return -4
	}
	mul, de, dp := 1.0, 1-bsp, 1+bsp
	if c1 == 3 || c1 == 5 || c1 == 6 {
		mul, c1, dp, de = -1, 7-c1, 1-bsp, 1+bsp
	}
	ax, ax1, ax2 := 0, 1, 2
	if c1 == 2 {
		ax, ax1, ax2 = 1, 2, 0
	} else if c1 == 4 {
		ax, ax1, ax2 = 2, 0, 1
	}
	if cb.axis[ax]*cb.axis[ax] > 0.5 { // along the edge
		return lower(de, 2*s2[ax]/math.Abs(ha[ax])) * mul
	}
	sp := dp // across a face
	sp = lower(sp, 2*s2[ax1]/math.Abs(ha[ax1]))
	sp = lower(sp, 2*s2[ax2]/math.Abs(ha[ax2]))
	return sp * -mul
}

// secondEdge: the closest box point is inside an edge; a capsule crossing
// it (X, not T) gets a second point up to where it leaves the face it is
// flattest to, or the edge's end.
func (cb *capsuleBox) secondEdge() float64 {
	s2, ha := cb.size2, &cb.halfaxis
	c1 := cb.axisdir ^ cb.clcorner
	c1 &= 7 - (1 << cb.cledge)
	if c1 != 1 && c1 != 2 && c1 != 4 {
		return -4
	}
	ax := cb.cledge
	ax1, ax2 := [3]int{1, 2, 0}[ax], [3]int{2, 0, 1}[ax]
	if math.Abs(cb.axis[ax1]) > math.Abs(cb.axis[ax2]) {
		ax1 = ax2
	}
	ax2 = 3 - ax - ax1
	mul, sp := -1.0, 1+cb.bestsegmentpos
	if c1&(1<<ax2) != 0 {
		mul, sp = 1, 1-cb.bestsegmentpos
	}
	sp = lower(sp, 2*s2[ax2]/math.Abs(ha[ax2]))
	e2 := 1 + cb.bestboxpos
	if (cb.axisdir&(1<<ax) != 0) == (c1&(1<<ax2) != 0) {
		e2 = 1 - cb.bestboxpos
	}
	sp = lower(sp, s2[ax]*e2/math.Abs(ha[ax]))
	return sp * mul
}

// secondFace: an end is closest, over a face; the second point is where
// the segment from that end leaves the box's slab on another axis (at
// most the other end).
func (cb *capsuleBox) secondFace() float64 {
	if cb.clface == -1 { // the end is inside the box
		return -4
	}
	s2, ha := cb.size2, &cb.halfaxis
	mul := -1.0
	if cb.cltype == -3 {
		mul = 1
	}
	sp := 2.0
	t1 := cb.pos
	addScl3(&t1, *ha, -mul)
	for i := range 3 {
		if i == cb.clface {
			continue
		}
		if e1 := (s2[i] - t1[i]) / ha[i] * mul; e1 > 0 && e1 < sp {
			sp = e1
		}
		if e1 := (-s2[i] - t1[i]) / ha[i] * mul; e1 > 0 && e1 < sp {
			sp = e1
		}
	}
	return sp * mul
}

// lower is C's "if (e < x) x = e": e when it is below x, else x (also when
// e is NaN, where Go's min would give NaN).
func lower(x, e float64) float64 {
	if e < x {
		return e
	}
	return x
}
