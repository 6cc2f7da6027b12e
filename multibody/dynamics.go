package multibody

import (
	"errors"

	"github.com/stiction-sim/stiction/spatial"
)

// cross returns a × b on scalars, as spatial.Vec3.Cross computes it.
func cross(a0, a1, a2, b0, b1, b2 float64) (float64, float64, float64) {
	return a1*b2 - a2*b1, a2*b0 - a0*b2, a0*b1 - a1*b0
}

// mulVec returns M v on scalars, as spatial.Mat3.MulVec computes it.
func mulVec(M *spatial.Mat3, v0, v1, v2 float64) (float64, float64, float64) {
	return M[0][0]*v0 + M[0][1]*v1 + M[0][2]*v2,
		M[1][0]*v0 + M[1][1]*v1 + M[1][2]*v2,
		M[2][0]*v0 + M[2][1]*v1 + M[2][2]*v2
}

// MassMatrix writes the NV_t×NV_t mass matrix block of tree t (row-major)
// into out by the composite-rigid-body algorithm (Featherstone, RBDA §6.2):
// with the composite inertia I^c_i of body i's subtree,
// M[j][k] = S_jᵀ I^c_i S_k for j a dof of i or of an ancestor of i and k a
// dof of i. Composite inertias are kept as (mass, centre of mass,
// rotational inertia about it), which a sum of rigid bodies remains. Each
// joint's armature is then added to its diagonal entries.
func (ws *Workspace) MassMatrix(t int, out []float64) {
	tr := &ws.m.Trees[t]
	if b := tr.Bodies[0]; len(tr.Bodies) == 1 && ws.kind[b] == kindFreeRoot { // a free joint under the world
		ws.crbaFreeBody(b, out) // writes every entry: no clear
		return
	}
	ws.crbaColumns(tr, out)
}

