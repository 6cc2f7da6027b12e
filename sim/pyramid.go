package sim

import (
	"math"
	"slices"

	"github.com/stiction-sim/stiction/contact"
	"github.com/stiction-sim/stiction/geometry"
	"github.com/stiction-sim/stiction/multibody"
	"github.com/stiction-sim/stiction/solver"
	"github.com/stiction-sim/stiction/spatial"
)

// pyramidWork is the scratch memory of the pyramidal friction cone
// (contact.Pyramidal) of MuJoCo's soft contacts at the rk4 stages: the
// problem with each such contact's pyramid edges in place of its three
// rows, its solution, and how each block of the original problem maps to
// it.
type pyramidWork struct {
	p      solver.Problem
	res    solver.Result
	blocks []pyramidBlock  // per constraint block of the original problem
	jstart []int           // per block of the original problem, its first J block (and one past the last)
	ell    []bool          // per step pair, whether it is MuJoCo's elliptic block (stepRowMarks)
	coef   [10][5]float64  // pyramidEdges' edge coefficients, of the contact last built
	src    *solver.Problem // the problem whose dynamics p copied (startProblem)
}

// dynamicsOf returns the problem whose cliques and A are p's, bit for bit,
// by construction: the problem the pyramid problem copied them from
// (startProblem) when p is the pyramid problem and that is the step's or
// the rk4 stage's problem (not one of a copied Simulator's), else p.
// pgsFactor then finds its factor without comparing A entry by entry
// (sameDynamics: 1% of dm humanoid's step).
func (sim *Simulator) dynamicsOf(p *solver.Problem) *solver.Problem {
	w := &sim.ws
	pw := &w.mj.staged.pyr
	if p == &pw.p && (pw.src == &w.problem || pw.src == &w.mj.stage) {
		return pw.src
	}
	return p
}

// impRatio returns MuJoCo's impratio of the contact parameters
// (contact.Params.ImpRatio; 1 when unset). MuJoCo 2.2.2 divides its
// pyramid edges' diagApprox, and so their R, by it (measured with
// libmujoco 2.2.2: efc_diagApprox 0.625 at impratio 1, 0.3125 at 2 for
// μ = 0.5 and w = 1), the edges staying J_n ± μ J_t'.
func (sim *Simulator) impRatio() float64 {
	if r := sim.cfg.Contact.ImpRatio; r > 0 {
		return r
	}
	return 1
}

// pyramidBlock says where constraint block i of the original problem went
// in the pyramid problem: edges = 0, copied as block first; edges < 0,
// absorbed into its contact's edges (a spin or rolling block of a pyramid
// contact of condim 4 or 6); else the contact's edges are blocks first …
// first+edges−1 (one Interval row each), in MuJoCo's order (mj_instantiateContact:
// one pair per friction dimension k = 1 … condim − 1) J_n + μ_k J_k,
// J_n − μ_k J_k over J_1, J_2 = J_t1', J_t2' (sliding), J_3 = the
// angular row about n (torsional), J_4, J_5 = the angular rows about t1',
// t2' (rolling), or the lone normal row of a frictionless contact, where
// t1', t2' are MuJoCo's contact tangents: tj' = rot[j][0] t1 + rot[j][1] t2
// in the contact's own frame (t1, t2, n). spin and roll are the
// contact's spin and rolling blocks in the original problem (−1: none,
// their rows zero), mu its coefficients μ_1 … μ_5 (MuJoCo's
// contact friction: sliding twice, torsional, rolling twice).
type pyramidBlock struct {
	first, edges int
	mu           [5]float64
	rot          [2][2]float64
	spin, roll   int
}

// solvePyramid solves the stage problem p, whose first len(pairs) blocks
// are the pairs' contacts (softRows applied, st.vc = J vs), from the warm
// start vs into res, with MuJoCo's pyramidal friction cone for the pairs
// of MuJoCo's soft material when the contact parameters ask for it
// (contact.Params.Pyramidal): the solver is then given the pyramid
// problem (pyramidProblem), and res holds its velocities and, per
// contact, the impulses decoded back onto the contact's rows (t1, t2, n)
// (pyramidDecode), so that reports and the contact memory see the same
// layout; with velocitiesOnly (an rk4 stage after the first, which uses
// only the velocities) it holds res.V alone, its impulses and J v left as
// they were. It reports false, having solved nothing, when no pair has the
// pyramid: the caller solves p itself.
func (sim *Simulator) solvePyramid(p *solver.Problem, pairs []contact.Pair, mats []pairMaterial, asm *contact.Assembler, kin *multibody.Workspace, vs []float64, res *solver.Result, velocitiesOnly bool) (bool, error) {
	if !sim.cfg.Contact.Pyramidal() { // a pointer receiver: no copy of Params
		return sim.solveEllipticN(p, pairs, mats, asm, kin, vs, res, velocitiesOnly) // condim 4 and 6 (elliptic.go)
	}
	pw := &sim.ws.mj.staged.pyr
	if !sim.pyramidProblem(p, pairs, mats, asm, kin, pw) {
		return false, nil
	}
	if err := sim.solvePyramidProblem(pw, pairs, kin, vs, velocitiesOnly); err != nil {
		return true, err
	}
	if velocitiesOnly {
		res.V = solver.Resize(res.V, p.NV)
		copy(res.V, pw.res.V)
		return true, nil
	}
	pyramidDecode(p, pw, res)
	return true, nil
}

