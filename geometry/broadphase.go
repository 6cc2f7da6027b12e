package geometry

import (
	"cmp"
	"slices"

	"github.com/stiction-sim/stiction/spatial"
)

// BroadPhase finds the pairs of overlapping AABBs among a set of boxes. It
// builds a bounding volume hierarchy over the bounded boxes on every call
// (median splits along the axis of largest centroid spread) and collides
// the tree with itself; unbounded boxes, such as those of half-spaces, are
// tested against every other box. Its buffers are reused, so once warmed
// up Pairs does not allocate. The zero value is ready to use; a BroadPhase
// must not be used by several goroutines at once.
type BroadPhase struct {
	// Tests is the number of overlap tests between two boxes or tree nodes
	// made by the last call to Pairs.
	Tests int

	boxes []AABB         // the boxes of the current call
	cen   []spatial.Vec3 // box centres, by box index
	idx   []int32        // bounded boxes, permuted by the tree build
	unb   []int32        // unbounded boxes
	nodes []bvhNode
}

// bvhNode is a tree node; a leaf has left < 0 and holds box right.
type bvhNode struct {
	box         AABB
	left, right int32
}

// Pairs appends to out all (i, j), i < j, whose boxes overlap, in increasing
// (i, j) order, and returns out. Boxes must not contain NaN.
func (bp *BroadPhase) Pairs(boxes []AABB, out [][2]int32) [][2]int32 {
	bp.Tests = 0
	bp.boxes = boxes
	start := len(out)
	bp.idx, bp.unb = bp.idx[:0], bp.unb[:0]
	bp.cen = slices.Grow(bp.cen[:0], len(boxes))[:len(boxes)]
	for i, b := range boxes {
		if b.bounded() {
			bp.idx = append(bp.idx, int32(i))
			bp.cen[i] = b.Min.Add(b.Max).Scale(0.5)
		} else {
			bp.unb = append(bp.unb, int32(i))
		}
	}
	if len(bp.idx) > 0 {
		bp.nodes = slices.Grow(bp.nodes[:0], 2*len(bp.idx))
		root := bp.build(0, len(bp.idx))
		out = bp.self(root, out)
	}
	out = bp.unbounded(out)
	bp.boxes = nil // do not retain the caller's slice
	slices.SortFunc(out[start:], comparePairs)
	return out
}

func comparePairs(a, b [2]int32) int {
	if c := cmp.Compare(a[0], b[0]); c != 0 {
		return c
	}
	return cmp.Compare(a[1], b[1])
}

func (bp *BroadPhase) emit(out [][2]int32, i, j int32) [][2]int32 {
	if i > j {
		i, j = j, i
	}
	return append(out, [2]int32{i, j})
}

// unbounded tests every unbounded box against every other box.
func (bp *BroadPhase) unbounded(out [][2]int32) [][2]int32 {
	for k, u := range bp.unb {
		for j := range bp.boxes {
			jj := int32(j)
			if jj == u || (!bp.boxes[j].bounded() && slices.Index(bp.unb[:k], jj) >= 0) {
				continue // itself, or an unbounded pair already tested
			}
			bp.Tests++
			if bp.boxes[u].Meets(&bp.boxes[j]) {
				out = bp.emit(out, u, jj)
			}
		}
	}
	return out
}

// build makes the subtree over idx[lo:hi] and returns its root.
func (bp *BroadPhase) build(lo, hi int) int32 {
	ni := int32(len(bp.nodes))
	bp.nodes = append(bp.nodes, bvhNode{})
	if hi-lo == 1 {
		i := bp.idx[lo]
		bp.nodes[ni] = bvhNode{box: bp.boxes[i], left: -1, right: i}
		return ni
	}
	ax := bp.splitAxis(lo, hi)
	mid := (lo + hi) / 2
	bp.selectNth(lo, hi, mid, ax)
	l := bp.build(lo, mid)
	r := bp.build(mid, hi)
	bp.nodes[ni] = bvhNode{box: union(&bp.nodes[l].box, &bp.nodes[r].box), left: l, right: r}
	return ni
}