// crbaColumns fills M from the leaves to the root, column by column,
// adding each body's composite inertia to its parent's, and each joint's
// armature to its diagonal entries once their columns are written (no
// later column writes M[c][c], so this is the sum a pass over the bodies
// after the columns made). It clears M first (the entries of two
// velocities on different branches are not written) and starts the
// composite inertias as the bodies' own, as the last Update left them (the
// mass is kin's, beside its centre of mass, not the Body's), in a loop of
// its own over the tree: MassMatrix's work until the 170th pass, whose
// prologue, slice checks and spills were a second set of once-a-step
// lines (a call of its own, crbaStart, saved fewer: see BENCHMARKS.md).
//
// Column c of body b is S_jᵀ (N, F) for the velocities j of b up to c and
// of b's ancestors, with F = I^c S_c (linear momentum) and N the angular
// momentum about x_b, moved to each parent's origin by the lever
// (kin.lev) on the way up. On scalars, the products and sums of the Vec3
// form in the same order (TestCRBAColumnMatchesVectorForm): Go keeps a
// Vec3 in memory. The columns are made here, not by a call for each (as
// crbaColumn did until the 165th pass): the workspace's slices and the
// body's cc, mass and inertia are read once a body, and the stores into
// out do not make Go reload them.
func (ws *Workspace) crbaColumns(tr *Tree, out []float64) {
	clear(out[:tr.NV*tr.NV]) // here, where few values live across its call
	n, off, arm := tr.NV, tr.VOffset, ws.arm
	col, top, kin := ws.col, ws.top, ws.kin
	tcol := col[off : off+n] // the tree's subspace columns, by r = j − off
	// The per-body slices of one length with top: top[a]'s check covers
	// them all, and the stores do not make Go reload them.
	kin = kin[:len(top)]
	xs, ic := ws.x[:len(kin)], ws.ic[:len(kin)]
	cms, cxs, cis := ws.cm[:len(kin)], ws.cx[:len(kin)], ws.ci[:len(kin)]
	for _, b := range tr.Bodies { // the composite inertias start as the bodies' own
		k, x := &kin[b], &xs[b].P
		c := &k.com
		cms[b] = k.m
		cxs[b] = spatial.Vec3{x[0] + c[0], x[1] + c[1], x[2] + c[2]} // x.Add(c) on scalars
		cis[b] = ic[b]
	}
	for i := len(tr.Bodies) - 1; i >= 0; i-- {
		b := tr.Bodies[i]
		tb := top[b] // a copy: registers, not reloaded after each store
		x, cx := &xs[b].P, &cxs[b]
		c0, c1, c2 := cx[0]-x[0], cx[1]-x[1], cx[2]-x[2] // cc = x_c − x_b
		cm, ci := cms[b], &cis[b]
		for c := int(tb.voff); c < int(tb.voff)+int(tb.nv); c++ {
			W, L := &col[c].w, &col[c].l
			t0, t1, t2 := cross(W[0], W[1], W[2], c0, c1, c2)
			f0, f1, f2 := cm*(L[0]+t0), cm*(L[1]+t1), cm*(L[2]+t2) // F = I^c S_c
			n0, n1, n2 := mulVec(ci, W[0], W[1], W[2])
			t0, t1, t2 = cross(c0, c1, c2, f0, f1, f2)
			n0, n1, n2 = n0+t0, n1+t1, n2+t2 // N about x_b
			s := c - off
			row := out[s*n : s*n+n] // row s; column s is out[r*n+s]
			// Body b's own velocities after c are left out: M[j][c] and
			// M[c][j] for such a j are written again by column j, made
			// after c, so the matrix keeps the bits of writing them here.
			tp, lo, hi := tb, int(tb.voff)-off, s+1 // the tree's velocities (tcol's)
			for a := b; ; {
				for r := lo; r < hi; r++ {
					cw, cl := &tcol[r].w, &tcol[r].l
					e := (cw[0]*n0 + cw[1]*n1 + cw[2]*n2) + (cl[0]*f0 + cl[1]*f1 + cl[2]*f2)
					out[r*n+s], row[r] = e, e
				}
				if tp.parent < 0 {
					break
				}
				l := &kin[a].lev // N about the parent's origin, then its velocities
				t0, t1, t2 = cross(l[0], l[1], l[2], f0, f1, f2)
				n0, n1, n2 = n0+t0, n1+t1, n2+t2
				a = int(tp.parent)
				tp = top[a]
				lo = int(tp.voff) - off
				hi = lo + int(tp.nv)
			}
			row[s] += arm[c] // the joint's DOFArmature, kept (dofArmatures)
		}
		if p := int(tb.parent); p >= 0 && cms[b] != 0 {
			// Body b's composite inertia added to its parent p's, here
			// rather than in a call (combine until pass 235: its
			// prologue, six slice loads and checks, and the reloads of
			// this loop's values after it). The Vec3/Mat3 form
			//
			//	x = cx_b.Scale(m1/mt).Add(cx_p.Scale(m2/mt))
			//	ci_p = ci_p.Add(ci_b).Add(parallelAxis(m1, cx_b.Sub(x))).Add(parallelAxis(m2, cx_p.Sub(x)))
			//
			// on scalars, each entry's products and sums in that order
			// (the same bits; TestCombineMatchesMatrixForm), the parent's
			// mass and centre written once made (fewer values live).
			m1, m2 := cms[b], cms[p]
			mt := m1 + m2
			s1, s2 := m1/mt, m2/mt
			cx := &cxs[p]
			b0, b1, b2 := cxs[b][0], cxs[b][1], cxs[b][2]
			p0, p1, p2 := cx[0], cx[1], cx[2]
			x0, x1, x2 := s1*b0+s2*p0, s1*b1+s2*p1, s1*b2+s2*p2
			d0, d1, d2 := b0-x0, b1-x1, b2-x2
			e0, e1, e2 := p0-x0, p1-x1, p2-x2
			cms[p] = mt
			cx[0], cx[1], cx[2] = x0, x1, x2
			sd := m1 * (d0*d0 + d1*d1 + d2*d2)
			se := m2 * (e0*e0 + e1*e1 + e2*e2)
			ci, cb := &cis[p], &cis[b]
			ci[0][0] = ((ci[0][0] + cb[0][0]) + (sd - m1*(d0*d0))) + (se - m2*(e0*e0))
			ci[0][1] = ((ci[0][1] + cb[0][1]) + (0 - m1*(d0*d1))) + (0 - m2*(e0*e1))
			ci[0][2] = ((ci[0][2] + cb[0][2]) + (0 - m1*(d0*d2))) + (0 - m2*(e0*e2))
			ci[1][0] = ((ci[1][0] + cb[1][0]) + (0 - m1*(d1*d0))) + (0 - m2*(e1*e0))
			ci[1][1] = ((ci[1][1] + cb[1][1]) + (sd - m1*(d1*d1))) + (se - m2*(e1*e1))
			ci[1][2] = ((ci[1][2] + cb[1][2]) + (0 - m1*(d1*d2))) + (0 - m2*(e1*e2))
			ci[2][0] = ((ci[2][0] + cb[2][0]) + (0 - m1*(d2*d0))) + (0 - m2*(e2*e0))
			ci[2][1] = ((ci[2][1] + cb[2][1]) + (0 - m1*(d2*d1))) + (0 - m2*(e2*e1))
			ci[2][2] = ((ci[2][2] + cb[2][2]) + (sd - m1*(d2*d2))) + (se - m2*(e2*e2))
		}
	}
}

