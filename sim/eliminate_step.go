package sim

import (
	"github.com/stiction-sim/stiction/constraint"
	"github.com/stiction-sim/stiction/multibody"
	"github.com/stiction-sim/stiction/solver"
	"github.com/stiction-sim/stiction/spatial"
)

// buildP fills c and the P blocks for the step: unknowns map to themselves,
// prescribed velocities to v_ρ(t1), attached velocities to T times their
// master's rows plus δt times the bias acceleration (the fictitious terms
// of notes §0.19), attachments in dependency order (§0.18). kin holds the
// kinematics the step is linearized at: (q0, v0) for θq = 0, else the
// mid-step (q^θq, v^θv) of the linearization velocities; kin0 holds the
// kinematics at q0 (for the attachment errors); v0 are the velocities at
// the start of the step.
func (e *elimination) buildP(m *multibody.Model, kin, kin0 *multibody.Workspace, v0 []float64, t1, dt float64) {
	clear(e.pd)
	clear(e.c)
	for t := range m.Trees {
		blk := e.pblock(m, t)
		if blk == nil {
			continue
		}
		tr, cl := &m.Trees[t], &e.cl[e.treeC[t]]
		for i := range tr.NV {
			if r := e.ridx[tr.VOffset+i]; r >= 0 {
				blk[i*cl.size+r-cl.off] = 1
			}
		}
	}
	for _, p := range e.presc {
		if p.k >= 0 {
			_, e.c[p.vi] = e.set.Prescribed[p.item].Motion[p.k].Eval(t1)
		}
	}
	for _, i := range e.order {
		e.viol[i] = e.attachError(m, kin0, i)
		e.attachRows(m, kin, v0, i, dt)
	}
}

// attachRows sets the rows of attachment i's attached velocities. With
// T = [J_ω,m; J_p,m(x)] at kin's configuration (x the body origin, or the
// held point), plus, for a held point, [r]× on ω_β (r from the body origin
// to the point), the velocity change over the step is
// v_β1 − v_β0 = T (v_m1 − v_m0) + δt Ṫ v^θ, so the rows are T expressed
// through the master's own rows, and
//
//	c_β += v_β0 − T v_m0 + δt (α_m, a_m + α_m × ρ + ω_m × (ω_m × ρ) [− ω_β × (ω_β × r)]),
//
// the velocity-product acceleration of the attachment at kin's velocities
// (notes §0.19). With θq = 0, kin is at (q0, v0) and v_β0 = T v_m0 (the
// body was placed on its master), so c_β is δt Ṫ v0; with θq > 0, T and
// Ṫ v are taken at the mid-step, which keeps the midpoint rule second
// order.
func (e *elimination) attachRows(m *multibody.Model, kin *multibody.Workspace, v0 []float64, i int, dt float64) {
	at := &e.set.Attachments[i]
	bd := &m.Bodies[at.Body]
	tb := bd.Tree
	xb := kin.Pose(at.Body)
	x := xb.P
	if at.PointOnly {
		x = xb.Apply(at.Point)
	}
	var bias [6]float64
	row0 := 0
	if at.PointOnly {
		row0 = 3
	}
	if at.Master >= 0 && m.Bodies[at.Master].Tree >= 0 {
		tm := m.Bodies[at.Master].Tree
		n := m.Trees[tm].NV
		e.jac = solver.Resize(e.jac, 6*n)
		kin.AngularJacobian(at.Master, e.jac[:3*n])
		kin.PointJacobian(at.Master, x, e.jac[3*n:])
		off := m.Trees[tm].VOffset
		for r := row0; r < 6; r++ {
			row := e.jac[r*n : (r+1)*n]
			e.substitute(m, tb, bd.VOff+r, tm, row)
			for j, x := range row {
				bias[r] -= x * v0[off+j] / dt // − T v_m0, as δt × (…)/δt
			}
		}
		am, lm := kin.BiasAcceleration(at.Master)
		wm, _ := kin.Velocity(at.Master)
		rho := x.Sub(kin.Pose(at.Master).P)
		lin := lm.Add(am.Cross(rho)).Add(wm.Cross(wm.Cross(rho)))
		for k := range 3 {
			bias[k] += am[k]
			bias[3+k] += lin[k]
		}
	}
	if at.PointOnly {
		r := x.Sub(xb.P)
		wb, _ := kin.Velocity(at.Body)
		cen := wb.Cross(wb.Cross(r))
		s := spatial.Skew(r)
		for a := range 3 {
			for b := range 3 {
				e.substituteOne(m, tb, bd.VOff+3+a, tb, bd.VOff+b, s[a][b])
				bias[3+a] -= s[a][b] * v0[bd.VOff+b] / dt
			}
			bias[3+a] -= cen[a]
		}
	}
	for r := row0; r < 6; r++ {
		e.c[bd.VOff+r] += dt*bias[r] + v0[bd.VOff+r]
	}
}

