package geometry

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stiction-sim/stiction/spatial"
)

func bruteForcePairs(boxes []AABB) [][2]int32 {
	var out [][2]int32
	for i := range boxes {
		for j := i + 1; j < len(boxes); j++ {
			if boxes[i].Overlaps(boxes[j]) {
				out = append(out, [2]int32{int32(i), int32(j)})
			}
		}
	}
	return out
}

// randomBoxes returns n boxes of size 0.5–1.5 spread uniformly over a cube
// of side side.
func randomBoxes(r *rand.Rand, n int, side float64) []AABB {
	boxes := make([]AABB, n)
	for i := range boxes {
		c := spatial.Vec3{uniform(r, 0, side), uniform(r, 0, side), uniform(r, 0, side)}
		h := spatial.Vec3{uniform(r, 0.25, 0.75), uniform(r, 0.25, 0.75), uniform(r, 0.25, 0.75)}
		boxes[i] = AABB{c.Sub(h), c.Add(h)}
	}
	return boxes
}

// TestBroadPhaseMatchesBruteForce compares Pairs with the all-pairs test on
// random sets of many sizes and densities, with exactly touching boxes,
// duplicates, degenerate (point) boxes, and unbounded boxes such as those of
// half-spaces, reusing one BroadPhase and appending after existing entries.
func TestBroadPhaseMatchesBruteForce(t *testing.T) {
	r := newRand(31)
	inf := math.Inf(1)
	var bp BroadPhase
	for trial := range 60 {
		n := []int{0, 1, 2, 3, 7, 40, 200, 500}[trial%8]
		boxes := randomBoxes(r, n, uniform(r, 1, 12))
		for i := range boxes {
			switch r.IntN(10) {
			case 0: // snap to a grid so that faces touch exactly
				for k := range 3 {
					boxes[i].Min[k] = math.Round(boxes[i].Min[k])
					boxes[i].Max[k] = boxes[i].Min[k] + 1
				}
			case 1:
				if i > 0 {
					boxes[i] = boxes[i-1] // duplicate
				}
			case 2:
				boxes[i].Max = boxes[i].Min // a point
			case 3: // unbounded: a ground plane, a wall, or everything
				switch r.IntN(3) {
				case 0:
					boxes[i] = AABB{spatial.Vec3{-inf, -inf, -inf}, spatial.Vec3{inf, inf, uniform(r, 0, 5)}}
				case 1:
					boxes[i] = AABB{spatial.Vec3{uniform(r, 0, 5), -inf, -inf}, spatial.Vec3{inf, inf, inf}}
				default:
					boxes[i] = AABB{spatial.Vec3{-inf, -inf, -inf}, spatial.Vec3{inf, inf, inf}}
				}
			}
		}
		prefix := [][2]int32{{-1, -1}}
		got := bp.Pairs(boxes, prefix)
		want := append([][2]int32{{-1, -1}}, bruteForcePairs(boxes)...)
		if !slices.Equal(got, want) {
			t.Fatalf("trial %d (n = %d): got %d pairs, want %d", trial, n, len(got)-1, len(want)-1)
		}
	}
}

// TestBroadPhaseSubquadratic counts overlap tests for N well-spread boxes
// at constant density (about one box per 8 unit cubes) and checks that
// they grow far below N²: doubling N must multiply the tests by less than
// 2.6 (N log N gives about 2.2, N² gives 4), and at N = 1000 fewer than 3%
// of the N(N−1)/2 pairs may be tested.
func TestBroadPhaseSubquadratic(t *testing.T) {
	r := newRand(32)
	var bp BroadPhase
	prev := 0
	for _, n := range []int{250, 500, 1000, 2000} {
		boxes := randomBoxes(r, n, 2*math.Cbrt(float64(n)))
		got := bp.Pairs(boxes, nil)
		if want := bruteForcePairs(boxes); !slices.Equal(got, want) {
			t.Fatalf("n = %d: wrong pairs", n)
		}
		t.Logf("n = %4d: %6d tests, %5d pairs, %.2f tests per box", n, bp.Tests, len(got), float64(bp.Tests)/float64(n))
		if prev > 0 && float64(bp.Tests) > 2.6*float64(prev) {
			t.Errorf("n = %d: %d tests, more than 2.6 times the %d at n/2", n, bp.Tests, prev)
		}
		if all := n * (n - 1) / 2; n == 1000 && bp.Tests > all*3/100 {
			t.Errorf("n = 1000: %d tests of %d pairs", bp.Tests, all)
		}
		prev = bp.Tests
	}
}

func TestBroadPhaseAllocs(t *testing.T) {
	r := newRand(33)
	boxes := randomBoxes(r, 1000, 20)
	boxes[0] = AABB{spatial.Vec3{math.Inf(-1), math.Inf(-1), math.Inf(-1)}, spatial.Vec3{math.Inf(1), math.Inf(1), 1}}
	var bp BroadPhase
	out := bp.Pairs(boxes, nil)
	if n := testing.AllocsPerRun(20, func() { out = bp.Pairs(boxes, out[:0]) }); n != 0 {
		t.Errorf("Pairs: %v allocations per call once warmed up", n)
	}
}

func BenchmarkBroadPhase1000(b *testing.B) {
	r := newRand(34)
	boxes := randomBoxes(r, 1000, 20)
	var bp BroadPhase
	out := bp.Pairs(boxes, nil)
	for b.Loop() {
		out = bp.Pairs(boxes, out[:0])
	}
}