// crbaFreeBody is crbaColumns for a tree of one free body b at the root,
// whose subspace columns are the unit vectors (Workspace.freeRoot): the
// entry S_jᵀ (nm, f) of column c is then nm_j or f_(j−3) itself, which the
// two dot products give up to the sign of a zero, and M[j][c] is taken
// from column max(j, c), the last that crbaColumns writes it from
// (TestCRBAFreeBodyMatchesColumns); the joint's armature (a free joint's
// DOFArmature) is then added to the diagonal entry, as crbaColumns adds it
// once the column is written. Each column's
//
//	f = L.Add(W.Cross(cc)).Scale(m),  nm = ci.MulVec(W).Add(cc.Cross(f))
//
// is made on scalars, the Vec3 form's operations in its order, which Go
// keeps in registers (TestKinfootCRBAFreeBodyBits). The body's composite
// inertia is its own: its mass, cc = (x_b + c) − x_b and rotational
// inertia are read from the last Update, as crbaColumns starts them.
func (ws *Workspace) crbaFreeBody(b int, out []float64) {
	out = out[:36]
	x, k := &ws.x[b].P, &ws.kin[b]
	c := &k.com
	k0, k1, k2 := (x[0]+c[0])-x[0], (x[1]+c[1])-x[1], (x[2]+c[2])-x[2] // cc = x.Add(c).Sub(x)
	mass, ci, voff, arm := k.m, &ws.ic[b], ws.m.Bodies[b].VOff, ws.m.Bodies[b].Joint.Armature
	cols := ws.col[voff : voff+6]
	for c := range 6 {
		W, L := &cols[c].w, &cols[c].l
		t0, t1, t2 := cross(W[0], W[1], W[2], k0, k1, k2)
		f0, f1, f2 := mass*(L[0]+t0), mass*(L[1]+t1), mass*(L[2]+t2)
		n0, n1, n2 := mulVec(ci, W[0], W[1], W[2])
		t0, t1, t2 = cross(k0, k1, k2, f0, f1, f2)
		e := [6]float64{n0 + t0, n1 + t1, n2 + t2, f0, f1, f2}
		for j := 0; j <= c; j++ {
			out[j*6+c], out[c*6+j] = e[j], e[j]
		}
		out[c*7] += arm
	}
}

