package mjccd

import "math"

// fixNormal is mjc_fixNormal: where a geom of the pair is a sphere,
// capsule, ellipsoid or cylinder (its round wall), the contact normal is
// replaced by that surface's normal at the contact point (the two
// averaged when both qualify).
func fixNormal(g1, g2 *Geom, c *Contact) {
	gs := [2]*Geom{g1, g2}
	var typ [2]Type
	for i, g := range gs {
		typ[i] = g.Type
		if typ[i] != Sphere && typ[i] != Capsule && typ[i] != Ellipsoid && typ[i] != Cylinder {
			typ[i] = -1
		}
	}
	if typ[0] < 0 && typ[1] < 0 {
		return
	}
	normal := [2]vec{
		{c.Normal[0], c.Normal[1], c.Normal[2]},
		{-c.Normal[0], -c.Normal[1], -c.Normal[2]},
	}
	var processed [2]bool
	cpos := vec(c.Pos)
	for i, g := range gs {
		if typ[i] < 0 {
			continue
		}
		size := &g.Size
		gp := vec(g.Pos)
		dif := sub(&cpos, &gp)
		pos := rotVecMatT(&dif, &g.Mat)
		nrm := rotVecMatT(&normal[i], &g.Mat)
		switch typ[i] {
		case Sphere:
			nrm = pos
			processed[i] = true
		case Capsule:
			switch {
			case pos[2] < -size[1]:
				nrm[2] = pos[2] + size[1]
			case pos[2] > size[1]:
				nrm[2] = pos[2] - size[1]
			default:
				nrm[2] = 0
			}
			nrm[0], nrm[1] = pos[0], pos[1]
			processed[i] = true
		case Ellipsoid:
			if size[0] < mjMinVal || size[1] < mjMinVal || size[2] < mjMinVal {
				break
			}
			d := pos[0]*pos[0]/(size[0]*size[0]) + pos[1]*pos[1]/(size[1]*size[1]) + pos[2]*pos[2]/(size[2]*size[2])
			if d <= 1 {
				processed[i] = ellipsoidInside(&nrm, &pos, size)
			} else {
				processed[i] = ellipsoidOutside(&nrm, &pos, size)
			}
		case Cylinder:
			if math.Abs(pos[2]) > 0.95*size[1] {
				break
			}
			d1 := math.Abs(size[1] - math.Abs(pos[2]))
			d2 := math.Abs(size[0] - math.Sqrt(pos[0]*pos[0]+pos[1]*pos[1])) // mju_norm(pos, 2)
			if d1 < 0.25*d2 {
				break
			}
			nrm = vec{pos[0], pos[1], 0}
			processed[i] = true
		}
		if processed[i] {
			mjNormalize(&nrm)
			normal[i] = rotVecMat(&nrm, &g.Mat)
		}
	}
	switch {
	case processed[0] && processed[1]:
		f := sub(&normal[0], &normal[1])
		mjNormalize(&f)
		c.Normal = f
	case processed[0]:
		c.Normal = normal[0]
	case processed[1]:
		c.Normal = [3]float64{normal[1][0] * -1, normal[1][1] * -1, normal[1][2] * -1}
	}
}

// ellipsoidInside is mjc_ellipsoidInside (named as in MuJoCo, which calls
// it for a point inside the ellipsoid): the normal by ray projection.
func ellipsoidInside(nrm, pos *vec, size *[3]float64) bool {
	const maxiter, tolerance = 30, 1e-6
	s2inv := [3]float64{1 / (size[0] * size[0]), 1 / (size[1] * size[1]), 1 / (size[2] * size[2])}
	C := pos[0]*pos[0]*s2inv[0] + pos[1]*pos[1]*s2inv[1] + pos[2]*pos[2]*s2inv[2] - 1
	if C > 0 {
		return false
	}
	mjNormalize(nrm)
	for iter := range maxiter {
		A := nrm[0]*nrm[0]*s2inv[0] + nrm[1]*nrm[1]*s2inv[1] + nrm[2]*nrm[2]*s2inv[2]
		B := pos[0]*nrm[0]*s2inv[0] + pos[1]*nrm[1]*s2inv[1] + pos[2]*nrm[2]*s2inv[2]
		det := B*B - A*C
		if det < mjMinVal || A < mjMinVal {
			return iter > 0
		}
		x := (-B + math.Sqrt(det)) / A
		if x < 0 {
			return iter > 0
		}
		pnt := vec{pos[0] + nrm[0]*x, pos[1] + nrm[1]*x, pos[2] + nrm[2]*x} // mju_addScl3
		nn := vec{pnt[0] * s2inv[0], pnt[1] * s2inv[1], pnt[2] * s2inv[2]}
		mjNormalize(&nn)
		change := dist3(nrm, &nn)
		*nrm = nn
		if change < tolerance {
			break
		}
	}
	return true
}

// ellipsoidOutside is mjc_ellipsoidOutside: the normal by the diagonal
// QCQP's Newton iteration on λ.
func ellipsoidOutside(nrm, pos *vec, size *[3]float64) bool {
	const maxiter, tolerance = 30, 1e-6
	S2 := [3]float64{size[0] * size[0], size[1] * size[1], size[2] * size[2]}
	PS2 := [3]float64{pos[0] * pos[0] * S2[0], pos[1] * pos[1] * S2[1], pos[2] * pos[2] * S2[2]}
	la := 0.0
	for range maxiter {
		R := [3]float64{1 / (S2[0] + la), 1 / (S2[1] + la), 1 / (S2[2] + la)}
		val := PS2[0]*R[0]*R[0] + PS2[1]*R[1]*R[1] + PS2[2]*R[2]*R[2] - 1
		if val < tolerance {
			break
		}
		deriv := -2 * (PS2[0]*R[0]*R[0]*R[0] + PS2[1]*R[1]*R[1]*R[1] + PS2[2]*R[2]*R[2]*R[2])
		if deriv > -mjMinVal {
			break
		}
		delta := -val / deriv
		if delta < tolerance {
			break
		}
		la += delta
	}
	*nrm = vec{pos[0] / (S2[0] + la), pos[1] / (S2[1] + la), pos[2] / (S2[2] + la)}
	mjNormalize(nrm)
	return true
}
