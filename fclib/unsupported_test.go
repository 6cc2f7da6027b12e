package fclib

import (
	"errors"
	"strings"
	"testing"
)

// TestUnsupportedFeature checks that an HDF5 feature outside the reader's
// subset reaches the caller of Read as ErrUnsupported, naming the file, the
// object and the feature (package hdf5 tests every feature).
func TestUnsupportedFeature(t *testing.T) {
	d := readSample(t, boxFile)
	d[8] = 2 // superblock version
	_, err := Read(boxFile, d)
	if !errors.Is(err, ErrUnsupported) {
		t.Fatalf("err = %v, want ErrUnsupported", err)
	}
	for _, want := range []string{"fclib: " + boxFile + ": ", "superblock version 2"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not mention %q", err, want)
		}
	}
}

// TestMissingGroup checks a valid HDF5 file that is not an FCLIB problem.
func TestMissingGroup(t *testing.T) {
	d := readSample(t, boxFile)
	i := strings.Index(string(d[:4096]), "fclib_global")
	if i < 0 {
		t.Fatal("no link name fclib_global in the first page")
	}
	copy(d[i:], "fclib_globax")
	_, err := Read(boxFile, d)
	if !errors.Is(err, ErrFormat) || !strings.Contains(err.Error(), "neither /fclib_global nor /fclib_local") {
		t.Errorf("err = %v", err)
	}
}

// TestUnsupportedProblems checks the problems the SAP mapping rejects.
func TestUnsupportedProblems(t *testing.T) {
	p, err := ReadFile(samplePath(boxFile))
	if err != nil {
		t.Fatal(err)
	}
	g := *p.Global
	g.SpaceDim = 2
	if _, err := NewMapping(&Problem{Name: "2d", Global: &g}, 1e-6); !errors.Is(err, ErrUnsupported) || !strings.Contains(err.Error(), "spacedim 2") {
		t.Errorf("2-D problem: err = %v", err)
	}
	g = *p.Global
	g.G, g.B = g.M, make([]float64, g.M.Cols)
	if _, err := NewMapping(&Problem{Name: "bilateral", Global: &g}, 1e-6); !errors.Is(err, ErrUnsupported) || !strings.Contains(err.Error(), "bilateral") {
		t.Errorf("problem with G: err = %v", err)
	}
	l, err := ReadFile(samplePath(localFile))
	if err != nil {
		t.Fatal(err)
	}
	lp := *l.Local
	lp.W = unsymmetric(lp.W)
	if _, err := NewMapping(&Problem{Name: "unsym", Local: &lp}, 1e-6); !errors.Is(err, ErrUnsupported) || !strings.Contains(err.Error(), "unsymmetric matrix") {
		t.Errorf("unsymmetric W: err = %v", err)
	}
	lp.W = shiftDiagonal(l.Local.W, -1)
	if _, err := NewMapping(&Problem{Name: "indefinite", Local: &lp}, 1e-6); !errors.Is(err, ErrUnsupported) || !strings.Contains(err.Error(), "indefinite matrix W") {
		t.Errorf("indefinite W: err = %v", err)
	}
	if _, err := NewMapping(l, 0); err == nil {
		t.Error("ε = 0 accepted")
	}
}

// unsymmetric returns a copy of s with its first off-diagonal entry doubled.
func unsymmetric(s *Sparse) *Sparse {
	c := *s
	c.Val = append([]float64(nil), s.Val...)
	for j := range c.Cols {
		for k := c.ColPtr[j]; k < c.ColPtr[j+1]; k++ {
			if c.RowIdx[k] != j && c.Val[k] != 0 {
				c.Val[k] *= 2
				return &c
			}
		}
	}
	return &c
}

// shiftDiagonal returns a copy of s with d added to its stored diagonal.
func shiftDiagonal(s *Sparse, d float64) *Sparse {
	c := *s
	c.Val = append([]float64(nil), s.Val...)
	for j := range c.Cols {
		for k := c.ColPtr[j]; k < c.ColPtr[j+1]; k++ {
			if c.RowIdx[k] == j {
				c.Val[k] += d
			}
		}
	}
	return &c
}