// substitute adds Σ_j coef[j]·(row j of tree tm) to row vi of tree tb:
// P_tb[vi] += Σ_j coef_j P_tm[j], c[vi] += Σ_j coef_j c[j].
func (e *elimination) substitute(m *multibody.Model, tb, vi, tm int, coef []float64) {
	off := m.Trees[tm].VOffset
	for j, x := range coef {
		if x != 0 {
			e.substituteOne(m, tb, vi, tm, off+j, x)
		}
	}
}

// substituteOne adds x times velocity vj's row (of tree tm) to row vi (of
// tree tb); the two trees share a reduced clique.
func (e *elimination) substituteOne(m *multibody.Model, tb, vi, tm, vj int, x float64) {
	e.c[vi] += x * e.c[vj]
	dst, src := e.pblock(m, tb), e.pblock(m, tm)
	if dst == nil || src == nil {
		return
	}
	n := e.cl[e.treeC[tb]].size
	di, sj := vi-m.Trees[tb].VOffset, vj-m.Trees[tm].VOffset
	d, s := dst[di*n:(di+1)*n], src[sj*n:(sj+1)*n]
	for k, y := range s {
		d[k] += x * y
	}
}

// attachError returns the distance of attachment i's body (or point) from
// where its master holds it, at the kinematics of kin (m and rad).
func (e *elimination) attachError(m *multibody.Model, kin *multibody.Workspace, i int) float64 {
	at := &e.set.Attachments[i]
	xm := spatial.PoseIdentity()
	if at.Master >= 0 {
		xm = kin.Pose(at.Master)
	}
	xb := kin.Pose(at.Body)
	if at.PointOnly {
		return xm.Apply(e.pts[i]).Sub(xb.Apply(at.Point)).Norm()
	}
	want := xm.Compose(e.rel[i])
	return want.P.Sub(xb.P).Norm() + constraint.RotationVector(want.R.Conj().Mul(xb.R)).Norm()
}

// reduce builds the reduced problem from the full one (notes §0.17–0.21):
// A' = Pᵀ A P and diag(Pᵀ M P) per reduced clique, v*' from
// A' v*' = Pᵀ A (v* − c), J' = J P and v̂' = v̂ − J c, R and the kinds'
// parameters unchanged.
func (e *elimination) reduce(m *multibody.Model, p *solver.Problem, mass []float64) error {
	rp := &e.rp
	rp.Reset(e.nu)
	e.tmp = solver.Resize(e.tmp, e.nu)
	clear(e.tmp) // Pᵀ A (v* − c)
	for ci := range e.cl {
		cl := &e.cl[ci]
		off := len(rp.A)
		rp.Cliques = append(rp.Cliques, solver.Clique{Offset: cl.off, Size: cl.size, AOff: off})
		rp.A = solver.Resize(rp.A, off+cl.size*cl.size)
		clear(rp.A[off:])
		for k := range cl.size {
			rp.MDiag[cl.off+k] = 0
		}
		for _, t := range cl.trees {
			e.reduceTree(m, p, mass, t, cl, rp.A[off:])
		}
	}
	if err := e.rf.Factor(rp); err != nil {
		return err
	}
	copy(rp.VStar, e.tmp)
	for _, q := range rp.Cliques {
		e.rf.Solve(q, rp.VStar[q.Offset:q.Offset+q.Size], 1)
	}
	e.reduceConstraints(m, p)
	return nil
}

