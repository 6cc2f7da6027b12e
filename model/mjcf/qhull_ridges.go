package mjcf

import (
	"errors"
	"slices"
)

// qhull keeps, for each non-simplicial facet, a set of ridges (the edges
// it shares with its neighbours, ridgeT), and the order of that set
// decides how qh_triangulate splits a merged flat face: qh_triangulate_facet
// makes one new facet per ridge of the face, in ridge order, from the
// face's apex (its first vertex, the one with the largest id); the ridges
// through the apex give null facets that are deleted, but qh_makenewfacet
// still moves their vertices to the end of the vertex list. This file
// follows the ridge sets through the construction for the cases qhBuild
// models: qh_makenewfacets (qh_makenew_nonsimplicial walks a visible
// facet's ridges, qh_makenew_simplicial its neighbours), qh_mergecycle_all
// (a new facet alone on its coplanar horizon merged by qh_mergefacet's
// qh_mergesimplex, a same-cycle group by qh_mergecycle with
// qh_mergecycle_neighbors and qh_mergecycle_ridges), and qh_makeridges.
// qhull's set operations keep their orders: qh_setappend appends,
// qh_setreplace replaces in place, qh_setcompact keeps the order, and
// qh_setdel moves the last element into the deleted one's place.

// qhRidge is one ridge: its two vertices by decreasing vertex id and the
// two facets it separates.
type qhRidge struct {
	v [2]int
	f [2]*qhFacet
}

// other returns the facet on the other side of r from f.
func (r *qhRidge) other(f *qhFacet) *qhFacet {
	if r.f[0] == f {
		return r.f[1]
	}
	return r.f[0]
}

// swap puts g in f's place on r.
func (r *qhRidge) swap(f, g *qhFacet) {
	if r.f[0] == f {
		r.f[0] = g
	} else if r.f[1] == f {
		r.f[1] = g
	}
}

// qhRidgeState is the part of a facet that qhull's ridge bookkeeping uses.
type qhRidgeState struct {
	ridges   []*qhRidge // nil until the facet has a ridge (facet->ridges)
	simp     bool       // facet->simplicial: no qh_makeridges yet
	seen     bool       // neighbor->seen in qh_makenewfacets
	isnew    bool       // facet->newfacet for the point being added
	newcycle *qhFacet   // a coplanar horizon's current same-cycle head
	head     *qhFacet   // a new facet's same-cycle head
	cycle    []*qhFacet // on a head: its cycle in FORALLsame_cycle_ order
	done     bool       // merged (cycledone)
}

// setDel is qh_setdel: the last element moves into the deleted one's
// place.
func setDel[T comparable](s []T, x T) []T {
	i := slices.Index(s, x)
	if i < 0 {
		return s
	}
	s[i] = s[len(s)-1]
	return s[:len(s)-1]
}

// setReplace is qh_setreplace: x replaced by y in place.
func setReplace[T comparable](s []T, x, y T) {
	if i := slices.Index(s, x); i >= 0 {
		s[i] = y
	}
}

// makeCone is qh_makenewfacets for apex q and the visible facets vis, in
// qhull's order: per visible facet, first a new facet per ridge to a
// horizon facet (qh_makenew_nonsimplicial; the ridge moves to the new
// facet when the horizon facet is not simplicial, else is deleted), then,
// for a simplicial visible facet, one per horizon neighbour not yet seen
// (qh_makenew_simplicial). A new facet on a coplanar horizon joins that
// horizon's same cycle of this visible facet (f.samecycle: the first one,
// then the others each inserted after it); a simplicial one is alone. The
// replacement of a visible facet (f.replace) is the last new facet made by
// qh_makenew_nonsimplicial, if any so far, else by qh_makenew_simplicial,
// as qh_makenewfacets keeps both across visible facets.
func (b *qhBuild) makeCone(q int, vis []*qhFacet) []*qhFacet {
	var cone []*qhFacet
	var n1, n2 *qhFacet
	for _, v := range vis {
		for _, g := range v.nb {
			g.seen = false
		}
		if v.ridges != nil {
			n2 = nil
			for _, r := range slices.Clone(v.ridges) {
				o := r.other(v)
				if o.visible {
					continue
				}
				nf := &qhFacet{horizon: o, verts: []int{q, r.v[0], r.v[1]}}
				nf.simp, nf.isnew = true, true
				b.setPlane(nf)
				cone = append(cone, nf)
				if o.coplanar {
					if !o.seen {
						nf.head, nf.cycle = nf, []*qhFacet{nf}
						o.newcycle = nf
					} else {
						h := o.newcycle
						nf.head = h
						h.cycle = slices.Insert(h.cycle, 1, nf)
					}
				}
				if o.simp {
					o.ridges = setDel(o.ridges, r)
				} else {
					nf.ridges = []*qhRidge{r}
					r.swap(v, nf)
				}
				o.seen = true
				n2 = nf
			}
		}
		if v.simp {
			n1 = nil
			for _, g := range v.nb {
				if g.seen || g.visible {
					continue
				}
				nf := &qhFacet{horizon: g, verts: []int{q}}
				nf.simp, nf.isnew = true, true
				for _, x := range v.verts {
					if slices.Contains(g.verts, x) {
						nf.verts = append(nf.verts, x)
					}
				}
				b.byID(nf.verts)
				b.setPlane(nf)
				if g.coplanar {
					nf.head, nf.cycle = nf, []*qhFacet{nf}
				}
				cone = append(cone, nf)
				n1 = nf
			}
		}
		if n2 != nil {
			n1 = n2
		}
		if n1 != nil {
			v.replace = n1
		}
	}
	return cone
}

