package sim

import (
	"math"
	"math/rand/v2"
	"testing"
)

// newtoncore5SqrMatTD is MuJoCo 2.2.2's mju_sqrMatTD on the lower
// triangle, as HessianDirect calls it (D_k = 0 off the quadratic rows):
// res = 0, then for every row k with D_k ≠ 0 and every column i with
// J_ki ≠ 0, res_i,0…i += J_k,0…i (J_ki D_k).
func newtoncore5SqrMatTD(j, d []float64, state []int8, n, nv int) []float64 {
	res := make([]float64, nv*nv)
	for k := range n {
		dk := d[k]
		if state[k] != nwQuadratic {
			dk = 0
		}
		if dk == 0 {
			continue
		}
		for i := range nv {
			if tmp := j[k*nv+i]; tmp != 0 {
				tmp *= dk
				for c := 0; c <= i; c++ {
					res[i*nv+c] += j[k*nv+c] * tmp
				}
			}
		}
	}
	return res
}

// TestNewtoncore5SqrRowsMatchMuJoCo: sqrRows (dense rows alone or two with
// the same pattern together, sparse rows over their pattern) gives
// mju_sqrMatTD's bits on the lower triangle, on rows that come in runs
// with one pattern (a pyramid's edges: ±0 where the pattern has none,
// other values), some satisfied or with D = 0 between them.
func TestNewtoncore5SqrRowsMatchMuJoCo(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 65))
	pairs := 0
	for trial := range 3000 {
		n, nv := rng.IntN(16), 1+rng.IntN(30)
		nw := newtoncore3Rows(rng, n, nv)
		for k := 1; k < n; k++ { // copy the last row's pattern with new values
			if rng.IntN(3) == 0 {
				continue
			}
			for i := range nv {
				if p := nw.j[(k-1)*nv+i]; p != 0 {
					nw.j[k*nv+i] = randomNonZero(rng)
				} else {
					nw.j[k*nv+i] = math.Copysign(0, float64(rng.IntN(2))-0.5)
				}
			}
		}
		nw.rowPattern()
		nw.d, nw.state = make([]float64, n), make([]int8, n)
		for k := range n {
			nw.d[k] = rng.Float64() * math.Pow(10, float64(rng.IntN(5)-2))
			if rng.IntN(8) == 0 {
				nw.d[k] = 0
			}
			nw.state[k] = nwQuadratic
			if rng.IntN(4) == 0 {
				nw.state[k] = nwSatisfied
			}
		}
		for k := 1; k < n; k++ {
			a, b := nw.rowNZ(k-1), nw.rowNZ(k)
			if nw.state[k] == nwQuadratic && nw.state[k-1] == nwQuadratic && 2*len(b) >= nv && len(a) == len(b) {
				pairs++
			}
		}
		got := make([]float64, nv*nv)
		nw.sqrRows(got)
		if want := newtoncore5SqrMatTD(nw.j, nw.d, nw.state, n, nv); !lowerSameBits(got, want, nv) {
			t.Fatalf("trial %d (n %d, nv %d): sqrRows differs from mju_sqrMatTD", trial, n, nv)
		}
	}
	if pairs < 1000 {
		t.Fatalf("only %d dense pairs drawn", pairs)
	}
}

// randomNonZero is randomEntry without zeros.
func randomNonZero(rng *rand.Rand) float64 {
	for {
		if x := randomEntry(rng); x != 0 {
			return x
		}
	}
}