// reduceTree adds tree t's part of A', diag(M') and Pᵀ A (v* − c) to its
// reduced clique (block a, n_C × n_C).
func (e *elimination) reduceTree(m *multibody.Model, p *solver.Problem, mass []float64, t int, cl *rclique, a []float64) {
	q := p.Cliques[t]
	at, mt := p.ABlock(t), mass[q.AOff:q.AOff+q.Size*q.Size]
	n, nc := q.Size, cl.size
	e.tmp2 = solver.Resize(e.tmp2, n)
	for i := range n { // A_t (v* − c)
		s := 0.0
		for j := range n {
			s += at[i*n+j] * (p.VStar[q.Offset+j] - e.c[q.Offset+j])
		}
		e.tmp2[i] = s
	}
	blk := e.pblock(m, t)
	if blk == nil {
		if !e.dense[t] { // P = I: the clique is this tree
			copy(a, at)
			for i := range n {
				rp := &e.rp
				rp.MDiag[cl.off+i] = mt[i*n+i]
				e.tmp[cl.off+i] += e.tmp2[i]
			}
		}
		return
	}
	// A' += Pᵀ A P, in two passes through X = A P (n × n_C) stored in xa.
	e.xa = solver.Resize(e.xa, n*nc)
	e.xm = solver.Resize(e.xm, n*nc)
	mulAP(at, blk, e.xa, n, nc)
	mulAP(mt, blk, e.xm, n, nc)
	for r := range nc {
		for c := range nc {
			s := 0.0
			for i := range n {
				s += blk[i*nc+r] * e.xa[i*nc+c]
			}
			a[r*nc+c] += s
		}
		d, b := 0.0, 0.0
		for i := range n {
			d += blk[i*nc+r] * e.xm[i*nc+r]
			b += blk[i*nc+r] * e.tmp2[i]
		}
		e.rp.MDiag[cl.off+r] += d
		e.tmp[cl.off+r] += b
	}
}

// mulAP sets x = a p for a (n × n) and p (n × nc), row-major.
func mulAP(a, p, x []float64, n, nc int) {
	clear(x[:n*nc])
	for i := range n {
		xi := x[i*nc : (i+1)*nc]
		for j := range n {
			aij := a[i*n+j]
			if aij == 0 {
				continue
			}
			pj := p[j*nc : (j+1)*nc]
			for k, y := range pj {
				xi[k] += aij * y
			}
		}
	}
}

// reduceConstraints copies the constraints into the reduced problem with
// J' = J P and v̂' = v̂ − J c.
func (e *elimination) reduceConstraints(m *multibody.Model, p *solver.Problem) {
	rp := &e.rp
	b := 0
	for i, c := range p.Constraints {
		k := rp.AddConstraint(c.Kind, c.Size, p.Par(i)...)
		copy(rp.R[c.Row:c.Row+c.Size], p.R[c.Row:c.Row+c.Size])
		copy(rp.VHat[c.Row:c.Row+c.Size], p.VHat[c.Row:c.Row+c.Size])
		e.acc.N = 0
		for ; b < len(p.JBlock) && p.JBlock[b].Constraint == i; b++ {
			e.reduceJBlock(m, p, b, c)
		}
		e.acc.Add(rp, k)
	}
}

