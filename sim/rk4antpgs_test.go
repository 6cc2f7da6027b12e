package sim

import (
	"math"
	"slices"
	"testing"

	"github.com/stiction-sim/stiction/solver"
)

// TestIdentBlocks: identBlocks gives n blocks, block i {first: i} and
// nothing else set, for problems that grow, shrink and grow again, as the
// fresh list solveRowsPGS built at every call.
func TestIdentBlocks(t *testing.T) {
	var w pgsWork
	for _, n := range []int{0, 3, 1, 7, 2, 7, 9, 0, 4} {
		got := w.identBlocks(n)
		if len(got) != n {
			t.Fatalf("n %d: %d blocks", n, len(got))
		}
		for i := range got {
			if want := (pyramidBlock{first: i}); got[i] != want {
				t.Fatalf("n %d: block %d is %+v, want %+v", n, i, got[i], want)
			}
		}
	}
}

// TestOrderFrictionBound: pgsWork.order reads a friction loss row's bound
// as Problem.IntervalBounds gives it, a limit's +∞, and puts an explicit
// actuator's fixed row in w.fixed, in MuJoCo's class order.
func TestOrderFrictionBound(t *testing.T) {
	var p solver.Problem
	p.Reset(2)
	lim := p.AddConstraint(solver.Interval, 1, 0, math.Inf(1))
	fix := p.AddConstraint(solver.Interval, 1, 0.25, 0.25)
	fr := p.AddConstraint(solver.Interval, 1, -0.5, 0.5)
	var w pgsWork
	if !w.order(&p, w.identBlocks(3), 0, false, 1) {
		t.Fatal("order refused limit, fixed and friction rows")
	}
	_, hi := p.IntervalBounds(fr)
	rowOf := func(k int) int { return p.Constraints[k].Row }
	if len(w.perm) != 2 || w.perm[0] != rowOf(fr) || w.perm[1] != rowOf(lim) {
		t.Fatalf("perm %v, want friction row %d then limit row %d", w.perm, rowOf(fr), rowOf(lim))
	}
	if w.class[0] != pgsFriction || w.class[1] != pgsLimit || w.floss[0] != hi || !math.IsInf(w.floss[1], 1) {
		t.Fatalf("class %v floss %v, want friction %v and limit +Inf", w.class, w.floss, hi)
	}
	if len(w.fixed) != 1 || w.fixed[0] != fix {
		t.Fatalf("fixed %v, want [%d]", w.fixed, fix)
	}
}

// TestOrderClassOrder: pgsWork.order gives the same rows whether the
// blocks past the contacts come in class order (added in its one pass)
// or not (classPasses): equalities, friction loss, limits, each in block
// order, and the fixed rows' blocks in w.fixed in block order.
func TestOrderClassOrder(t *testing.T) {
	type blk struct {
		kind   solver.Kind
		size   int
		params []float64
	}
	eq := blk{solver.Bilateral, 2, nil}
	fr := blk{solver.Interval, 1, []float64{-0.5, 0.5}}
	lim := blk{solver.Interval, 1, []float64{0, math.Inf(1)}}
	fix := blk{solver.Interval, 1, []float64{0.25, 0.25}}
	run := func(bs []blk) ([]int, []pgsClass, []int) {
		var p solver.Problem
		p.Reset(2)
		for _, b := range bs {
			p.AddConstraint(b.kind, b.size, b.params...)
		}
		var w pgsWork
		if !w.order(&p, w.identBlocks(len(bs)), 0, false, 1) {
			t.Fatalf("order refused %v", bs)
		}
		return w.perm, w.class, w.fixed
	}
	for _, tc := range []struct {
		bs    []blk
		perm  []int
		class []pgsClass
		fixed []int
	}{
		{[]blk{eq, fr, fix, lim, lim}, []int{0, 1, 2, 4, 5}, []pgsClass{pgsEquality, pgsEquality, pgsFriction, pgsLimit, pgsLimit}, []int{2}},
		{[]blk{fix, lim, eq, fr, fix}, []int{2, 3, 4, 1}, []pgsClass{pgsEquality, pgsEquality, pgsFriction, pgsLimit}, []int{0, 4}},
		{[]blk{lim, fr, lim}, []int{1, 0, 2}, []pgsClass{pgsFriction, pgsLimit, pgsLimit}, nil},
	} {
		perm, class, fixed := run(tc.bs)
		if !slices.Equal(perm, tc.perm) || !slices.Equal(class, tc.class) || !slices.Equal(fixed, tc.fixed) {
			t.Errorf("blocks %v: perm %v class %v fixed %v, want %v %v %v", tc.bs, perm, class, fixed, tc.perm, tc.class, tc.fixed)
		}
	}
}