// pyramidProblem builds pw.p from p: the same dynamics (cliques, A, v*,
// diag M), every block copied but the contacts of MuJoCo's soft material
// (with their spin and rolling blocks, found through asm), which become
// MuJoCo 2.2.2's pyramid (engine_core_constraint.c,
// mj_instantiateContact): the 2(condim − 1) one-sided rows
// J_e = J_n ± μ_k J_k (solver.Interval, [0, ∞); pyramidBlock), for μ = 0
// (condim 1) the normal row alone. It reports whether any contact became
// a pyramid.
func (sim *Simulator) pyramidProblem(p *solver.Problem, pairs []contact.Pair, mats []pairMaterial, asm *contact.Assembler, kin *multibody.Workspace, pw *pyramidWork) bool {
	pw.resetBlocks(len(p.Constraints))
	found := false
	for i := range pairs {
		if !pyramidPair(&mats[i]) {
			continue
		}
		spin, roll := asm.SpinBlock(i), asm.RollingBlock(i)
		pyramidContact(&pw.blocks[i], &mats[i].mat, spin, roll)
		if found && sameManifold(&pairs[i-1], &pairs[i]) && pw.blocks[i-1].edges > 0 {
			pw.blocks[i].rot = pw.blocks[i-1].rot // mujocoTangents of the same geometries and normal
		} else {
			mujocoTangents(sim.Model, kin, &pairs[i], asm.Frame(i, &pairs[i]), &pw.blocks[i].rot)
		}
		found = true
		// Its spin and rolling blocks, absorbed into its edges: they
		// follow every contact block (contact.Assembler), so that this
		// loop does not write them again.
		if spin >= 0 {
			pw.blocks[spin].edges = -1
		}
		if roll >= 0 {
			pw.blocks[roll].edges = -1
		}
	}
	if !found {
		return false
	}
	pp := pw.startProblem(p)
	for i := range pw.blocks {
		if blk := &pw.blocks[i]; blk.edges > 0 {
			blk.first = sim.pyramidEdges(p, pp, &pairs[i], &mats[i].mat, blk, i, pw.jstart)
		} else if blk.edges == 0 { // the limits and other rows after the contacts
			blk.first = copyBlock(p, pp, i, pw.jstart[i], pw.jstart[i+1])
		}
	}
	return true
}

// resetBlocks sets pw.blocks to n zero blocks (every block copied).
func (pw *pyramidWork) resetBlocks(n int) {
	if cap(pw.blocks) < n {
		pw.growBlocks(n)
	}
	pw.blocks = pw.blocks[:n]
	clear(pw.blocks)
}

// growBlocks gives pw.blocks room for n blocks (resetBlocks, out of its
// line: the allocation sat between pyramidProblem's hot blocks).
//
//go:noinline
func (pw *pyramidWork) growBlocks(n int) {
	pw.blocks = make([]pyramidBlock, n, 2*n)
}

// startProblem sets pw.jstart to p's (pyramidJStart) and resets pw.p to
// p's dynamics (cliques, A, v*, diag M) without blocks, keeps p as their
// source (pw.src, dynamicsOf), and returns it. The cliques, A, v* and
// diag M are p's own slices, not copies (MuJoCo's solver reads d->qM in
// place; the cliques' copy, through the write barrier of their Parent
// slices, was 3 lines and 51 instructions of half_cheetah's step): no one
// writes them while pw.p is solved (the solvers, pgsFactor and the
// statistics read a problem's dynamics; linearize, vstarAt and the rk4
// stages write the source's before its rows are made), and each slice is
// cut to its length (a full slice expression), so that an append to pw.p's
// reallocates rather than write the source's storage; the next start
// replaces them without writing them. The copy it replaces wrote 10–12 cache lines a step on the planar
// robots that the step's data cache then held twice.
func (pw *pyramidWork) startProblem(p *solver.Problem) *solver.Problem {
	pw.jstart = pyramidJStart(p, pw.jstart)
	pw.src = p
	pp := &pw.p
	// solver.Problem.Reset's rows, in line; its dynamics (Resize of v*
	// and diag M, a call and two stores of whole slices) are p's below.
	pp.NV, pp.NR = p.NV, 0
	pp.Constraints, pp.JBlock, pp.JData = pp.Constraints[:0], pp.JBlock[:0], pp.JData[:0]
	pp.VHat, pp.R, pp.Params = pp.VHat[:0], pp.R[:0], pp.Params[:0]
	nv, nc := len(p.VStar), len(p.Cliques)
	pp.Cliques, pp.A, pp.VStar, pp.MDiag = p.Cliques[:nc:nc], p.A[:len(p.A):len(p.A)], p.VStar[:nv:nv], p.MDiag[:nv:nv]
	return pp
}

