package multibody

import (
	"math"

	"github.com/stiction-sim/stiction/spatial"
)

// ForwardDynamics writes the accelerations a = M⁻¹ (τ − C(q, v) + τ_g(q))
// into a by the articulated-body algorithm (Featherstone, RBDA §7.3), in
// O(n) per tree; tau nil means zero joint forces. It uses the kinematics of
// the last Update and fails only if an articulated inertia is singular.
func (ws *Workspace) ForwardDynamics(tau, a []float64) error {
	m := ws.m
	for b := range m.Bodies {
		if m.Bodies[b].Tree >= 0 {
			ws.ia[b], ws.pa[b] = ws.bodyInertia(b)
		}
	}
	for b := len(m.Bodies) - 1; b >= 0; b-- {
		if m.Bodies[b].Tree < 0 {
			continue
		}
		if err := ws.abaBackward(b, tau); err != nil {
			return err
		}
	}
	for b := range m.Bodies {
		if m.Bodies[b].Tree >= 0 {
			ws.abaForward(b, a)
		}
	}
	return nil
}

// bodyInertia returns body b's 6×6 spatial inertia about its origin (world
// orientation; angular rows first: n = (I_c − m[c]²) α + m[c] a,
// f = −m[c] α + m a) and its velocity-product force.
func (ws *Workspace) bodyInertia(b int) (mat6, vec6) {
	mass, c, ic, w := ws.m.Bodies[b].Inertia.Mass, ws.kin[b].com, ws.ic[b], ws.kin[b].w
	var I mat6
	sc := spatial.Skew(c)
	top := ic.Sub(sc.Mul(sc).Scale(mass))
	for i := range 3 {
		for j := range 3 {
			I[i][j] = top[i][j]
			I[i][3+j] = mass * sc[i][j]
			I[3+i][j] = -mass * sc[i][j]
		}
		I[3+i][3+i] = mass
	}
	f := w.Cross(w.Cross(c)).Scale(mass)
	n := w.Cross(ic.MulVec(w)).Add(c.Cross(f))
	return I, vec6{n[0], n[1], n[2], f[0], f[1], f[2]}
}

// col6 returns motion subspace column i as a 6-vector.
func (ws *Workspace) col6(i int) vec6 {
	W, L := ws.col[i].w, ws.col[i].l
	return vec6{W[0], W[1], W[2], L[0], L[1], L[2]}
}

func dot6(a, b vec6) float64 {
	s := 0.0
	for i := range 6 {
		s += a[i] * b[i]
	}
	return s
}

func (M *mat6) mulVec(v vec6) vec6 {
	var o vec6
	for i := range 6 {
		o[i] = dot6(M[i], v)
	}
	return o
}

// abaBackward is ABA's second pass for body b: U = IA S, D = Sᵀ U,
// u = τ − Sᵀ pA, then the articulated inertia and bias passed to the parent,
// Ia = IA − U D⁻¹ Uᵀ and pa = pA + Ia κ + U D⁻¹ u, shifted by Xᵀ (·) X.
func (ws *Workspace) abaBackward(b int, tau []float64) error {
	if err := ws.abaProject(b, tau); err != nil {
		return err
	}
	Ia, pa := ws.abaArticulate(b)
	p := ws.m.Bodies[b].Joint.Parent
	if p < 0 {
		return nil
	}
	X := shift6(ws.kin[b].lev)
	XtIaX := mulT6(X, mul6(Ia, X))
	xtp := mulT6Vec(X, pa)
	for r := range 6 {
		ws.pa[p][r] += xtp[r]
		for c := range 6 {
			ws.ia[p][r][c] += XtIaX[r][c]
		}
	}
	return nil
}

// abaProject computes U = IA S, the Cholesky factor of D = Sᵀ U and
// u = τ − Sᵀ pA for body b's joint.
func (ws *Workspace) abaProject(b int, tau []float64) error {
	body := &ws.m.Bodies[b]
	n, off := body.Joint.NV(), body.VOff
	IA, U, D, u := &ws.ia[b], &ws.u[b], &ws.dfac[b], &ws.uu[b]
	for k := range n {
		sk := ws.col6(off + k)
		uk := IA.mulVec(sk)
		for i := range 6 {
			U[i][k] = uk[i]
		}
		u[k] = -dot6(sk, ws.pa[b])
		if tau != nil {
			u[k] += tau[off+k]
		}
	}
	for i := range n {
		si := ws.col6(off + i)
		for k := range n {
			var uk vec6
			for r := range 6 {
				uk[r] = U[r][k]
			}
			D[i][k] = dot6(si, uk)
		}
		D[i][i] += body.Joint.DOFArmature(i) // rotor inertia: D = Sᵀ IA S + armature·1
	}
	if !chol(D, n) {
		return errSingular
	}
	return nil
}

