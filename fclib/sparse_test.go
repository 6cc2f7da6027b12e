package fclib

import (
	"errors"
	"slices"
	"testing"
)

// testDense is a 3×4 matrix with an empty column.
var testDense = []float64{
	1, 0, 2, 0,
	0, 0, 3, 4,
	5, 0, 0, 6,
}

// forms returns testDense in the three FCLIB forms; the triplet form
// splits entry (0, 2) into two duplicates that must be summed.
func forms() map[string]*rawSparse {
	return map[string]*rawSparse{
		"triplet": {m: 3, n: 4, nz: 7,
			i: []int32{2, 0, 1, 0, 2, 1, 0}, p: []int32{0, 0, 2, 2, 3, 3, 2},
			x: []float64{5, 1, 3, 0.5, 6, 4, 1.5}},
		"CSC": {m: 3, n: 4, nz: -1,
			p: []int32{0, 2, 2, 4, 6}, i: []int32{0, 2, 0, 1, 1, 2}, x: []float64{1, 5, 2, 3, 4, 6}},
		"CSR": {m: 3, n: 4, nz: -2,
			p: []int32{0, 2, 4, 6}, i: []int32{0, 2, 2, 3, 0, 3}, x: []float64{1, 2, 3, 4, 5, 6}},
	}
}

func TestSparseForms(t *testing.T) {
	want := map[string]Format{"triplet": Triplet, "CSC": CSC, "CSR": CSR}
	for name, raw := range forms() {
		s, err := raw.toSparse()
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if s.Stored != want[name] {
			t.Errorf("%s: Stored = %v", name, s.Stored)
		}
		if !slices.Equal(s.ColPtr, []int{0, 2, 2, 4, 6}) || !slices.Equal(s.RowIdx, []int{0, 2, 0, 1, 1, 2}) {
			t.Errorf("%s: ColPtr %v RowIdx %v", name, s.ColPtr, s.RowIdx)
		}
		if !slices.Equal(s.Dense(), testDense) {
			t.Errorf("%s: Dense = %v, want %v", name, s.Dense(), testDense)
		}
		checkProducts(t, name, s)
	}
}

// checkProducts compares MulVec, MulTVec and At with the dense matrix.
func checkProducts(t *testing.T, name string, s *Sparse) {
	x, y := []float64{1, 2, 3, 4}, []float64{1, -1, 2}
	ax, aty := make([]float64, 3), make([]float64, 4)
	s.MulVec(x, ax)
	s.MulTVec(y, aty)
	for i := range 3 {
		want := 0.0
		for j := range 4 {
			want += testDense[i*4+j] * x[j]
			if s.At(i, j) != testDense[i*4+j] {
				t.Errorf("%s: At(%d, %d) = %v", name, i, j, s.At(i, j))
			}
		}
		if ax[i] != want {
			t.Errorf("%s: (S x)[%d] = %v, want %v", name, i, ax[i], want)
		}
	}
	for j := range 4 {
		want := 0.0
		for i := range 3 {
			want += testDense[i*4+j] * y[i]
		}
		if aty[j] != want {
			t.Errorf("%s: (Sᵀ y)[%d] = %v, want %v", name, j, aty[j], want)
		}
	}
}