// pyramidContact sets *blk to the pyramid of a contact of material mat, whose
// spin and rolling blocks are spin and roll (−1: none): MuJoCo's condim
// (mat.Condim; for a material without one, 6 with rolling friction, 4
// with spin friction, else 3) gives 2(condim − 1) edges with the
// coefficients μ_k of mj_contactParam (friction[0…4] = sliding, sliding,
// torsional, rolling, rolling), and a contact without sliding friction
// (condim 1) the normal row alone. *blk must be zero (resetBlocks): it
// writes only these fields in place (the returned copy was two
// instruction-cache lines of pyramidProblem, and zeroing the 104-byte
// block again one more), first and rot being the caller's to set.
func pyramidContact(blk *pyramidBlock, mat *contact.Material, spin, roll int) {
	blk.edges, blk.spin, blk.roll = 1, spin, roll
	f, sp, r := mat.Friction, mat.Spin, mat.Rolling // read first: a literal of mat's fields was built on the stack and copied
	blk.mu = [5]float64{f, f, sp, r, r}
	condim := mat.Condim
	if condim == 0 {
		condim = 3
		if r > 0 {
			condim = 6
		} else if sp > 0 {
			condim = 4
		}
	}
	if f > 0 && condim >= 3 {
		blk.edges = 2 * (condim - 1)
	}
}

// pyramidJStart returns, in js, the first J block of each constraint
// block of p and one past the last (p's J blocks are sorted by
// constraint).
func pyramidJStart(p *solver.Problem, js []int) []int {
	js = js[:0]
	b := 0
	for i := range p.Constraints {
		js = append(js, b)
		for b < len(p.JBlock) && p.JBlock[b].Constraint == i {
			b++
		}
	}
	return append(js, b)
}

// pyramidPair reports whether pyramidProblem makes the contact of a pair
// of material pm a pyramid: MuJoCo's soft material (mujocoSoft), of any
// condim. It does not look at contact.Params.Pyramidal.
func pyramidPair(pm *pairMaterial) bool {
	return pm.soft
}

// markPyramids sets st.geo, per stage pair, to whether solvePyramid will
// make its contact a pyramid, whose rows replace the contact assembler's
// (contact.Assembler.Geometric: the stage's assembler then builds only
// its Jacobian), or to nil when the cone is not the pyramid.
func (sim *Simulator) markPyramids(st *rk4StageWork) {
	if !sim.cfg.Contact.Pyramidal() { // a pointer receiver: no copy of Params
		st.asm.Geometric = sim.markElliptic(st.mats, &st.geo) // MuJoCo's elliptic blocks (elliptic.go)
		return
	}
	st.geo = st.geo[:0]
	for i := range st.pairs {
		st.geo = append(st.geo, pyramidPair(&st.mats[i]))
	}
	st.asm.Geometric = st.geo
}

// copyBlock appends constraint block i of p, whose J blocks are
// p.JBlock[b:end], to pp unchanged and returns its index there. It
// appends through solver.Problem.AddConstraint and AddJBlockFrom, which
// the contact assembler runs at every step, so that the copy adds few
// instruction-cache lines of its own (copyRun, which copied a run of
// blocks with one append per slice, was 43 lines of dm hopper's step for
// its one or two limit blocks).
func copyBlock(p, pp *solver.Problem, i, b, end int) int {
	c := &p.Constraints[i]
	k := pp.AddConstraint(c.Kind, c.Size, p.Par(i)...)
	row := pp.Constraints[k].Row
	copy(pp.VHat[row:row+c.Size], p.VHat[c.Row:c.Row+c.Size])
	copy(pp.R[row:row+c.Size], p.R[c.Row:c.Row+c.Size])
	for ; b < end; b++ {
		pp.AddJBlockFrom(k, p.JBlock[b].Clique, p.JBlockData(b))
	}
	return k
}

