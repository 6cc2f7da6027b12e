package socp

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestPolishJacobian checks the polisher's Jacobian against central finite
// differences of its equations, on random problems with every kind of face
// (the boundary cones contribute the nonlinear terms).
func TestPolishJacobian(t *testing.T) {
	defer func() { forceMode = -1 }()
	rng := rand.New(rand.NewPCG(5, 6))
	for trial := range 12 {
		forceMode = trial % 3
		c := Cones{Zero: 1, NonNeg: 3, SOC: []int{3, 4}}
		n := 4 + rng.IntN(4)
		p, _ := randomProblem(rng, c, n, c.Dim(), true)
		s := NewSolver()
		res, err := s.Solve(p)
		if err != nil {
			t.Fatal(err)
		}
		pl := s.pol
		nu := pl.classify(s, res.S, res.Z)
		for j := range nu { // a generic point near the solution
			pl.u[j] = rng.NormFloat64()
		}
		pl.equations(s, nu)
		jac := make([]float64, nu*nu)
		pl.jacobian(s, nu, jac)
		f0 := append([]float64(nil), pl.f[:nu]...)
		worst := 0.0
		for j := range nu {
			h := 1e-6 * (1 + math.Abs(pl.u[j]))
			u0 := pl.u[j]
			pl.u[j] = u0 + h
			pl.equations(s, nu)
			fp := append([]float64(nil), pl.f[:nu]...)
			pl.u[j] = u0 - h
			pl.equations(s, nu)
			for i := range nu {
				fd := (fp[i] - pl.f[i]) / (2 * h)
				worst = max(worst, math.Abs(fd-jac[i*nu+j])/(1+math.Abs(fd)))
			}
			pl.u[j] = u0
		}
		_ = f0
		if worst > 1e-7 {
			t.Errorf("trial %d (modes %v): Jacobian differs from finite differences by %.1e", trial, pl.mode, worst)
		}
	}
}
