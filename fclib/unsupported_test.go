package fclib

import (
	"encoding/binary"
	"errors"
	"strings"
	"testing"
)

const (
	boxFile   = "Box_Stacks-i0122-82-5.hdf5"
	localFile = "fclib_local_problem_test.hdf5"
)

// header returns the object header of path in the file image data.
func header(t *testing.T, data []byte, path string) *objectHeader {
	t.Helper()
	f, err := openHDF5("test", data)
	if err != nil {
		t.Fatal(err)
	}
	h, err := f.lookup(path)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// msgAt returns the address of the data of the first message of type typ
// in the header of path.
func msgAt(t *testing.T, data []byte, path string, typ uint16) int {
	t.Helper()
	m := header(t, data, path).find(typ)
	if m == nil {
		t.Fatalf("%s has no message 0x%04x", path, typ)
	}
	return int(m.pos)
}

// TestUnsupportedFeatures patches the samples to use HDF5 features outside
// the subset and checks that each gives an ErrUnsupported error naming the
// feature, the file and the object.
func TestUnsupportedFeatures(t *testing.T) {
	const x = "/fclib_global/M/x"
	cases := []struct {
		name, feature, object string
		patch                 func(t *testing.T, d []byte)
	}{
		{"superblock v2", "superblock version 2", "", func(t *testing.T, d []byte) { d[8] = 2 }},
		{"object header v2", "version 2 object header", x, func(t *testing.T, d []byte) {
			copy(d[header(t, d, x).addr:], "OHDR")
		}},
		{"chunked", "chunked storage layout", x, func(t *testing.T, d []byte) { d[msgAt(t, d, x, msgLayout)+1] = 2 }},
		{"compact", "compact storage layout", x, func(t *testing.T, d []byte) { d[msgAt(t, d, x, msgLayout)+1] = 0 }},
		{"virtual", "virtual storage layout", x, func(t *testing.T, d []byte) {
			p := msgAt(t, d, x, msgLayout)
			d[p], d[p+1] = 4, 3
		}},
		{"layout v5", "data layout message version 5", x, func(t *testing.T, d []byte) { d[msgAt(t, d, x, msgLayout)] = 5 }},
		{"float32", "floating-point datatype (4 bytes", x, func(t *testing.T, d []byte) {
			binary.LittleEndian.PutUint32(d[msgAt(t, d, x, msgDatatype)+4:], 4)
		}},
		{"int64", "integer datatype (8 bytes", "/fclib_global/M/nz", func(t *testing.T, d []byte) {
			binary.LittleEndian.PutUint32(d[msgAt(t, d, "/fclib_global/M/nz", msgDatatype)+4:], 8)
		}},
		{"vlen", "variable-length datatype", x, func(t *testing.T, d []byte) { d[msgAt(t, d, x, msgDatatype)] = 0x19 }},
		{"compound", "compound datatype", x, func(t *testing.T, d []byte) { d[msgAt(t, d, x, msgDatatype)] = 0x16 }},
		{"rank 2", "dataspace of rank 2", x, func(t *testing.T, d []byte) { d[msgAt(t, d, x, msgDataspace)+1] = 2 }},
		{"shared datatype", "shared header message", x, func(t *testing.T, d []byte) { d[msgAt(t, d, x, msgDatatype)-4] |= msgFlagShared }},
		{"deflate", "filter pipeline (deflate)", x, func(t *testing.T, d []byte) {
			p := msgAt(t, d, x, msgNil)
			binary.LittleEndian.PutUint16(d[p-8:], msgFilters)
			copy(d[p:], []byte{2, 1, 1, 0, 0, 0, 0, 0}) // version 2, 1 filter: id 1, flags 0, 0 values
		}},
		{"external", "external data storage", x, func(t *testing.T, d []byte) {
			binary.LittleEndian.PutUint16(d[msgAt(t, d, x, msgNil)-8:], msgExternal)
		}},
		{"new-style group", "new-style group", "/", func(t *testing.T, d []byte) {
			binary.LittleEndian.PutUint16(d[msgAt(t, d, "/", msgSymbolTable)-8:], msgLinkInfo)
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d := readSample(t, boxFile)
			c.patch(t, d)
			_, err := Read(boxFile, d)
			t.Log(err)
			if !errors.Is(err, ErrUnsupported) {
				t.Fatalf("err = %v, want ErrUnsupported", err)
			}
			for _, want := range []string{c.feature, boxFile, c.object} {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("error %q does not mention %q", err, want)
				}
			}
		})
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
