package sim

import "math/bits"

// The substitution of the PGS dual build's sparse Gram (sparseGram):
// y = L⁻ᵀ jᵀ for A = Lᵀ D L along the tree parent (linalg.TreeLDL's
// factor a, n × n), by leaves to roots, each non-zero y_i subtracting
// L_ji y_i from its ancestors j (linalg.TreeLDLGram's order), and z = D⁻¹ y
// on y's non-zeros, whose mask it returns.
//
// A contact's rows (three to six of them) lie on the same paths to the
// root, so subst4 walks the paths once for four rows: the parent chain and
// L_ji are read once for the four subtractions. Where one of the four has
// y_i = ±0 while another does not, it subtracts L_ji · (±0) = ±0 from its
// ancestors, which a row on its own skips: for a finite L that changes at
// most the sign of a zero y_j, and a zero y_j enters the Gram's sums only
// as a ±0 term, which leaves a sum that starts at +0 unchanged (x + (±0) =
// x for x ≠ 0, and +0 + (−0) = +0); the masks test y_i ≠ 0 as before. So
// the Gram is the one-row substitution's to the bit.

// subst1 solves Lᵀ y = j in place for one row y and sets z = D⁻¹ y
// (dinv = 1/D) on y's non-zeros, whose mask it returns.
func subst1(parent []int, a, dinv, y, z []float64) uint64 {
	n := len(parent)
	var m uint64
	for i := n - 1; i >= 0; i-- {
		x := y[i]
		if x == 0 {
			continue
		}
		m |= 1 << uint(i)
		for j := parent[i]; j >= 0; j = parent[j] {
			y[j] -= a[j*n+i] * x
		}
	}
	scaleMasked(m, dinv, y, z)
	return m
}

// subst4 is subst1 for the four rows y[0:n], y[n:2n], y[2n:3n], y[3n:4n]
// (z likewise), with their masks in m.
func subst4(parent []int, a, dinv, y, z []float64, m *[4]uint64) {
	n := len(parent)
	y0, y1, y2, y3 := y[:n], y[n:2*n], y[2*n:3*n], y[3*n:4*n]
	var m0, m1, m2, m3 uint64
	for i := n - 1; i >= 0; i-- {
		x0, x1, x2, x3 := y0[i], y1[i], y2[i], y3[i]
		b := uint64(1) << uint(i)
		if x0 != 0 {
			m0 |= b
		}
		if x1 != 0 {
			m1 |= b
		}
		if x2 != 0 {
			m2 |= b
		}
		if x3 != 0 {
			m3 |= b
		}
		if (m0|m1|m2|m3)&b == 0 {
			continue
		}
		for j := parent[i]; j >= 0; j = parent[j] {
			l := a[j*n+i]
			y0[j] -= l * x0
			y1[j] -= l * x1
			y2[j] -= l * x2
			y3[j] -= l * x3
		}
	}
	*m = [4]uint64{m0, m1, m2, m3}
	for r, mr := range m {
		scaleMasked(mr, dinv, y[r*n:(r+1)*n], z[r*n:(r+1)*n])
	}
}

// scaleMasked sets z_i = dinv_i y_i on the dofs of mask m.
func scaleMasked(m uint64, dinv, y, z []float64) {
	for ; m != 0; m &= m - 1 {
		i := bits.TrailingZeros64(m)
		z[i] = dinv[i] * y[i]
	}
}

// dotMasked returns Σ z_i y_i over the dofs of mask m, ascending, from +0.
// z and y are read as arrays of 64 (a row and what follows it: the dofs
// of m are below the row's length), so that no read carries a bounds
// check.
func dotMasked(m uint64, z, y *[64]float64) float64 {
	s := 0.0
	for ; m != 0; m &= m - 1 {
		i := bits.TrailingZeros64(m) & 63
		s += z[i] * y[i]
	}
	return s
}

// dotMasked4 is dotMasked for z against the four rows y on one mask (four
// rows of a contact share theirs): each sum the same terms in the same
// order, the mask walked once.
func dotMasked4(m uint64, z *[64]float64, y *[4]*[64]float64) (s0, s1, s2, s3 float64) {
	y0, y1, y2, y3 := y[0], y[1], y[2], y[3]
	for ; m != 0; m &= m - 1 {
		i := bits.TrailingZeros64(m) & 63
		zi := z[i]
		s0 += zi * y0[i]
		s1 += zi * y1[i]
		s2 += zi * y2[i]
		s3 += zi * y3[i]
	}
	return s0, s1, s2, s3
}