// makeRidges is qh_makeridges: a simplicial facet gets a ridge to each
// neighbour it has none with, in neighbour order (neighbour i is opposite
// vertex i), each appended to both facets' ridge sets.
func (b *qhBuild) makeRidges(f *qhFacet) {
	if !f.simp {
		return
	}
	f.simp = false
	has := map[*qhFacet]bool{}
	for _, r := range f.ridges {
		has[r.other(f)] = true
	}
	if f.ridges == nil {
		f.ridges = []*qhRidge{}
	}
	for i, g := range f.nb {
		if has[g] {
			continue
		}
		r := b.newRidge(f, i, g)
		f.ridges = append(f.ridges, r)
		g.ridges = append(g.ridges, r)
	}
}

// newRidge is the ridge between f and its neighbour g opposite f's
// vertex i.
func (b *qhBuild) newRidge(f *qhFacet, i int, g *qhFacet) *qhRidge {
	var vs []int
	for j, v := range f.verts {
		if j != i {
			vs = append(vs, v)
		}
	}
	return &qhRidge{v: [2]int{vs[0], vs[1]}, f: [2]*qhFacet{f, g}}
}

// newVertices is qh_newvertices: vertices not yet new this round move to
// the end of the vertex list.
func (b *qhBuild) newVertices(vs []int) {
	for _, v := range vs {
		if !b.vnew[v] {
			b.vnew[v] = true
			i := slices.Index(b.vlist, v)
			b.vlist = append(slices.Delete(b.vlist, i, i+1), v)
		}
	}
}

// mergeCoplanarHorizons is qh_mergecycle_all: in new-facet order, a new
// facet alone in its same cycle is merged into its coplanar horizon facet
// by qh_mergefacet (qh_mergesimplex with the apex), a same cycle of
// several by qh_mergecycle; the horizon facet moves to the end of the
// facet list each time. It returns the new facet list (qh.newfacet_list:
// the new facets left and the merged horizons, in list order) and whether
// any merged.
func (b *qhBuild) mergeCoplanarHorizons(q int, cone []*qhFacet) ([]*qhFacet, bool) {
	merged := false
	for _, nf := range cone {
		if nf.head == nil || nf.done {
			continue
		}
		merged = true
		b.startVertexNeighbours()
		g := nf.horizon
		if len(nf.head.cycle) == 1 {
			b.mergeSimplex(q, nf, g)
		} else {
			b.mergeCycle(q, nf.head.cycle, g)
		}
		b.moveEnd(g)
		g.isnew = true
		g.horizon = nil
	}
	var newf []*qhFacet
	for _, f := range b.facets {
		if f.isnew {
			newf = append(newf, f)
		}
	}
	return newf, merged
}

// mergeSimplex is qh_mergefacet of new facet n into its horizon g
// (MRGcoplanarhorizon, qh_MERGEapex): qh_makeridges for both, then
// qh_mergesimplex: g's vertices made new and the apex put first, the ridge
// between them deleted (qh_delridge_merge, qh_setdel from both ridge
// sets, and n from g's neighbours), n's other ridges appended to g's, and
// n's other neighbours made g's.
func (b *qhBuild) mergeSimplex(q int, n, g *qhFacet) {
	b.makeRidges(n)
	b.makeRidges(g)
	if !g.isnew {
		b.newVertices(g.verts)
	}
	isnew := g.verts[0] != q
	if isnew {
		g.verts = append([]int{q}, g.verts...)
	}
	b.simplexVertexNeighbours(q, n, g, isnew)
	mark := map[*qhFacet]bool{}
	for _, h := range g.nb {
		mark[h] = true
	}
	for i := 0; i < len(n.ridges); {
		r := n.ridges[i]
		o := r.other(n)
		if o == g {
			g.ridges = setDel(g.ridges, r)
			n.ridges = setDel(n.ridges, r)
			g.nb = setDel(g.nb, n)
			continue
		}
		g.ridges = append(g.ridges, r)
		if !mark[o] {
			g.nb = append(g.nb, o)
			setReplace(o.nb, n, g)
			mark[o] = true
		} else {
			b.makeRidges(o)
			if o.nb[0] == n {
				o.nb = setDel(o.nb, g)
				setReplace(o.nb, n, g)
			} else {
				o.nb = setDel(o.nb, n)
			}
		}
		r.swap(n, g)
		i++
	}
	b.remove(n)
	n.done, n.replace = true, g
}

