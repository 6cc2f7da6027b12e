package solver

import (
	"fmt"
	"math"
	"slices"

	"github.com/stiction-sim/stiction/linalg"
)

// Clique is one diagonal block of A: the generalized velocities
// v[Offset : Offset+Size] of one kinematic tree.
type Clique struct {
	Offset int // first generalized velocity of the clique
	Size   int // number of generalized velocities
	AOff   int // offset of the clique's Size×Size row-major block in Problem.A
	// Parent, when not nil, gives each velocity's parent within the
	// clique (Size entries, −1 for a root, Parent[i] < i): the velocities
	// of a kinematic tree, whose mass matrix is zero between velocities
	// neither of which is an ancestor of the other. CliqueFactor then
	// factors a branched block along the tree (linalg.TreeLDL) when the
	// block has that pattern. It is read, never written.
	Parent []int
}

// Constraint is one constraint block of the problem: Size consecutive rows
// of J, v̂ and R starting at Row, whose convex cost ℓ_i(v_c,i) is given by
// its Kind and its parameters Problem.Params[Par : Par+Kind.NumParams()].
type Constraint struct {
	Kind Kind
	Row  int // first row in the row vectors (VHat, R, Result.Gamma, Result.VC)
	Size int // number of rows
	Par  int // first parameter in Problem.Params
}

// JBlock is the non-zero Size×CliqueSize block of J that couples constraint
// Constraint with clique Clique, stored row-major at
// Problem.JData[Off:Off+Size*CliqueSize].
type JBlock struct {
	Constraint int
	Clique     int
	Off        int
}

// Problem is the discrete problem of one time step (SAP eq. 24 with the
// constraint costs of each Kind). All slices are owned by the caller and may
// be reused across steps.
type Problem struct {
	NV      int       // number of generalized velocities
	Cliques []Clique  // diagonal blocks of A, in increasing Offset, covering [0, NV)
	A       []float64 // concatenated row-major clique blocks of A (SPD)
	VStar   []float64 // free-motion velocities v*, length NV
	MDiag   []float64 // diag(M), length NV, for the scaling D = diag(M)^(−1/2) of eq. 25

	Constraints []Constraint // constraint blocks, rows in order: Constraints[i].Row = Σ_{j<i} Size_j
	NR          int          // number of constraint rows, Σ Size
	JBlock      []JBlock     // non-zero blocks of J, sorted by Constraint then Clique
	JData       []float64    // storage for the blocks
	VHat        []float64    // bias (stabilization) velocities v̂, length NR
	R           []float64    // diagonal regularization R, length NR (positive)
	Params      []float64    // per-kind parameters (μ, bounds, …), see Kind
}

// Reset empties the problem for reuse, keeping capacity.
func (p *Problem) Reset(nv int) {
	p.NV = nv
	p.Cliques = p.Cliques[:0]
	p.A = p.A[:0]
	p.VStar = Resize(p.VStar, nv)
	p.MDiag = Resize(p.MDiag, nv)
	p.Constraints = p.Constraints[:0]
	p.NR = 0
	p.JBlock = p.JBlock[:0]
	p.JData = p.JData[:0]
	p.VHat = p.VHat[:0]
	p.R = p.R[:0]
	p.Params = p.Params[:0]
}

// NumConstraints returns the number of constraint blocks.
func (p *Problem) NumConstraints() int { return len(p.Constraints) }

