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
	blocks []pyramidBlock // per constraint block of the original problem
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
// in the pyramid problem: edges = 0, copied as block first; else the
// contact's edges are blocks first … first+edges−1 (one Interval row each),
// in MuJoCo's order J_n + μ J_t1', J_n − μ J_t1', J_n + μ J_t2',
// J_n − μ J_t2' (or the lone normal row of a frictionless contact), where
// t1', t2' are MuJoCo's contact tangents: tj' = rot[j][0] t1 + rot[j][1] t2
// in the contact's own frame (t1, t2, n).
type pyramidBlock struct {
	first, edges int
	mu           float64
	rot          [2][2]float64
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
func (sim *Simulator) solvePyramid(p *solver.Problem, pairs []contact.Pair, mats []pairMaterial, kin *multibody.Workspace, vs []float64, res *solver.Result, velocitiesOnly bool) (bool, error) {
	if !sim.cfg.Contact.Pyramidal() {
		return false, nil
	}
	pw := &sim.ws.mj.staged.pyr
	if !sim.pyramidProblem(p, pairs, mats, kin, pw) {
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
// without spin or rolling friction (condim 1 or 3), which become MuJoCo
// 2.2.2's pyramid (engine_core_constraint.c, mj_instantiateContact): for
// condim 3 the four one-sided rows J_e = J_n ± μ J_tk' (solver.Interval,
// [0, ∞)), for μ = 0 (condim 1) the normal row alone. It reports whether
// any contact became a pyramid.
func (sim *Simulator) pyramidProblem(p *solver.Problem, pairs []contact.Pair, mats []pairMaterial, kin *multibody.Workspace, pw *pyramidWork) bool {
	if cap(pw.blocks) < len(p.Constraints) {
		pw.blocks = make([]pyramidBlock, len(p.Constraints), 2*len(p.Constraints))
	}
	pw.blocks = pw.blocks[:len(p.Constraints)]
	found := false
	for i := range pw.blocks {
		pw.blocks[i] = pyramidBlock{}
		if i >= len(pairs) {
			continue
		}
		mat := &mats[i].mat
		if !pyramidPair(&mats[i]) {
			continue // condim 4 and 6 keep their rows (and their spin and rolling blocks)
		}
		pw.blocks[i] = pyramidBlock{edges: 1, mu: mat.Friction, rot: mujocoTangents(sim.Model, kin, &pairs[i])}
		if mat.Friction > 0 {
			pw.blocks[i].edges = 4
		}
		found = true
	}
	if !found {
		return false
	}
	pp := &pw.p
	pp.Reset(p.NV)
	pp.Cliques = append(pp.Cliques, p.Cliques...)
	pp.A = append(pp.A, p.A...)
	copy(pp.VStar, p.VStar)
	copy(pp.MDiag, p.MDiag)
	b := 0 // p's next J block: they are sorted by constraint
	for i := range p.Constraints {
		end := b
		for end < len(p.JBlock) && p.JBlock[end].Constraint == i {
			end++
		}
		if pw.blocks[i].edges == 0 {
			pw.blocks[i].first = copyBlock(p, pp, i, b, end)
		} else {
			pw.blocks[i].first = sim.pyramidEdges(p, pp, &pairs[i], &mats[i].mat, &pw.blocks[i], p.Constraints[i].Row, b, end)
		}
		b = end
	}
	return true
}

// pyramidPair reports whether pyramidProblem makes the contact of a pair
// of material pm a pyramid: MuJoCo's soft material (mujocoSoft) without
// spin or rolling friction. It does not look at contact.Params.Pyramidal.
func pyramidPair(pm *pairMaterial) bool {
	return pm.soft && pm.mat.Spin == 0 && pm.mat.Rolling == 0
}

// markPyramids sets st.geo, per stage pair, to whether solvePyramid will
// make its contact a pyramid, whose rows replace the contact assembler's
// (contact.Assembler.Geometric: the stage's assembler then builds only
// its Jacobian), or to nil when the cone is not the pyramid.
func (sim *Simulator) markPyramids(st *rk4StageWork) {
	if !sim.cfg.Contact.Pyramidal() {
		st.asm.Geometric = nil
		return
	}
	st.geo = st.geo[:0]
	for i := range st.pairs {
		st.geo = append(st.geo, pyramidPair(&st.mats[i]))
	}
	st.asm.Geometric = st.geo
}

// copyBlock appends constraint block i of p, whose J blocks are
// p.JBlock[b:end], to pp unchanged and returns its index there. It appends
// to pp's slices directly, as solver.Problem.AddConstraint and AddJBlock
// would with the values copied afterwards, without zeroing them first.
func copyBlock(p, pp *solver.Problem, i, b, end int) int {
	c := p.Constraints[i]
	k := len(pp.Constraints)
	pp.Constraints = append(pp.Constraints, solver.Constraint{Kind: c.Kind, Row: pp.NR, Size: c.Size, Par: len(pp.Params)})
	pp.NR += c.Size
	pp.VHat = append(pp.VHat, p.VHat[c.Row:c.Row+c.Size]...)
	pp.R = append(pp.R, p.R[c.Row:c.Row+c.Size]...)
	pp.Params = append(pp.Params, p.Par(i)...)
	for ; b < end; b++ {
		pp.JBlock = append(pp.JBlock, solver.JBlock{Constraint: k, Clique: p.JBlock[b].Clique, Off: len(pp.JData)})
		pp.JData = append(pp.JData, p.JBlockData(b)...)
	}
	return k
}

// appendJBlock is solver.Problem.AddJBlock for constraint k, one row, on
// clique q of n columns, without zeroing the storage it returns: the
// caller writes every element.
func appendJBlock(pp *solver.Problem, k, q, n int) []float64 {
	off := len(pp.JData)
	pp.JBlock = append(pp.JBlock, solver.JBlock{Constraint: k, Clique: q, Off: off})
	pp.JData = slices.Grow(pp.JData, n)[:off+n]
	return pp.JData[off : off+n]
}

// pyramidEdges appends the pyramid edges of the contact pr, of material mat, a block of p
// (rows row … row+2: t1, t2, n; J blocks p.JBlock[b:end]; st.vc its J v_i), to pp and
// returns the index of the first. With MuJoCo 2.2.2's rules
// (mj_diagApprox, mj_makeImpedance, mj_referenceConstraint; r its
// impratio, contact.Params.ImpRatio):
//
//	R_e = Rpy = 2μ² (1 − d)/d · (1 + μ²) w / r   (condim 3: every edge),
//	R   = (1 − d)/d · w                      (μ = 0: the normal row),
//	v̂_e = (1 − δt B) J_e v_i − δt K d φ,
//
// d = d(|φ|) solimp's impedance at the contact's φ (MuJoCo's dist less its
// margin − gap), w the pair's body_invweight0 sum (SlipWeight), K its
// solref stiffness (SlipStiffness) and B = (1 + μ²)/SlipTime its damping
// (both edges of a pair take every row's K and B, friction rows included:
// MuJoCo zeroes K only for the elliptic cone's friction rows). SAP's
// problem for γ = δt f with these R and v̂ is MuJoCo's for f, scaled
// by δt² (softRows).
func (sim *Simulator) pyramidEdges(p, pp *solver.Problem, pr *contact.Pair, mat *contact.Material, blk *pyramidBlock, row, b, end int) int {
	st, dt := &sim.ws.mj.staged, sim.cfg.DT
	d, r, bd, ks := softImpedance(mat, pr.Phi, dt)
	if blk.edges == 4 {
		r = 2 * blk.mu * blk.mu * r * (1 + blk.mu*blk.mu) / sim.impRatio()
	}
	vt := [2]float64{st.vc[row], st.vc[row+1]}
	first := len(pp.Constraints)
	for e := range blk.edges {
		coef := edgeCoefficients(blk, e) // J_e = coef[0] J_t1 + coef[1] J_t2 + J_n
		k := pp.AddConstraint(solver.Interval, 1, 0, math.Inf(1))
		ve := st.vc[row+2] + coef[0]*vt[0] + coef[1]*vt[1]
		pp.R[pp.Constraints[k].Row] = r
		pp.VHat[pp.Constraints[k].Row] = (1-dt*bd)*ve - dt*ks*d*pr.Phi
		for j := b; j < end; j++ {
			src, n := p.JBlockData(j), p.Cliques[p.JBlock[j].Clique].Size
			dst := appendJBlock(pp, k, p.JBlock[j].Clique, n)
			for c := range n {
				dst[c] = src[2*n+c] + coef[0]*src[c] + coef[1]*src[n+c]
			}
		}
	}
	return first
}

// edgeCoefficients returns the coefficients of J_t1 and J_t2 in pyramid
// edge e of blk: ±μ times MuJoCo's tangent t_{e/2+1}' in the contact's
// frame (0, 0 for the lone normal row of a frictionless contact).
func edgeCoefficients(blk *pyramidBlock, e int) [2]float64 {
	if blk.edges == 1 {
		return [2]float64{}
	}
	s := blk.mu
	if e%2 == 1 {
		s = -s
	}
	t := blk.rot[e/2]
	return [2]float64{s * t[0], s * t[1]}
}

// pyramidDecode sets res, the solution of p, from pw.res, the solution of
// the pyramid problem built from p: the same velocities, every copied
// block's impulses, and per pyramid contact MuJoCo's decoding
// (mju_decodePyramid): f_n = Σ_e f_e, f_tk' = μ (f_{2k} − f_{2k+1}),
// rotated from MuJoCo's tangents onto the contact's (t1, t2); VC = J v.
func pyramidDecode(p *solver.Problem, pw *pyramidWork, res *solver.Result) {
	pr, pp := &pw.res, &pw.p
	res.V = solver.Resize(res.V, p.NV)
	copy(res.V, pr.V)
	res.Gamma = solver.Resize(res.Gamma, p.NR)
	res.VC = solver.Resize(res.VC, p.NR)
	res.Stats = pr.Stats
	for i, blk := range pw.blocks {
		c := p.Constraints[i]
		g := res.Gamma[c.Row : c.Row+c.Size]
		from := pp.Constraints[blk.first].Row
		if blk.edges == 0 {
			copy(g, pr.Gamma[from:from+c.Size])
			continue
		}
		f := pr.Gamma[from : from+blk.edges]
		g[0], g[1], g[2] = 0, 0, 0
		for _, fe := range f {
			g[2] += fe
		}
		if blk.edges == 4 {
			for k := range 2 {
				ft := blk.mu * (f[2*k] - f[2*k+1])
				g[0] += ft * blk.rot[k][0]
				g[1] += ft * blk.rot[k][1]
			}
		}
	}
	p.MulJ(res.V, res.VC)
}

// mujocoTangents returns MuJoCo's contact tangents t1', t2' of the pair
// in its own frame (t1, t2) = spatial.Orthonormal(n), the frame of its
// rows (contact.Assembler): rot[j] = (tj'·t1, tj'·t2). MuJoCo 2.2.2
// (mju_makeFrame) takes t1' as the given y axis made orthogonal to the
// normal, the y axis being the capsule's axis for a plane–capsule
// contact (mjc_PlaneCapsule) and otherwise (0, 1, 0), or (0, 0, 1) when
// |n_y| ≥ 0.5; a zero projection becomes (1, 0, 0) (mju_normalize3); and
// t2' = n × t1'. The pyramid depends on t1' (its edges lie in the planes
// of n and ±t1', ±t2'), not on the sign of the normal.
func mujocoTangents(m *multibody.Model, kin *multibody.Workspace, pr *contact.Pair) [2][2]float64 {
	n := pr.Normal
	y := spatial.Vec3{0, 1, 0}
	if !(n[1] < 0.5 && n[1] > -0.5) {
		y = spatial.Vec3{0, 0, 1}
	}
	if axis, ok := planeCapsuleAxis(m, kin, pr); ok {
		y = axis
	}
	y = y.Sub(n.Scale(n.Dot(y)))
	if l := y.Norm(); l < 1e-15 {
		y = spatial.Vec3{1, 0, 0}
	} else {
		y = y.Scale(1 / l)
	}
	z := n.Cross(y)
	t1, t2 := spatial.Orthonormal(n)
	return [2][2]float64{{y.Dot(t1), y.Dot(t2)}, {z.Dot(t1), z.Dot(t2)}}
}

// planeCapsuleAxis returns the world axis of the pair's capsule when the
// pair is a plane (half-space) and a capsule, and false otherwise.
func planeCapsuleAxis(m *multibody.Model, kin *multibody.Workspace, pr *contact.Pair) (spatial.Vec3, bool) {
	ga, gb := &m.Geometries[pr.GeomA], &m.Geometries[pr.GeomB]
	if ga.Shape.Kind == geometry.Capsule {
		ga, gb = gb, ga
	}
	if ga.Shape.Kind != geometry.HalfSpace || gb.Shape.Kind != geometry.Capsule {
		return spatial.Vec3{}, false
	}
	rot := kin.Pose(gb.Body).R.Mul(gb.Pose.R)
	return rot.Rotate(spatial.Vec3{0, 0, 1}), true
}
