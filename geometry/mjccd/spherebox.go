package mjccd

import "math"

// SphereBox appends to out the contact of sphere s (geom 1) and box b
// (geom 2) as MuJoCo 2.2.2's mjc_SphereBox (_SphereBox,
// engine_collision_box.c) finds it, when the sphere's surface is within
// margin of the box. In the box's frame the sphere's centre c is clamped
// to the box (only on axes of positive half size) to q, and d = |q − c|;
// the normal is (q − c)/d turned to the world, from the sphere to the
// box, dist d − r, and the point midway between q and the sphere's
// deepest point c + r (q − c)/d. When the centre lies inside the box
// (d ≤ mjMINVAL) the nearest face (the first of −x, +x, −y, +y, −z, +z
// at the least distance δ) gives the normal, the point is c moved by
// (r − δ)/2 along it, and dist is still d − r = −r, as 2.2.2 has it. The
// normal is normalized as mj_collideGeoms' mju_makeFrame does.
func SphereBox(s, b *Geom, margin float64, out []Contact) []Contact {
	t := sub((*vec)(&s.Pos), (*vec)(&b.Pos))
	center := rotVecMatT(&t, &b.Mat)
	size, r := &b.Size, s.Size[0]
	clamped := center
	for i := range 3 { // mju_clampVec
		if size[i] > 0 {
			clamped[i] = min(max(clamped[i], -size[i]), size[i])
		}
	}
	deepest := center
	t = sub(&clamped, &center)
	dist := mjNormalize(&t)
	if dist-r > margin {
		return out
	}
	var pos, normal vec
	if dist <= mjMinVal { // the centre inside the box
		closest, k := (size[0]+size[1]+size[2])*2, 0
		for i := range 6 {
			if d := math.Abs(sgn(i%2 != 0)*size[i/2] - center[i/2]); closest > d {
				closest, k = d, i
			}
		}
		var nearest vec
		nearest[k/2] = -sgn(k%2 != 0)
		pos = center
		addScl3(&pos, nearest, (r-closest)/2)
		normal = rotVecMat(&nearest, &b.Mat)
	} else {
		addScl3(&deepest, t, r)
		addScl3(&pos, clamped, 0.5)
		addScl3(&pos, deepest, 0.5)
		normal = rotVecMat(&t, &b.Mat)
	}
	mjNormalize(&normal)
	w := rotVecMat(&pos, &b.Mat)
	return append(out, Contact{Dist: dist - r, Pos: [3]float64(add3(w, vec(b.Pos))), Normal: [3]float64(normal)})
}