// AddConstraint appends a constraint block of the given kind and number of
// rows, with v̂ and R of its rows set to zero and its parameters params, and
// returns its index. The caller then sets VHat and R of rows
// [Row, Row+size) and adds the constraint's J blocks with AddJBlock, in
// increasing clique order, before adding the next constraint.
func (p *Problem) AddConstraint(kind Kind, size int, params ...float64) int {
	i, l := len(p.Constraints), len(p.Params)
	if i == cap(p.Constraints) || cap(p.VHat)-len(p.VHat) < size || cap(p.R)-len(p.R) < size || cap(p.Params)-l < len(params) {
		p.growConstraint(size, len(params))
	}
	p.Constraints = p.Constraints[:i+1]
	p.Constraints[i] = Constraint{Kind: kind, Row: p.NR, Size: size, Par: l}
	p.NR += size
	zeroTail(&p.VHat, size)
	zeroTail(&p.R, size)
	p.Params = p.Params[:l+len(params)]
	dst := p.Params[l:][:len(params)] // a local: a store through p.Params reloads it, and checks its bounds, at every entry
	for k, x := range params {        // a few values: a loop, not a call to memmove
		dst[k] = x
	}
	return i
}

// growConstraint makes room for one more constraint of size rows and
// npar parameters (AddConstraint; out of line: the growths, each amortized
// as append's, happen on a simulation's first steps, and inlined they sat
// between AddConstraint's hot blocks).
//
//go:noinline
func (p *Problem) growConstraint(size, npar int) {
	p.Constraints = slices.Grow(p.Constraints, 1)
	p.VHat, p.R = slices.Grow(p.VHat, size), slices.Grow(p.R, size)
	p.Params = slices.Grow(p.Params, npar)
}

// zeroTail appends n zeros to *s, in its capacity (the caller grew it).
// The zeros are a constraint's few rows: stored by a loop, not a call to
// memclr (which the compiler makes of clear and of a range loop that
// stores zeros). *s is resliced in place, its length stored alone: the
// slice returned and assigned back stored its pointer too, under the
// write barrier (two instruction-cache lines of AddConstraint).
func zeroTail(s *[]float64, n int) {
	l := len(*s)
	*s = (*s)[:l+n]
	t := *s
	for k := l; k < len(t); k++ {
		t[k] = 0
	}
}

// AddJBlock appends the J block of constraint c (the last one added) on
// clique q and returns its storage, Size×Size(q) row-major, zeroed.
func (p *Problem) AddJBlock(c, q int) []float64 {
	blk := p.newJBlock(c, q)
	clear(blk)
	return blk
}

// AddJBlockFrom is AddJBlock with the block's entries copied from src
// (row-major; entries src does not reach are zero), without zeroing the
// storage first: a caller that has built the block elsewhere (contact's
// assembler) writes each entry once.
func (p *Problem) AddJBlockFrom(c, q int, src []float64) {
	blk := p.newJBlock(c, q)
	k := copy(blk, src)
	if k < len(blk) {
		clear(blk[k:])
	}
}

// newJBlock appends the J block of constraint c on clique q and returns its
// storage, Size×Size(q), as it was (not cleared).
func (p *Problem) newJBlock(c, q int) []float64 {
	n := p.Constraints[c].Size * p.Cliques[q].Size
	off, b := len(p.JData), len(p.JBlock)
	if b == cap(p.JBlock) || cap(p.JData)-off < n {
		p.growJBlock(n)
	}
	p.JBlock = p.JBlock[:b+1]
	p.JBlock[b] = JBlock{Constraint: c, Clique: q, Off: off}
	d := p.JData[:off+n] // a local: returned from p.JData, the slice was loaded and checked again
	p.JData = p.JData[:off+n]
	return d[off:]
}

// growJBlock makes room for one more J block of n entries (newJBlock;
// out of line: the growths, amortized as append's, happen on a
// simulation's first steps, and inlined they sat between the hot blocks).
//
//go:noinline
func (p *Problem) growJBlock(n int) {
	p.JBlock = slices.Grow(p.JBlock, 1)
	p.JData = slices.Grow(p.JData, n)
}

// JRows collects the J blocks of one constraint being built, one per
// clique it touches: two for a contact, any number for a tendon over
// joints of several trees. Its storage is kept from constraint to
// constraint and grows to the most blocks and largest blocks seen.
type JRows struct {
	N       int         // blocks in use
	Cliques []int       // Cliques[:N]: the blocks' cliques
	Data    [][]float64 // Data[:N]: the blocks, row-major
}

