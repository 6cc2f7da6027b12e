package island

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"slices"
	"sync"

	"github.com/stiction-sim/stiction/solver"
)

// Solver is a solver.Solver that solves each island of the contact graph
// separately with an inner solver, optionally with a pool of workers. Each
// worker has one inner solver, which solves every island the worker takes
// in turn: its scratch memory stays in the cache from island to island (one
// solver per island, scattered over memory, made steps 1.3× slower on 16
// far-apart copies of clutter-nowalls, BENCHMARKS.md), and the inner
// solver's results must not depend on which islands it solved before (SAP's
// do not: its only state across solves is a cache of symbolic analyses, a
// deterministic function of the pattern). After a first solve of a given shape, Solve does not allocate
// (if the inner solvers do not). A Solver is not safe for concurrent use;
// call Close to stop its workers.
//
// Cliques touched by no contact are not given to the inner solver: their
// velocities are v* (the exact minimiser of their term ½‖v − v*‖²_A).
// A problem whose contacts form a single island is not split: the inner
// solver solves it whole (solveWhole), with the bits and statistics of the
// inner solver alone, so that the island solver costs nothing where it
// cannot gain.
//
// Merged statistics:
//   - Status: the worst over the islands (Failed, then MaxIterations, then
//     Stalled, then Converged), except that with SetTolerance, a merged
//     solution that meets SAP's eq. (26) for the whole problem is
//     Converged unless an island Failed.
//   - Iterations: the maximum over the islands (the Newton iterations of
//     the slowest island, which is the critical path of a parallel solve
//     and what the iteration statistics of a monolithic solve describe);
//     LineSearchIterations: the sum (total work).
//   - Cost, InitialCost: sums (ℓp is a sum over islands); Resolves and
//     ResolveTime (a refining inner solver's): sums.
//   - MomentumError e_m (SAP eq. 32) and ComplementarityError e_μ (eq. 33):
//     recomputed for the whole problem from the merged v and γ, so that
//     they mean what they mean for a monolithic solve. Each island meets
//     eq. (26) with its own norms; the whole-problem e_m is then at most
//     about √(islands) times the largest island's (in practice smaller,
//     since the whole problem's momentum norm is larger than any island's).
type Solver struct {
	newInner       func() solver.Solver
	workers        int
	absTol, relTol float64 // SetTolerance

	islands []island
	n       int       // islands of the last solve
	root    []int32   // union-find over cliques
	isl     []int32   // island of each clique (−1: no contact)
	local   []int32   // index of each clique within its island
	touched []bool    // whether a clique's set has a contact
	order   []int32   // islands by decreasing size, for scheduling
	assign  [][]int32 // islands of each worker (schedule)
	load    []int     // estimated work of each worker (schedule)

	resid solver.ResidualScratch // e_m of the merged solution
	vc1   []float64              // one blockless constraint's v_c (zero)

	// Arenas the islands' lists, sub-problems and results are carved from.
	cliqueArena, consArena []int32
	floatArena             []float64
	blockArena             []solver.JBlock
	cliqArena              []solver.Clique
	kindArena              []solver.Constraint

	inner   []solver.Solver // one per worker, created on first use
	profile bool            // passed on to the inner solvers (SetProfile)
	start   []chan struct{} // per worker: solve your islands
	wg      sync.WaitGroup
}

// island is one connected component and its sub-problem.
type island struct {
	cliques []int32 // clique indices in p, increasing
	cons    []int32 // constraint indices in p, increasing

	nCliques, nCons        int // list lengths (split)
	nv, na, nb, nd, nr, np int // velocities, A entries, J blocks, J entries, rows, params (build)

	prob solver.Problem
	v0   []float64
	res  solver.Result
	err  error
}

// New returns an island solver whose islands are solved by solvers made by
// newInner (one per worker, created on first use and reused) and with the
// given number of workers (≤ 1: solve in the caller's goroutine).
func New(newInner func() solver.Solver, workers int) *Solver {
	return &Solver{newInner: newInner, workers: max(workers, 1)}
}

