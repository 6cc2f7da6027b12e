package pgs_test

import (
	"testing"

	"github.com/stiction-sim/stiction/fclib"
	"github.com/stiction-sim/stiction/solver/pgs"
	"gonum.org/v1/gonum/mat"
)

// TestFCLIBLocal runs PGS (Coulomb) on FCLIB's local sample problem
// (48 contacts, W of rank 72 of 144) and logs the residual it reaches. The
// problem is hard for Gauss–Seidel (and for SAP without its proximal
// refinement, see package fclib): the test only requires steady progress.
func TestFCLIBLocal(t *testing.T) {
	p, err := fclib.ReadFile("../../fclib/testdata/fclib_local_problem_test.hdf5")
	if err != nil {
		t.Fatal(err)
	}
	l := p.Local
	m := l.W.Rows
	w := mat.NewSymDense(m, nil)
	for j := range l.W.Cols {
		for k := l.W.ColPtr[j]; k < l.W.ColPtr[j+1]; k++ {
			i := l.W.RowIdx[k]
			if i <= j {
				w.SetSym(i, j, w.At(i, j)+l.W.Val[k])
			}
		}
	}
	s := pgs.NewSolver()
	s.Settings.MaxIter, s.Settings.Tol, s.Settings.History = 2000, 1e-10, true
	res, err := s.Solve(&pgs.Problem{W: w, B: l.Q, Mu: l.Mu}, nil)
	if err != nil {
		t.Fatal(err)
	}
	h := res.History
	t.Logf("FCLIB local: %v after %d sweeps, Coulomb residual %.1e (relaxed %.1e); residual after 10/100/1000 sweeps: %.1e / %.1e / %.1e",
		res.Stats.Status, res.Iterations, res.Coulomb, res.Relaxed, at(h, 10), at(h, 100), at(h, 1000))
	_ = mat.Symmetric(w)
	if !(at(h, 2000) < at(h, 100)/10 && at(h, 100) < at(h, 10)) {
		t.Errorf("no steady progress: %.1e, %.1e, %.1e after 10, 100, 2000 sweeps", at(h, 10), at(h, 100), at(h, 2000))
	}
}

func at(h []float64, i int) float64 {
	if i-1 < len(h) {
		return h[i-1]
	}
	return h[len(h)-1]
}
