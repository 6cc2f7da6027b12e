package sim

import (
	"github.com/stiction-sim/stiction/contact"
	"github.com/stiction-sim/stiction/multibody"
	"github.com/stiction-sim/stiction/solver"
)

// MuJoCo 2.2.2's elliptic friction cone (<option cone="elliptic">) for
// the contacts of MJCF's soft material under mujoco-euler,
// mujoco-implicit and rk4 (mujoco_rows.go).
//
// MuJoCo (engine_core_constraint.c, mj_instantiateContact) gives a
// contact of condim 3 one block of three rows (n, t1', t2') of type
// mjCNSTR_CONTACT_ELLIPTIC; mj_makeImpedance sets R_0 = (1 − d)/d · w
// (w the translational body_invweight0 sum, its diagApprox), then
// R_1 = R_0 / impratio and R_j = R_1 μ_1²/μ_j² for the others (so
// R_2 = R_1 at condim 3), and K = 0 on the friction rows, whose efc_pos
// is 0: a_ref = −B J v − K d φ on the normal row, −B J v on the others
// (mj_referenceConstraint). Its Newton solver (engine_solver.c,
// mj_solNewton; the cost of mj_constraintUpdate) minimizes
// ½‖a − a0‖²_M + s(J a − a_ref) with s zero in the top zone
// (N ≥ μ̃ T), ½ Σ D_j jar_j² in the bottom zone (μ̃ N + T ≤ 0) and
// ½ D_0/(μ̃²(1 + μ̃²)) (N − μ̃ T)² in between, over U = (μ̃ jar_0,
// μ_j jar_j), N = U_0, T = ‖U_1…‖, D = R⁻¹ and contact->mu
// μ̃ = μ_1 √(R_1/R_0). That s is the squared D-distance of jar to the dual
// cone {y : y_0 ≥ ‖(μ_j y_j)‖}, and its force −∂s/∂jar lies in the cone
// K = {f : f_0 ≥ ‖(f_j/μ_j)‖}: the problem is the dual
// min ½ fᵀ(A + R)f + fᵀ(J a0 − a_ref) over K.
//
// SAP's ContactCone block is the same problem (SAP §IV, Todorov 2014):
// ℓ = ½‖P_F(y)‖²_R over F = {‖γ_t‖ ≤ μ γ_n} projected in the norm of
// R = diag(R_t, R_t, R_n). With γ = δt f, v̂ = J v + δt a_ref (softRows)
// and the rows' R taken as MuJoCo's, R_n = R_0, R_t = R_1 = R_0/impratio,
// μ = μ_1, SAP's problem is MuJoCo's scaled by δt², so its converged
// answer is MuJoCo's. The block's rows are the contact's (t1, t2, n): the
// cone is round, so MuJoCo's tangent frame (mujocoTangents) does not
// matter. A contact of condim 1 (mjCNSTR_CONTACT_FRICTIONLESS: the
// normal row alone, R_0) is the block with μ = 0.
//
// MuJoCo's elliptic cone of condim 4 and 6 spans the torsional (and
// rolling) rows in one block of condim rows (n, t1', t2', spin, roll1',
// roll2'), the friction rows' R_j = R_1 μ_1²/μ_j² (mj_makeImpedance), each
// friction row's a_ref = −B J_j v, and the cost's zones over the same
// U = (μ̃ jar_0, μ_j jar_j): its force lies in
// K = {f_0 ≥ ‖(f_j/μ_j)‖}. That block is solver.ContactEllipticN with
// MuJoCo's R and μ_j (ellipticNProblem): the assembler builds such a
// pair's three rows and its spin and rolling blocks' angular rows
// (contact.Assembler.Geometric), and solveEllipticN solves a problem in
// which they are one block (rows t1, t2, spin, roll t1, roll t2, n; the
// cone is round in the sliding and in the rolling pair, so MuJoCo's tangent
// frame does not matter), then puts the block's impulses back on the
// three blocks. μ_j is the material's, floored at MuJoCo's mjMINMU
// (mj_contactParam clamps every coefficient to it).

// ellipticPair reports whether the contact of a pair of material pm is
// MuJoCo's elliptic block (ellipticRows; of condim 4 and 6 merged with its
// spin and rolling rows by solveEllipticN) when the cone is elliptic: a
// pair of MuJoCo's soft material.
func ellipticPair(pm *pairMaterial) bool {
	return pm.soft
}