// reduceJBlock maps J block b (of constraint c, on tree t) through P_t into
// the accumulator of its reduced clique and subtracts J_t c_t from v̂'.
func (e *elimination) reduceJBlock(m *multibody.Model, p *solver.Problem, b int, c solver.Constraint) {
	t := p.JBlock[b].Clique
	q := p.Cliques[t]
	jd := p.JBlockData(b)
	for r := range c.Size {
		s := 0.0
		for j := range q.Size {
			s += jd[r*q.Size+j] * e.c[q.Offset+j]
		}
		e.rp.VHat[c.Row+r] -= s
	}
	ci := e.treeC[t]
	if ci < 0 {
		return
	}
	nc := e.cl[ci].size
	dst := e.acc.Slot(ci, c.Size*nc)
	blk := e.pblock(m, t)
	if blk == nil { // P = I
		for k := range c.Size * nc {
			dst[k] += jd[k]
		}
		return
	}
	mulJP(jd, blk, dst, c.Size, q.Size, nc)
}

// mulJP adds j p to x, for j (rows × n) and p (n × nc), row-major.
func mulJP(j, p, x []float64, rows, n, nc int) {
	for r := range rows {
		xr := x[r*nc : (r+1)*nc]
		for i := range n {
			jri := j[r*n+i]
			if jri == 0 {
				continue
			}
			for k, y := range p[i*nc : (i+1)*nc] {
				xr[k] += jri * y
			}
		}
	}
}

// expand sets res (the full result) from the reduced one: v = P u + c,
// γ as solved, v_c = J v and the solver's statistics.
func (e *elimination) expand(m *multibody.Model, p *solver.Problem, res *solver.Result) {
	res.V = solver.Resize(res.V, m.NV)
	copy(res.V, e.c)
	u := e.rres.V
	for t := range m.Trees {
		tr := &m.Trees[t]
		ci := e.treeC[t]
		if ci < 0 {
			continue
		}
		cl := &e.cl[ci]
		blk := e.pblock(m, t)
		for i := range tr.NV {
			if blk == nil {
				res.V[tr.VOffset+i] = u[cl.off+i]
				continue
			}
			s := 0.0
			for k, x := range blk[i*cl.size : (i+1)*cl.size] {
				s += x * u[cl.off+k]
			}
			res.V[tr.VOffset+i] += s
		}
	}
	res.Gamma = solver.Resize(res.Gamma, p.NR)
	copy(res.Gamma, e.rres.Gamma)
	res.VC = solver.Resize(res.VC, p.NR)
	p.MulJ(res.V, res.VC)
	res.Stats = e.rres.Stats
}

// warmStart returns the unknowns' part of the full velocities v.
func (e *elimination) warmStart(v []float64) []float64 {
	e.u0 = solver.Resize(e.u0, e.nu)
	for i, r := range e.ridx {
		if r >= 0 {
			e.u0[r] = v[i]
		}
	}
	return e.u0
}

// enforce puts prescribed joints on their motion at time t and attached
// bodies where their masters hold them, positions and velocities, in
// dependency order (one kinematics pass per level of attachment). kin is
// scratch.
func (e *elimination) enforce(m *multibody.Model, s *multibody.State, kin *multibody.Workspace, t float64) {
	for _, p := range e.presc {
		pr := &e.set.Prescribed[p.item]
		if p.k < 0 {
			s.V[p.vi] = 0
			if p.vi == m.Bodies[pr.Body].VOff { // the held orientation, once
				q := s.Q[m.Bodies[pr.Body].QOff:]
				o := e.orient[p.item]
				q[0], q[1], q[2], q[3] = o.W, o.X, o.Y, o.Z
			}
			continue
		}
		s.Q[p.qi], s.V[p.vi] = pr.Motion[p.k].Eval(t)
	}
	maxDepth := -1
	for _, d := range e.depth {
		maxDepth = max(maxDepth, d)
	}
	for d := 0; d <= maxDepth; d++ {
		kin.Update(s.Q, s.V)
		for _, i := range e.order {
			if e.depth[i] == d {
				e.place(m, s, kin, i)
			}
		}
	}
}