// Slot returns the block of clique q, adding it (n entries, zeroed) if
// the constraint has none yet.
func (r *JRows) Slot(q, n int) []float64 {
	for i := range r.N {
		if r.Cliques[i] == q {
			return r.Data[i]
		}
	}
	i := r.N
	r.N++
	if i == len(r.Cliques) {
		r.Cliques = append(r.Cliques, 0)
		r.Data = append(r.Data, nil)
	}
	r.Cliques[i] = q
	r.Data[i] = Resize(r.Data[i], n)
	clear(r.Data[i])
	return r.Data[i]
}

// Sort puts the blocks in increasing clique order, the order AddJBlock
// wants them in: an insertion sort, which leaves sorted blocks as they
// are.
func (r *JRows) Sort() {
	for i := 1; i < r.N; i++ {
		for j := i; j > 0 && r.Cliques[j-1] > r.Cliques[j]; j-- {
			r.Cliques[j-1], r.Cliques[j] = r.Cliques[j], r.Cliques[j-1]
			r.Data[j-1], r.Data[j] = r.Data[j], r.Data[j-1]
		}
	}
}

// Add sorts the blocks and appends them to p as constraint c's J blocks
// (AddJBlockFrom: each entry written once, not zeroed first and then
// copied over).
func (r *JRows) Add(p *Problem, c int) {
	r.Sort()
	for i := range r.N {
		p.AddJBlockFrom(c, r.Cliques[i], r.Data[i])
	}
}

// Resize returns s with length n, reusing its storage when it can and
// keeping the first min(len(s), n) elements; new elements are not cleared
// when storage is reused. Growth is amortized (at least doubling), so that
// a slice grown block by block allocates O(log n) times.
//
// It is inlined at every call (some 160 in the module), and growth is
// rare after a simulation's first steps, so the growth is out of line
// (grow): inlined, its allocation and copy sat between the hot blocks of
// every caller (BENCHMARKS.md, the hundred-and-twenty-seventh pass). Its
// inlining cost (71) leaves a one-call wrapper inlinable too.
func Resize(s []float64, n int) []float64 {
	if cap(s) < n {
		return grow(s, n)
	}
	return s[:n]
}

// grow is Resize for a slice whose storage is too short.
//
//go:noinline
func grow(s []float64, n int) []float64 {
	ns := make([]float64, n, max(n, 2*cap(s)))
	copy(ns, s)
	return ns
}

// ABlock returns the row-major Size×Size block of A for clique c.
func (p *Problem) ABlock(c int) []float64 {
	q := p.Cliques[c]
	return p.A[q.AOff : q.AOff+q.Size*q.Size]
}

// JBlockData returns the row-major Size×CliqueSize data of block b.
func (p *Problem) JBlockData(b int) []float64 {
	blk := p.JBlock[b]
	n := p.Constraints[blk.Constraint].Size * p.Cliques[blk.Clique].Size
	return p.JData[blk.Off : blk.Off+n]
}

// Rows returns the row range [lo, hi) of constraint i.
func (p *Problem) Rows(i int) (lo, hi int) {
	c := p.Constraints[i]
	return c.Row, c.Row + c.Size
}

// Par returns the parameters of constraint i.
func (p *Problem) Par(i int) []float64 {
	c := p.Constraints[i]
	return p.Params[c.Par : c.Par+c.Kind.NumParams()]
}

// MulA sets out = A x, clique by clique (linalg.MulVec: each row's
// products added in column order, as a row-by-row loop does, the same
// bits). out and x must not alias.
func (p *Problem) MulA(x, out []float64) {
	for c, q := range p.Cliques {
		linalg.MulVec(q.Size, p.ABlock(c), x[q.Offset:q.Offset+q.Size], out[q.Offset:q.Offset+q.Size])
	}
}

