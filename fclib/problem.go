package fclib

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/stiction-sim/stiction/hdf5"
)

// Problem is the content of one FCLIB file: exactly one of Global and Local
// is set.
type Problem struct {
	Name   string // base name of the file
	Global *GlobalProblem
	Local  *LocalProblem
}

// Info is the free-text description of a problem (<group>/info).
type Info struct {
	Title, Description, MathInfo string
}

// GlobalProblem is an FCLIB global frictional contact problem (group
// /fclib_global): find v, r with
//
//	M v = H r + G λ + f,   u = Hᵀ v + w,   Gᵀ v + b = 0,
//	K* ∋ u + [μ‖u_T‖, 0, 0] ⊥ r ∈ K = {‖r_T‖ ≤ μ r_N},
//
// contact by contact, each contact's components ordered (n, t1, t2)
// (SpaceDim = 3) or (n, t) (SpaceDim = 2). G and B are nil when the problem
// has no bilateral constraints.
type GlobalProblem struct {
	SpaceDim int
	M        *Sparse // n×n mass matrix
	H        *Sparse // n×m, m = SpaceDim·contacts
	G        *Sparse // optional n×p
	F        []float64
	W        []float64
	Mu       []float64 // one per contact
	B        []float64 // optional, length p
	Info     Info
}

// LocalProblem is an FCLIB local frictional contact problem (group
// /fclib_local): find r with u = W r + q and the same cone condition as the
// global problem.
type LocalProblem struct {
	SpaceDim int
	W        *Sparse // m×m Delassus operator
	Q        []float64
	Mu       []float64
	Info     Info
}

// N returns the number of generalized velocities (0 for a local problem).
func (p *Problem) N() int {
	if p.Global != nil {
		return p.Global.M.Cols
	}
	return 0
}

// Contacts returns the number of contacts.
func (p *Problem) Contacts() int {
	if p.Global != nil {
		return len(p.Global.Mu)
	}
	return len(p.Local.Mu)
}

// ReadFile reads the FCLIB problem in the HDF5 file at path.
func ReadFile(path string) (*Problem, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("fclib: %w", err)
	}
	return Read(filepath.Base(path), data)
}

// Read decodes the FCLIB problem in the HDF5 file image data; name (the
// file name) is used in errors and as Problem.Name. Errors wrap ErrFormat or
// ErrUnsupported and name the file and the object concerned.
func Read(name string, data []byte) (*Problem, error) {
	p, err := read(name, data)
	if err != nil {
		return nil, fmt.Errorf("fclib: %s: %w", name, err)
	}
	return p, nil
}

func read(name string, data []byte) (*Problem, error) {
	f, err := hdf5.Open("", data) // Read names the file in its errors
	if err != nil {
		return nil, err
	}
	r := &problemReader{f: f}
	p := &Problem{Name: name}
	switch {
	case r.exists("/fclib_global"):
		p.Global, err = r.global()
	case r.exists("/fclib_local"):
		p.Local, err = r.local()
	default:
		err = malformed("neither /fclib_global nor /fclib_local present (not an FCLIB file)")
	}
	if err != nil {
		return nil, err
	}
	return p, nil
}

// problemReader reads the FCLIB objects of one file.
type problemReader struct {
	f *hdf5.File
}

// exists reports whether path resolves; other errors count as present so
// that the read reports them.
func (r *problemReader) exists(path string) bool { return r.f.Exists(path) }

func (r *problemReader) floats(path string) ([]float64, error) {
	d, err := r.f.Dataset(path)
	if err != nil {
		return nil, err
	}
	return d.Float64s()
}

func (r *problemReader) ints(path string) ([]int32, error) {
	d, err := r.f.Dataset(path)
	if err != nil {
		return nil, err
	}
	return d.Int32s()
}

// scalarInt reads the first element of an int32 dataset.
func (r *problemReader) scalarInt(path string) (int, error) {
	v, err := r.ints(path)
	if err != nil {
		return 0, err
	}
	if len(v) == 0 {
		return 0, fmt.Errorf("dataset %q: %w", path, malformed("empty"))
	}
	return int(v[0]), nil
}

// str reads a scalar string dataset; a missing one reads as "".
func (r *problemReader) str(path string) (string, error) {
	if !r.exists(path) {
		return "", nil
	}
	d, err := r.f.Dataset(path)
	if err != nil {
		return "", err
	}
	v, err := d.Strings()
	if err != nil || len(v) == 0 {
		return "", err
	}
	return v[0], nil
}

// info reads <group>/info.
func (r *problemReader) info(group string) (Info, error) {
	var in Info
	var err error
	for _, f := range []struct {
		name string
		dst  *string
	}{{"title", &in.Title}, {"description", &in.Description}, {"math_info", &in.MathInfo}} {
		if *f.dst, err = r.str(group + "/info/" + f.name); err != nil {
			return in, err
		}
	}
	return in, nil
}

// spaceDim reads <group>/spacedim, which must be 2 or 3.
func (r *problemReader) spaceDim(group string) (int, error) {
	d, err := r.scalarInt(group + "/spacedim")
	if err != nil {
		return 0, err
	}
	if d != 2 && d != 3 {
		return 0, fmt.Errorf("%s/spacedim: %w", group, malformed("%d (want 2 or 3)", d))
	}
	return d, nil
}

// matrix reads the matrix group at path and checks it is rows×cols before
// converting it, so that no allocation exceeds what the file's vectors
// already bound.
func (r *problemReader) matrix(path string, rows, cols int) (*Sparse, error) {
	raw := &rawSparse{}
	var err error
	for _, f := range []struct {
		name string
		dst  *int
	}{{"m", &raw.m}, {"n", &raw.n}, {"nz", &raw.nz}} {
		if *f.dst, err = r.scalarInt(path + "/" + f.name); err != nil {
			return nil, err
		}
	}
	if raw.m != rows || raw.n != cols {
		return nil, fmt.Errorf("matrix %s: %w", path, malformed("is %d×%d, want %d×%d", raw.m, raw.n, rows, cols))
	}
	if raw.p, err = r.ints(path + "/p"); err != nil {
		return nil, err
	}
	if raw.i, err = r.ints(path + "/i"); err != nil {
		return nil, err
	}
	if raw.x, err = r.floats(path + "/x"); err != nil {
		return nil, err
	}
	s, err := raw.toSparse()
	if err != nil {
		return nil, fmt.Errorf("matrix %s: %w", path, err)
	}
	return s, nil
}
