package fclib

import (
	"math"
	"slices"
)

// Format is the storage form of a sparse matrix in an FCLIB file, given by
// its nz field.
type Format int

const (
	// Triplet (nz ≥ 0): nz entries with row index i[k], column index p[k]
	// (CSparse's convention; the comment in fclib.h has them swapped).
	Triplet Format = iota
	// CSC (nz = −1): compressed columns, p of length n+1.
	CSC
	// CSR (nz = −2): compressed rows, p of length m+1.
	CSR
)

// String returns the format name.
func (f Format) String() string {
	switch f {
	case Triplet:
		return "triplet"
	case CSC:
		return "CSC"
	case CSR:
		return "CSR"
	}
	return "unknown"
}

// Sparse is a sparse matrix in compressed-column form: the entries of
// column j are RowIdx[ColPtr[j]:ColPtr[j+1]] and Val[...], with increasing
// row indices and duplicates of the stored form summed.
type Sparse struct {
	Rows, Cols int
	ColPtr     []int
	RowIdx     []int
	Val        []float64
	Stored     Format // form the matrix had in the file
}

// rawSparse is a matrix group as stored: m, n, nz and the p, i, x arrays.
type rawSparse struct {
	m, n, nz int
	p, i     []int32
	x        []float64
}

// format returns the storage form given by nz.
func (r *rawSparse) format() (Format, error) {
	switch {
	case r.nz >= 0:
		return Triplet, nil
	case r.nz == -1:
		return CSC, nil
	case r.nz == -2:
		return CSR, nil
	}
	return 0, malformed("nz = %d (want ≥ 0, −1 or −2)", r.nz)
}

// toSparse validates r and converts it to compressed-column form. Row and
// column counts must already be checked against the problem's vectors, so
// that allocations are bounded by the file size.
func (r *rawSparse) toSparse() (*Sparse, error) {
	f, err := r.format()
	if err != nil {
		return nil, err
	}
	var rows, cols []int
	switch f {
	case Triplet:
		rows, cols, err = r.triplets()
	case CSC:
		cols, rows, err = expand(r.p, r.i, r.n, r.m, "column")
	default:
		rows, cols, err = expand(r.p, r.i, r.m, r.n, "row")
	}
	if err != nil {
		return nil, err
	}
	if len(r.x) < len(rows) {
		return nil, malformed("%d entries but len(x) = %d", len(rows), len(r.x))
	}
	s := compress(r.m, r.n, rows, cols, r.x)
	s.Stored = f
	return s, nil
}

// triplets checks a triplet matrix and returns its row and column indices.
func (r *rawSparse) triplets() (rows, cols []int, err error) {
	if len(r.i) < r.nz || len(r.p) < r.nz || len(r.x) < r.nz {
		return nil, nil, malformed("triplet matrix with nz = %d but len(i) = %d, len(p) = %d, len(x) = %d", r.nz, len(r.i), len(r.p), len(r.x))
	}
	rows, cols = make([]int, r.nz), make([]int, r.nz)
	for k := range r.nz {
		rows[k], cols[k] = int(r.i[k]), int(r.p[k])
		if rows[k] < 0 || rows[k] >= r.m || cols[k] < 0 || cols[k] >= r.n {
			return nil, nil, malformed("triplet entry %d at (%d, %d) outside the %d×%d matrix", k, rows[k], cols[k], r.m, r.n)
		}
	}
	return rows, cols, nil
}