// mjMinMu is MuJoCo's mjMINMU, the floor of every contact friction
// coefficient (mj_contactParam).
const mjMinMu = 1e-5

// ellipticCondim returns the contact's condim as pyramidContact reads it:
// the material's, or for a material without one 6 with rolling friction,
// 4 with spin friction, else 3.
func ellipticCondim(mat *contact.Material) int {
	switch {
	case mat.Condim > 0:
		return mat.Condim
	case mat.Rolling > 0:
		return 6
	case mat.Spin > 0:
		return 4
	}
	return 3
}

// markElliptic sets *marks, per pair, to whether its contact is MuJoCo's
// elliptic block (ellipticPair) or, with the pyramidal cone, MuJoCo's
// pyramid (pyramidPair: the same pairs) and returns it, for
// contact.Assembler.Geometric: the assembler then builds only the block's
// Jacobian (kind solver.ContactCone) and no Delassus estimate, and
// softRows sets its R, v̂ and μ (pyramidProblem replaces the pyramid's
// block). It returns nil when no pair is marked.
func (sim *Simulator) markElliptic(mats []pairMaterial, marks *[]bool) []bool {
	m, found := (*marks)[:0], false
	for i := range mats {
		e := ellipticPair(&mats[i]) || pyramidPair(&mats[i])
		m = append(m, e)
		found = found || e
	}
	*marks = m
	if !found {
		return nil
	}
	return m
}

// ellipticRows sets the R and μ of contact block i of p, of material mat
// and normal R rn (softImpedance), as MuJoCo's elliptic contact
// (mj_makeImpedance): R_n = R_0 = rn, R_t = R_1 = R_0/impratio on both
// tangent rows, μ = μ_1 (0 for condim 1, MuJoCo's frictionless contact).
// It reports false, having set nothing, when the block is not a
// ContactCone block (a pair the assembler did not mark).
func (sim *Simulator) ellipticRows(p *solver.Problem, i int, mat *contact.Material, rn float64) bool {
	c := p.Constraints[i]
	if c.Kind != solver.ContactCone {
		return false
	}
	mu, rt := mat.Friction, rn/sim.impRatio()
	if ellipticCondim(mat) == 1 || !(mu > 0) {
		mu, rt = 0, rn
	}
	p.R[c.Row], p.R[c.Row+1], p.R[c.Row+2] = rt, rt, rn
	p.Params[c.Par] = mu
	return true
}

// solveEllipticN solves p, as solvePyramid does for the pyramid, with
// MuJoCo's elliptic contacts of condim 4 and 6 as one
// solver.ContactEllipticN block each (ellipticNProblem), and reports
// false, having solved nothing, when p has none and MuJoCo's Newton (or
// CG) is off: the caller solves p itself. With MuJoCo's Newton on
// (contact.Params.Newton) every problem is rebuilt so and solved by it
// (solvePyramidProblem; the elliptic contacts are its cones,
// mujoco_newton_cone.go), at the step's start or, with stage, at an rk4
// stage's point. res then holds the velocities and, unless
// velocitiesOnly, the impulses put back on p's blocks (ellipticNDecode).
func (sim *Simulator) solveEllipticN(p *solver.Problem, pairs []contact.Pair, mats []pairMaterial, asm *contact.Assembler, kin *multibody.Workspace, vs []float64, res *solver.Result, velocitiesOnly bool) (bool, error) {
	pw := &sim.ws.mj.staged.pyr
	newton := sim.cfg.Contact.Newton && sim.cfg.Contact.PGSIterations > 0
	for i := range pairs {
		newton = newton && mats[i].soft // other materials' contacts are not MuJoCo's rows
	}
	if !sim.ellipticNProblem(p, pairs, mats, asm, pw) {
		if !newton {
			return false, nil
		}
		return true, sim.solveOwnRows(p, pairs, kin, vs, res, velocitiesOnly)
	}
	if newton {
		if err := sim.solvePyramidProblem(pw, pairs, kin, vs, velocitiesOnly); err != nil {
			return true, err
		}
	} else if err := sim.cfg.Solver.Solve(&pw.p, vs, &pw.res); err != nil {
		return true, err
	}
	if velocitiesOnly {
		res.V = solver.Resize(res.V, p.NV)
		copy(res.V, pw.res.V)
		return true, nil
	}
	ellipticNDecode(p, pw, res)
	return true, nil
}

