package contact

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stiction-sim/stiction/spatial"
)

// cubeslide2Zeros are the exact zeros of both signs that the draws of
// TestCubeslide2AddFreeRows mix with normal numbers.
var cubeslide2Zeros = [2]float64{0, math.Copysign(0, -1)}

// cubeslide2Draw returns one of cubeslide2Zeros half the time, else a
// normal number.
func cubeslide2Draw(r *rand.Rand) float64 {
	if r.IntN(2) == 0 {
		return cubeslide2Zeros[r.IntN(2)]
	}
	return r.NormFloat64()
}

// TestCubeslide2AddFreeRows: addAllRows adds to a free body's three rows
// what addBodyRows' loop over the body's chain adds (the loop as it is,
// on slices, for a chain of one body with six columns), to the bit, on
// rows that already hold numbers (a merged block), with both signs and
// exact zeros of both signs in the directions and the Jacobian.
func TestCubeslide2AddFreeRows(t *testing.T) {
	r := rand.New(rand.NewPCG(73, 18))
	for trial := range 2000 {
		var rows, jac [18]float64
		for i := range rows {
			rows[i], jac[i] = cubeslide2Draw(r), cubeslide2Draw(r)
		}
		var dirs [3]spatial.Vec3
		for d := range dirs {
			for c := range 3 {
				dirs[d][c] = cubeslide2Draw(r)
			}
		}
		sign := 1.0
		if trial%2 == 1 {
			sign = -1
		}
		want := rows
		n := 6
		jx, jy, jz := jac[:n], jac[n:2*n], jac[2*n:3*n]
		r0, r1, r2 := want[:n], want[n:2*n], want[2*n:3*n]
		for j := range n {
			r0[j] += sign * (dirs[0][0]*jx[j] + dirs[0][1]*jy[j] + dirs[0][2]*jz[j])
			r1[j] += sign * (dirs[1][0]*jx[j] + dirs[1][1]*jy[j] + dirs[1][2]*jz[j])
			r2[j] += sign * (dirs[2][0]*jx[j] + dirs[2][1]*jy[j] + dirs[2][2]*jz[j])
		}
		got := rows
		addAllRows(got[:], jac[:], &dirs, sign)
		for i := range want {
			if math.Float64bits(got[i]) != math.Float64bits(want[i]) {
				t.Fatalf("trial %d: row entry %d = %v, the loop's %v", trial, i, got[i], want[i])
			}
		}
	}
}
