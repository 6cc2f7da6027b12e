package linalg

import "fmt"

// Ordering selects the elimination order of the blocks.
type Ordering int

const (
	// MinDegree eliminates, at each step, the block whose neighbours in the
	// current elimination graph have the fewest scalar rows in total (the
	// minimum-degree heuristic on the block graph, weighted by block
	// sizes; ties go to the smaller block index), then postorders the
	// elimination tree so that supernodes are consecutive. It is the
	// default: it keeps the fill of L low on contact graphs.
	MinDegree Ordering = iota
	// Natural eliminates the blocks in index order (for comparison).
	Natural
)

// String returns the ordering name.
func (o Ordering) String() string {
	switch o {
	case MinDegree:
		return "min-degree"
	case Natural:
		return "natural"
	}
	return "unknown"
}

// EdgeKey encodes the unordered pair of distinct blocks {i, j} as one
// sortable key, the smaller index in the high 32 bits. Patterns are given
// to Analyze and Cache.Get as sorted, duplicate-free slices of keys.
func EdgeKey(i, j int) uint64 {
	if i > j {
		i, j = j, i
	}
	return uint64(i)<<32 | uint64(uint32(j))
}

// edgeEnds decodes an EdgeKey.
func edgeEnds(k uint64) (int, int) { return int(k >> 32), int(uint32(k)) }

// eliminate simulates the elimination of the block graph given by s.sizes
// and edges in the order chosen by ord, and records in s.perm the order,
// and in the workspace's column lists (colStruct) the filled structure of
// block c's column of L (its neighbours at the time it is eliminated, as
// block indices). The elimination graph is kept explicitly as adjacency
// lists (lists.go): eliminating v turns its neighbourhood into a clique
// (the fill). Storage is reused.
func (s *Symbolic) eliminate(edges []uint64, ord Ordering) error {
	n := s.n
	w := s.scratch()
	w.adj.reset(n)
	w.cols.reset(n)
	w.deg = resizeInt(w.deg, n)
	w.stamp = resizeInt32(w.stamp, n)
	w.alive = resizeBool(w.alive, n)
	for i := range n {
		w.stamp[i] = 0
		w.alive[i] = true
	}
	var prev uint64
	for k, e := range edges {
		i, j := edgeEnds(e)
		switch {
		case i >= j || j >= n:
			return fmt.Errorf("linalg: edge %d joins blocks %d and %d of %d", k, i, j, n)
		case k > 0 && e <= prev:
			return fmt.Errorf("linalg: edges not sorted and unique at %d", k)
		}
		prev = e
		w.adj.push(i, int32(j))
		w.adj.push(j, int32(i))
	}
	for v := range n {
		w.deg[v] = s.weight(w.adj.get(v))
	}
	stamp := int32(0)
	for k := range n {
		v := k
		if ord == MinDegree {
			v = -1
			for u := range n {
				if w.alive[u] && (v < 0 || w.deg[u] < w.deg[v]) {
					v = u
				}
			}
		}
		w.alive[v] = false
		s.perm[k] = int32(v)
		// The column structure of v is its neighbourhood now; it is also
		// the list walked below (adj's views move when a list grows).
		w.cols.reserve(v, int(w.adj.n[v]))
		nv := w.cols.room(v)[:copy(w.cols.room(v), w.adj.get(v))]
		w.cols.setLen(v, len(nv))
		for _, u := range nv {
			// adj(u) ← adj(u) ∪ adj(v) \ {u, v}.
			stamp++
			w.adj.reserve(int(u), int(w.adj.n[u])+len(nv))
			room := w.adj.room(int(u))
			m := 0
			for _, x := range room[:w.adj.n[u]] {
				if int(x) != v {
					room[m] = x
					m++
					w.stamp[x] = stamp
				}
			}
			w.stamp[u] = stamp
			for _, x := range nv {
				if w.stamp[x] != stamp {
					room[m] = x
					m++
					w.stamp[x] = stamp
				}
			}
			w.adj.setLen(int(u), m)
			w.deg[u] = s.weight(room[:m])
		}
		w.adj.clearList(v)
	}
	return nil
}

// weight returns the number of scalar rows of the blocks in list.
func (s *Symbolic) weight(list []int32) int {
	w := 0
	for _, u := range list {
		w += s.sizes[u]
	}
	return w
}

func resizeInt(s []int, n int) []int {
	if cap(s) < n {
		return make([]int, n, max(n, 2*cap(s)))
	}
	return s[:n]
}

func resizeInt32(s []int32, n int) []int32 {
	if cap(s) < n {
		return make([]int32, n, max(n, 2*cap(s)))
	}
	return s[:n]
}

func resizeBool(s []bool, n int) []bool {
	if cap(s) < n {
		return make([]bool, n, max(n, 2*cap(s)))
	}
	return s[:n]
}

func resizeFloat(s []float64, n int) []float64 {
	if cap(s) < n {
		return make([]float64, n, max(n, 2*cap(s)))
	}
	return s[:n]
}