// mergeCycle is qh_mergecycle of the same cycle cyc into horizon g:
// qh_makeridges(g), qh_mergecycle_neighbors, qh_mergecycle_ridges, then
// the apex first in g's vertices and g's vertices made new.
func (b *qhBuild) mergeCycle(q int, cyc []*qhFacet, g *qhFacet) {
	b.makeRidges(g)
	in := map[*qhFacet]bool{}
	for _, s := range cyc {
		in[s] = true
	}
	// qh_mergecycle_neighbors.
	g.nb = slices.DeleteFunc(g.nb, func(h *qhFacet) bool { return in[h] })
	mark := map[*qhFacet]bool{}
	for _, h := range g.nb {
		mark[h] = true
	}
	for _, s := range cyc {
		for _, o := range slices.Clone(s.nb) {
			if in[o] || o == g {
				continue
			}
			if o.simp {
				if !mark[o] {
					g.nb = append(g.nb, o)
					setReplace(o.nb, s, g)
					mark[o] = true
					for _, r := range o.ridges {
						if r.f[0] == s || r.f[1] == s {
							r.swap(s, g)
							break
						}
					}
				} else {
					b.makeRidges(o)
					o.nb = setDel(o.nb, s)
				}
			} else {
				o.nb = setDel(o.nb, s)
				if !mark[o] {
					o.nb = append(o.nb, g)
					g.nb = append(g.nb, o)
					mark[o] = true
				}
			}
		}
	}
	// qh_mergecycle_ridges, then qh_mergecycle_vneighbors.
	g.ridges = slices.DeleteFunc(g.ridges, func(r *qhRidge) bool { return in[r.other(g)] })
	for _, s := range cyc {
		for _, r := range s.ridges {
			var o *qhFacet
			switch {
			case r.f[0] == s:
				r.f[0], o = g, r.f[1]
			case r.f[1] == s:
				r.f[1], o = g, r.f[0]
			case r.f[0] == g || r.f[1] == g:
				g.ridges = append(g.ridges, r)
				continue
			default:
				continue
			}
			switch {
			case o == g:
			case in[o]:
				o.ridges = setDel(o.ridges, r)
			default:
				g.ridges = append(g.ridges, r)
			}
		}
		s.ridges = s.ridges[:0]
		if !s.simp {
			continue
		}
		for i, o := range s.nb {
			if !in[o] && o.simp {
				r := b.newRidge(s, i, o)
				r.f[0] = g
				g.ridges = append(g.ridges, r)
				o.ridges = append(o.ridges, r)
			}
		}
	}
	b.cycleVertexNeighbours(cyc, g)
	if g.verts[0] != q {
		g.verts = append([]int{q}, g.verts...)
	}
	if !g.isnew {
		b.newVertices(g.verts)
	}
	for _, s := range cyc {
		b.remove(s)
		s.done, s.replace = true, g
	}
}

// ridgeTriangles is qh_triangulate_facet for non-simplicial facet f: one
// vertex set [apex, ridge vertices] per ridge in ridge order, the apex
// being f's first vertex; sets with the apex twice are null facets. ok is
// false when f's ridges are not exactly the edges of its polygon poly
// (qhull then has deleted or renamed vertices, which is not modelled).
func ridgeTriangles(f *qhFacet, poly []int) (sets [][3]int, ok bool) {
	m := len(poly)
	if len(f.ridges) != m || len(f.verts) != m {
		return nil, false
	}
	edges := map[[2]int]bool{}
	for i := range m {
		a, c := poly[i], poly[(i+1)%m]
		edges[[2]int{a, c}], edges[[2]int{c, a}] = true, true
	}
	for _, r := range f.ridges {
		if !edges[r.v] || (r.f[0] != f && r.f[1] != f) {
			return nil, false
		}
		delete(edges, r.v)
		delete(edges, [2]int{r.v[1], r.v[0]})
		sets = append(sets, [3]int{f.verts[0], r.v[0], r.v[1]})
	}
	return sets, true
}

// errUnmodelledRidges reports a hull whose merged facets' ridge sets
// qhBuild does not follow (vertices qhull deletes or renames in a merge).
var errUnmodelledRidges = errors.New("hull graph: a merged facet's ridges are not modelled")