// rnea runs the recursive Newton–Euler algorithm (Featherstone, RBDA §5.3)
// with joint accelerations a (nil: zero) and base acceleration −g, and writes
// the joint forces into tau. With vel false the velocity-product terms are
// left out (the gravity forces alone). The first pass, from the root to the
// leaves, finds each body's accelerations (α, a) of its origin, and its
// force F = m a_com = m (a + α × c + ω × (ω × c)) (Newton) and moment
// N = I α + ω × (I ω) + c × F about its origin (Euler), for a body of mass
// m, centre of mass at c from its origin, rotational inertia I about it and
// angular velocity ω (zero when vel is false), all in the world frame, by
// the products and sums of the Vec3 form
//
//	F = a.Add(α.Cross(c)).Add(ω.Cross(ω.Cross(c))).Scale(m)
//	N = I.MulVec(α).Add(ω.Cross(I.MulVec(ω))).Add(c.Cross(F))
//
// in the same order, on scalars, which Go keeps in registers (a Vec3, an
// array, goes through memory): the same bits (TestRNEAMatchesVectorForm).
// Both passes are in this one function: a call for each body's forces made
// Go keep the loop's slices on the stack and reload them after it, and a
// function for each pass took its set-up twice (about 90 instructions a
// half_cheetah step).
func (ws *Workspace) rnea(a []float64, g spatial.Vec3, vel bool, tau []float64) {
	top, col := ws.top, ws.col
	// The per-body slices one length with top, whose index b is then in
	// range for all of them (the mass is kin's, not the Body's: one slice
	// fewer).
	nb := len(top)
	kin, rb, ic := ws.kin[:nb], ws.rb[:nb], ws.ic[:nb]
	for b := range top {
		tb := &top[b]
		if tb.tree < 0 {
			continue
		}
		// The origin's accelerations before b's own joint's (α_P,
		// a_P + α_P × (x_B − x_P)) from its parent (0 and −g at a root),
		// plus (κ_α, κ_a) when vel is set, plus Σ a_i (W_i, L_i): on
		// scalars, the Vec3 form's operations (Cross, Add, AddScaled) in
		// order (TestRNEAMatchesVectorForm).
		var a0, a1, a2, c0, c1, c2 float64
		if p := int(tb.parent); p >= 0 {
			pa, pc, l := &rb[p].al, &rb[p].ac, &kin[b].lev
			a0, a1, a2 = pa[0], pa[1], pa[2]
			t0, t1, t2 := cross(a0, a1, a2, l[0], l[1], l[2])
			c0, c1, c2 = pc[0]+t0, pc[1]+t1, pc[2]+t2
		} else { // −g at a root alone, not negated for every body
			c0, c1, c2 = -g[0], -g[1], -g[2]
		}
		w := &zeroVec
		if vel {
			k := &kin[b]
			a0, a1, a2 = a0+k.kw[0], a1+k.kw[1], a2+k.kw[2]
			c0, c1, c2 = c0+k.kl[0], c1+k.kl[1], c2+k.kl[2]
			w = &k.w
		}
		if a != nil { // in line: a call (jointAccel until pass 180) made Go reload the loop's slices every body
			for i := int(tb.voff); i < int(tb.voff)+int(tb.nv); i++ {
				s, W, L := a[i], &col[i].w, &col[i].l
				a0, a1, a2 = a0+s*W[0], a1+s*W[1], a2+s*W[2]
				c0, c1, c2 = c0+s*L[0], c1+s*L[1], c2+s*L[2]
			}
		}
		r := &rb[b]
		set3(&r.al, a0, a1, a2)
		set3(&r.ac, c0, c1, c2)
		// Newton's F and Euler's N, in the Vec3 form's order (above),
		// with fewer values live (pass 180): the linear acceleration plus
		// α × c first (its last use), F stored before c × F, Iω and Iα,
		// and c, ω and α read again from kin and r.al after that store
		// (r.al is seven stores back, which Go does not forward) rather
		// than kept in registers, which Go spilled to the stack.
		m, c := kin[b].m, &kin[b].com
		y0, y1, y2 := cross(a0, a1, a2, c[0], c[1], c[2])
		y0, y1, y2 = c0+y0, c1+y1, c2+y2
		x0, x1, x2 := cross(w[0], w[1], w[2], c[0], c[1], c[2]) // ω × c
		x0, x1, x2 = cross(w[0], w[1], w[2], x0, x1, x2)        // ω × (ω × c)
		f0, f1, f2 := m*(y0+x0), m*(y1+x1), m*(y2+x2)
		set3(&r.ff, f0, f1, f2)
		y0, y1, y2 = cross(c[0], c[1], c[2], f0, f1, f2) // c × F
		I, al := &ic[b], &r.al
		i0, i1, i2 := mulVec(I, w[0], w[1], w[2])        // I ω
		x0, x1, x2 = cross(w[0], w[1], w[2], i0, i1, i2) // ω × (I ω)
		i0, i1, i2 = mulVec(I, al[0], al[1], al[2])      // I α
		set3(&r.fn, (i0+x0)+y0, (i1+x1)+y1, (i2+x2)+y2)
	}
	// The second pass, from the leaves to the root: each velocity's
	// τ_i = S_iᵀ (N, F) (plus its armature's a_i term when a is set), and
	// each body's force added to its parent's, N shifted by lev × F; on
	// scalars, the operations of the Vec3 form in the same order (F_P + F_b
	// as Vec3.Add sums it).
	tau = tau[:len(col)] // one length (NV): col[i]'s check covers tau[i]
	for b := len(top) - 1; b >= 0; b-- {
		tb := &top[b]
		if tb.tree < 0 {
			continue
		}
		nb, fb := &rb[b].fn, &rb[b].ff
		n0, n1, n2, f0, f1, f2 := nb[0], nb[1], nb[2], fb[0], fb[1], fb[2]
		for i, end := int(tb.voff), int(tb.voff)+int(tb.nv); i < end; i++ {
			cw, cl := &col[i].w, &col[i].l
			tau[i] = (cw[0]*n0 + cw[1]*n1 + cw[2]*n2) + (cl[0]*f0 + cl[1]*f1 + cl[2]*f2) // S_iᵀ (N, F)
		}
		if p := int(tb.parent); p >= 0 {
			l, np, fp := &kin[b].lev, &rb[p].fn, &rb[p].ff
			t0, t1, t2 := cross(l[0], l[1], l[2], f0, f1, f2)
			set3(np, (np[0]+n0)+t0, (np[1]+n1)+t1, (np[2]+n2)+t2)
			set3(fp, fp[0]+f0, fp[1]+f1, fp[2]+f2)
		}
	}
	if a != nil {
		ws.addArmature(a, tau)
	}
}

