package contact

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// randomMemos returns n memos with keys drawn from a small range (so that
// some repeat), in random order.
func randomMemos(r *rand.Rand, n int) []Memo {
	m := make([]Memo, n)
	for i := range m {
		m[i] = Memo{GeomA: int32(r.IntN(3)), GeomB: int32(r.IntN(3)), Feature: uint32(r.IntN(4)), Age: i}
	}
	return m
}

// TestMemoryFindMatchesBinarySearch checks Memory.find against
// slices.BinarySearchFunc, which Recall used before, on sorted memos and
// keys present and absent.
func TestMemoryFindMatchesBinarySearch(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for range 500 {
		var mem Memory
		mem.memos = randomMemos(r, r.IntN(12))
		slices.SortFunc(mem.memos, compareMemos)
		for range 20 {
			k := memoKey{a: int32(r.IntN(4)), b: int32(r.IntN(4)), feature: uint32(r.IntN(5))}
			j, ok := mem.find(k)
			wj, wok := slices.BinarySearchFunc(mem.memos, k, func(m Memo, k memoKey) int { return m.key().compare(k) })
			if j != wj || ok != wok {
				t.Fatalf("find(%v) = %d, %v; BinarySearchFunc %d, %v (memos %v)", k, j, ok, wj, wok, mem.memos)
			}
		}
	}
}

// TestSortMemosMatchesSortFunc checks that sortMemos leaves memos in the
// order slices.SortFunc gives, memo for memo, on sorted, unsorted and
// repeated keys.
func TestSortMemosMatchesSortFunc(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for trial := range 500 {
		m := randomMemos(r, r.IntN(12))
		if trial%2 == 0 {
			slices.SortFunc(m, compareMemos) // the common case: already in key order
		}
		want := slices.Clone(m)
		slices.SortFunc(want, compareMemos)
		sortMemos(m)
		for i := range m {
			if m[i] != want[i] {
				t.Fatalf("trial %d: memo %d is %+v, SortFunc's %+v", trial, i, m[i], want[i])
			}
		}
	}
}
