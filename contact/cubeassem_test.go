package contact

import (
	"cmp"
	"math"
	"math/rand"
	"slices"
	"testing"
)

// TestSortUppersMatchesSort checks supported's body-wise sort against the
// pair sort it replaces (decreasing height of the upper body, ties by
// index) on random contact graphs, heights drawn from a few values (ties
// between bodies, which sortUppers must refuse) and NaN.
func TestSortUppersMatchesSort(t *testing.T) {
	rng := rand.New(rand.NewSource(23))
	levels := []float64{0, 0.5, 1, 1.5, math.NaN(), -1}
	var a Assembler
	sorted, refused := 0, 0
	for trial := range 2000 {
		nb, np := 1+rng.Intn(8), rng.Intn(30)
		a.height = make([]float64, nb)
		for b := range a.height {
			if trial%2 == 0 {
				a.height[b] = levels[rng.Intn(len(levels))]
			} else {
				a.height[b] = rng.Float64()
			}
		}
		a.upper = make([]int, np)
		order := make([]int, np)
		for i := range order {
			a.upper[i], order[i] = rng.Intn(nb), i
		}
		want := slices.Clone(order)
		slices.SortFunc(want, func(x, y int) int {
			if c := cmp.Compare(a.height[a.upper[y]], a.height[a.upper[x]]); c != 0 {
				return c
			}
			return cmp.Compare(x, y)
		})
		got := slices.Clone(order)
		if !a.sortUppers(got) {
			refused++
			if !slices.Equal(got, order) {
				t.Fatalf("trial %d: refused but changed the order: %v", trial, got)
			}
			continue
		}
		sorted++
		if !slices.Equal(got, want) {
			t.Fatalf("trial %d: heights %v uppers %v: got %v, want %v", trial, a.height, a.upper, got, want)
		}
	}
	if sorted < 500 || refused < 100 {
		t.Fatalf("sorted %d, refused %d of 2000: the trials miss a branch", sorted, refused)
	}
}
