package sap

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stiction-sim/stiction/solver"
)

// TestCubefix2PackRows3: packRows3 appends what a direct reading of the
// definition gives, after what cols and vals held: the columns (plus the
// offset) where one of the three rows is non-zero or NaN, and the rows'
// entries in those columns, row after row; on blocks with no, some and all
// columns zero.
func TestCubefix2PackRows3(t *testing.T) {
	rng := rand.New(rand.NewPCG(61, 4))
	for trial := range 400 {
		n := 1 + rng.IntN(12)
		jb := make([]float64, 3*n)
		for i := range jb {
			switch rng.IntN(4) {
			case 0:
				jb[i] = 0
			case 1:
				if rng.IntN(20) == 0 {
					jb[i] = math.NaN()
				} else {
					jb[i] = rng.NormFloat64()
				}
			default:
				if trial%3 != 0 { // every third block has most columns whole
					jb[i] = 0
				} else {
					jb[i] = rng.NormFloat64()
				}
			}
		}
		off := rng.IntN(30)
		pre := rng.IntN(3)
		cols0, vals0 := make([]int, pre, pre+rng.IntN(20)), make([]float64, 2*pre)
		for i := range cols0 {
			cols0[i] = -1 - i
		}
		for i := range vals0 {
			vals0[i] = float64(-1 - i)
		}
		wantCols, wantVals := slices.Clone(cols0), slices.Clone(vals0)
		var kept []int
		for j := range n {
			if jb[j] != 0 || jb[n+j] != 0 || jb[2*n+j] != 0 {
				kept = append(kept, j)
				wantCols = append(wantCols, off+j)
			}
		}
		for r := range 3 {
			for _, j := range kept {
				wantVals = append(wantVals, jb[r*n+j])
			}
		}
		cols, vals := packRows3(cols0, vals0, jb, off)
		if !slices.Equal(cols, wantCols) || !sameBits(vals, wantVals) {
			t.Fatalf("trial %d (n %d): cols %v vals %v, want %v %v", trial, n, cols, vals, wantCols, wantVals)
		}
	}
}

// sameBits reports whether a and b hold the same float64 bit patterns.
func sameBits(a, b []float64) bool {
	return slices.EqualFunc(a, b, func(x, y float64) bool { return math.Float64bits(x) == math.Float64bits(y) })
}

// cubefix2Break is one change of a problem's structure that Validate
// rejects.
type cubefix2Break struct {
	name string
	f    func(p *solver.Problem)
}

var cubefix2Breaks = []cubefix2Break{
	{"constraint 1's Row", func(p *solver.Problem) { p.Constraints[1].Row++ }},
	{"constraint 0's Size", func(p *solver.Problem) { p.Constraints[0].Size = 2 }},
	{"constraint 0's Par", func(p *solver.Problem) { p.Constraints[0].Par = 1 }},
	{"constraint 0's Kind", func(p *solver.Problem) { p.Constraints[0].Kind = solver.Interval }},
	{"J blocks unsorted", func(p *solver.Problem) { p.JBlock[0], p.JBlock[1] = p.JBlock[1], p.JBlock[0] }},
	{"J block on clique 9", func(p *solver.Problem) { p.JBlock[0].Clique = 9 }},
	{"J block outside JData", func(p *solver.Problem) { p.JBlock[len(p.JBlock)-1].Off = len(p.JData) }},
	{"clique 1's AOff", func(p *solver.Problem) { p.Cliques[1].AOff++ }},
	{"clique 0's Size", func(p *solver.Problem) { p.Cliques[0].Size-- }},
	{"NV", func(p *solver.Problem) { p.NV++ }},
	{"NR", func(p *solver.Problem) { p.NR-- }},
	{"short A", func(p *solver.Problem) { p.A = p.A[:len(p.A)-1] }},
	{"short VStar", func(p *solver.Problem) { p.VStar = p.VStar[:len(p.VStar)-1] }},
	{"short VHat", func(p *solver.Problem) { p.VHat = p.VHat[:len(p.VHat)-1] }},
	{"short R", func(p *solver.Problem) { p.R = p.R[:len(p.R)-1] }},
	{"long Params", func(p *solver.Problem) { p.Params = append(p.Params, 0.5) }},
}

