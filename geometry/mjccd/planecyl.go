package mjccd

import "math"

// MaxPlaneCylinder is the most contacts PlaneCylinder gives
// (mjc_PlaneCylinder's 4).
const MaxPlaneCylinder = 4

// PlaneCylinder appends to out the contacts of plane p (geom 1) and
// cylinder c (geom 2, size radius r and half-length h) as MuJoCo 2.2.2's
// mjc_PlaneCylinder (engine_collision_primitive.c) finds them, normal n
// (the plane's z, from the plane to the cylinder) on each. With a the
// cylinder's axis turned to face the plane (n·a ≤ 0), d₀ = n·(pos₂ −
// pos₁) and v the rim direction nearest the plane, v = r·u/|u| for u =
// (n·a)a − n (the cylinder's x axis times r when |u| < mjMINVAL):
//  1. the rim point pos₂ + v + h·a, dist d₀ + h(n·a) + n·v, kept when
//     ≤ margin, else there are no contacts;
//  2. the opposite cap's rim point pos₂ + v − h·a, dist d₀ − h(n·a) + n·v,
//     when ≤ margin;
//  3. when d₀ + h(n·a) − (n·v)/2 ≤ margin, two more points of the near
//     cap, pos₂ ± w + h·a − v/2 with w = (√3/2)r·(v×a)/|v×a|, both at
//     that dist (an equilateral triangle with the first point).
//
// Each pos is moved by −n·dist/2, midway to the plane.
func PlaneCylinder(p, c *Geom, margin float64, out []Contact) []Contact {
	n := vec{p.Mat[2], p.Mat[5], p.Mat[8]}
	axis := vec{c.Mat[2], c.Mat[5], c.Mat[8]}
	prjaxis := dot3(&n, &axis)
	if prjaxis > 0 { // make the axis point to the plane
		axis = vec{-axis[0], -axis[1], -axis[2]}
		prjaxis = -prjaxis
	}
	v := vec{c.Pos[0] - p.Pos[0], c.Pos[1] - p.Pos[1], c.Pos[2] - p.Pos[2]}
	dist0 := dot3(&v, &n)
	v = vec{axis[0]*prjaxis - n[0], axis[1]*prjaxis - n[1], axis[2]*prjaxis - n[2]} // mju_scl3, mju_subFrom3
	r, h := c.Size[0], c.Size[1]
	if l := math.Sqrt(v[0]*v[0] + v[1]*v[1] + v[2]*v[2]); l >= mjMinVal {
		scl := r / l
		v[0] *= scl
		v[1] *= scl
		v[2] *= scl
	} else { // disk parallel to the plane: the cylinder's x axis
		v = vec{c.Mat[0] * r, c.Mat[3] * r, c.Mat[6] * r}
	}
	prjvec := dot3(&v, &n)
	axis = vec{axis[0] * h, axis[1] * h, axis[2] * h}
	prjaxis *= h
	base := vec{c.Pos[0] + v[0], c.Pos[1] + v[1], c.Pos[2] + v[2]} // mju_add3(pos, pos2, vec)
	d := dist0 + prjaxis + prjvec
	if d > margin {
		return out // the nearest point is beyond the margin
	}
	out = append(out, cylContact(&base, &axis, 1, nil, &n, d))
	if d = dist0 - prjaxis + prjvec; d <= margin {
		out = append(out, cylContact(&base, &axis, -1, nil, &n, d))
	}
	prjvec1 := -prjvec * 0.5
	if d = dist0 + prjaxis + prjvec1; d <= margin {
		w := cross(&v, &axis)
		mjNormalize(&w)
		k := r * math.Sqrt(3.0) / 2
		w = vec{w[0] * k, w[1] * k, w[2] * k}
		a := vec{c.Pos[0] + w[0], c.Pos[1] + w[1], c.Pos[2] + w[2]} // point A: mju_add3(pos, pos2, vec1)
		out = append(out, cylContact(&a, &axis, 1, &v, &n, d))
		b := vec{c.Pos[0] - w[0], c.Pos[1] - w[1], c.Pos[2] - w[2]} // point B: mju_sub3(pos, pos2, vec1)
		out = append(out, cylContact(&b, &axis, 1, &v, &n, d))
	}
	return out
}

// cylContact is one mjc_PlaneCylinder contact: pos = base ± axis
// (mju_addTo3 or mju_subFrom3 as sign says), then − v/2 when v is not nil
// (mju_addToScl3(pos, vec, -0.5)), then + n·(−dist/2)
// (mju_addToScl3(pos, normal, -dist*0.5)), in that order of sums.
func cylContact(base, axis *vec, sign float64, v, n *vec, dist float64) Contact {
	var pos vec
	for i := range 3 {
		if sign > 0 {
			pos[i] = base[i] + axis[i]
		} else {
			pos[i] = base[i] - axis[i]
		}
		if v != nil {
			pos[i] += v[i] * -0.5
		}
		pos[i] += n[i] * (-dist * 0.5)
	}
	return Contact{Dist: dist, Pos: [3]float64(pos), Normal: [3]float64(*n)}
}