// SetProfile implements solver.Profiler: the inner solvers time their
// parts (solver.Stats.ResolveTime, summed over the islands).
func (s *Solver) SetProfile(on bool) {
	s.profile = on
	for _, in := range s.inner {
		if pr, ok := in.(solver.Profiler); ok {
			pr.SetProfile(on)
		}
	}
}

// Workers returns the number of workers.
func (s *Solver) Workers() int { return s.workers }

// Inner returns the inner solver of worker w (0 ≤ w < Workers(); nil
// otherwise), made now if no solve has made it yet: the solver of the
// islands worker w takes, and worker 0's solves a one-island problem whole.
func (s *Solver) Inner(w int) solver.Solver {
	if w < 0 || w >= s.workers {
		return nil
	}
	s.makeInner()
	return s.inner[w]
}

// Islands returns the number of islands of the last solve (cliques without
// contacts are not counted).
func (s *Solver) Islands() int { return s.n }

// Island returns the number of cliques and constraints of island k of the
// last solve (0 ≤ k < Islands()) and the inner solver's statistics for it.
func (s *Solver) Island(k int) (cliques, constraints int, st solver.Stats) {
	if k < 0 || k >= s.n {
		return 0, 0, solver.Stats{}
	}
	is := &s.islands[k]
	return len(is.cliques), len(is.cons), is.res.Stats
}

// Close stops the worker goroutines, if any were started. The Solver may
// still be used afterwards; it then starts new workers.
func (s *Solver) Close() {
	for _, c := range s.start {
		close(c)
	}
	s.start = nil
}

var _ solver.Solver = (*Solver)(nil)

// Solve implements solver.Solver. It returns an error if p is malformed
// (its shape here, its numbers by the inner solvers, which validate each
// island; a problem of one clique, which is one island, the inner solver
// validates whole), v0 has the wrong length, res is nil, or an inner solver returned
// one (the first in island order).
func (s *Solver) Solve(p *solver.Problem, v0 []float64, res *solver.Result) error {
	switch {
	case s.newInner == nil:
		return errors.New("island: no inner solver")
	case res == nil:
		return errors.New("island: nil result")
	case p == nil:
		return errors.New("island: nil problem")
	case v0 != nil && len(v0) != p.NV:
		return errors.New("island: len(v0) ≠ NV")
	}
	if v0 == nil {
		v0 = p.VStar
	}
	if len(p.Cliques) == 1 && len(p.JBlock) > 0 {
		// One clique with contacts is one island: no union-find, and no
		// shape check of its own, since the inner solver validates the
		// whole problem it is given (a cube on the ground, every step).
		s.splitOne(p)
		return s.solveWhole(p, v0, res)
	}
	if err := checkStructure(p); err != nil {
		return err
	}
	s.split(p)
	if s.n == 1 {
		return s.solveWhole(p, v0, res)
	}
	if err := s.checkFree(p); err != nil {
		return err
	}
	s.build(p, v0)
	s.solveAll()
	for k := range s.n {
		if err := s.islands[k].err; err != nil {
			return err
		}
	}
	s.merge(p, res)
	return nil
}

// SetTolerance sets the tolerances εa, εr of SAP's optimality criterion
// (eq. 26) for the merged status, whatever the inner solver (the
// criterion is computed from the merged v and γ alone, so it judges SAP,
// PGS, the interior-point solver or any registered solver alike): when
// the whole problem meets
// ‖D∇ℓp‖ < εa + εr max(‖D p‖, ‖D j_c‖) at the merged solution, the merged
// status is Converged even if some island ended Stalled or MaxIterations
// (an island's own test uses its own, smaller momentum, and a small island
// at rest can stall on round-off of its cost while the whole problem is
// solved to tolerance). A Failed island always makes the merged status
// Failed. Zero tolerances (the default) turn this off: the merged status is
// then the worst island status.
func (s *Solver) SetTolerance(abs, rel float64) { s.absTol, s.relTol = abs, rel }