// place sets the pose and velocity of attachment i's body from its
// master's in kin.
func (e *elimination) place(m *multibody.Model, s *multibody.State, kin *multibody.Workspace, i int) {
	at := &e.set.Attachments[i]
	bd := &m.Bodies[at.Body]
	xm, wm, vm := spatial.PoseIdentity(), spatial.Vec3{}, spatial.Vec3{}
	if at.Master >= 0 {
		xm = kin.Pose(at.Master)
		wm, vm = kin.Velocity(at.Master)
	}
	q, v := s.Q[bd.QOff:bd.QOff+7], s.V[bd.VOff:bd.VOff+6]
	if at.PointOnly {
		x := xm.Apply(e.pts[i])
		rb := spatial.Quat{W: q[0], X: q[1], Y: q[2], Z: q[3]}.Normalize()
		r := rb.Rotate(at.Point)
		w := spatial.Vec3{v[0], v[1], v[2]}
		p := x.Sub(r)
		lin := vm.Add(wm.Cross(x.Sub(xm.P))).Sub(w.Cross(r))
		q[4], q[5], q[6] = p[0], p[1], p[2]
		v[3], v[4], v[5] = lin[0], lin[1], lin[2]
		return
	}
	x := xm.Compose(e.rel[i])
	lin := vm.Add(wm.Cross(x.P.Sub(xm.P)))
	q[0], q[1], q[2], q[3] = x.R.W, x.R.X, x.R.Y, x.R.Z
	q[4], q[5], q[6] = x.P[0], x.P[1], x.P[2]
	v[0], v[1], v[2], v[3], v[4], v[5] = wm[0], wm[1], wm[2], lin[0], lin[1], lin[2]
}

// reports appends one Report per attachment and prescribed motion: the
// impulse (A(v − v*) − Jᵀγ) on the eliminated velocities, the master's
// impulse on the attached body or f_ρ δt (notes §0.21), with v the
// velocities at the end of the step (attached bodies placed on their
// masters), so that it is the impulse that changed their momentum.
func (e *elimination) reports(sim *Simulator, out []constraint.Report) []constraint.Report {
	if !e.on {
		return out
	}
	m, p, res := sim.Model, &sim.ws.problem, &sim.ws.result
	e.rv = solver.Resize(e.rv, m.NV)
	e.tmp2 = solver.Resize(e.tmp2, m.NV)
	p.MulJT(res.Gamma, e.tmp2)
	for t, q := range p.Cliques {
		if !e.dense[t] {
			continue
		}
		a := p.ABlock(t)
		for i := range q.Size {
			s := 0.0
			for j := range q.Size {
				s += a[i*q.Size+j] * (sim.State.V[q.Offset+j] - p.VStar[q.Offset+j])
			}
			e.rv[q.Offset+i] = s - e.tmp2[q.Offset+i]
		}
	}
	for i := range e.set.Attachments {
		at := &e.set.Attachments[i]
		r := constraint.Report{Type: constraint.TypeAttachment, Item: i, Name: at.Name, Rows: 6, State: constraint.Active, Violation: e.viol[i]}
		vo := m.Bodies[at.Body].VOff
		if at.PointOnly {
			r.Rows, vo = 3, vo+3
		}
		copy(r.Impulse[:r.Rows], e.rv[vo:vo+r.Rows])
		out = append(out, r)
	}
	for i := range e.set.Prescribed {
		pr := &e.set.Prescribed[i]
		r := constraint.Report{Type: constraint.TypePrescribed, Item: i, Name: pr.Name, State: constraint.Active}
		for _, ps := range e.presc {
			if ps.item == i && r.Rows < constraint.MaxRows {
				r.Impulse[r.Rows] = e.rv[ps.vi]
				r.Rows++
			}
		}
		out = append(out, r)
	}
	return out
}
