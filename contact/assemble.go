package contact

import (
	"fmt"
	"math"

	"github.com/stiction-sim/stiction/geometry"
	"github.com/stiction-sim/stiction/multibody"
	"github.com/stiction-sim/stiction/solver"
	"github.com/stiction-sim/stiction/spatial"
)

// Pair is one contact point between geometry GeomA (on body BodyA) and
// geometry GeomB (on body BodyB), with the point, normal (A towards B) and
// signed distance φ0 at the start of the step.
type Pair struct {
	GeomA, GeomB int
	BodyA, BodyB int
	geometry.Contact
}

// Assembler builds the contact rows of the discrete problem. It keeps its
// scratch memory between calls, so that assembling a problem of a size seen
// before allocates nothing.
type Assembler struct {
	factor solver.CliqueFactor // Cholesky factors of the clique blocks of A
	x      []float64           // n×3 scratch for A_t⁻¹ J_itᵀ
	point  []float64           // 3×NV_t point Jacobian scratch
	rows   [2][]float64
	tree   [2]int
}

// Assemble appends to p the rows of every pair: J in contact frames, v̂, R
// and μ (SAP §V). p must already hold the cliques, A, v* and diag(M) of the
// step; kin must hold the kinematics at q0 (multibody.Workspace.Update). mats
// are indexed by multibody.Geometry.Material.
func (a *Assembler) Assemble(m *multibody.Model, kin *multibody.Workspace, pairs []Pair, mats []Material, dt float64, prm Params, p *solver.Problem) error {
	// A_t⁻¹ for the Delassus estimate W_ii ≈ Σ_t J_it A_t⁻¹ J_itᵀ (SAP §V-B).
	if err := a.factor.Factor(p); err != nil {
		return fmt.Errorf("contact: %w", err)
	}
	for i := range pairs {
		if err := a.addPair(m, kin, &pairs[i], mats, dt, prm, p); err != nil {
			return err
		}
	}
	return nil
}

// addPair appends one contact's rows.
func (a *Assembler) addPair(m *multibody.Model, kin *multibody.Workspace, pr *Pair, mats []Material, dt float64, prm Params, p *solver.Problem) error {
	t1, t2 := spatial.Orthonormal(pr.Normal)
	dirs := [3]spatial.Vec3{t1, t2, pr.Normal}
	nb := 0
	for side, body := range [2]int{pr.BodyB, pr.BodyA} {
		sign := 1.0
		if side == 1 {
			sign = -1
		}
		nb = a.addBodyRows(m, kin, body, pr.Point, dirs, sign, nb)
	}
	if nb == 0 {
		return fmt.Errorf("contact: pair of geometries %d and %d is between two welded bodies", pr.GeomA, pr.GeomB)
	}
	if nb == 2 && a.tree[0] > a.tree[1] {
		a.tree[0], a.tree[1] = a.tree[1], a.tree[0]
		a.rows[0], a.rows[1] = a.rows[1], a.rows[0]
	}
	k := p.NC
	for i := range nb {
		c := a.tree[i] // one clique per tree
		p.JBlock = append(p.JBlock, solver.JBlock{Contact: k, Clique: c, Off: len(p.JData)})
		p.JData = append(p.JData, a.rows[i]...)
	}
	p.NC++
	w := a.delassus(p, k)
	mat := Combine(mats[m.Geometries[pr.GeomA].Material], mats[m.Geometries[pr.GeomB].Material])
	rt, rn := regularization(w, mat, dt, prm)
	vn := -pr.Phi / (dt + mat.Dissipation) // SAP §V-A: v̂_n = −φ0/(δt + τd)
	p.VHat = append(p.VHat, 0, 0, vn)
	p.R = append(p.R, rt, rt, rn)
	p.Mu = append(p.Mu, mat.Friction)
	return nil
}

// addBodyRows adds sign·Cᵀ J_p of body b to the rows of its tree, merging
// with an earlier block of the same tree, and returns the block count.
func (a *Assembler) addBodyRows(m *multibody.Model, kin *multibody.Workspace, b int, pt spatial.Vec3, dirs [3]spatial.Vec3, sign float64, nb int) int {
	if m.Bodies[b].Tree < 0 {
		return nb
	}
	t := m.Bodies[b].Tree
	n := m.Trees[t].NV
	a.point = solver.Resize(a.point, 3*n)
	kin.PointJacobian(b, pt, a.point)
	slot := nb
	if nb == 1 && a.tree[0] == t {
		slot = 0
	} else {
		a.tree[slot] = t
		a.rows[slot] = solver.Resize(a.rows[slot], 3*n)
		clear(a.rows[slot])
		nb++
	}
	row := a.rows[slot]
	for r, d := range dirs {
		for j := range n {
			row[r*n+j] += sign * (d[0]*a.point[j] + d[1]*a.point[n+j] + d[2]*a.point[2*n+j])
		}
	}
	return nb
}

// delassus returns the 3×3 block W_kk ≈ Σ_t J_kt A_t⁻¹ J_ktᵀ of contact k
// from its J blocks (SAP §V-B, "per-tree blocks").
func (a *Assembler) delassus(p *solver.Problem, k int) spatial.Mat3 {
	var w spatial.Mat3
	for b := len(p.JBlock) - 1; b >= 0 && p.JBlock[b].Contact == k; b-- {
		q := p.Cliques[p.JBlock[b].Clique]
		jd := p.JBlockData(b)
		// X = A_t⁻¹ J_ktᵀ, n×3, stored row-major (column-major 3×n is Jkt itself).
		a.x = solver.Resize(a.x, 3*q.Size)
		for i := range q.Size {
			for r := range 3 {
				a.x[i*3+r] = jd[r*q.Size+i]
			}
		}
		a.factor.Solve(q, a.x, 3)
		for r := range 3 {
			for c := range 3 {
				sum := 0.0
				for i := range q.Size {
					sum += jd[r*q.Size+i] * a.x[i*3+c]
				}
				w[r][c] += sum
			}
		}
	}
	return w
}

// regularization returns R_t (SAP eq. 30) and R_n (SAP eq. 29) for a
// contact with Delassus block w and combined material mat.
func regularization(w spatial.Mat3, mat Material, dt float64, prm Params) (rt, rn float64) {
	wt, wn := 0.5*(w[0][0]+w[1][1]), w[2][2]
	if prm.Delassus == DelassusRMS {
		wt = w.FrobeniusNorm() / 3 // ‖W_ii‖_rms, SAP §V-B
		wn = wt
	}
	rt = prm.Sigma * wt                                             // eq. 30
	nearRigid := prm.Beta * prm.Beta / (4 * math.Pi * math.Pi) * wn // β²/(4π²) w
	compliant := 1 / (dt * mat.Stiffness * (dt + mat.Dissipation))  // 1/(δt k (δt + τd))
	rn = math.Max(nearRigid, compliant)                             // eq. 29
	return rt, rn
}
