package sap

// addJtTmp1 is addJtTmp for a block of one row (j1 with n1 columns, d.tmp
// with n2), such as a pyramid edge of MuJoCo's contacts
// (solver.Interval rows): each entry is the same sum as addJtTmp's,
// 0 + J_a t_b, so H gets the same bits.
func (d *denseSystem) addJtTmp1(j1 []float64, n1, n2, off1, off2 int, mirror bool, nz1, nz2 []int) {
	r0, t0 := j1[:n1], d.tmp[:n2]
	n := d.n
	for _, a := range nz1 {
		x0 := r0[a]
		row := d.h[(off1+a)*n+off2:][:n2]
		for _, b := range nz2 {
			s := 0.0
			s += x0 * t0[b]
			row[b] += s
			if mirror {
				d.h[(off2+b)*n+off1+a] += s
			}
		}
	}
}