// abaArticulate returns Ia = IA − U D⁻¹ Uᵀ and pa = pA + Ia κ + U D⁻¹ u.
func (ws *Workspace) abaArticulate(b int) (mat6, vec6) {
	n := ws.m.Bodies[b].Joint.NV()
	U, D := &ws.u[b], &ws.dfac[b]
	Ia := ws.ia[b]
	var y [6]vec6 // y[r] = D⁻¹ (row r of U)ᵀ
	for r := range 6 {
		copy(y[r][:n], U[r][:n])
		cholSolve(D, n, y[r][:])
	}
	for r := range 6 {
		for c := range 6 {
			for k := range n {
				Ia[r][c] -= U[r][k] * y[c][k]
			}
		}
	}
	var du vec6
	copy(du[:], ws.uu[b][:n])
	cholSolve(D, n, du[:])
	pa := Ia.mulVec(vec6{ws.kin[b].kw[0], ws.kin[b].kw[1], ws.kin[b].kw[2], ws.kin[b].kl[0], ws.kin[b].kl[1], ws.kin[b].kl[2]})
	for r := range 6 {
		pa[r] += ws.pa[b][r]
		for k := range n {
			pa[r] += U[r][k] * du[k]
		}
	}
	return Ia, pa
}

// abaForward is ABA's third pass for body b: a' = X A_p + κ,
// q̈ = D⁻¹ (u − Uᵀ a'), A_b = a' + S q̈.
func (ws *Workspace) abaForward(b int, a []float64) {
	body := &ws.m.Bodies[b]
	n, off := body.Joint.NV(), body.VOff
	g := ws.m.Gravity
	al, ac := spatial.Vec3{}, g.Neg()
	if p := body.Joint.Parent; p >= 0 {
		al, ac = ws.rb[p].al, ws.rb[p].ac.Add(ws.rb[p].al.Cross(ws.kin[b].lev))
	}
	al, ac = al.Add(ws.kin[b].kw), ac.Add(ws.kin[b].kl)
	ap := vec6{al[0], al[1], al[2], ac[0], ac[1], ac[2]}
	var qdd vec6
	for k := range n {
		var uk vec6
		for r := range 6 {
			uk[r] = ws.u[b][r][k]
		}
		qdd[k] = ws.uu[b][k] - dot6(uk, ap)
	}
	cholSolve(&ws.dfac[b], n, qdd[:])
	for k := range n {
		a[off+k] = qdd[k]
		al, ac = al.AddScaled(qdd[k], ws.col[off+k].w), ac.AddScaled(qdd[k], ws.col[off+k].l)
	}
	ws.rb[b].al, ws.rb[b].ac = al, ac
}

// shift6 returns X = [[I, 0], [−[r], I]], which moves a motion from a point
// to the point r away from it.
func shift6(r spatial.Vec3) mat6 {
	var X mat6
	s := spatial.Skew(r)
	for i := range 3 {
		X[i][i], X[3+i][3+i] = 1, 1
		for j := range 3 {
			X[3+i][j] = -s[i][j]
		}
	}
	return X
}

func mul6(A, B mat6) mat6 {
	var C mat6
	for i := range 6 {
		for k := range 6 {
			if A[i][k] == 0 {
				continue
			}
			for j := range 6 {
				C[i][j] += A[i][k] * B[k][j]
			}
		}
	}
	return C
}

// mulT6 returns Aᵀ B.
func mulT6(A, B mat6) mat6 {
	var C mat6
	for k := range 6 {
		for i := range 6 {
			if A[k][i] == 0 {
				continue
			}
			for j := range 6 {
				C[i][j] += A[k][i] * B[k][j]
			}
		}
	}
	return C
}

// mulT6Vec returns Aᵀ v.
func mulT6Vec(A mat6, v vec6) vec6 {
	var o vec6
	for k := range 6 {
		for i := range 6 {
			o[i] += A[k][i] * v[k]
		}
	}
	return o
}

// chol overwrites the leading n×n block of D with its lower Cholesky factor;
// it reports false unless D is numerically positive definite.
func chol(D *mat6, n int) bool {
	for j := range n {
		s := D[j][j]
		for k := range j {
			s -= D[j][k] * D[j][k]
		}
		if !(s > 0) {
			return false
		}
		D[j][j] = math.Sqrt(s)
		for i := j + 1; i < n; i++ {
			t := D[i][j]
			for k := range j {
				t -= D[i][k] * D[j][k]
			}
			D[i][j] = t / D[j][j]
		}
	}
	return true
}

// cholSolve overwrites x (length ≥ n) with D⁻¹ x from chol's factor.
func cholSolve(L *mat6, n int, x []float64) {
	for i := range n {
		for k := range i {
			x[i] -= L[i][k] * x[k]
		}
		x[i] /= L[i][i]
	}
	for i := n - 1; i >= 0; i-- {
		for k := i + 1; k < n; k++ {
			x[i] -= L[k][i] * x[k]
		}
		x[i] /= L[i][i]
	}
}