// ellipticNProblem builds pw.p from p: the same dynamics, every block
// copied but the elliptic contacts of condim 4 and 6 with their spin and
// rolling blocks (found through asm), which become one
// solver.ContactEllipticN block each (ellipticNBlock; pw.blocks[i].edges
// its size, −1 for the absorbed blocks). It reports whether any did; when
// none did, it builds nothing (pw.p would be p block for block:
// solveOwnRows solves p itself).
func (sim *Simulator) ellipticNProblem(p *solver.Problem, pairs []contact.Pair, mats []pairMaterial, asm *contact.Assembler, pw *pyramidWork) bool {
	found := false
	for i := range pairs {
		if !mats[i].soft || p.Constraints[i].Kind != solver.ContactCone {
			continue
		}
		condim := ellipticCondim(&mats[i].mat)
		if condim != 4 && condim != 6 {
			continue
		}
		if !found { // the blocks are read only when one is found (solveOwnRows reads none)
			pw.resetBlocks(len(p.Constraints))
		}
		blk := &pw.blocks[i]
		pyramidContact(blk, &mats[i].mat, asm.SpinBlock(i), asm.RollingBlock(i))
		blk.edges = condim
		for j := range blk.mu {
			blk.mu[j] = max(mjMinMu, blk.mu[j])
		}
		if condim == 4 {
			blk.mu[3], blk.mu[4] = 0, 0
		}
		for _, c := range [2]int{blk.spin, blk.roll} {
			if c >= 0 {
				pw.blocks[c].edges = -1 // absorbed into contact i's block
			}
		}
		found = true
	}
	if !found {
		return false
	}
	pp := pw.startProblem(p)
	for i := range p.Constraints {
		switch b, end := pw.jstart[i], pw.jstart[i+1]; {
		case pw.blocks[i].edges == 0:
			pw.blocks[i].first = copyBlock(p, pp, i, b, end)
		case pw.blocks[i].edges > 0:
			pw.blocks[i].first = sim.ellipticNBlock(p, pp, &mats[i].mat, &pw.blocks[i], i, pw.jstart)
		}
	}
	return true
}

// solveOwnRows is solveEllipticN's solve with MuJoCo's Newton when no
// contact of p is of condim 4 or 6: ellipticNProblem's copy of p would
// then be p block for block (every block copied as it is, in order: the
// same kinds, rows, R, v̂, parameters and J blocks; only the offsets of
// its parameters and J data could differ, which no solve's sums read), so
// p itself is solved, its blocks as they are (pgsWork.identBlocks, the
// blocks {first: i} that the copy had). The copy was stacker's 2–3% of a
// step (copyBlock, AddConstraint and AddJBlockFrom for every block).
//
// The decoding of the copy's answer was a copy of its velocities,
// statistics and impulses, row for row, so the step's own solve writes
// res directly (the solvers write all of it and read none of it first);
// an rk4 stage's, velocitiesOnly, goes to pw.res and leaves res's
// impulses as they were. VC = J v: after MuJoCo's solve (PGS or Newton,
// and noslip after it) res.VC is already that (constraintVelocities:
// pgsJac.mul, whose sums over J's non-zeros or its whole blocks are
// p.MulJ's bits for a finite v); a stage's empty VC, a v that is not
// finite or another solver's answer take p.MulJ, as the decoding did.
func (sim *Simulator) solveOwnRows(p *solver.Problem, pairs []contact.Pair, kin *multibody.Workspace, vs []float64, res *solver.Result, velocitiesOnly bool) error {
	out := res
	if velocitiesOnly {
		out = &sim.ws.mj.staged.pyr.res
	}
	var c pgsCall // field by field, as solvePyramidProblem's
	c.p, c.blocks, c.pairs, c.kin, c.q, c.vs, c.res = p, sim.ws.pgs.identBlocks(len(p.Constraints)), pairs, kin, sim.stagePoint(velocitiesOnly), vs, out
	ok, err := sim.tryPGS(&c)
	if err != nil {
		return err
	}
	if !ok {
		if err := sim.cfg.Solver.Solve(p, vs, out); err != nil {
			return err
		}
	}
	if sim.cfg.Contact.NoSlipIterations > 0 {
		if err := sim.noSlip(&c, ok); err != nil {
			return err
		}
	}
	if velocitiesOnly {
		res.V = solver.Resize(res.V, p.NV)
		copy(res.V, out.V)
		return nil
	}
	if !ok || len(res.VC) != p.NR || finiteCheck(res.V) != 0 {
		ownVC(p, res)
	}
	return nil
}