// addArmature adds each velocity's rotor inertia term armature·a_i to
// tau[i], for rnea with accelerations a (after its passes, which do not
// read tau: the same sums as adding it in the second pass).
//
//go:noinline
func (ws *Workspace) addArmature(a, tau []float64) {
	for i, r := range ws.arm {
		tau[i] += r * a[i] // the rotor's own inertia (its joint's DOFArmature)
	}
}

// InverseDynamics writes τ = M(q) a + C(q, v) − τ_g(q) into tau (RNEA with
// the model's gravity); a nil a means zero accelerations.
func (ws *Workspace) InverseDynamics(a, tau []float64) { ws.rnea(a, ws.m.Gravity, true, tau) }

// BiasForces writes into f the generalized forces that do not depend on
// accelerations, moved to the right-hand side: f = τ_g(q) − C(q, v). For a
// free body with origin at its centre of mass, f = [−ω × (I_W ω), m g].
func (ws *Workspace) BiasForces(f []float64) {
	ws.rnea(nil, ws.m.Gravity, true, f)
	for i := range f {
		f[i] = -f[i]
	}
}

// VelocityForces writes C(q, v), the Coriolis, centrifugal and gyroscopic
// forces (RNEA with a = 0 and no gravity), into c.
func (ws *Workspace) VelocityForces(c []float64) { ws.rnea(nil, spatial.Vec3{}, true, c) }

// GravityForces writes τ_g(q) = Σ_b J_bᵀ m_b g (J_b the Jacobian of body b's
// centre of mass) into f.
func (ws *Workspace) GravityForces(f []float64) {
	ws.rnea(nil, ws.m.Gravity, false, f)
	for i := range f {
		f[i] = -f[i]
	}
}

// errSingular is returned by ForwardDynamics for a joint whose articulated
// inertia is not positive definite.
var errSingular = errors.New("multibody: articulated inertia not positive definite")