// checkStructure checks what splitting p needs (solver.Problem's shape
// checks: cliques and constraint rows tiling, slice lengths, J blocks
// sorted and in range); the numbers are checked by the inner solvers, and
// for cliques without constraints, here. Validate's full scan of the
// numbers is not repeated: it costs as much as an inner solve on large
// scenes.
func checkStructure(p *solver.Problem) error {
	if err := p.ValidateStructure(); err != nil {
		return fmt.Errorf("island: %w", err)
	}
	return nil
}

// checkFree checks the numbers of the cliques without contacts, which no
// inner solver sees.
func (s *Solver) checkFree(p *solver.Problem) error {
	for c, q := range p.Cliques {
		if s.isl[c] >= 0 {
			continue
		}
		for i := q.Offset; i < q.Offset+q.Size; i++ {
			if !finite(p.VStar[i]) || !(p.MDiag[i] > 0) || math.IsInf(p.MDiag[i], 0) {
				return fmt.Errorf("island: clique %d: v* or diag(M) not finite or diag(M) ≤ 0", c)
			}
		}
		for _, a := range p.ABlock(c) {
			if !finite(a) {
				return fmt.Errorf("island: clique %d: A not finite", c)
			}
		}
	}
	return nil
}

func finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }

// find returns the root of clique c, halving paths.
func (s *Solver) find(c int32) int32 {
	for s.root[c] != c {
		s.root[c] = s.root[s.root[c]]
		c = s.root[c]
	}
	return c
}

// split finds the islands: union-find over the cliques joined by contacts
// (roots are the smallest clique of their set), islands numbered in order
// of their smallest clique, cliques and contacts listed in increasing order.
func (s *Solver) split(p *solver.Problem) {
	nc := len(p.Cliques)
	s.root = resize32(s.root, nc)
	s.isl = resize32(s.isl, nc)
	s.local = resize32(s.local, nc)
	s.touched = resizeBool(s.touched, nc)
	for c := range s.root {
		s.root[c] = int32(c)
		s.isl[c] = -1
		s.touched[c] = false
	}
	for lo, hi := 0, 0; lo < len(p.JBlock); lo = hi {
		hi = constraintEnd(p, lo)
		for b := lo + 1; b < hi; b++ {
			x, y := s.find(int32(p.JBlock[lo].Clique)), s.find(int32(p.JBlock[b].Clique))
			if x > y {
				x, y = y, x
			}
			s.root[y] = x
		}
	}
	for _, blk := range p.JBlock {
		s.touched[s.find(int32(blk.Clique))] = true
	}
	s.n = 0
	for c := range nc {
		r := s.find(int32(c))
		if !s.touched[r] {
			continue
		}
		if int(r) == c { // roots come first: r ≤ c
			s.isl[c] = int32(s.n)
			s.n++
		}
		s.isl[c] = s.isl[r]
	}
	for len(s.islands) < s.n {
		s.islands = append(s.islands, island{})
	}
	// Clique and constraint lists, carved from two arenas in island order.
	for k := range s.n {
		s.islands[k].nCliques, s.islands[k].nCons = 0, 0
	}
	touched := 0
	for c := range nc {
		if k := s.isl[c]; k >= 0 {
			s.islands[k].nCliques++
			touched++
		}
	}
	for lo, hi := 0, 0; lo < len(p.JBlock); lo = hi {
		hi = constraintEnd(p, lo)
		s.islands[s.isl[p.JBlock[lo].Clique]].nCons++
	}
	s.cliqueArena = resize32(s.cliqueArena, touched)
	s.consArena = resize32(s.consArena, len(p.Constraints))
	co, to := 0, 0
	for k := range s.n {
		is := &s.islands[k]
		is.cliques = s.cliqueArena[co : co : co+is.nCliques]
		is.cons = s.consArena[to : to : to+is.nCons]
		co, to = co+is.nCliques, to+is.nCons
	}
	for c := range nc {
		if k := s.isl[c]; k >= 0 {
			is := &s.islands[k]
			s.local[c] = int32(len(is.cliques))
			is.cliques = append(is.cliques, int32(c))
		}
	}
	for lo, hi := 0, 0; lo < len(p.JBlock); lo = hi {
		hi = constraintEnd(p, lo)
		is := &s.islands[s.isl[p.JBlock[lo].Clique]]
		is.cons = append(is.cons, int32(p.JBlock[lo].Constraint))
	}
}

