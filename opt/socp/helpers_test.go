package socp

import (
	"math"
	"testing"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"
)

// dense builds an r×c matrix from rows.
func dense(rows ...[]float64) *mat.Dense {
	m := mat.NewDense(len(rows), len(rows[0]), nil)
	for i, r := range rows {
		m.SetRow(i, r)
	}
	return m
}

// kktError returns the violations of the KKT conditions of p at (x, s, z),
// relative to the size of the terms as the solver measures them:
// ‖Px + Aᵀz + q‖∞ / max(1, ‖q‖∞, ‖Px‖∞, ‖Aᵀz‖∞),
// ‖Ax + s − b‖∞ / max(1, ‖b‖∞, ‖Ax‖∞, ‖s‖∞), |sᵀz| / max(1, |qᵀx|), and how
// far s and z lie outside K (−minEig / max(1, ‖s‖∞, ‖z‖∞)).
func kktError(p *Problem, x, s, z []float64) (dual, primal, comp, cone float64) {
	n, m := len(p.Q), p.Cones.Dim()
	inf := math.Inf(1)
	px, atz, ax := make([]float64, n), make([]float64, n), make([]float64, m)
	if p.P != nil {
		pv := mat.NewVecDense(n, px)
		pv.MulVec(p.P, mat.NewVecDense(n, append([]float64(nil), x...)))
	}
	for i := range m {
		for j := range n {
			atz[j] += p.A.At(i, j) * z[i]
			ax[i] += p.A.At(i, j) * x[j]
		}
	}
	r := make([]float64, n)
	for j := range n {
		r[j] = px[j] + atz[j] + p.Q[j]
	}
	dual = floats.Norm(r, inf) / max(1, floats.Norm(p.Q, inf), floats.Norm(px, inf), floats.Norm(atz, inf))
	for i := range m {
		primal = max(primal, math.Abs(ax[i]+s[i]-p.B[i]))
	}
	for i := range p.Cones.Zero {
		primal = max(primal, math.Abs(s[i]))
	}
	primal /= max(1, floats.Norm(p.B, inf), floats.Norm(ax, inf), floats.Norm(s, inf))
	zc := p.Cones.Zero
	comp = math.Abs(floats.Dot(s[zc:], z[zc:])) / max(1, math.Abs(floats.Dot(p.Q, x)))
	cone = max(0, -p.Cones.minEig(s), -p.Cones.minEig(z)) / max(1, floats.Norm(s, inf), floats.Norm(z, inf))
	return dual, primal, comp, cone
}

// solveOK solves p, requires Solved and the KKT conditions to tol, and
// returns the result.
func solveOK(t *testing.T, name string, p *Problem, tol float64) Result {
	t.Helper()
	res, err := NewSolver().Solve(p)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if res.Status != Solved {
		t.Fatalf("%s: status %v after %d iterations (stats %+v)", name, res.Status, res.Stats.Iterations, res.Stats)
	}
	d, pr, c, k := kktError(p, res.X, res.S, res.Z)
	if d > tol || pr > tol || c > tol || k > tol {
		t.Errorf("%s: KKT errors dual %.2e primal %.2e complementarity %.2e cone %.2e (tol %.0e)", name, d, pr, c, k, tol)
	}
	return res
}

// near reports whether |a − b| ≤ tol (1 + |b|) elementwise.
func near(a, b []float64, tol float64) bool {
	for i := range a {
		if math.Abs(a[i]-b[i]) > tol*(1+math.Abs(b[i])) {
			return false
		}
	}
	return true
}