// MulJ sets vc = J v (length NR).
func (p *Problem) MulJ(v, vc []float64) {
	clear(vc[:p.NR])
	for b := range p.JBlock {
		p.mulJBlock(b, v, vc)
	}
}

// MulJBlocks sets the rows of vc of the constraints whose J blocks are
// lo … hi−1 (whole runs of blocks, J blocks being sorted by constraint)
// to J v, with the same bits as MulJ gives them: a builder that solves
// a problem made from p's rows (sim's pyramid) computes the rows it
// changed only.
func (p *Problem) MulJBlocks(lo, hi int, v, vc []float64) {
	for b := lo; b < hi; b++ {
		c := p.Constraints[p.JBlock[b].Constraint]
		clear(vc[c.Row : c.Row+c.Size])
	}
	for b := lo; b < hi; b++ {
		p.mulJBlock(b, v, vc)
	}
}

// mulJBlock adds J block b's rows times v to its constraint's rows of vc.
// A contact's three rows go in one pass over v; blocks of other sizes
// take mulJRows, out of line, whose loop lay between the contact path's
// hot blocks.
func (p *Problem) mulJBlock(b int, v, vc []float64) {
	blk := &p.JBlock[b]
	q, c := &p.Cliques[blk.Clique], &p.Constraints[blk.Constraint] // in place: a Clique is 6 words
	if c.Size != 3 {
		p.mulJRows(blk, q, c, v, vc)
		return
	}
	vs := v[q.Offset:][:q.Size]
	n := len(vs)
	d := p.JData[blk.Off:][:3*n] // JBlockData(b), without its copies
	// each row summed in the same order as mulJRows's; the rows sliced one
	// after the other, n wide (as vs), so that the loop checks no bound
	r0, r12 := d[:n], d[n:]
	r1, r2 := r12[:n], r12[n:]
	r2 = r2[:n]
	s0, s1, s2 := 0.0, 0.0, 0.0
	for j, x := range vs {
		s0 += r0[j] * x
		s1 += r1[j] * x
		s2 += r2[j] * x
	}
	o := vc[c.Row:][:3] // one bounds check for the three rows
	o[0] += s0
	o[1] += s1
	o[2] += s2
}

// mulJRows is mulJBlock for a block of other than three rows (blk, its
// clique q and constraint c): each row's sum from +0 in column order,
// added to vc.
//
//go:noinline
func (p *Problem) mulJRows(blk *JBlock, q *Clique, c *Constraint, v, vc []float64) {
	n := q.Size
	d := p.JData[blk.Off : blk.Off+c.Size*n]
	vs := v[q.Offset : q.Offset+n]
	for r := range c.Size {
		s := 0.0
		row := d[r*n : (r+1)*n]
		vs := vs[:len(row)]
		for j, jij := range row {
			s += jij * vs[j]
		}
		vc[c.Row+r] += s
	}
}

// MulJT sets out = Jᵀ γ (length NV). Rows whose γ_r is zero (a limit
// away from its bound, an idle actuator) are skipped: with J finite, as
// Validate requires, their products are ±0 and leave out unchanged but
// for the sign of a zero.
func (p *Problem) MulJT(gamma, out []float64) {
	clear(out[:p.NV])
	for b, blk := range p.JBlock {
		q := p.Cliques[blk.Clique]
		c := p.Constraints[blk.Constraint]
		d := p.JBlockData(b)
		g := gamma[c.Row : c.Row+c.Size]
		for r, gr := range g {
			if gr == 0 {
				continue
			}
			row := d[r*q.Size : (r+1)*q.Size]
			o := out[q.Offset : q.Offset+q.Size][:len(row)]
			for j, jij := range row {
				o[j] += jij * gr
			}
		}
	}
}