// pyramidEdges appends the pyramid edges of the contact pr, of material
// mat, a block of p (rows t1, t2, n; its spin and rolling blocks blk.spin
// and blk.roll; J blocks of block c are p.JBlock[js[c]:js[c+1]]; st.vc
// their J v_i), to pp and returns the index of the first. With MuJoCo
// 2.2.2's rules (mj_diagApprox, mj_makeImpedance, mj_referenceConstraint;
// r its impratio, contact.Params.ImpRatio):
//
//	R_e = Rpy = 2μ² (1 − d)/d · (1 + μ²) w / r   (every edge),
//	R   = (1 − d)/d · w                      (μ = 0: the normal row),
//	v̂_e = (1 − δt B) J_e v_i − δt K d φ,
//
// μ the sliding friction μ_1, d = d(|φ|) solimp's impedance at the
// contact's φ (MuJoCo's dist less its margin − gap), w the pair's
// translational body_invweight0 sum (SlipWeight), K its solref stiffness
// (SlipStiffness) and B = (1 + μ²)/SlipTime its damping (every edge takes
// the contact's K and B: MuJoCo zeroes K only for the elliptic cone's
// friction rows). mj_makeImpedance gives every edge the R of the first,
// R_0 = (1 − d)/d · diagApprox_0 with diagApprox_0 = (1 + μ_1²) w, then
// R_0 ← 2 μ_1² R_0 / r: the torsional and rolling edges' diagApprox
// (w + μ_k² w_rot, with the rotational body_invweight0) is overwritten
// and never reaches R. SAP's problem for γ = δt f with these R and v̂ is
// MuJoCo's for f, scaled by δt² (softRows).
func (sim *Simulator) pyramidEdges(p, pp *solver.Problem, pr *contact.Pair, mat *contact.Material, blk *pyramidBlock, i int, js []int) int {
	d, r, bd, ks := sim.pairImpedance(i, mat, pr.Phi) // softRows' (softImpedance)
	if blk.edges > 1 {
		mu := blk.mu[0]
		if mat.SlipWeight > 0 {
			r = 2 * mu * mu * r * (1 + mu*mu) / sim.impRatio()
		} else { // R_0 = mjMINVAL, mj_makeImpedance's floor (contact.Material.WeightSet)
			r = 2 * mu * mu * mjMinVal / sim.impRatio()
		}
	}
	// Per edge (at most 2(6 − 1)), J_e = J_n + Σ_j coef[e][j] J_j over the
	// rows (t1, t2, spin, rolling t1, t2): kept in pw, not a local that
	// each call zeroed (400 bytes, 46 instructions). Only the entries
	// the edges read are set: coef[:blk.edges], and of each row 0 and 1
	// alone without angular (entries 2–4 stale, never read).
	coef := &sim.ws.mj.staged.pyr.coef
	angular := false // whether an edge has spin or rolling rows (condim 4, 6)
	if blk.edges <= 4 {
		slidingCoefficients(blk, coef) // condim 1 and 3: no spin or rolling term
	} else {
		for e := range blk.edges {
			coef[e] = edgeCoefficients(blk, e)
			angular = angular || coef[e][2] != 0 || coef[e][3] != 0 || coef[e][4] != 0
		}
	}
	first := appendEdgeRows(pp, blk.edges)
	sim.edgeRows(pp, p, pr, blk, i, coef[:blk.edges], angular, edgeImpedance{d: d, r: r, b: bd, k: ks}, first)
	jb := edgeJ(p, pp, js[i], js[i+1], first, coef[:blk.edges])
	if !angular {
		return first
	}
	for k := jb; k < len(pp.JBlock); k++ { // the spin and rolling terms, added to each edge's sliding part
		e, q := pp.JBlock[k].Constraint-first, pp.JBlock[k].Clique
		dst := pp.JBlockData(k)
		if coef[e][2] != 0 {
			addAngularRows(dst, p, js, blk.spin, q, coef[e][2], 0)
		}
		if coef[e][3] != 0 || coef[e][4] != 0 {
			addAngularRows(dst, p, js, blk.roll, q, coef[e][3], coef[e][4])
		}
	}
	return first
}

// edgeJ appends to pp the J blocks of a contact's pyramid edges first …
// first+len(coef)−1, from the contact's J blocks b0 … b1−1 of p (rows t1,
// t2, n each), and returns the index of the first: edge after edge, each
// edge's blocks in p's order, as one solver.Problem.AddJBlock per edge and
// block would lay them out, and each the sliding part of the edge's row,
// J_n + coef[e][0] J_t1 + coef[e][1] J_t2 (edgeRow), the contact's rows
// read once per column for all four edges of a condim-3 contact
// (edgeRows4: the same sums).
func edgeJ(p, pp *solver.Problem, b0, b1, first int, coef [][5]float64) int {
	// The contact's J blocks, at most two (its two bodies' trees: the
	// contact assembler's): their columns first, for the edges' stride.
	var n [2]int
	nb, ntot := b1-b0, 0
	for k := range nb {
		n[k] = p.Cliques[p.JBlock[b0+k].Clique].Size
		ntot += n[k]
	}
	edges := len(coef)
	jb, off := len(pp.JBlock), len(pp.JData)
	if cap(pp.JBlock) < jb+edges*nb || cap(pp.JData) < off+edges*ntot {
		growEdgeJ(pp, edges*nb, edges*ntot)
	}
	pp.JBlock, pp.JData = pp.JBlock[:jb+edges*nb], pp.JData[:off+edges*ntot]
	blocks := pp.JBlock[jb:]
	// Block by block of p, its edges' blocks (edge e's at e·nb + k, its
	// data at off + e·ntot) and then their rows: one loop over the
	// blocks, each edge a stride on (the blocks' loop inside the edges'
	// loop kept eight integers live and spilled them).
	for k := range nb {
		src := &p.JBlock[b0+k]
		q, nk, c, o := src.Clique, n[k], first, off
		for j := k; j < len(blocks); j += nb {
			blocks[j] = solver.JBlock{Constraint: c, Clique: q, Off: o}
			c++
			o += ntot
		}
		rows := p.JData[src.Off:][:3*nk] // rows t1, t2, n
		if edges == 4 {
			edgeRows4(pp.JData[off:], ntot, rows, nk, coef)
		} else {
			edgeRowsN(pp.JData[off:], ntot, rows, nk, coef)
		}
		off += nk
	}
	return jb
}

