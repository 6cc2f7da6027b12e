package sim

import (
	"math"
	"math/rand/v2"
	"testing"
)

// The dense port's products over J's rows (mujoco_newton*.go,
// mujoco_coords.go) against plain transcriptions of MuJoCo 2.2.2's loops,
// bit for bit, on random rows with exact zeros of both signs: some rows
// dense (their pattern at least half of nv), some sparse, some all zero.

// newtoncore3Rows returns a random J (n×nv) whose rows have random
// patterns, zero entries of both signs off them, and the newtonWork that
// holds it with its pattern (rowPattern).
func newtoncore3Rows(rng *rand.Rand, n, nv int) *newtonWork {
	nw := &newtonWork{nv: nv, n: n, j: make([]float64, n*nv)}
	for k := range n {
		fill := []float64{0, 0.3, 0.6, 1}[rng.IntN(4)] // share of the row's non-zeros
		for i := range nv {
			x := math.Copysign(0, float64(rng.IntN(2))-0.5)
			if rng.Float64() < fill {
				x = rng.NormFloat64() * math.Pow(10, float64(rng.IntN(5)-2))
			}
			nw.j[k*nv+i] = x
		}
	}
	nw.rowPattern()
	return nw
}

// TestMulJTDenseMatchesMuJoCo: mulJT on the dense path (dense rows two at
// a time, sparse rows over their pattern) gives mju_mulMatTVec's bits:
// res = 0, then for every row k with f_k ≠ 0, res_i += J_ki f_k for all i.
func TestMulJTDenseMatchesMuJoCo(t *testing.T) {
	rng := rand.New(rand.NewPCG(23, 29))
	for trial := range 3000 {
		n, nv := rng.IntN(20), 1+rng.IntN(30)
		nw := newtoncore3Rows(rng, n, nv)
		f := make([]float64, n)
		for k := range f {
			f[k] = randomEntry(rng)
		}
		got, want := make([]float64, nv), make([]float64, nv)
		for i := range got {
			got[i] = rng.NormFloat64() // mulJT must overwrite it
		}
		nw.mulJT(f, got)
		for k, fk := range f {
			if fk == 0 {
				continue
			}
			for i := range nv {
				want[i] += nw.j[k*nv+i] * fk
			}
		}
		if !sameBits(got, want) {
			t.Fatalf("trial %d (n %d, nv %d): mulJT %v, mju_mulMatTVec %v", trial, n, nv, got, want)
		}
	}
}

// TestHessianDirectMatchesMuJoCo: hessianDirect (dense rows over the
// whole of each row, sparse rows over their pattern) gives the lower
// triangle of MuJoCo's HessianDirect: mju_sqrMatTD (for every row k with
// D_k ≠ 0 in the quadratic state, every column i with J_ki ≠ 0 and every
// c ≤ i, H_ic += J_kc (J_ki D_k)), + M (mj_addM), then mju_cholFactor.
func TestHessianDirectMatchesMuJoCo(t *testing.T) {
	rng := rand.New(rand.NewPCG(31, 37))
	for trial := range 1500 {
		n, nv := rng.IntN(20), 1+rng.IntN(30)
		nw := newtoncore3Rows(rng, n, nv)
		nw.d, nw.state = make([]float64, n), make([]int8, n)
		for k := range n {
			nw.d[k] = math.Exp(rng.NormFloat64())
			if rng.IntN(8) == 0 {
				nw.d[k] = 0
			}
			nw.state[k] = []int8{nwSatisfied, nwQuadratic, nwQuadratic, nwLinearPos}[rng.IntN(4)]
		}
		nw.m, nw.h = make([]float64, nv*nv), make([]float64, nv*nv)
		for i := range nv { // an SPD M with zero couplings
			for c := range i {
				if rng.IntN(2) == 0 {
					nw.m[i*nv+c] = 0.1 * rng.NormFloat64()
					nw.m[c*nv+i] = nw.m[i*nv+c]
				}
			}
			nw.m[i*nv+i] = float64(nv) + rng.Float64()
		}
		want := make([]float64, nv*nv)
		for k := range n {
			if nw.state[k] != nwQuadratic || nw.d[k] == 0 {
				continue
			}
			row := nw.j[k*nv : (k+1)*nv]
			for i, x := range row {
				if x == 0 {
					continue
				}
				tmp := x * nw.d[k]
				for c := 0; c <= i; c++ {
					want[i*nv+c] += row[c] * tmp
				}
			}
		}
		for x := range want {
			want[x] += nw.m[x]
		}
		refCholFactor(want, nv, mjMinVal)
		nw.hessianDirect(nil)
		if !lowerSameBits(nw.h, want, nv) {
			t.Fatalf("trial %d (n %d, nv %d): hessianDirect's factor differs from MuJoCo's", trial, n, nv)
		}
	}
}