// DenseA returns A as a dense row-major NV×NV matrix (for tests and small
// problems; it allocates).
func (p *Problem) DenseA() []float64 {
	a := make([]float64, p.NV*p.NV)
	for c, q := range p.Cliques {
		blk := p.ABlock(c)
		for i := range q.Size {
			for j := range q.Size {
				a[(q.Offset+i)*p.NV+q.Offset+j] = blk[i*q.Size+j]
			}
		}
	}
	return a
}

// DenseJ returns J as a dense row-major NR×NV matrix (for tests; it
// allocates).
func (p *Problem) DenseJ() []float64 {
	jd := make([]float64, p.NR*p.NV)
	for b, blk := range p.JBlock {
		q := p.Cliques[blk.Clique]
		c := p.Constraints[blk.Constraint]
		d := p.JBlockData(b)
		for r := range c.Size {
			for j := range q.Size {
				jd[(c.Row+r)*p.NV+q.Offset+j] += d[r*q.Size+j]
			}
		}
	}
	return jd
}

// RowError is a Validate error on one constraint row (R or VHat), so that
// the caller can say which contact or constraint the row belongs to.
type RowError struct {
	Field string // "R" or "VHat"
	Row   int
	Value float64
	Want  string // what the value must be
}

func (e *RowError) Error() string {
	return fmt.Sprintf("solver: %s[%d] = %v must be %s", e.Field, e.Row, e.Value, e.Want)
}

// Validate checks the shapes of all slices, that cliques tile [0, NV), that
// constraint rows tile [0, NR), that J blocks are sorted and in range, that
// every number is finite, that diag(M) > 0 and R > 0, and each constraint's
// kind-specific conditions (Kind.validate: friction coefficients ≥ 0, bounds
// ordered, equal tangential regularization of SAP contacts, …). It does not
// check that A is positive definite; the solver's factorization reports that.
func (p *Problem) Validate() error {
	if err := p.ValidateStructure(); err != nil {
		return err
	}
	return p.ValidateNumbers()
}

// ValidateNumbers checks the part of Validate that ValidateStructure does
// not: every number finite, diag(M) > 0, R > 0 and each constraint's
// kind-specific conditions. p's structure must be valid (ValidateStructure
// returned nil for it, or for a problem of the same structure: a solver
// that keeps the structure it validated last calls this alone while the
// structure is unchanged).
func (p *Problem) ValidateNumbers() error {
	if nanSum(p.A)+nanSum(p.VStar)+nanSum(p.JData)+nanSum(p.VHat) != 0 { // a NaN or ±Inf somewhere: find it
		if err := p.nonFinite(); err != nil {
			return err
		}
	}
	if !allPositiveFinite(p.MDiag) || !allPositiveFinite(p.R) { // one of them is not: find it
		if err := p.notPositive(); err != nil {
			return err
		}
	}
	for i, c := range p.Constraints {
		if c.Kind == ContactLagged && laggedOK(p.Params, c.Par, p.R, c.Row) {
			continue // the common block, checked in line (validate's conditions)
		}
		if err := c.Kind.validate(p.Par(i), p.R[c.Row:c.Row+c.Size]); err != nil {
			return constraintError(i, c.Kind, err)
		}
	}
	return nil
}

// constraintError is ValidateNumbers' error for constraint i of kind k
// (out of line: inlined, its formatting sat between the hot blocks).
//
//go:noinline
func constraintError(i int, k Kind, err error) error {
	return fmt.Errorf("solver: constraint %d (%v): %w", i, k, err)
}

// notPositive returns the error for the first entry of MDiag, then of R,
// that is not positive and finite, or nil when there is none.
func (p *Problem) notPositive() error {
	for i, m := range p.MDiag {
		if !(m > 0) || math.IsInf(m, 0) {
			return fmt.Errorf("solver: MDiag[%d] = %v must be positive and finite", i, m)
		}
	}
	for i, r := range p.R {
		if !(r > 0) || math.IsInf(r, 0) {
			return &RowError{Field: "R", Row: i, Value: r, Want: "positive and finite"}
		}
	}
	return nil
}

