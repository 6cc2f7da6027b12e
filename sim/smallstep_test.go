package sim

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestSmallstepGatherSplitMatchesPackM: the sparse port's M packed from
// M_w straight (gatherSplit: the angular blocks' rows and columns turned,
// the rest M_w's entries plus zero) holds, step after step, the bits,
// columns and slots that a whole turnMass and packM give (the path before
// it), on twoTreeModel's two cliques (free and ball joints' angular blocks
// inside them) at random rotations, with M_w's zeros of both signs kept on
// their places, moved between ±0 and a value on the pattern, and now and
// then a zero off the pattern made a value (a new packing); its zero
// tracking above hpatMaxNV velocities (gatherTracked) flags the steps
// whose entries change between zero and not; and fullM (the CG path's M
// factor) gives back every entry of M. Fails when an entry on a block's
// row or column is taken from M_w, or a non-zero off the pattern is missed.
func TestSmallstepGatherSplitMatchesPackM(t *testing.T) {
	sim, nv1 := twoTreeSim(t)
	m, nv := sim.Model, sim.Model.NV
	rng := rand.New(rand.NewPCG(23, 57))
	entry := signedZerosOrNormal(rng)
	fast, ref := &newtonWork{}, &newtonWork{}
	split, repacks := 0, 0
	for episode := range 6 {
		p := twoCliqueProblem(nv, nv1, entry, 4, func(int) int { return 2 }, func(k, i int) bool { return (k+i)%3 != 0 })
		perm := make([]int, p.NR)
		for r := range perm {
			perm[r] = r
		}
		sim.ws.pgs.perm = perm
		for _, nw := range []*newtonWork{fast, ref} {
			nw.sp.on = true
			nw.resize(p.NV, len(perm), p.NR)
		}
		for step := range 40 {
			smallstepPerturb(rng, p.A, step)
			q := randomRotations(m, rng, false)
			prev := slices.Clone(fast.sp.mpval)
			ver := ref.sp.mver
			fast.sparseCoordinates(sim, &p, q, perm)
			ref.sp.mpsplit.model = nil // the path before gatherSplit: turnMass on every clique, packM
			ref.sparseCoordinates(sim, &p, q, perm)
			smallstepSame(t, episode, step, fast, ref)
			if ref.sp.mver != ver {
				repacks++
			}
			if !fast.sp.mpart {
				continue
			}
			split++
			want := false // gatherM's count above hpatMaxNV: an entry changed between zero and not
			for s, v := range ref.sp.mpval {
				want = want || (v != 0) != (prev[s] != 0)
			}
			ms := &fast.sp.mpsplit
			copy(fast.sp.mpval, prev)
			got := gatherTracked(fast.sp.mpval, p.A, ms.plainPos, ms.plainSlot, true)
			got = gatherTracked(fast.sp.mpval, fast.sp.mb, ms.turnedPos, ms.turnedSlot, false) || got
			if got != want {
				t.Fatalf("episode %d step %d: gatherTracked changed %v, want %v", episode, step, got, want)
			}
			smallstepSame(t, episode, step, fast, ref)
			fast.fullM()
			for x, v := range ref.sp.mb {
				if math.Float64bits(fast.sp.mb[x]) != math.Float64bits(v) {
					t.Fatalf("episode %d step %d: fullM's M entry %d %v, turnMass %v", episode, step, x, fast.sp.mb[x], v)
				}
			}
		}
	}
	t.Logf("split %d repacks %d", split, repacks)
	if split < 150 || repacks < 6 {
		t.Fatalf("gatherSplit took %d of 240 steps and M was packed anew %d times: the test did not exercise both paths", split, repacks)
	}
}

// smallstepPerturb changes M_w's entries for the next step: a value scaled,
// a zero's sign flipped, now and then a value made ±0 (on the pattern
// still) or, at every eighth step, one zero made a value (off the pattern).
func smallstepPerturb(rng *rand.Rand, a []float64, step int) {
	grew := step%8 != 7
	for i, v := range a {
		switch {
		case v != 0 && rng.IntN(10) == 0:
			a[i] = math.Copysign(0, float64(rng.IntN(2)*2-1))
		case v != 0:
			a[i] = v * (0.5 + rng.Float64())
		case !grew && rng.IntN(4) == 0:
			a[i], grew = rng.NormFloat64(), true
		default:
			a[i] = math.Copysign(0, float64(rng.IntN(2)*2-1))
		}
	}
}

// smallstepSame fails t unless fast's packing of M is ref's to the bit.
func smallstepSame(t *testing.T, episode, step int, fast, ref *newtonWork) {
	t.Helper()
	a, b := &fast.sp, &ref.sp
	if !slices.Equal(a.mpadr, b.mpadr) || !slices.Equal(a.mptail, b.mptail) || !slices.Equal(a.mpcol, b.mpcol) {
		t.Fatalf("episode %d step %d: M's packing differs from packM's", episode, step)
	}
	for s, v := range b.mpval {
		if math.Float64bits(a.mpval[s]) != math.Float64bits(v) {
			t.Fatalf("episode %d step %d: slot %d (column %d) %v, packM %v", episode, step, s, b.mpcol[s], a.mpval[s], v)
		}
	}
}