// expand turns compressed storage (pointers p over nOuter outer indices,
// inner indices idx < nInner) into per-entry outer and inner indices.
func expand(p, idx []int32, nOuter, nInner int, outer string) (outerIdx, innerIdx []int, err error) {
	if len(p) < nOuter+1 {
		return nil, nil, malformed("compressed %s pointers: len(p) = %d, want %d", outer, len(p), nOuter+1)
	}
	nnz := int(p[nOuter])
	if p[0] != 0 || nnz < 0 || nnz > len(idx) {
		return nil, nil, malformed("compressed %s pointers: p[0] = %d, p[%d] = %d with len(i) = %d", outer, p[0], nOuter, nnz, len(idx))
	}
	outerIdx, innerIdx = make([]int, nnz), make([]int, nnz)
	for j := range nOuter {
		if p[j+1] < p[j] || int(p[j+1]) > nnz {
			return nil, nil, malformed("compressed %s pointers: p[%d] = %d, p[%d] = %d not non-decreasing within [0, %d]", outer, j, p[j], j+1, p[j+1], nnz)
		}
		for k := p[j]; k < p[j+1]; k++ {
			outerIdx[k], innerIdx[k] = j, int(idx[k])
			if idx[k] < 0 || int(idx[k]) >= nInner {
				return nil, nil, malformed("entry %d: index %d outside [0, %d)", k, idx[k], nInner)
			}
		}
	}
	return outerIdx, innerIdx, nil
}

// compress builds the compressed-column form of the entries (rows[k],
// cols[k], x[k]), summing duplicates and sorting rows within columns.
func compress(m, n int, rows, cols []int, x []float64) *Sparse {
	order := make([]int, len(rows))
	for k := range order {
		order[k] = k
	}
	slices.SortStableFunc(order, func(a, b int) int {
		if cols[a] != cols[b] {
			return cols[a] - cols[b]
		}
		return rows[a] - rows[b]
	})
	s := &Sparse{Rows: m, Cols: n, ColPtr: make([]int, n+1)}
	prevRow, prevCol := -1, -1
	for _, k := range order {
		if rows[k] == prevRow && cols[k] == prevCol {
			s.Val[len(s.Val)-1] += x[k]
			continue
		}
		prevRow, prevCol = rows[k], cols[k]
		s.RowIdx = append(s.RowIdx, rows[k])
		s.Val = append(s.Val, x[k])
		s.ColPtr[cols[k]+1]++
	}
	for j := range n {
		s.ColPtr[j+1] += s.ColPtr[j]
	}
	return s
}

// MulVec sets y = S x.
func (s *Sparse) MulVec(x, y []float64) {
	clear(y[:s.Rows])
	for j := range s.Cols {
		for k := s.ColPtr[j]; k < s.ColPtr[j+1]; k++ {
			y[s.RowIdx[k]] += s.Val[k] * x[j]
		}
	}
}

// MulTVec sets y = Sᵀ x.
func (s *Sparse) MulTVec(x, y []float64) {
	for j := range s.Cols {
		sum := 0.0
		for k := s.ColPtr[j]; k < s.ColPtr[j+1]; k++ {
			sum += s.Val[k] * x[s.RowIdx[k]]
		}
		y[j] = sum
	}
}

// At returns entry (i, j) (zero if not stored).
func (s *Sparse) At(i, j int) float64 {
	rows := s.RowIdx[s.ColPtr[j]:s.ColPtr[j+1]]
	if k, ok := slices.BinarySearch(rows, i); ok {
		return s.Val[s.ColPtr[j]+k]
	}
	return 0
}

// Dense returns S as a row-major dense matrix (it allocates Rows·Cols).
func (s *Sparse) Dense() []float64 {
	d := make([]float64, s.Rows*s.Cols)
	for j := range s.Cols {
		for k := s.ColPtr[j]; k < s.ColPtr[j+1]; k++ {
			d[s.RowIdx[k]*s.Cols+j] = s.Val[k]
		}
	}
	return d
}

// Asymmetry returns max |S_ij − S_ji| over all entries, and max |S_ij|.
func (s *Sparse) Asymmetry() (diff, scale float64) {
	for j := range s.Cols {
		for k := s.ColPtr[j]; k < s.ColPtr[j+1]; k++ {
			i := s.RowIdx[k]
			scale = max(scale, math.Abs(s.Val[k]))
			if i < s.Cols && j < s.Rows {
				diff = max(diff, math.Abs(s.Val[k]-s.At(j, i)))
			} else {
				diff = max(diff, math.Abs(s.Val[k]))
			}
		}
	}
	return diff, scale
}