// growEdgeJ gives pp room for nb more J blocks and nd more entries of
// their data (edgeJ; out of line: the room grows on a simulation's first
// steps, and the resizes' growth and write barriers sat between edgeJ's
// hot blocks).
//
//go:noinline
func growEdgeJ(pp *solver.Problem, nb, nd int) {
	pp.JBlock, pp.JData = slices.Grow(pp.JBlock, nb), slices.Grow(pp.JData, nd)
}

// edgeRowsN is edgeRows4 for a contact whose edges are not the four of
// condim 3: the sliding part of edge e (edgeRow) at d[e·ntot:]. It is out
// of line, a path the robots' condim-3 contacts never take.
//
//go:noinline
func edgeRowsN(d []float64, ntot int, src []float64, n int, coef [][5]float64) {
	t1, t2, nr := src[:n], src[n:2*n], src[2*n:3*n]
	for e := range coef {
		edgeRow(d[e*ntot:e*ntot+n], t1, t2, nr, coef[e][0], coef[e][1])
	}
}

// edgeRows4 sets d[e·ntot:e·ntot+n], e = 0 … 3, to the sliding parts of
// the four edges of a condim-3 pyramid contact on one clique of n
// columns, J_n + c_e0 J_t1 + c_e1 J_t2 with c_e = coef[e] and src the
// contact's rows (t1, t2, n) there (edgeRow's sums, each of the three
// rows read once). It slices its rows itself: edgeJ passing eight slices
// spilled most of them through the stack.
func edgeRows4(d []float64, ntot int, src []float64, n int, coef [][5]float64) {
	nr := src[2*n : 3*n]
	t1, t2, d0 := src[:len(nr)], src[n:][:len(nr)], d[:len(nr)]
	d1, d2, d3 := d[ntot:][:len(nr)], d[2*ntot:][:len(nr)], d[3*ntot:][:len(nr)]
	a0, b0, a1, b1 := coef[0][0], coef[0][1], coef[1][0], coef[1][1]
	a2, b2, a3, b3 := coef[2][0], coef[2][1], coef[3][0], coef[3][1]
	for c, x := range nr {
		y, z := t1[c], t2[c]
		d0[c] = x + a0*y + b0*z
		d1[c] = x + a1*y + b1*z
		d2[c] = x + a2*y + b2*z
		d3[c] = x + a3*y + b3*z
	}
}

// slidingCoefficients sets entries 0 and 1 of coef[e] to
// edgeCoefficients(blk, e)'s for the edges of a pyramid contact without
// spin or rolling edges (blk.edges ≤ 4: condim 1 and 3), whose entries
// 2–4, 0 there, it leaves as they are (pyramidEdges reads them only for
// angular edges): the same products in line.
func slidingCoefficients(blk *pyramidBlock, coef *[10][5]float64) {
	if blk.edges == 1 {
		coef[0][0], coef[0][1] = 0, 0 // the lone normal row
		return
	}
	// Edges 2k and 2k + 1 of direction k take ±μ_k, the loop's s and −s,
	// unrolled (the loop's e/2 and e%2 were ~120 instructions a contact).
	m, r := blk.mu[0], &blk.rot[0]
	coef[0][0], coef[0][1] = m*r[0], m*r[1]
	m = -m
	coef[1][0], coef[1][1] = m*r[0], m*r[1]
	if blk.edges == 4 {
		m, r = blk.mu[1], &blk.rot[1]
		coef[2][0], coef[2][1] = m*r[0], m*r[1]
		m = -m
		coef[3][0], coef[3][1] = m*r[0], m*r[1]
	}
}

// edgeImpedance is what a pyramid contact's edges share (pyramidEdges):
// solimp's impedance d at its φ, the edges' R, and its solref damping B
// and stiffness K.
type edgeImpedance struct{ d, r, b, k float64 }

// appendEdgeRows appends n one-row solver.Interval blocks on [0, ∞) to
// pp, as n calls of solver.Problem.AddConstraint would (their R and v̂
// left for edgeRows to set), and returns the index of the first.
func appendEdgeRows(pp *solver.Problem, n int) int {
	first := len(pp.Constraints)
	for range n {
		pp.Constraints = append(pp.Constraints, solver.Constraint{Kind: solver.Interval, Row: pp.NR, Size: 1, Par: len(pp.Params)})
		pp.NR++
		pp.Params = append(pp.Params, 0, math.Inf(1))
	}
	pp.VHat = solver.Resize(pp.VHat, pp.NR)
	pp.R = solver.Resize(pp.R, pp.NR)
	return first
}