// splitOne is split for a problem of one clique with J blocks: one
// island holding clique 0 and the constraints with J blocks, in order (a
// blockless constraint touches no island), as split makes it. It reads
// only the J blocks' constraint indices, so that it is safe on a malformed
// problem, which the inner solver then rejects.
func (s *Solver) splitOne(p *solver.Problem) {
	nb := len(p.JBlock)
	if len(s.islands) == 0 || cap(s.cliqueArena) < 1 || cap(s.consArena) < nb {
		s.growOne(nb) // the first call's storage, out of line
	}
	s.n = 1
	s.cliqueArena = s.cliqueArena[:1] // resize32's, with the room made
	s.cliqueArena[0] = 0
	cons := s.consArena[:nb]
	is := &s.islands[0]
	is.cliques = s.cliqueArena[:1]
	n := 0
	for b, blk := range p.JBlock { // each run of blocks of one constraint (constraintEnd) once, written in the room made (no append's growth)
		if b == 0 || blk.Constraint != p.JBlock[b-1].Constraint {
			cons[n] = int32(blk.Constraint)
			n++
		}
	}
	s.consArena, is.cons = cons, cons[:n]
	is.nCliques, is.nCons = 1, n
}

// growOne makes splitOne's room for nb J blocks: an island and the arenas
// as resize32 grows them.
//
//go:noinline
func (s *Solver) growOne(nb int) {
	if len(s.islands) == 0 {
		s.islands = append(s.islands, island{})
	}
	s.cliqueArena = resize32(s.cliqueArena, 1)
	s.consArena = resize32(s.consArena, nb)
}

// constraintEnd returns the end of the run of J blocks of the constraint of
// block lo.
func constraintEnd(p *solver.Problem, lo int) int {
	hi := lo + 1
	for hi < len(p.JBlock) && p.JBlock[hi].Constraint == p.JBlock[lo].Constraint {
		hi++
	}
	return hi
}

