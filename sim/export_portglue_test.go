package sim

import (
	"fmt"
	"math"

	"github.com/stiction-sim/stiction/contact"
	"github.com/stiction-sim/stiction/multibody"
	"github.com/stiction-sim/stiction/solver"
	"github.com/stiction-sim/stiction/spatial"
)

// PyramidRowsCheck checks the pyramid problem of s's last mujoco-euler
// step, taken from q0, v0, against a reference build: its dynamics are
// its source's to the bit (dynamicsOf, which pgsFactor trusts without
// comparing), every pyramid contact's MuJoCo tangents are mujocoTangents'
// at (q0, v0) (which sameManifold reuses across a manifold), and its edges
// (R, v̂, bounds, J blocks) have the bits that pyramidEdgesRef, the
// edges' build before appendEdgeRows and edgeRow (one
// solver.Problem.AddConstraint per edge), gives them. It returns the
// number of pyramid contacts checked.
func PyramidRowsCheck(s *Simulator, q0, v0 []float64) (int, error) {
	pw, w := &s.ws.mj.staged.pyr, &s.ws
	if pw.src != &w.problem || !w.mj.rows {
		return 0, nil
	}
	if d := s.dynamicsOf(&pw.p); d != pw.src || !sameDynamics(&pw.p, pw.src) {
		return 0, fmt.Errorf("the pyramid problem's dynamics are not its source's")
	}
	p, pp := pw.src, &pw.p
	var ref solver.Problem
	ref.Reset(p.NV)
	ref.Cliques = append(ref.Cliques, p.Cliques...)
	pj := pyramidJStart(pp, nil)
	kin := multibody.NewWorkspace(s.Model)
	kin.Update(q0, v0)
	n := 0
	for i := range w.pairs {
		blk := pw.blocks[i]
		if blk.edges <= 0 {
			continue
		}
		var dirs [3]spatial.Vec3 // the contact's frame formed again
		dirs[0], dirs[1] = spatial.Orthonormal(w.pairs[i].Normal)
		var rot [2][2]float64
		if mujocoTangents(s.Model, kin, &w.pairs[i], &dirs, &rot); rot != blk.rot {
			return n, fmt.Errorf("contact %d: MuJoCo's tangents %v, want %v", i, blk.rot, rot)
		}
		k0 := s.pyramidEdgesRef(p, &ref, &w.pairs[i], &w.mj.staged.mats0[i].mat, &blk, i, pw.jstart)
		rj := pyramidJStart(&ref, nil)
		for e := range blk.edges {
			if err := sameRows(&ref, pp, k0+e, blk.first+e, rj, pj); err != nil {
				return n, fmt.Errorf("contact %d, edge %d: %w", i, e, err)
			}
		}
		n++
	}
	return n, nil
}

// sameRows reports how block a of p differs from block b of q, bit for
// bit (nil: it does not), with their J blocks' starts ja and jb
// (pyramidJStart).
func sameRows(p, q *solver.Problem, a, b int, ja, jb []int) error {
	ca, cb := p.Constraints[a], q.Constraints[b]
	if ca.Kind != cb.Kind || ca.Size != cb.Size || ja[a+1]-ja[a] != jb[b+1]-jb[b] {
		return fmt.Errorf("kind, size or J blocks differ")
	}
	bits := func(x, y []float64) bool {
		for k := range x {
			if math.Float64bits(x[k]) != math.Float64bits(y[k]) {
				return false
			}
		}
		return len(x) == len(y)
	}
	if !bits(p.R[ca.Row:ca.Row+ca.Size], q.R[cb.Row:cb.Row+cb.Size]) || !bits(p.VHat[ca.Row:ca.Row+ca.Size], q.VHat[cb.Row:cb.Row+cb.Size]) {
		return fmt.Errorf("R or v̂ differ")
	}
	if !bits(p.Par(a), q.Par(b)) {
		return fmt.Errorf("parameters differ")
	}
	for k := range ja[a+1] - ja[a] {
		if p.JBlock[ja[a]+k].Clique != q.JBlock[jb[b]+k].Clique || !bits(p.JBlockData(ja[a]+k), q.JBlockData(jb[b]+k)) {
			return fmt.Errorf("J block %d differs", k)
		}
	}
	return nil
}

// pyramidEdgesRef is pyramidEdges as it was built before appendEdgeRows
// and edgeRow: one AddConstraint per edge, its v̂ and J computed in
// place.
func (sim *Simulator) pyramidEdgesRef(p, pp *solver.Problem, pr *contact.Pair, mat *contact.Material, blk *pyramidBlock, i int, js []int) int {
	st, dt := &sim.ws.mj.staged, sim.cfg.DT
	d, r, bd, ks := sim.pairImpedance(i, mat, pr.Phi)
	if blk.edges > 1 {
		mu := blk.mu[0]
		if mat.SlipWeight > 0 {
			r = 2 * mu * mu * r * (1 + mu*mu) / sim.impRatio()
		} else {
			r = 2 * mu * mu * mjMinVal / sim.impRatio()
		}
	}
	rn, rows := p.Constraints[i].Row+2, frictionRows(p, i, blk)
	first := len(pp.Constraints)
	for e := range blk.edges {
		coef := edgeCoefficients(blk, e)
		k := pp.AddConstraint(solver.Interval, 1, 0, math.Inf(1))
		ve := st.vc[rn]
		for j, c := range coef {
			if c != 0 && rows[j] >= 0 {
				ve += c * st.vc[rows[j]]
			}
		}
		pp.R[pp.Constraints[k].Row] = r
		pp.VHat[pp.Constraints[k].Row] = (1-dt*bd)*ve - dt*ks*d*pr.Phi
		for j := js[i]; j < js[i+1]; j++ {
			q := p.JBlock[j].Clique
			n := p.Cliques[q].Size
			src := p.JBlockData(j)
			dst := pp.AddJBlock(k, q)
			for c := range n {
				dst[c] = src[2*n+c] + coef[0]*src[c] + coef[1]*src[n+c]
			}
			if coef[2] != 0 {
				addAngularRows(dst, p, js, blk.spin, q, coef[2], 0)
			}
			if coef[3] != 0 || coef[4] != 0 {
				addAngularRows(dst, p, js, blk.roll, q, coef[3], coef[4])
			}
		}
	}
	return first
}