// edgeRows sets R and v̂ of the pyramid edges first … of contact i of p
// (pair pr, block blk, edge coefficients coef, impedance im), with
// st.vc = J v_i over p's rows: R_e = im.r and
// v̂_e = (1 − δt B) J_e v_i − δt K d φ, J_e v_i summed in the order of
// the rows (n, then t1, t2, spin, rolling t1, t2; without angular, no
// edge has a spin or rolling term, and the sum stops after t2).
func (sim *Simulator) edgeRows(pp, p *solver.Problem, pr *contact.Pair, blk *pyramidBlock, i int, coef [][5]float64, angular bool, im edgeImpedance, first int) {
	if angular {
		sim.edgeRowsAngular(pp, p, pr, blk, i, coef, im, first)
		return
	}
	// Rows t1, t2, n of contact i read in place and each edge's
	// coefficients named (the general loop's row table and its checks of
	// rows that a contact without angular rows always has, were half of
	// its instructions); the edges' rows follow one another from first's
	// (appendEdgeRows); 1 − δt B and δt K d φ are the same products as
	// the general form's, taken once.
	vc, dt := sim.ws.mj.staged.vc, sim.cfg.DT
	row := p.Constraints[i].Row
	v := vc[row : row+3]
	a, kd := 1-dt*im.b, dt*im.k*im.d*pr.Phi
	r0 := pp.Constraints[first].Row
	rs, vh := pp.R[r0:r0+len(coef)], pp.VHat[r0:r0+len(coef)]
	for e := range coef {
		ve := v[2]
		if c := coef[e][0]; c != 0 {
			ve += c * v[0]
		}
		if c := coef[e][1]; c != 0 {
			ve += c * v[1]
		}
		rs[e] = im.r
		vh[e] = a*ve - kd
	}
}

// edgeRowsAngular is edgeRows for a contact with spin or rolling rows
// (condim 4, 6), out of its line: J_e v_i summed over all five friction
// rows it has.
//
//go:noinline
func (sim *Simulator) edgeRowsAngular(pp, p *solver.Problem, pr *contact.Pair, blk *pyramidBlock, i int, coef [][5]float64, im edgeImpedance, first int) {
	vc, dt := sim.ws.mj.staged.vc, sim.cfg.DT
	rn, rows := p.Constraints[i].Row+2, frictionRows(p, i, blk)
	for e := range coef {
		ve := vc[rn]
		for j, c := range coef[e][:5] {
			if c != 0 && rows[j] >= 0 {
				ve += c * vc[rows[j]]
			}
		}
		row := pp.Constraints[first+e].Row
		pp.R[row] = im.r
		pp.VHat[row] = (1-dt*im.b)*ve - dt*im.k*im.d*pr.Phi
	}
}

// edgeRow sets dst to the sliding part of a pyramid edge's row on one
// clique, J_n + c0 J_t1 + c1 J_t2, from the contact's rows t1, t2 and n
// there (all of dst's length).
func edgeRow(dst, t1, t2, n []float64, c0, c1 float64) {
	t1, t2, n = t1[:len(dst)], t2[:len(dst)], n[:len(dst)]
	for c := range dst {
		dst[c] = n[c] + c0*t1[c] + c1*t2[c]
	}
}

// frictionRows returns the rows of p of the friction directions of
// pyramid contact i (block blk): its tangents t1, t2, its spin row and its
// rolling rows t1, t2 (−1 for a block it lacks).
func frictionRows(p *solver.Problem, i int, blk *pyramidBlock) [5]int {
	row := p.Constraints[i].Row
	rows := [5]int{row, row + 1, -1, -1, -1}
	if blk.spin >= 0 {
		rows[2] = p.Constraints[blk.spin].Row
	}
	if blk.roll >= 0 {
		rows[3] = p.Constraints[blk.roll].Row
		rows[4] = rows[3] + 1
	}
	return rows
}

// addAngularRows adds c0 times the first row and c1 times the second
// (when c1 ≠ 0) of block c of p on clique q, if it has a J block there, to
// dst (one row of clique q's columns).
func addAngularRows(dst []float64, p *solver.Problem, js []int, c, q int, c0, c1 float64) {
	if c < 0 {
		return
	}
	for j := js[c]; j < js[c+1]; j++ {
		if p.JBlock[j].Clique != q {
			continue
		}
		src, n := p.JBlockData(j), len(dst)
		for k := range n {
			dst[k] += c0 * src[k]
		}
		if c1 != 0 {
			for k := range n {
				dst[k] += c1 * src[n+k]
			}
		}
	}
}

// edgeCoefficients returns the coefficients of the rows (t1, t2, spin,
// rolling t1, rolling t2) in pyramid edge e of blk (J_e = J_n + Σ c_j J_j;
// mj_instantiateContact): ±μ_k times MuJoCo's direction k = e/2 + 1 —
// the tangent t_k' for k = 1, 2, the normal (spin) for k = 3, the
// rolling axis t_{k−3}' for k = 4, 5 — in the contact's frame (all 0 for
// the lone normal row of a frictionless contact).
func edgeCoefficients(blk *pyramidBlock, e int) [5]float64 {
	var c [5]float64
	if blk.edges == 1 {
		return c
	}
	k := e / 2
	s := blk.mu[k]
	if e%2 == 1 {
		s = -s
	}
	switch k {
	case 0, 1:
		c[0], c[1] = s*blk.rot[k][0], s*blk.rot[k][1]
	case 2:
		c[2] = s
	default:
		c[3], c[4] = s*blk.rot[k-3][0], s*blk.rot[k-3][1]
	}
	return c
}