// build fills every island's sub-problem, warm start and result storage.
// All of them are carved, island after island, from a few arenas sized to
// the whole problem: an island's numbers lie together in memory, and the
// arenas grow only when the whole problem does, however the islands
// change from step to step (buffers of their own would keep growing as
// island k grew to new sizes).
func (s *Solver) build(p *solver.Problem, v0 []float64) {
	nf, nb, ncl, nk := 0, 0, 0, 0
	for k := range s.n {
		is := &s.islands[k]
		is.nv, is.na, is.nb, is.nd, is.nr, is.np = 0, 0, 0, 0, 0, 0
		for _, c := range is.cliques {
			sz := p.Cliques[c].Size
			is.nv += sz
			is.na += sz * sz
		}
		for _, ct := range is.cons {
			c := p.Constraints[ct]
			is.nr += c.Size
			is.np += c.Kind.NumParams()
		}
	}
	for _, blk := range p.JBlock {
		is := &s.islands[s.isl[blk.Clique]]
		is.nb++
		is.nd += p.Constraints[blk.Constraint].Size * p.Cliques[blk.Clique].Size
	}
	for k := range s.n {
		is := &s.islands[k]
		nf += is.floats()
		nb += is.nb
		ncl += len(is.cliques)
		nk += len(is.cons)
	}
	s.floatArena = solver.Resize(s.floatArena, nf)
	s.blockArena = resizeBlocks(s.blockArena, nb)
	s.cliqArena = resizeCliques(s.cliqArena, ncl)
	s.kindArena = resizeConstraints(s.kindArena, nk)
	fo, bo, clo, ko := 0, 0, 0, 0
	take := func(n int) []float64 { // length n, capacity n
		x := s.floatArena[fo : fo+n : fo+n]
		fo += n
		return x
	}
	for k := range s.n {
		is := &s.islands[k]
		q := &is.prob
		q.NV, q.NR = is.nv, 0
		q.Cliques = s.cliqArena[clo : clo : clo+len(is.cliques)]
		q.Constraints = s.kindArena[ko : ko : ko+len(is.cons)]
		q.JBlock = s.blockArena[bo : bo : bo+is.nb]
		clo, bo, ko = clo+len(is.cliques), bo+is.nb, ko+len(is.cons)
		q.A, q.VStar, q.MDiag, is.v0 = take(is.na)[:0], take(is.nv), take(is.nv), take(is.nv)
		q.VHat, q.R, q.Params, q.JData = take(is.nr)[:0], take(is.nr)[:0], take(is.np)[:0], take(is.nd)[:0]
		is.res.V, is.res.Gamma, is.res.VC = take(is.nv), take(is.nr), take(is.nr)
		off := 0
		for _, c := range is.cliques {
			cq := p.Cliques[c]
			q.Cliques = append(q.Cliques, solver.Clique{Offset: off, Size: cq.Size, AOff: len(q.A)})
			q.A = append(q.A, p.ABlock(int(c))...)
			copy(q.VStar[off:], p.VStar[cq.Offset:cq.Offset+cq.Size])
			copy(q.MDiag[off:], p.MDiag[cq.Offset:cq.Offset+cq.Size])
			copy(is.v0[off:], v0[cq.Offset:cq.Offset+cq.Size])
			off += cq.Size
		}
		for _, ct := range is.cons {
			c := p.Constraints[ct]
			q.Constraints = append(q.Constraints, solver.Constraint{Kind: c.Kind, Row: q.NR, Size: c.Size, Par: len(q.Params)})
			q.NR += c.Size
			q.VHat = append(q.VHat, p.VHat[c.Row:c.Row+c.Size]...)
			q.R = append(q.R, p.R[c.Row:c.Row+c.Size]...)
			q.Params = append(q.Params, p.Par(int(ct))...)
		}
	}
	// J blocks, in (constraint, clique) order within every island.
	for b, blk := range p.JBlock {
		k := s.isl[blk.Clique]
		is := &s.islands[k]
		q := &is.prob
		// Local constraint index: constraints are appended in increasing
		// order, so this one is the last one seen or the next.
		lc := s.localConstraint(is, blk.Constraint)
		d := p.JBlockData(b)
		q.JBlock = append(q.JBlock, solver.JBlock{Constraint: lc, Clique: int(s.local[blk.Clique]), Off: len(q.JData)})
		q.JData = append(q.JData, d...)
	}
}

// floats returns how many float64 the island takes from the arena: A, v*,
// diag(M), v0, v̂, R, params, J's data, and the result's v, γ and v_c.
func (is *island) floats() int {
	return is.na + 3*is.nv + 2*is.nr + is.np + is.nd + is.nv + 2*is.nr
}

