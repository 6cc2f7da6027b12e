package fclib

import "slices"

// unionFind is a disjoint-set forest over 0..n−1.
type unionFind []int

func newUnionFind(n int) unionFind {
	u := make(unionFind, n)
	for i := range u {
		u[i] = i
	}
	return u
}

func (u unionFind) find(i int) int {
	for u[i] != i {
		u[i] = u[u[i]]
		i = u[i]
	}
	return i
}

func (u unionFind) union(i, j int) {
	a, b := u.find(i), u.find(j)
	if a < b {
		u[b] = a
	} else if b < a {
		u[a] = b
	}
}

// components returns the connected components of the graph on 0..n−1 with
// the edges union-ed into u: each component's members ascending, components
// ordered by their smallest member.
func (u unionFind) components() [][]int {
	index := map[int]int{}
	var comps [][]int
	for i := range u {
		r := u.find(i)
		c, ok := index[r]
		if !ok {
			c = len(comps)
			index[r] = c
			comps = append(comps, nil)
		}
		comps[c] = append(comps[c], i)
	}
	return comps
}

// sparsityComponents returns the connected components of the sparsity graph
// of the square matrix s (an edge i–j for every non-zero S_ij): the cliques
// of a mass matrix, one per independent body or FEM mesh.
func sparsityComponents(s *Sparse) [][]int {
	u := newUnionFind(s.Cols)
	for j := range s.Cols {
		for k := s.ColPtr[j]; k < s.ColPtr[j+1]; k++ {
			if s.Val[k] != 0 {
				u.union(s.RowIdx[k], j)
			}
		}
	}
	comps := u.components()
	for _, c := range comps {
		slices.Sort(c)
	}
	return comps
}
