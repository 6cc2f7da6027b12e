package sim

import (
	"github.com/stiction-sim/stiction/constraint"
	"github.com/stiction-sim/stiction/multibody"
	"github.com/stiction-sim/stiction/solver"
	"github.com/stiction-sim/stiction/spatial"
)

// Velocity roles in the elimination of attachments and prescribed motions.
const (
	roleActive     int8 = iota // an unknown of the reduced problem
	rolePrescribed             // v_ρ given (mechanics notes §0.21)
	roleAttached               // v_β = P_β u + c_β (notes §0.17–0.18)
)

// elimination removes attached and prescribed velocities from the problem
// by the null-space reduction of the mechanics notes §0.17–0.21. With v
// the full velocities and u the remaining unknowns,
//
//	v = P u + c,
//
// where P is the identity on unknowns, zero on prescribed velocities and
// −G_βα (v_β = T v_master) on attached ones, and c holds the prescribed
// velocities v_ρ(t1) and the attachments' fictitious terms δt Ṫ v0 (the
// notes' g_β = h Ġ v of §0.17 and the fictitious forces of §0.19).
// Substituting v into SAP's ℓp(v) = ½‖v − v*‖²_A + Σ ℓ_i(J v) gives the
// same form in u with
//
//	A' = Pᵀ A P (eq. 0.21),  v*' = A'⁻¹ Pᵀ A (v* − c) (eq. 0.23),
//	J' = J P (eq. 0.22, and §0.20 for one-row constraints),  v̂' = v̂ − J c,
//
// a problem with fewer velocities that any solver.Solver solves. The
// prescribed generalized forces are f_ρ = (A(v − v*) − Jᵀγ)_ρ / δt (§0.21)
// and an attached body's reaction the same rows β. Attachments reduce in
// dependency order (§0.18): an attached body's rows substitute those of
// its master, which come first.
type elimination struct {
	on     bool
	set    *constraint.Set
	role   []int8 // per velocity
	ridx   []int  // per velocity: index in u, −1 if eliminated
	nu     int
	cl     []rclique // reduced cliques (groups of trees joined by attachments)
	treeC  []int     // per tree: its reduced clique, −1 if it has none
	dense  []bool    // per tree: whether its P block is stored (else P = I)
	poff   []int     // per tree: offset of its NV_t × n_C block of P in pd
	pd     []float64 // P blocks
	c      []float64 // c, per velocity
	order  []int     // attachments in dependency order
	depth  []int     // per attachment: chain depth (0: master not attached)
	rel    []spatial.Pose
	pts    []spatial.Vec3 // per attachment: the held point in the master's frame (PointOnly)
	viol   []float64      // per attachment: pose error at the start of the step
	orient []spatial.Quat // per prescribed: a free body's held orientation
	presc  []prescribed   // per prescribed coordinate

	rp        solver.Problem // reduced problem
	rres      solver.Result
	rf        solver.CliqueFactor
	u0        []float64
	jac       []float64    // 6×NV_t master Jacobian scratch
	xa, xm    []float64    // X = A P and M P of one tree (reduceA)
	acc       solver.JRows // J' blocks of the constraint being reduced, one per reduced clique it touches
	tmp, tmp2 []float64
	rv        []float64 // A(v − v*) − Jᵀγ
}

// rclique is one reduced clique: the trees it gathers and its unknowns
// u[Off : Off+Size].
type rclique struct {
	trees     []int
	off, size int
}

// prescribed is one prescribed velocity.
type prescribed struct {
	item, k int // Set.Prescribed item and signal index (−1: a held rotation)
	qi, vi  int // coordinate and velocity index (qi −1 for a held rotation)
	free    bool
}

// init builds the static layout of the reduction, and moves attached and
// prescribed bodies onto their constraints in the initial state.
func (e *elimination) init(m *multibody.Model, set *constraint.Set, s *multibody.State) error {
	if len(set.Attachments) == 0 && len(set.Prescribed) == 0 {
		return nil
	}
	order, err := set.AttachmentOrder()
	if err != nil {
		return err
	}
	e.on, e.set, e.order = true, set, order
	e.role, e.ridx, e.c = make([]int8, m.NV), make([]int, m.NV), make([]float64, m.NV)
	e.initPrescribed(m, set, s)
	kin := multibody.NewWorkspace(m)
	kin.Update(s.Q, s.V)
	e.initAttachments(m, set, kin)
	e.layout(m)
	e.enforce(m, s, kin, s.T)
	return nil
}

