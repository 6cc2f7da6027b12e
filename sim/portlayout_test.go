package sim

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stiction-sim/stiction/multibody"
	"github.com/stiction-sim/stiction/solver"
	"github.com/stiction-sim/stiction/spatial"
)

// portlayoutModel returns a tree of a free body, a ball joint, a compound
// joint with a ball part between a hinge and a slide, and a hinge, with
// add to grow it.
func portlayoutModel(t *testing.T) (*multibody.Model, func(multibody.Joint) int) {
	t.Helper()
	m := &multibody.Model{}
	in := spatial.SpatialInertia{Mass: 1, Icom: spatial.Diag3(spatial.Vec3{0.1, 0.2, 0.3})}
	id := spatial.PoseIdentity()
	add := func(j multibody.Joint) int {
		j.ParentFrame, j.ChildFrame = id, id
		b, err := m.AddBody(fmt.Sprint("b", len(m.Bodies)), in, j)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	root := add(multibody.Joint{Type: multibody.JointFree, Parent: -1})
	ball := add(multibody.Joint{Type: multibody.JointBall, Parent: root})
	add(multibody.Joint{Type: multibody.JointCompound, Parent: ball, Parts: []multibody.JointPart{
		{Type: multibody.JointRevolute, Axis: spatial.Vec3{0, 0, 1}},
		{Type: multibody.JointBall},
		{Type: multibody.JointPrismatic, Axis: spatial.Vec3{1, 0, 0}},
	}})
	add(multibody.Joint{Type: multibody.JointRevolute, Parent: root, Axis: spatial.Vec3{0, 1, 0}})
	return m, add
}

// portlayoutCheckBlocks fails unless nw's blocks and marks are
// angularBlocks' of m.
func portlayoutCheckBlocks(t *testing.T, what string, nw *newtonWork, m *multibody.Model) {
	t.Helper()
	v, q := angularBlocks(m, nil, nil)
	if !slices.Equal(nw.blocks, v) || !slices.Equal(nw.qblocks, q) {
		t.Fatalf("%s: blocks %v %v, angularBlocks' %v %v", what, nw.blocks, nw.qblocks, v, q)
	}
	if len(nw.blk) != m.NV {
		t.Fatalf("%s: %d marks for %d velocities", what, len(nw.blk), m.NV)
	}
	for i, b := range nw.blk {
		want := -1
		for k, o := range v {
			if i >= o && i < o+3 {
				want = k
			}
		}
		if b != want {
			t.Fatalf("%s: velocity %d marked %d, want %d", what, i, b, want)
		}
	}
}

// TestPortlayoutSharedBlocks: newtonWork's angular blocks come from the
// angularTurns it is given (the workspace's, shared with the rk4 schemes'
// turns), found once: a Newton work on the same turns after them reads
// the same storage; a model grown in place (a ball joint added: NV and NQ
// change) is found again by whichever of the two asks first, and the
// other follows (the generation count), as does a second model.
func TestPortlayoutSharedBlocks(t *testing.T) {
	m, add := portlayoutModel(t)
	var turns angularTurns
	q := make([]float64, m.NQ)
	v := make([]float64, m.NV)
	turns.local(m, q, v, v) // the scheme finds the blocks first
	nw := newtonWork{turns: &turns, nv: m.NV}
	nw.setBlocks(m)
	portlayoutCheckBlocks(t, "after the scheme's turn", &nw, m)
	if &nw.blocks[0] != &turns.v[0] || &nw.qblocks[0] != &turns.q[0] {
		t.Fatal("newtonWork keeps its own copy of the blocks, not the turns'")
	}
	gen := turns.gen
	nw.setBlocks(m)
	if turns.gen != gen {
		t.Fatal("the blocks were found again for an unchanged model")
	}
	add(multibody.Joint{Type: multibody.JointBall, Parent: 0}) // grows NV and NQ
	q, v = make([]float64, m.NQ), make([]float64, m.NV)
	turns.world(m, q, v, v) // the scheme sees the change first
	nw.nv = m.NV
	nw.setBlocks(m)
	portlayoutCheckBlocks(t, "after the model grew (scheme first)", &nw, m)
	add(multibody.Joint{Type: multibody.JointBall, Parent: 1})
	nw.nv = m.NV
	nw.setBlocks(m) // Newton sees it first
	portlayoutCheckBlocks(t, "after the model grew (Newton first)", &nw, m)
	if turns.v[len(turns.v)-1] != nw.blocks[len(nw.blocks)-1] || len(turns.v) != len(nw.blocks) {
		t.Fatalf("turns' blocks %v, Newton's %v", turns.v, nw.blocks)
	}
	other, _ := portlayoutModel(t)
	nw.nv = other.NV
	nw.setBlocks(other)
	portlayoutCheckBlocks(t, "another model", &nw, other)
	var own newtonWork // no turns given: its own
	own.nv = other.NV
	own.setBlocks(other)
	portlayoutCheckBlocks(t, "a newtonWork without turns", &own, other)
}

// portlayoutOneClique returns a random problem of one clique over all its
// nv velocities whose constraints each have their J block (with rows of
// exact zeros of both signs), but, when gap, one constraint without.
func portlayoutOneClique(rng *rand.Rand, gap bool) *solver.Problem {
	p := &solver.Problem{}
	nv := 1 + rng.IntN(20)
	p.Reset(nv)
	p.Cliques = append(p.Cliques, solver.Clique{Offset: 0, Size: nv})
	nc := 1 + rng.IntN(10)
	skip := -1
	if gap {
		skip = rng.IntN(nc)
	}
	for c := range nc {
		p.AddConstraint(solver.Bilateral, 1+rng.IntN(4))
		if c == skip {
			continue
		}
		blk := p.AddJBlock(c, 0)
		for i := range blk {
			blk[i] = randomEntry(rng)
			if rng.IntN(3) == 0 {
				blk[i] = math.Copysign(0, -1)
			}
		}
	}
	return p
}

// TestPortlayoutCopyRowsMatchSums: on one clique over every velocity,
// jacobianCoordinates copies J's whole rows (copyRows) and then gives the
// bits of the sums from +0 over the compact non-zeros, and the same
// pattern: −0 entries off and on the angular blocks, random rows in
// random order, random rotations; a constraint without a J block, or a
// problem of several cliques, takes the sums.
func TestPortlayoutCopyRowsMatchSums(t *testing.T) {
	rng := rand.New(rand.NewPCG(86, 23))
	sim := &Simulator{}
	w := &sim.ws.pgs
	copied := 0
	for trial := range 3000 {
		var p *solver.Problem
		switch trial % 4 {
		case 0:
			p = portglue5Problem(rng)
		case 1:
			p = portlayoutOneClique(rng, true)
		default:
			p = portlayoutOneClique(rng, false)
		}
		w.perm = portrowsRandomRows(rng, p.NR, w.perm[:0])
		var one, two newtonWork
		for _, nw := range []*newtonWork{&one, &two} {
			nw.resize(p.NV, len(w.perm), p.NR)
			for i := range nw.j {
				nw.j[i] = math.NaN() // every entry must be written
			}
		}
		for o := 0; o+3 <= p.NV; o += 3 + rng.IntN(4) {
			if rng.IntN(2) == 0 {
				one.blocks = append(one.blocks, o)
			}
		}
		one.rot = portrowsVector(rng, 9*len(one.blocks), false)
		two.blocks, two.rot = one.blocks, one.rot
		w.jac.buildWhole(p)
		one.mapRows(w.perm)
		if one.copyRows(&w.jac) && len(w.perm) > 0 {
			copied++
			if len(p.Cliques) != 1 {
				t.Fatalf("trial %d: copyRows took a problem of %d cliques", trial, len(p.Cliques))
			}
		}
		one.jacobianCoordinates(sim)
		w.jac.build(p)
		two.jacobianCoordinates(sim)
		if !sameBits(one.j, two.j) {
			t.Fatalf("trial %d: J from the copied rows %v, from the sums %v", trial, one.j, two.j)
		}
		for k := range len(w.perm) {
			if !slices.Equal(one.rowNZ(k), two.rowNZ(k)) {
				t.Fatalf("trial %d row %d: pattern %v, the sums' %v", trial, k, one.rowNZ(k), two.rowNZ(k))
			}
		}
	}
	if copied < 1000 {
		t.Fatalf("copyRows took %d of 3000 problems", copied)
	}
}