// qhull keeps each vertex's neighbouring facets (vertex->neighbors) from
// the first merge on (qh_vertexneighbors, called by qh_mergefacet and
// qh_mergecycle), and MakeGraph reads them after qh_triangulate; without
// a merge qh_vertexneighbors builds them after triangulation, in
// facet-list order. vertexNeighbours follows them through the cases
// qhBuild models.

// startVertexNeighbours is qh_vertexneighbors: each vertex's facets in
// facet-list order (visible facets left out).
func (b *qhBuild) startVertexNeighbours() {
	if b.vnb != nil {
		return
	}
	b.vnb = make([][]*qhFacet, len(b.p))
	for _, f := range b.facets {
		for _, v := range f.verts {
			b.vnb[v] = append(b.vnb[v], f)
		}
	}
}

// coneVertexNeighbours is qh_update_vertexneighbors_cone: the new
// vertices lose their visible facets (qh_setdelnth), the cone's facets
// are appended in order, and a visible facet's other vertices lose it
// (qh_setdel) unless all their facets are visible (an interior vertex,
// deleted).
func (b *qhBuild) coneVertexNeighbours(cone, vis []*qhFacet) {
	if b.vnb == nil {
		return
	}
	for v := range b.p {
		if !b.vnew[v] {
			continue
		}
		s := b.vnb[v]
		for i := 0; i < len(s); {
			if s[i].visible {
				s[i] = s[len(s)-1]
				s = s[:len(s)-1]
				continue
			}
			i++
		}
		b.vnb[v] = s
	}
	for _, nf := range cone {
		for _, v := range nf.verts {
			b.vnb[v] = append(b.vnb[v], nf)
		}
	}
	for _, f := range vis {
		for _, v := range f.verts {
			if b.vnew[v] {
				continue
			}
			if slices.ContainsFunc(b.vnb[v], func(g *qhFacet) bool { return !g.visible }) {
				b.vnb[v] = setDel(b.vnb[v], f)
			}
		}
	}
}

// simplexVertexNeighbours is qh_mergesimplex's update for merging n into
// g with apex q (isnew: q was just put into g's vertices): the apex's n
// becomes g in place, the other vertices lose n (qh_setdel); a vertex
// left with one facet is deleted by qhull (qh_mergevertex_del), which
// qhBuild does not model.
func (b *qhBuild) simplexVertexNeighbours(q int, n, g *qhFacet, isnew bool) {
	if b.vnb == nil {
		return
	}
	for _, v := range n.verts {
		if v == q && isnew {
			setReplace(b.vnb[v], n, g)
			continue
		}
		b.vnb[v] = setDel(b.vnb[v], n)
		if len(b.vnb[v]) < 2 {
			b.unmodelled = true
		}
	}
}

// cycleVertexNeighbours is qh_mergecycle_vneighbors: each vertex of the
// cycle loses the cycle's facets and g (qh_setcompact) and gets g
// appended; a vertex left with g alone is deleted by qhull (not modelled).
func (b *qhBuild) cycleVertexNeighbours(cyc []*qhFacet, g *qhFacet) {
	if b.vnb == nil {
		return
	}
	in := map[*qhFacet]bool{g: true}
	for _, s := range cyc {
		in[s] = true
	}
	done := map[int]bool{}
	for _, s := range cyc {
		for _, v := range s.verts {
			if done[v] {
				continue
			}
			done[v] = true
			b.vnb[v] = append(slices.DeleteFunc(b.vnb[v], func(f *qhFacet) bool { return in[f] }), g)
			if len(b.vnb[v]) < 2 {
				b.unmodelled = true
			}
		}
	}
}

// vertexFacets returns each vertex's neighbouring facets as MakeGraph
// reads them (FOREACHneighbor_(vertex)), as indices into sets, the
// triangulated facet list of triangulate. Without a merge this is
// qh_vertexneighbors after qh_triangulate: facets in list order. Else
// qhull's kept lists: the simplicial facets as they stand in it, then
// (qh_triangulate_facet appends each new facet to its vertices' lists;
// qh_triangulate's final qh_update_vertexneighbors compacts away the
// merged facets and the null ones) the triangles in triangulation order.
func (b *qhBuild) vertexFacets(sets [][3]int) [][]int {
	nb := make([][]int, len(b.p))
	if b.vnb == nil {
		for i, s := range sets {
			for _, v := range s {
				nb[v] = append(nb[v], i)
			}
		}
		return nb
	}
	idx := map[*qhFacet]int{}
	n := 0
	for _, f := range b.facets {
		if f.simp && len(f.verts) == 3 {
			idx[f] = n
			n++
		}
	}
	for v, fs := range b.vnb {
		for _, f := range fs {
			if i, ok := idx[f]; ok {
				nb[v] = append(nb[v], i)
			}
		}
	}
	for i := n; i < len(sets); i++ {
		for _, v := range sets[i] {
			nb[v] = append(nb[v], i)
		}
	}
	return nb
}