// startDecode begins res, the solution of p, from pr, the solution of a
// problem built from p with the same velocities (pyramidDecode,
// ellipticNDecode): its velocities and statistics pr's, its impulses and
// contact velocities sized for p.
func startDecode(p *solver.Problem, pr, res *solver.Result) {
	if len(res.V) != p.NV || len(res.Gamma) != p.NR || len(res.VC) != p.NR {
		sizeDecode(p, res)
	}
	copy(res.V, pr.V)
	res.Stats = pr.Stats
}

// sizeDecode sizes res's velocities and impulses for p (startDecode; out
// of line: the sizes change on few steps, and the three resizes' growth
// and write barriers sat between its hot blocks).
//
//go:noinline
func sizeDecode(p *solver.Problem, res *solver.Result) {
	res.V = solver.Resize(res.V, p.NV)
	res.Gamma = solver.Resize(res.Gamma, p.NR)
	res.VC = solver.Resize(res.VC, p.NR)
}

// pyramidDecode sets res, the solution of p, from pw.res, the solution of
// the pyramid problem built from p: the same velocities, every copied
// block's impulses, and per pyramid contact MuJoCo's decoding
// (mju_decodePyramid): f_n = Σ_e f_e, f_k = μ_k (f_{2k} − f_{2k+1}) along
// direction k, the sliding and rolling ones rotated from MuJoCo's tangents
// onto the contact's (t1, t2), onto its own rows and its spin and rolling
// blocks; VC = J v (pyramidVC).
func pyramidDecode(p *solver.Problem, pw *pyramidWork, res *solver.Result) {
	pr, pp := &pw.res, &pw.p
	startDecode(p, pr, res)
	vcCopied := pyramidVC(p, pw, res)
	for i := range pw.blocks {
		blk := &pw.blocks[i]            // in place: the range's copy of each 104-byte block was three lines
		if blk.edges != 0 && vcCopied { // a contact's rows, or its spin or rolling block's: J v (pyramidVC)
			p.MulJBlocks(pw.jstart[i], pw.jstart[i+1], res.V, res.VC)
		}
		if blk.edges < 0 {
			continue // set with its contact's
		}
		c := &p.Constraints[i]
		from := pp.Constraints[blk.first].Row
		switch {
		case blk.edges == 4 && blk.spin < 0 && blk.roll < 0:
			// A condim-3 contact: decodeEdges' loops unrolled, the same
			// sums from 0 in the same order.
			f, g := pr.Gamma[from:][:4], res.Gamma[c.Row:][:3]
			fk0, fk1 := blk.mu[0]*(f[0]-f[1]), blk.mu[1]*(f[2]-f[3])
			g[2] = 0 + f[0] + f[1] + f[2] + f[3]
			g[0] = 0 + fk0*blk.rot[0][0] + fk1*blk.rot[1][0]
			g[1] = 0 + fk0*blk.rot[0][1] + fk1*blk.rot[1][1]
		case blk.edges == 0:
			copy(res.Gamma[c.Row:c.Row+c.Size], pr.Gamma[from:from+c.Size])
			if vcCopied {
				copy(res.VC[c.Row:c.Row+c.Size], pr.VC[from:from+c.Size])
			}
		default:
			decodeEdges(p, blk, pr.Gamma[from:from+blk.edges], res.Gamma, c.Row)
		}
	}
}

// decodeEdges sets the impulses of pyramid contact blk of p, whose rows
// begin at row of g, and of its spin and rolling blocks, from its edges'
// impulses f (pyramidDecode): f_n = Σ_e f_e, f_k = μ_k (f_{2k} − f_{2k+1}),
// the sliding and rolling ones rotated onto the contact's (t1, t2). Out of
// line: the robots' contacts are condim 3, which pyramidDecode unrolls.
//
//go:noinline
func decodeEdges(p *solver.Problem, blk *pyramidBlock, f, g []float64, row int) {
	gc := g[row : row+3]
	gc[0], gc[1], gc[2] = 0, 0, 0
	for _, fe := range f {
		gc[2] += fe
	}
	var fk [5]float64 // MuJoCo's f_1 … f_5
	for k := range blk.edges / 2 {
		fk[k] = blk.mu[k] * (f[2*k] - f[2*k+1])
	}
	for k := range 2 {
		gc[0] += fk[k] * blk.rot[k][0]
		gc[1] += fk[k] * blk.rot[k][1]
	}
	if blk.spin >= 0 {
		g[p.Constraints[blk.spin].Row] = fk[2]
	}
	if blk.roll >= 0 {
		gr := g[p.Constraints[blk.roll].Row:]
		gr[0], gr[1] = 0, 0
		for k := range 2 {
			gr[0] += fk[3+k] * blk.rot[k][0]
			gr[1] += fk[3+k] * blk.rot[k][1]
		}
	}
}