// ownVC sets res.VC = J v by p.MulJ (solveOwnRows, where the solve's J v
// is not p.MulJ's; out of line: the robots' solves never take it).
//
//go:noinline
func ownVC(p *solver.Problem, res *solver.Result) {
	res.VC = solver.Resize(res.VC, p.NR)
	p.MulJ(res.V, res.VC)
}

// ellipticNBlock appends to pp the solver.ContactEllipticN block of
// elliptic contact i of p (material mat, block blk: its size
// blk.edges = condim, its spin and rolling blocks, its μ_j) and returns
// its index. Rows (t1, t2, spin, roll t1, roll t2, n), the rolling pair
// only at condim 6; with MuJoCo 2.2.2's rules (mj_makeImpedance,
// mj_referenceConstraint; softRows has set the contact's own rows):
//
//	R_n = R_0,  R_1 = R_0/impratio,  R_j = R_1 μ_1²/μ_j²,
//	v̂_j = (1 − δt B) J_j v  (friction rows, K = 0),  v̂_n = softRows'.
//
// A spin or rolling block the assembler did not make (a material without
// that friction, of condim 4 or 6) leaves its rows of J zero.
func (sim *Simulator) ellipticNBlock(p, pp *solver.Problem, mat *contact.Material, blk *pyramidBlock, i int, js []int) int {
	st, dt := &sim.ws.mj.staged, sim.cfg.DT
	n := blk.edges
	k := pp.AddConstraint(solver.ContactEllipticN, n, blk.mu[:]...)
	row, src := pp.Constraints[k].Row, p.Constraints[i].Row
	_, _, b, _ := softImpedance(mat, 0, dt)
	r0 := p.R[src+2]
	pp.R[row+n-1], pp.VHat[row+n-1] = r0, p.VHat[src+2]
	r1 := r0 / sim.impRatio()
	rows := frictionRows(p, i, blk)
	for j := range n - 1 {
		pp.R[row+j] = r1 * blk.mu[0] * blk.mu[0] / (blk.mu[j] * blk.mu[j]) // mj_makeImpedance: R_j μ_j² = R_1 μ_1²
		if rows[j] >= 0 {
			pp.VHat[row+j] = (1 - dt*b) * st.vc[rows[j]]
		}
	}
	pp.R[row] = r1
	for jb := js[i]; jb < js[i+1]; jb++ {
		q := p.JBlock[jb].Clique
		nq := p.Cliques[q].Size
		jc := p.JBlockData(jb)
		dst := pp.AddJBlock(k, q) // zeroed: a missing spin or rolling block leaves its rows 0
		copy(dst[:2*nq], jc[:2*nq])
		copy(dst[(n-1)*nq:n*nq], jc[2*nq:3*nq])
		addAngularRows(dst[2*nq:3*nq], p, js, blk.spin, q, 1, 0)
		if n == 6 {
			addAngularRows(dst[3*nq:4*nq], p, js, blk.roll, q, 1, 0)
			addAngularRows(dst[4*nq:5*nq], p, js, blk.roll, q, 0, 1)
		}
	}
	return k
}

// ellipticNDecode sets res, the solution of p, from pw.res, the solution
// of the problem of ellipticNProblem: the same velocities, every copied
// block's impulses, and per ContactEllipticN block its friction rows'
// impulses on the contact's rows t1, t2, its spin and rolling blocks, and
// its normal impulse on the contact's n; VC = J v.
func ellipticNDecode(p *solver.Problem, pw *pyramidWork, res *solver.Result) {
	pr, pp := &pw.res, &pw.p
	startDecode(p, pr, res)
	for i := range pw.blocks {
		blk := &pw.blocks[i] // read in place, not copied
		if blk.edges < 0 {
			continue // set with its contact's
		}
		c := p.Constraints[i]
		from := pp.Constraints[blk.first].Row
		g := res.Gamma[c.Row : c.Row+c.Size]
		if blk.edges == 0 {
			copy(g, pr.Gamma[from:from+c.Size])
			continue
		}
		f := pr.Gamma[from : from+blk.edges]
		g[0], g[1], g[2] = f[0], f[1], f[blk.edges-1]
		rows := frictionRows(p, i, blk)
		for j := 2; j < blk.edges-1; j++ {
			if rows[j] >= 0 {
				res.Gamma[rows[j]] = f[j]
			}
		}
	}
	p.MulJ(res.V, res.VC)
}