// union returns the smallest box containing a and b (which hold no NaN).
func union(a, b *AABB) AABB {
	u := *a
	for k := range 3 {
		if b.Min[k] < u.Min[k] {
			u.Min[k] = b.Min[k]
		}
		if b.Max[k] > u.Max[k] {
			u.Max[k] = b.Max[k]
		}
	}
	return u
}

// splitAxis returns the axis of largest spread of the centres of
// idx[lo:hi].
func (bp *BroadPhase) splitAxis(lo, hi int) int {
	c := bp.cen[bp.idx[lo]]
	x0, x1, y0, y1, z0, z1 := c[0], c[0], c[1], c[1], c[2], c[2]
	for _, i := range bp.idx[lo+1 : hi] {
		c := &bp.cen[i]
		if c[0] < x0 {
			x0 = c[0]
		} else if c[0] > x1 {
			x1 = c[0]
		}
		if c[1] < y0 {
			y0 = c[1]
		} else if c[1] > y1 {
			y1 = c[1]
		}
		if c[2] < z0 {
			z0 = c[2]
		} else if c[2] > z1 {
			z1 = c[2]
		}
	}
	switch ex, ey, ez := x1-x0, y1-y0, z1-z0; {
	case ex >= ey && ex >= ez:
		return 0
	case ey >= ez:
		return 1
	}
	return 2
}

// less orders boxes by centre coordinate ax, then by index.
func (bp *BroadPhase) less(i, j int32, ax int) bool {
	ci, cj := bp.cen[i][ax], bp.cen[j][ax]
	return ci < cj || (ci == cj && i < j)
}

// selectNth permutes idx[lo:hi] so that idx[k] is the element of rank k−lo,
// with smaller elements before it and larger after (quickselect with a
// median-of-three pivot).
func (bp *BroadPhase) selectNth(lo, hi, k, ax int) {
	idx := bp.idx
	for hi-lo > 1 {
		a, b, c := lo, (lo+hi)/2, hi-1
		if bp.less(idx[b], idx[a], ax) {
			a, b = b, a
		}
		if bp.less(idx[c], idx[b], ax) {
			b = c
			if bp.less(idx[b], idx[a], ax) {
				b = a
			}
		}
		idx[b], idx[hi-1] = idx[hi-1], idx[b]
		pv := idx[hi-1]
		store := lo
		for i := lo; i < hi-1; i++ {
			if bp.less(idx[i], pv, ax) {
				idx[i], idx[store] = idx[store], idx[i]
				store++
			}
		}
		idx[store], idx[hi-1] = idx[hi-1], idx[store]
		switch {
		case k == store:
			return
		case k < store:
			hi = store
		default:
			lo = store + 1
		}
	}
}

// self appends the overlapping pairs within the subtree n.
func (bp *BroadPhase) self(n int32, out [][2]int32) [][2]int32 {
	nd := bp.nodes[n]
	if nd.left < 0 {
		return out
	}
	out = bp.self(nd.left, out)
	out = bp.self(nd.right, out)
	return bp.cross(nd.left, nd.right, out)
}

// cross appends the overlapping pairs between the subtrees a and b,
// descending into the larger one first.
func (bp *BroadPhase) cross(a, b int32, out [][2]int32) [][2]int32 {
	na, nb := &bp.nodes[a], &bp.nodes[b]
	bp.Tests++
	if !na.box.Meets(&nb.box) {
		return out
	}
	switch la, lb := na.left < 0, nb.left < 0; {
	case la && lb:
		return bp.emit(out, na.right, nb.right)
	case lb || (!la && halfPerimeter(na.box) >= halfPerimeter(nb.box)):
		out = bp.cross(na.left, b, out)
		return bp.cross(na.right, b, out)
	default:
		out = bp.cross(a, nb.left, out)
		return bp.cross(a, nb.right, out)
	}
}

func halfPerimeter(b AABB) float64 {
	d := b.Max.Sub(b.Min)
	return d[0] + d[1] + d[2]
}