func TestSparseErrors(t *testing.T) {
	cases := map[string]func(r map[string]*rawSparse) *rawSparse{
		"bad nz":                func(r map[string]*rawSparse) *rawSparse { r["CSC"].nz = -3; return r["CSC"] },
		"triplet row range":     func(r map[string]*rawSparse) *rawSparse { r["triplet"].i[3] = 3; return r["triplet"] },
		"triplet column range":  func(r map[string]*rawSparse) *rawSparse { r["triplet"].p[0] = -1; return r["triplet"] },
		"triplet short":         func(r map[string]*rawSparse) *rawSparse { r["triplet"].x = r["triplet"].x[:6]; return r["triplet"] },
		"CSC decreasing":        func(r map[string]*rawSparse) *rawSparse { r["CSC"].p[2] = 1; return r["CSC"] },
		"CSC pointer past end":  func(r map[string]*rawSparse) *rawSparse { r["CSC"].p[1] = 9; return r["CSC"] },
		"CSC nnz past i":        func(r map[string]*rawSparse) *rawSparse { r["CSC"].p[4] = 7; return r["CSC"] },
		"CSC p[0]":              func(r map[string]*rawSparse) *rawSparse { r["CSC"].p[0] = 1; return r["CSC"] },
		"CSC row range":         func(r map[string]*rawSparse) *rawSparse { r["CSC"].i[5] = 3; return r["CSC"] },
		"CSR short pointers":    func(r map[string]*rawSparse) *rawSparse { r["CSR"].p = r["CSR"].p[:3]; return r["CSR"] },
		"CSR short values":      func(r map[string]*rawSparse) *rawSparse { r["CSR"].x = r["CSR"].x[:5]; return r["CSR"] },
		"CSR negative column":   func(r map[string]*rawSparse) *rawSparse { r["CSR"].i[0] = -1; return r["CSR"] },
		"CSR negative pointers": func(r map[string]*rawSparse) *rawSparse { r["CSR"].p[3] = -1; return r["CSR"] },
	}
	for name, mutate := range cases {
		if _, err := mutate(forms()).toSparse(); !errors.Is(err, ErrFormat) {
			t.Errorf("%s: err = %v, want ErrFormat", name, err)
		}
	}
}

func TestSymmetrize(t *testing.T) {
	// Upper triangle of [[4, 1, 0], [1, 5, 2], [0, 2, 6]].
	upper := compress(3, 3, []int{0, 0, 1, 1, 2}, []int{0, 1, 1, 2, 2}, []float64{4, 1, 5, 2, 6})
	full := []float64{4, 1, 0, 1, 5, 2, 0, 2, 6}
	s, kind, err := symmetrize(upper, "U")
	if err != nil || kind != UpperTriangle || !slices.Equal(s.Dense(), full) {
		t.Errorf("upper: kind %v, err %v, dense %v", kind, err, s.Dense())
	}
	lower := compress(3, 3, []int{0, 1, 1, 2, 2}, []int{0, 0, 1, 1, 2}, []float64{4, 1, 5, 2, 6})
	if s, kind, err = symmetrize(lower, "L"); err != nil || kind != LowerTriangle || !slices.Equal(s.Dense(), full) {
		t.Errorf("lower: kind %v, err %v, dense %v", kind, err, s.Dense())
	}
	sym := compress(3, 3, []int{0, 1, 0, 1, 2, 1, 2}, []int{0, 0, 1, 1, 1, 2, 2}, []float64{4, 1, 1, 5, 2, 2, 6})
	if s, kind, err = symmetrize(sym, "S"); err != nil || kind != Symmetric || !slices.Equal(s.Dense(), full) {
		t.Errorf("symmetric: kind %v, err %v, dense %v", kind, err, s.Dense())
	}
	sym.Val[1] *= 1 + 1e-9
	if _, _, err = symmetrize(sym, "A"); !errors.Is(err, ErrUnsupported) {
		t.Errorf("unsymmetric: err = %v, want ErrUnsupported", err)
	}
}

// TestSampleStorage records how the samples store M and W: LMGC90's CubeH8
// and LMGC…00046 write only the upper triangle of M.
func TestSampleStorage(t *testing.T) {
	want := map[string][2]any{
		"Box_Stacks-i0122-82-5.hdf5":                  {Triplet, Symmetric},
		"CubeH8.hdf5":                                 {Triplet, UpperTriangle},
		"LMGC_GlobalFrictionContactProblem00046.hdf5": {Triplet, UpperTriangle},
		"LMGC_GFC3D-i00001-1-00000.hdf5":              {Triplet, Symmetric},
		"fclib_local_problem_test.hdf5":               {CSR, Symmetric},
	}
	for _, name := range sampleFiles {
		p, err := ReadFile(samplePath(name))
		if err != nil {
			t.Fatal(err)
		}
		var m *Sparse
		if p.Global != nil {
			m = p.Global.M
		} else {
			m = p.Local.W
		}
		_, kind, err := symmetrize(m, "M")
		if err != nil || m.Stored != want[name][0] || kind != want[name][1] {
			t.Errorf("%s: stored %v as %v (err %v), want %v", name, m.Stored, kind, err, want[name])
		}
	}
}
