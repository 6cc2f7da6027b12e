package mjccd

// MaxPlaneBox is the most contacts PlaneBox gives (mjc_PlaneBox's 4).
const MaxPlaneBox = 4

// PlaneBox appends to out the contacts of plane p (geom 1) and box b
// (geom 2) as MuJoCo 2.2.2's mjc_PlaneBox (engine_collision_primitive.c)
// finds them and returns out with, in cnt, each contact's corner index
// appended to corners when corners is not nil. The plane's normal n is
// the third column of its geom_xmat and d = (pos₂ − pos₁)·n the box
// centre's height; corner i (i = 0…7) is v = (±s₀, ±s₁, ±s₂) with the
// + sign on axis a when bit a of i is set, turned to c = mat₂·v
// (mju_rotVecMat), and it is kept when l = n·c ≤ 0 (not on the upper
// half) and d + l ≤ margin, in corner order, until 4 are kept (MuJoCo's
// "pick bottom 4": the first 4 in this order, not the deepest). Each
// contact has dist d + l, normal n (from the plane to the box) and pos
// c + pos₂ − n·dist/2, midway between the corner and the plane.
func PlaneBox(p, b *Geom, margin float64, out []Contact, corners []int) ([]Contact, []int) {
	n := vec{p.Mat[2], p.Mat[5], p.Mat[8]}
	dif := vec{b.Pos[0] - p.Pos[0], b.Pos[1] - p.Pos[1], b.Pos[2] - p.Pos[2]}
	d := dot3(&dif, &n)
	// mju_rotVecMat(c, v, mat₂) sums m_ra·v_a, and v_a = ±s_a: the products
	// m_ra·s_a are formed once (pm[1]), with their negations (pm[0]),
	// which are the products with −s_a to the bit (a product's rounding
	// does not depend on the sign), and each corner sums its three.
	var pm [2][9]float64
	for r := 0; r < 9; r += 3 {
		for a := range 3 {
			t := b.Mat[r+a] * b.Size[a]
			pm[0][r+a], pm[1][r+a] = -t, t
		}
	}
	cnt := 0
	for i := range 8 {
		x, y, z := &pm[i&1], &pm[i>>1&1], &pm[i>>2&1]
		c := vec{x[0] + y[1] + z[2], x[3] + y[4] + z[5], x[6] + y[7] + z[8]}
		l := dot3(&n, &c)
		if d+l > margin || l > 0 {
			continue
		}
		dist := d + l
		k := -dist / 2 // mju_scl3(vec, norm, -dist/2), then mju_add3(pos, corner + pos2, vec)
		out = append(out, Contact{
			Dist:   dist,
			Pos:    [3]float64{(c[0] + b.Pos[0]) + n[0]*k, (c[1] + b.Pos[1]) + n[1]*k, (c[2] + b.Pos[2]) + n[2]*k},
			Normal: [3]float64(n),
		})
		if corners != nil {
			corners = append(corners, i)
		}
		if cnt++; cnt >= MaxPlaneBox {
			break
		}
	}
	return out, corners
}

// dot3 is mju_dot3: a₀b₀ + a₁b₁ + a₂b₂ in one expression.
func dot3(a, b *vec) float64 { return a[0]*b[0] + a[1]*b[1] + a[2]*b[2] }
