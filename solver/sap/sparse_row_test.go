package sap

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestAddJtTmpRowBits checks that the one-row fast path (addJtTmpRow)
// writes the same bits as the general loop (addJtTmpRows), in both orientations, with
// signed zeros in J, in G J and in the block (a −0 product must become
// +0, and −0 + +0 in the block must give +0, as the loop's do).
func TestAddJtTmpRowBits(t *testing.T) {
	rng := rand.New(rand.NewPCG(23, 1))
	pick := func() float64 { return pickSigned(rng) }
	for trial := range 200 {
		n1, n2 := 1+rng.IntN(9), 1+rng.IntN(9)
		at := blockAt{off: rng.IntN(4), trans: trial%2 == 1}
		at.stride = n2 + rng.IntN(3)
		if at.trans {
			at.stride = n1 + rng.IntN(3)
		}
		j1, tmp := make([]float64, n1), make([]float64, n2)
		for i := range j1 {
			j1[i] = pick()
		}
		for i := range tmp {
			tmp[i] = pick()
		}
		data := make([]float64, at.off+max(n1, n2)*at.stride+max(n1, n2))
		for i := range data {
			data[i] = pick()
		}
		want := append([]float64(nil), data...)
		addJtTmpRows(j1, tmp, 1, n1, n2, at, want)
		addJtTmpRow(j1, tmp, at, data)
		for i := range data {
			if math.Float64bits(data[i]) != math.Float64bits(want[i]) {
				t.Fatalf("trial %d (n1 %d, n2 %d, trans %v): entry %d = %v (%#x), general loop %v (%#x)",
					trial, n1, n2, at.trans, i, data[i], math.Float64bits(data[i]), want[i], math.Float64bits(want[i]))
			}
		}
	}
}

// TestAddJtTmp3x6Bits checks that the six-column contact path
// (addJtTmp3x6) writes the bits of the loop for any size (addJtTmp3Loop),
// in both orientations, for diagonal (lower) and full blocks, with signed
// zeros in J, in G J and in the block.
func TestAddJtTmp3x6Bits(t *testing.T) {
	rng := rand.New(rand.NewPCG(23, 3))
	pick := func() float64 { return pickSigned(rng) }
	for trial := range 400 {
		at := blockAt{off: rng.IntN(4), stride: 6 + rng.IntN(3), trans: trial%2 == 1}
		lower := trial%4 >= 2 && !at.trans
		j1, tmp := make([]float64, 18), make([]float64, 18)
		for i := range j1 {
			j1[i], tmp[i] = pick(), pick()
		}
		data := make([]float64, at.off+6*at.stride+6)
		for i := range data {
			data[i] = pick()
		}
		want := append([]float64(nil), data...)
		addJtTmp3Loop(j1, tmp, 6, 6, at, want, lower)
		addJtTmp3(j1, tmp, 6, 6, at, data, lower)
		for i := range data {
			if math.Float64bits(data[i]) != math.Float64bits(want[i]) {
				t.Fatalf("trial %d (trans %v, lower %v): entry %d = %v, loop %v", trial, at.trans, lower, i, data[i], want[i])
			}
		}
	}
}

// pickSigned returns +0 or −0 one time in five each, else a normal sample.
func pickSigned(rng *rand.Rand) float64 {
	switch rng.IntN(5) {
	case 0:
		return 0
	case 1:
		return math.Copysign(0, -1)
	default:
		return rng.NormFloat64()
	}
}
