package contact

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stiction-sim/stiction/geometry"
	"github.com/stiction-sim/stiction/spatial"
)

// TestCubefix3FindFrom: Memory.findFrom answers as find does for every
// key, present or absent, and every guess (before, at, after the key's
// first memo, past the end), on sorted memos whose keys repeat; fails when
// a guess that holds the key but is not its first memo is taken.
func TestCubefix3FindFrom(t *testing.T) {
	r := rand.New(rand.NewPCG(57, 1))
	for range 300 {
		var mem Memory
		mem.memos = randomMemos(r, r.IntN(12))
		slices.SortFunc(mem.memos, compareMemos)
		for range 20 {
			k := memoKey{a: int32(r.IntN(4)), b: int32(r.IntN(4)), feature: uint32(r.IntN(5))}
			wj, wok := mem.find(k)
			for g := range len(mem.memos) + 2 {
				if j, ok := mem.findFrom(k, g); j != wj || ok != wok {
					t.Fatalf("findFrom(%v, %d) = %d, %v; find %d, %v (memos %v)", k, g, j, ok, wj, wok, mem.memos)
				}
			}
		}
	}
}

// TestCubefix3RecallOrder: Recall gives every pair what the memo found by
// find holds, whether the pairs come in the memos' order (the guess
// right), reversed or shuffled (the guess wrong), with pairs absent from
// the memory among them.
func TestCubefix3RecallOrder(t *testing.T) {
	r := rand.New(rand.NewPCG(57, 2))
	for trial := range 300 {
		var mem Memory
		for a := range int32(3) {
			for f := range uint32(4) {
				if r.IntN(3) > 0 {
					mem.memos = append(mem.memos, Memo{GeomA: a, GeomB: a + 1, Feature: f, Age: r.IntN(5),
						Impulse: [3]float64{r.NormFloat64(), r.NormFloat64(), r.NormFloat64()}, PhiEnd: r.NormFloat64(),
						Anchored: r.IntN(2) == 0, Shift: spatial.Vec3{r.NormFloat64(), r.NormFloat64(), r.NormFloat64()}})
				}
			}
		}
		var pairs []Pair
		for a := range 3 {
			for f := range uint32(5) {
				if r.IntN(4) > 0 {
					pairs = append(pairs, Pair{GeomA: a, GeomB: a + 1, Contact: contactAt(f, r.NormFloat64())})
				}
			}
		}
		switch trial % 3 {
		case 1:
			slices.Reverse(pairs)
		case 2:
			r.Shuffle(len(pairs), func(i, j int) { pairs[i], pairs[j] = pairs[j], pairs[i] })
		}
		mem.Recall(pairs)
		for i := range pairs {
			pr := &pairs[i]
			want := *pr
			want.Age, want.PrevImpulse, want.Anchored, want.AnchorShift, want.GapError = 0, [3]float64{}, false, spatial.Vec3{}, 0
			if j, ok := mem.find(pairKey(pr)); ok {
				mm := &mem.memos[j]
				want.Age, want.PrevImpulse, want.GapError = mm.Age+1, mm.Impulse, min(0, pr.Phi-mm.PhiEnd)
				if mm.Anchored {
					want.Anchored, want.AnchorShift = true, onPlane((*spatial.Vec3)(&mm.Shift), &pr.Normal)
				}
			}
			if *pr != want {
				t.Fatalf("trial %d: pair %d recalled %+v, want %+v", trial, i, *pr, want)
			}
		}
	}
}

// contactAt is a contact point of feature f at gap phi on a tilted normal.
func contactAt(f uint32, phi float64) geometry.Contact {
	return geometry.Contact{Normal: spatial.Vec3{0.6, 0, 0.8}, Phi: phi, Feature: f}
}