// TestCubefix2ShapeCache: a solver that validated a problem's structure
// keeps it and checks the numbers only while the structure is the same;
// every change of the structure that Validate rejects, made in the same
// storage after a good solve, is still an error (the test fails if the kept
// structure is never compared again), and the solver then solves the good
// problem to the bits of a fresh solver.
func TestCubefix2ShapeCache(t *testing.T) {
	rng := rand.New(rand.NewPCG(61, 5))
	good := randomProblem(rng, 3, 6, 5)
	var want solver.Result
	if err := New(DefaultParams()).Solve(good, nil, &want); err != nil {
		t.Fatal(err)
	}
	for _, br := range cubefix2Breaks {
		s := New(DefaultParams())
		p := good.Clone()
		solveOK(t, s, p, nil)
		solveOK(t, s, p, nil) // the kept structure used once
		br.f(p)
		if p.Validate() == nil {
			t.Fatalf("%s: the broken problem passes Validate", br.name)
		}
		var res solver.Result
		if err := s.Solve(p, nil, &res); err == nil {
			t.Errorf("%s: accepted after a solve of the good problem", br.name)
		}
		got := solveOK(t, s, good, nil)
		if !sameBits(got.V, want.V) || !sameBits(got.Gamma, want.Gamma) || got.Stats != want.Stats {
			t.Errorf("%s: the good problem after the broken one differs from a fresh solve", br.name)
		}
	}
}

// TestCubefix2ShapeCacheNumbers: with the structure kept, the numbers are
// still checked at every solve (a NaN in J, v*, A or v̂, R ≤ 0, diag(M) ≤ 0,
// a negative friction coefficient), and a problem of another valid
// structure in the same storage (more contacts) solves to the bits of a
// fresh solver.
func TestCubefix2ShapeCacheNumbers(t *testing.T) {
	rng := rand.New(rand.NewPCG(61, 6))
	good := randomProblem(rng, 2, 6, 4)
	breaks := map[string]func(p *solver.Problem){
		"NaN in JData":   func(p *solver.Problem) { p.JData[7] = math.NaN() },
		"Inf in VStar":   func(p *solver.Problem) { p.VStar[2] = math.Inf(1) },
		"NaN in A":       func(p *solver.Problem) { p.A[3] = math.NaN() },
		"NaN in VHat":    func(p *solver.Problem) { p.VHat[1] = math.NaN() },
		"R = 0":          func(p *solver.Problem) { p.R[2] = 0 },
		"MDiag < 0":      func(p *solver.Problem) { p.MDiag[0] = -1 },
		"μ < 0":          func(p *solver.Problem) { p.Params[0] = -0.5 },
		"Rt ≠ Rt' (SAP)": func(p *solver.Problem) { p.R[0] *= 2 },
	}
	for name, brk := range breaks {
		s := New(DefaultParams())
		p := good.Clone()
		solveOK(t, s, p, nil)
		brk(p)
		var res solver.Result
		if err := s.Solve(p, nil, &res); err == nil {
			t.Errorf("%s: accepted with the structure kept", name)
		}
	}
	s := New(DefaultParams())
	p := good.Clone()
	solveOK(t, s, p, nil)
	other := randomProblem(rng, 2, 6, 7)
	*p = *other.Clone()
	var want solver.Result
	if err := New(DefaultParams()).Solve(other, nil, &want); err != nil {
		t.Fatal(err)
	}
	got := solveOK(t, s, p, nil)
	if !sameBits(got.V, want.V) || !sameBits(got.Gamma, want.Gamma) || got.Stats != want.Stats {
		t.Error("a problem of another structure after the kept one differs from a fresh solve")
	}
}