// initPrescribed marks the prescribed velocities.
func (e *elimination) initPrescribed(m *multibody.Model, set *constraint.Set, s *multibody.State) {
	e.orient = make([]spatial.Quat, len(set.Prescribed))
	for i := range set.Prescribed {
		pr := &set.Prescribed[i]
		bd := &m.Bodies[pr.Body]
		if constraint.IsFreeRoot(m, pr.Body) {
			q := s.Q[bd.QOff:]
			e.orient[i] = spatial.Quat{W: q[0], X: q[1], Y: q[2], Z: q[3]}.Normalize()
			for k := range 6 {
				p := prescribed{item: i, k: k - 3, qi: bd.QOff + 4 + k - 3, vi: bd.VOff + k, free: true}
				if k < 3 {
					p.k, p.qi = -1, -1
				}
				e.presc = append(e.presc, p)
			}
			continue
		}
		for k, d := range pr.DOFs {
			e.presc = append(e.presc, prescribed{item: i, k: k, qi: bd.QOff + d, vi: bd.VOff + d})
		}
	}
	for _, p := range e.presc {
		e.role[p.vi] = rolePrescribed
	}
}

// initAttachments marks the attached velocities and records the relative
// poses at the initial state.
func (e *elimination) initAttachments(m *multibody.Model, set *constraint.Set, kin *multibody.Workspace) {
	n := len(set.Attachments)
	e.rel, e.pts, e.viol, e.depth = make([]spatial.Pose, n), make([]spatial.Vec3, n), make([]float64, n), make([]int, n)
	xm := func(b int) spatial.Pose {
		if b < 0 {
			return spatial.PoseIdentity()
		}
		return kin.Pose(b)
	}
	for i, at := range set.Attachments {
		xb := kin.Pose(at.Body)
		e.rel[i] = xm(at.Master).Inverse().Compose(xb)
		e.pts[i] = xm(at.Master).ApplyInv(xb.Apply(at.Point))
		vo := m.Bodies[at.Body].VOff
		for k := range 6 {
			if !at.PointOnly || k >= 3 {
				e.role[vo+k] = roleAttached
			}
		}
	}
	for _, i := range e.order {
		for _, j := range e.order {
			if set.Attachments[j].Body == set.Attachments[i].Master {
				e.depth[i] = e.depth[j] + 1
			}
		}
	}
}

// layout groups the trees into reduced cliques (trees joined by an
// attachment share one) and numbers the unknowns clique by clique.
func (e *elimination) layout(m *multibody.Model) {
	nt := len(m.Trees)
	parent := make([]int, nt)
	for t := range parent {
		parent[t] = t
	}
	find := func(t int) int {
		for parent[t] != t {
			t = parent[t]
		}
		return t
	}
	e.dense = make([]bool, nt)
	for _, at := range e.set.Attachments {
		tb := m.Bodies[at.Body].Tree
		e.dense[tb] = true
		if at.Master >= 0 && m.Bodies[at.Master].Tree >= 0 {
			tm := m.Bodies[at.Master].Tree
			e.dense[tm] = true
			a, b := find(tm), find(tb)
			parent[max(a, b)] = min(a, b)
		}
	}
	for _, p := range e.presc {
		e.dense[treeOfV(m, p.vi)] = true
	}
	e.treeC = make([]int, nt)
	root := make([]int, nt) // root tree → clique
	for t := range root {
		root[t] = -1
	}
	for t := range nt {
		r := find(t)
		if root[r] < 0 {
			root[r] = len(e.cl)
			e.cl = append(e.cl, rclique{})
		}
		e.treeC[t] = root[r]
		e.cl[root[r]].trees = append(e.cl[root[r]].trees, t)
	}
	for t := range e.treeC { // a group's dense flag is shared by all its trees
		for _, u := range e.cl[e.treeC[t]].trees {
			e.dense[t] = e.dense[t] || e.dense[u]
		}
	}
	e.nu = 0
	kept := e.cl[:0]
	for ci := range e.cl {
		cl := e.cl[ci]
		cl.off = e.nu
		for _, t := range cl.trees {
			tr := &m.Trees[t]
			for i := tr.VOffset; i < tr.VOffset+tr.NV; i++ {
				e.ridx[i] = -1
				if e.role[i] == roleActive {
					e.ridx[i] = e.nu
					e.nu++
				}
			}
		}
		cl.size = e.nu - cl.off
		for _, t := range cl.trees {
			e.treeC[t] = -1
			if cl.size > 0 {
				e.treeC[t] = len(kept)
			}
		}
		if cl.size > 0 {
			kept = append(kept, cl)
		}
	}
	e.cl = kept
	e.poff = make([]int, nt)
	n := 0
	for t := range nt {
		e.poff[t] = n
		if e.dense[t] && e.treeC[t] >= 0 {
			n += m.Trees[t].NV * e.cl[e.treeC[t]].size
		}
	}
	e.pd = make([]float64, n)
}

// treeOfV returns the tree of velocity index i.
func treeOfV(m *multibody.Model, i int) int {
	for t, tr := range m.Trees {
		if i >= tr.VOffset && i < tr.VOffset+tr.NV {
			return t
		}
	}
	return -1
}

// pblock returns tree t's block of P (NV_t × n_C, row-major) or nil when the
// tree has none (P = I, or no unknowns left).
func (e *elimination) pblock(m *multibody.Model, t int) []float64 {
	if !e.dense[t] || e.treeC[t] < 0 {
		return nil
	}
	n := m.Trees[t].NV * e.cl[e.treeC[t]].size
	return e.pd[e.poff[t] : e.poff[t]+n]
}