// maxPosFiniteBits is the bit pattern of math.MaxFloat64. A float64 x is
// positive and finite (x > 0 and not +Inf) exactly when its bits b lie in
// [1, maxPosFiniteBits]: +0 is 0; −0, the negative numbers and the NaNs
// with the sign bit set are above 1<<63; +Inf and the other NaNs are above
// maxPosFiniteBits. So b − 1 (wrapping +0 to 2⁶⁴ − 1) is below
// maxPosFiniteBits for the positive finite x and only for them.
const maxPosFiniteBits = 0x7FEFFFFFFFFFFFFF

// allPositiveFinite reports whether every element of s is positive and
// finite, as the test !(x > 0) || math.IsInf(x, 0) fails for each, without
// a branch per element: the largest b − 1 over the elements' bits b
// (maxPosFiniteBits), four at a time.
func allPositiveFinite(s []float64) bool {
	var m0, m1, m2, m3 uint64
	for len(s) >= 4 {
		m0 = max(m0, math.Float64bits(s[0])-1)
		m1 = max(m1, math.Float64bits(s[1])-1)
		m2 = max(m2, math.Float64bits(s[2])-1)
		m3 = max(m3, math.Float64bits(s[3])-1)
		s = s[4:]
	}
	for _, x := range s {
		m0 = max(m0, math.Float64bits(x)-1)
	}
	return max(m0, m1, m2, m3) < maxPosFiniteBits
}

// ValidateStructure checks the part of Validate that does not scan the
// numbers: the cliques, the constraint rows, the lengths of the slices and
// the J blocks. It is cheap (O(blocks)).
func (p *Problem) ValidateStructure() error {
	if err := p.validateShapes(); err != nil {
		return err
	}
	return p.validateJBlocks()
}

// validateShapes checks the cliques, the constraint rows and the lengths of
// the slices.
func (p *Problem) validateShapes() error {
	off, aoff := 0, 0
	for c, q := range p.Cliques {
		if q.Offset != off || q.Size <= 0 || q.AOff != aoff {
			return fmt.Errorf("solver: clique %d {Offset %d, Size %d, AOff %d} does not tile the velocities (want Offset %d, AOff %d)",
				c, q.Offset, q.Size, q.AOff, off, aoff)
		}
		off += q.Size
		aoff += q.Size * q.Size
	}
	switch {
	case off != p.NV:
		return fmt.Errorf("solver: cliques cover %d velocities, want NV = %d", off, p.NV)
	case len(p.A) != aoff:
		return fmt.Errorf("solver: len(A) = %d, want %d", len(p.A), aoff)
	case len(p.VStar) != p.NV || len(p.MDiag) != p.NV:
		return fmt.Errorf("solver: len(VStar) = %d, len(MDiag) = %d, want NV = %d", len(p.VStar), len(p.MDiag), p.NV)
	}
	row, par := 0, 0
	for i, c := range p.Constraints {
		if !c.Kind.valid() {
			return fmt.Errorf("solver: constraint %d has unknown kind %d", i, c.Kind)
		}
		if c.Row != row || !c.Kind.sizeOK(c.Size) || c.Par != par {
			return fmt.Errorf("solver: constraint %d (%v) {Row %d, Size %d, Par %d} does not tile the rows (want Row %d, Par %d, a size %s)",
				i, c.Kind, c.Row, c.Size, c.Par, row, par, c.Kind.sizeRule())
		}
		row += c.Size
		par += c.Kind.NumParams()
	}
	switch {
	case row != p.NR:
		return fmt.Errorf("solver: constraints cover %d rows, want NR = %d", row, p.NR)
	case len(p.VHat) != p.NR || len(p.R) != p.NR:
		return fmt.Errorf("solver: len(VHat) = %d, len(R) = %d for NR = %d", len(p.VHat), len(p.R), p.NR)
	case len(p.Params) != par:
		return fmt.Errorf("solver: len(Params) = %d, the constraints need %d", len(p.Params), par)
	}
	return nil
}