// pyramidVC starts res.VC = J v for pyramidDecode and reports whether its
// rows are left to pyramidDecode's loop: every solve of the pyramid problem
// that did not fail returns VC = J V over its rows (SAP's evaluation, PGS's
// and noslip's finish), and a copied block's rows and v are p's, so their
// J v has the same bits as p.MulJ's, which the loop copies; the other
// blocks' (the pyramid contacts' and their spin and rolling blocks') it
// computes (solver.Problem.MulJBlocks, in the loop over the blocks that
// decodes their impulses: no loop of its own). After a failed solve, all
// of J v is computed here.
func pyramidVC(p *solver.Problem, pw *pyramidWork, res *solver.Result) bool {
	if pw.res.Stats.Status == solver.Failed || len(pw.res.VC) != pw.p.NR {
		p.MulJ(res.V, res.VC)
		return false
	}
	clear(res.VC)
	return true
}

// mujocoTangents sets *rot to MuJoCo's contact tangents t1', t2' of the pair
// in its own frame (t1, t2) = spatial.Orthonormal(n), the frame of its
// rows (contact.Assembler), which dirs holds (contact.Assembler.Frame: the
// assembler's own, not formed again): rot[j] = (tj'·t1, tj'·t2). MuJoCo 2.2.2
// (mju_makeFrame) takes t1' as the given y axis made orthogonal to the
// normal, the y axis being the capsule's axis for a plane–capsule
// contact (mjc_PlaneCapsule) and otherwise (0, 1, 0), or (0, 0, 1) when
// |n_y| ≥ 0.5; a zero projection becomes (1, 0, 0) (mju_normalize3); and
// t2' = n × t1'. The pyramid depends on t1' (its edges lie in the planes
// of n and ±t1', ±t2'), not on the sign of the normal.
func mujocoTangents(m *multibody.Model, kin *multibody.Workspace, pr *contact.Pair, dirs *[3]spatial.Vec3, rot *[2][2]float64) {
	n := &pr.Normal
	y0, y1, y2 := 0.0, 1.0, 0.0
	if !(n[1] < 0.5 && n[1] > -0.5) {
		y0, y1, y2 = 0, 0, 1
	}
	if a0, a1, a2, ok := planeCapsuleAxis(m, kin, pr); ok {
		y0, y1, y2 = a0, a1, a2
	}
	// y.Sub(n.Scale(n.Dot(y))), y.Norm(), y.Scale(1/l), n.Cross(y) and
	// the four Dot below, in scalars: the same operations, in registers,
	// without the vectors' copies through the stack.
	d := n[0]*y0 + n[1]*y1 + n[2]*y2
	y0, y1, y2 = y0-d*n[0], y1-d*n[1], y2-d*n[2]
	if l := math.Sqrt(y0*y0 + y1*y1 + y2*y2); l < 1e-15 {
		y0, y1, y2 = 1, 0, 0
	} else {
		s := 1 / l
		y0, y1, y2 = s*y0, s*y1, s*y2
	}
	z0, z1, z2 := n[1]*y2-n[2]*y1, n[2]*y0-n[0]*y2, n[0]*y1-n[1]*y0
	t1, t2 := &dirs[0], &dirs[1]
	rot[0][0], rot[0][1] = y0*t1[0]+y1*t1[1]+y2*t1[2], y0*t2[0]+y1*t2[1]+y2*t2[2]
	rot[1][0], rot[1][1] = z0*t1[0]+z1*t1[1]+z2*t1[2], z0*t2[0]+z1*t2[1]+z2*t2[2]
}

// dot3 returns a·b, spatial.Vec3.Dot's sum in its order, read in place.
func dot3(a, b *spatial.Vec3) float64 { return a[0]*b[0] + a[1]*b[1] + a[2]*b[2] }

// sameManifold reports whether pairs a and b are of the same two
// geometries with the same normal, bit for bit: then mujocoTangents,
// which depends on nothing else of a pair, gives them the same tangents.
func sameManifold(a, b *contact.Pair) bool {
	return a.GeomA == b.GeomA && a.GeomB == b.GeomB && sameBits(a.Normal[:], b.Normal[:])
}

// planeCapsuleAxis returns the world axis (x, y, z) of the pair's
// capsule when the pair is a plane (half-space) and a capsule, and false
// otherwise. The axis comes back in registers, and the body's rotation
// is read in place (kin.PoseOf): the vector and the 56-byte pose were
// copied through the stack.
func planeCapsuleAxis(m *multibody.Model, kin *multibody.Workspace, pr *contact.Pair) (x, y, z float64, ok bool) {
	ga, gb := &m.Geometries[pr.GeomA], &m.Geometries[pr.GeomB]
	if ga.Shape.Kind == geometry.Capsule {
		ga, gb = gb, ga
	}
	if ga.Shape.Kind != geometry.HalfSpace || gb.Shape.Kind != geometry.Capsule {
		return 0, 0, 0, false
	}
	a := kin.PoseOf(gb.Body).R.Mul(gb.Pose.R).Rotate(spatial.Vec3{0, 0, 1})
	return a[0], a[1], a[2], true
}