// localConstraint returns the index of constraint ct within island is,
// found by binary search in its increasing constraint list.
func (s *Solver) localConstraint(is *island, ct int) int {
	lo, hi := 0, len(is.cons)
	for lo < hi {
		m := (lo + hi) / 2
		if int(is.cons[m]) < ct {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo
}

// solveWhole solves p, which forms a single island, whole with the first
// worker's inner solver, as the inner solver alone would (the cliques
// without contacts included): the same bits, without the cost of copying
// the island's sub-problem out and its solution back and of recomputing
// e_m (8–10% of a step of the 100-sphere stack and the 10 perturbed cubes,
// BENCHMARKS.md's twenty-first pass), which gains nothing for one island.
// Island(0) reports the island's cliques and constraints and the solve's
// statistics.
func (s *Solver) solveWhole(p *solver.Problem, v0 []float64, res *solver.Result) error {
	if len(s.inner) < s.workers {
		s.makeInner() // the first call's solvers
	}
	err := s.inner[0].Solve(p, v0, res)
	s.islands[0].res.Stats = res.Stats
	return err
}

// makeInner creates the workers' inner solvers that do not exist yet.
func (s *Solver) makeInner() {
	for len(s.inner) < s.workers {
		in := s.newInner()
		if pr, ok := in.(solver.Profiler); ok {
			pr.SetProfile(s.profile)
		}
		s.inner = append(s.inner, in)
	}
}

// solveAll solves every island, in the caller's goroutine or on the
// workers.
func (s *Solver) solveAll() {
	s.makeInner()
	if s.workers <= 1 || s.n <= 1 {
		for k := range s.n {
			s.solveOne(s.inner[0], k)
		}
		return
	}
	if s.start == nil {
		s.start = make([]chan struct{}, s.workers)
		for w := range s.workers {
			s.start[w] = make(chan struct{}, 1)
			go s.work(w, s.start[w])
		}
	}
	s.schedule()
	s.wg.Add(s.workers)
	for _, c := range s.start {
		c <- struct{}{}
	}
	s.wg.Wait()
}

// schedule splits the islands among the workers: largest first (by the
// estimate NV + number of constraints), each to the worker with the least estimated work so
// far, ties to the lowest worker (longest-processing-time scheduling). The
// split is a function of the islands' sizes only, so a worker's solver sees
// the same sequence of islands in every run, and warms up (sizes its
// buffers) the same way; the results do not depend on it.
func (s *Solver) schedule() {
	cost := func(k int32) int { return s.islands[k].prob.NV + len(s.islands[k].prob.Constraints) }
	s.order = resize32(s.order, s.n)
	for k := range s.n {
		s.order[k] = int32(k)
	}
	slices.SortFunc(s.order, func(a, b int32) int {
		if c := cmp.Compare(cost(b), cost(a)); c != 0 {
			return c
		}
		return cmp.Compare(a, b)
	})
	for len(s.assign) < s.workers {
		s.assign = append(s.assign, nil)
		s.load = append(s.load, 0)
	}
	for w := range s.workers {
		s.assign[w], s.load[w] = s.assign[w][:0], 0
	}
	for _, k := range s.order {
		w := 0
		for v := 1; v < s.workers; v++ {
			if s.load[v] < s.load[w] {
				w = v
			}
		}
		s.assign[w] = append(s.assign[w], k)
		s.load[w] += cost(k)
	}
}

// work is worker w's goroutine: at each signal on start it solves the
// islands assigned to it with its inner solver.
func (s *Solver) work(w int, start <-chan struct{}) {
	for range start {
		for _, k := range s.assign[w] {
			s.solveOne(s.inner[w], int(k))
		}
		s.wg.Done()
	}
}

// solveOne solves island k with the inner solver in.
func (s *Solver) solveOne(in solver.Solver, k int) {
	is := &s.islands[k]
	is.err = in.Solve(&is.prob, is.v0, &is.res)
}

// merge writes the islands' results into res, in island order. A
// constraint without J blocks (v_c = 0) gets the impulse of its own cost
// at v_c = 0.
func (s *Solver) merge(p *solver.Problem, res *solver.Result) {
	res.V = solver.Resize(res.V, p.NV)
	res.Gamma = solver.Resize(res.Gamma, p.NR)
	res.VC = solver.Resize(res.VC, p.NR)
	copy(res.V, p.VStar) // cliques without constraints
	clear(res.Gamma)
	clear(res.VC)
	st := solver.Stats{}
	for k := range s.n {
		is := &s.islands[k]
		off := 0
		for _, c := range is.cliques {
			cq := p.Cliques[c]
			copy(res.V[cq.Offset:cq.Offset+cq.Size], is.res.V[off:off+cq.Size])
			off += cq.Size
		}
		for i, ct := range is.cons {
			c, lc := p.Constraints[ct], is.prob.Constraints[i]
			copy(res.Gamma[c.Row:c.Row+c.Size], is.res.Gamma[lc.Row:lc.Row+lc.Size])
			copy(res.VC[c.Row:c.Row+c.Size], is.res.VC[lc.Row:lc.Row+lc.Size])
		}
		r := is.res.Stats
		st.Status = worse(st.Status, r.Status)
		st.Iterations = max(st.Iterations, r.Iterations)
		st.MomentumFloor = max(st.MomentumFloor, r.MomentumFloor) // the largest island's, relative to its own momentum
		st.LineSearchIterations += r.LineSearchIterations
		st.Resolves += r.Resolves
		st.ResolveTime += r.ResolveTime
		st.Cost += r.Cost
		st.InitialCost += r.InitialCost
	}
	st.Cost += s.blockless(p, res)
	var ok bool
	st.MomentumError, st.ComplementarityError, ok = s.errors(p, res, st.Cost)
	if ok && (st.Status == solver.Stalled || st.Status == solver.MaxIterations || st.Status == solver.RoundOff) {
		st.Status, st.MomentumFloor = solver.Converged, 0
	}
	res.Stats = st
}

// blockless sets γ of the constraints that touch no clique (J = 0, so
// v_c = 0 whatever v) from their cost at v_c = 0, and returns the sum of
// those costs. Such constraints are in no island.
func (s *Solver) blockless(p *solver.Problem, res *solver.Result) float64 {
	if len(p.Constraints) == 0 {
		return 0
	}
	cost, b := 0.0, 0
	for i, c := range p.Constraints {
		for b < len(p.JBlock) && p.JBlock[b].Constraint < i {
			b++
		}
		if b < len(p.JBlock) && p.JBlock[b].Constraint == i {
			continue
		}
		s.vc1 = solver.Resize(s.vc1, c.Size)
		clear(s.vc1)
		cost += p.Eval(i, s.vc1, res.Gamma[c.Row:c.Row+c.Size], nil)
	}
	return cost
}

// worse returns the worse of two statuses.
func worse(a, b solver.Status) solver.Status {
	rank := func(x solver.Status) int {
		switch x {
		case solver.Converged:
			return 0
		case solver.RoundOff:
			return 1
		case solver.Stalled:
			return 2
		case solver.MaxIterations:
			return 3
		}
		return 4
	}
	if rank(b) > rank(a) {
		return b
	}
	return a
}

// errors returns e_m (SAP eq. 32) and e_μ (eq. 33) of the whole problem at
// the merged v and γ (solver.ResidualScratch.Momentum,
// solver.ComplementarityError), and whether eq. (26) holds with the
// tolerances of SetTolerance (false when they are zero).
func (s *Solver) errors(p *solver.Problem, res *solver.Result, cost float64) (em, emu float64, optimal bool) {
	em, num, den, _ := s.resid.Momentum(p, res.V, res.Gamma)
	if s.absTol > 0 || s.relTol > 0 {
		optimal = num < s.absTol+s.relTol*den
	}
	return em, solver.ComplementarityError(p, res.VC, res.Gamma, cost), optimal
}

func resizeBool(s []bool, n int) []bool {
	if cap(s) < n {
		return make([]bool, n, max(n, 2*cap(s)))
	}
	return s[:n]
}

func resize32(s []int32, n int) []int32 {
	if cap(s) < n {
		return make([]int32, n, max(n, 2*cap(s)))
	}
	return s[:n]
}

func resizeBlocks(s []solver.JBlock, n int) []solver.JBlock {
	if cap(s) < n {
		return make([]solver.JBlock, n, max(n, 2*cap(s)))
	}
	return s[:n]
}

func resizeCliques(s []solver.Clique, n int) []solver.Clique {
	if cap(s) < n {
		return make([]solver.Clique, n, max(n, 2*cap(s)))
	}
	return s[:n]
}

func resizeConstraints(s []solver.Constraint, n int) []solver.Constraint {
	if cap(s) < n {
		return make([]solver.Constraint, n, max(n, 2*cap(s)))
	}
	return s[:n]
}

// CheckKind implements solver.KindChecker: that of the solvers it makes.
func (s *Solver) CheckKind(k solver.Kind) error { return solver.CheckKind(s.newInner(), k) }