// validateJBlocks checks that J blocks are sorted by (constraint, clique),
// in range, and inside JData.
func (p *Problem) validateJBlocks() error {
	prev := JBlock{Constraint: -1, Clique: -1}
	for b, blk := range p.JBlock {
		if blk.Constraint < 0 || blk.Constraint >= len(p.Constraints) || blk.Clique < 0 || blk.Clique >= len(p.Cliques) {
			return fmt.Errorf("solver: J block %d (constraint %d, clique %d) out of range", b, blk.Constraint, blk.Clique)
		}
		if blk.Constraint < prev.Constraint || (blk.Constraint == prev.Constraint && blk.Clique <= prev.Clique) {
			return fmt.Errorf("solver: J blocks not sorted by (constraint, clique) at block %d", b)
		}
		if n := p.Constraints[blk.Constraint].Size * p.Cliques[blk.Clique].Size; blk.Off < 0 || blk.Off+n > len(p.JData) {
			return fmt.Errorf("solver: J block %d data [%d, %d) outside JData (len %d)", b, blk.Off, blk.Off+n, len(p.JData))
		}
		prev = blk
	}
	return nil
}

// nonFinite returns the error for the first NaN or ±Inf of A, VStar,
// JData and VHat, in that order (nil if there is none).
func (p *Problem) nonFinite() error {
	for _, f := range [...]struct {
		name string
		s    []float64
	}{{"A", p.A}, {"VStar", p.VStar}, {"JData", p.JData}, {"VHat", p.VHat}} {
		if i, ok := firstNonFinite(f.s); !ok {
			if f.name == "VHat" {
				return &RowError{Field: f.name, Row: i, Value: f.s[i], Want: "finite"}
			}
			return fmt.Errorf("solver: %s[%d] = %v is not finite", f.name, i, f.s[i])
		}
	}
	return nil
}

// nanSum returns 0 when every element of s is finite and NaN otherwise:
// x − x is 0 for finite x and NaN for ±Inf and NaN, and a NaN stays in a
// sum. One branch-free pass over s (it runs on every solve); four
// independent sums, so that the additions do not wait on each other, eight
// elements a step (a re-slice costs about as much as four elements' sums).
func nanSum(s []float64) float64 {
	var a0, a1, a2, a3 float64
	for len(s) >= 8 {
		a0 += (s[0] - s[0]) + (s[4] - s[4])
		a1 += (s[1] - s[1]) + (s[5] - s[5])
		a2 += (s[2] - s[2]) + (s[6] - s[6])
		a3 += (s[3] - s[3]) + (s[7] - s[7])
		s = s[8:]
	}
	if len(s) >= 4 {
		a0 += s[0] - s[0]
		a1 += s[1] - s[1]
		a2 += s[2] - s[2]
		a3 += s[3] - s[3]
		s = s[4:]
	}
	for _, x := range s {
		a0 += x - x
	}
	return a0 + a1 + a2 + a3
}

// firstNonFinite returns the index of the first NaN or ±Inf of s and
// false, or 0 and true when every element is finite (the search runs only
// when nanSum says something is wrong).
func firstNonFinite(s []float64) (int, bool) {
	if nanSum(s) == 0 {
		return 0, true
	}
	for i, x := range s {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return i, false
		}
	}
	return 0, true
}

// Clone returns a deep copy of p.
func (p *Problem) Clone() *Problem {
	return &Problem{
		NV: p.NV, Cliques: slices.Clone(p.Cliques), A: slices.Clone(p.A), VStar: slices.Clone(p.VStar), MDiag: slices.Clone(p.MDiag),
		Constraints: slices.Clone(p.Constraints), NR: p.NR, JBlock: slices.Clone(p.JBlock), JData: slices.Clone(p.JData),
		VHat: slices.Clone(p.VHat), R: slices.Clone(p.R), Params: slices.Clone(p.Params),
	}
}
