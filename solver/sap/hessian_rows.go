package sap

import "github.com/stiction-sim/stiction/solver"

// addJtTmp1 is addJtTmp for a block of one row (j1 with n1 columns, d.tmp
// with n2), such as a pyramid edge of MuJoCo's contacts
// (solver.Interval rows): each entry is the same sum as addJtTmp's,
// 0 + J_a t_b, so H gets the same bits.
func (d *denseSystem) addJtTmp1(j1 []float64, n1, n2, off1, off2 int, mirror, diag bool, nz1, nz2 []int) {
	r0, t0 := j1[:n1], d.tmp[:n2]
	n := d.n
	for i, a := range nz1 {
		x0 := r0[a]
		row := d.h[(off1+a)*n+off2:][:n2]
		for _, b := range upperFrom(nz2, i, diag) {
			s := 0.0
			s += x0 * t0[b]
			row[b] += s
			if mirror {
				d.h[(off2+b)*n+off1+a] += s
			}
		}
	}
}

// mulJ sets vc = J v as solver.Problem.MulJ does, for a finite v. When
// sys is the dense system set up for p (denseSystem.setup), each J
// block's row sums run over the block's non-zero columns only (packedJ):
// the skipped terms are 0 · v_j = ±0, which leave a sum that starts at +0
// unchanged (a sum of finite numbers starting at +0 is never −0), so vc
// gets the same bits.
func mulJ(p *solver.Problem, sys newtonSystem, v, vc []float64) {
	d, ok := sys.(*denseSystem)
	if !ok || d.nzFor != p {
		p.MulJ(v, vc)
		return
	}
	d.pk.mulJ(v, vc, p.NR)
}

// mulJT sets out = Jᵀ γ as solver.Problem.MulJT does, for a finite γ.
// When sys is the dense system set up for p, each J row adds its products
// over the block's non-zero columns only (packedJ): a skipped product is
// 0 · γ_r = ±0, and out_j, which starts at +0, is never −0 (a sum of
// finite numbers that starts at +0 is −0 only if a −0 is added to −0), so
// adding ±0 leaves its bits unchanged and out gets the same bits.
func mulJT(p *solver.Problem, sys newtonSystem, gamma, out []float64) {
	d, ok := sys.(*denseSystem)
	if !ok || d.nzFor != p {
		p.MulJT(gamma, out)
		return
	}
	d.pk.mulJT(gamma, out, p.NV)
}

// mulJTOf is mulJT for a γ that is zero on every row but those of the
// constraints cons (increasing; the stick prediction's γ − γ̃): on the
// packed J it runs over their blocks only, with mulJT's bits
// (packedJ.mulJTOf).
func mulJTOf(p *solver.Problem, sys newtonSystem, cons []int, gamma, out []float64) {
	d, ok := sys.(*denseSystem)
	if !ok || d.nzFor != p {
		p.MulJT(gamma, out)
		return
	}
	d.pk.mulJTOf(p, cons, gamma, out, p.NV)
}
