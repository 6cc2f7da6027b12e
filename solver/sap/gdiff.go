package sap

import (
	"bytes"
	"unsafe"

	"github.com/stiction-sim/stiction/solver"
)

// gdiffChunk is how many float64s firstDiff compares at once with the
// runtime's vectorised memory compare.
const gdiffChunk = 32

// firstDiff returns the index of the first entry at which x and y
// (len(y) ≥ len(x)) differ in some bit, or len(x) if none does. The
// entries are compared as bytes, chunk by chunk (bytes.Equal, the
// runtime's memequal: a float64's bytes are its bits, so equal bytes are
// sameBit), and a differing chunk entry by entry.
func firstDiff(x, y []float64) int {
	y = y[:len(x)]
	j := 0
	for ; j+gdiffChunk <= len(x); j += gdiffChunk {
		if !bytes.Equal(floatBytes(x[j:j+gdiffChunk]), floatBytes(y[j:j+gdiffChunk])) {
			break
		}
	}
	for ; j < len(x); j++ {
		if !sameBit(x[j], y[j]) {
			return j
		}
	}
	return len(x)
}

// floatBytes views the non-empty x as its bytes.
func floatBytes(x []float64) []byte {
	return unsafe.Slice((*byte)(unsafe.Pointer(&x[0])), 8*len(x))
}

// markChangedG compares each constraint's G block in g with the one in
// gprev (the last assembly's; the same offsets goff), copies the blocks
// that differ in some bit into gprev and marks their cliques
// (markCliques), so that gprev ends equal to g. Runs of equal blocks are
// skipped by firstDiff's chunked compare, where a block-by-block compare
// spent more on slicing the blocks than on their entries.
func (s *sparseSystem) markChangedG(p *solver.Problem, g []float64, goff []int) {
	n, i := goff[len(p.Constraints)], 0
	for j := 0; j < n; {
		j += firstDiff(g[j:], s.gprev[j:n])
		if j == n {
			return
		}
		for goff[i+1] <= j { // the constraint whose block holds entry j
			i++
		}
		lo, hi := goff[i], goff[i+1]
		copy(s.gprev[lo:hi], g[lo:hi])
		s.markCliques(p, i)
		j = hi
	}
}
