package geometry

import (
	"errors"
	"fmt"
	"math"

	"github.com/stiction-sim/stiction/spatial"
)

// derive completes a hull whose vertices and face loops are set: face
// planes, edges, the faces around each vertex, checks of convexity and of
// the topology, the slot frames, and the mass properties.
func (h *Hull) derive(size float64) error {
	for i := range h.faces {
		h.facePlane(&h.faces[i])
	}
	if err := h.topology(); err != nil {
		return err
	}
	tol := hullConvexTol * size
	for fi, f := range h.faces {
		for vi, v := range h.verts {
			if d := f.n.Dot(v) - f.d; d > tol {
				return fmt.Errorf("vertex %d lies %.3g above face %d (internal error)", vi, d, fi)
			}
		}
	}
	for _, v := range h.verts {
		h.radius = max(h.radius, v.Norm())
	}
	h.size = size
	h.climbData()
	for i := range h.faces {
		h.maxFace = max(h.maxFace, len(h.faces[i].verts))
		h.slotFrame(&h.faces[i])
	}
	return h.massProperties()
}

// facePlane sets the face's outward normal by Newell's method (robust for
// polygons that are planar only up to rounding), its offset (the largest
// n·x over its vertices, so no vertex lies above the plane) and its width
// (its largest vertex distance).
func (h *Hull) facePlane(f *hullFace) {
	var c spatial.Vec3
	for _, v := range f.verts {
		c = c.Add(h.verts[v])
	}
	c = c.Scale(1 / float64(len(f.verts)))
	var n spatial.Vec3
	for k, v := range f.verts {
		w := f.verts[(k+1)%len(f.verts)]
		n = n.Add(h.verts[v].Sub(c).Cross(h.verts[w].Sub(c)))
	}
	f.n, _ = n.Normalize()
	f.d = math.Inf(-1)
	for _, v := range f.verts {
		f.d = max(f.d, f.n.Dot(h.verts[v]))
		for _, w := range f.verts {
			f.width = max(f.width, h.verts[v].Sub(h.verts[w]).Norm())
		}
	}
}

// topology builds the edge list and the faces around each vertex, and
// checks that the surface is closed (every edge has one face on each side)
// and a sphere (V − E + F = 2).
func (h *Hull) topology() error {
	idx := map[[2]int32]int{}
	for fi, f := range h.faces {
		for k, a := range f.verts {
			b := f.verts[(k+1)%len(f.verts)]
			key, left := [2]int32{a, b}, true
			if b < a {
				key, left = [2]int32{b, a}, false
			}
			i, ok := idx[key]
			if !ok {
				i = len(h.edges)
				idx[key] = i
				h.edges = append(h.edges, hullEdge{a: key[0], b: key[1], left: -1, right: -1})
			}
			e := &h.edges[i]
			side := &e.right
			if left {
				side = &e.left
			}
			if *side >= 0 {
				return errors.New("an edge has two faces on one side (internal error)")
			}
			*side = int32(fi)
		}
	}
	for _, e := range h.edges {
		if e.left < 0 || e.right < 0 {
			return errors.New("the surface is not closed (internal error)")
		}
	}
	if v, e, f := len(h.verts), len(h.edges), len(h.faces); v-e+f != 2 {
		return fmt.Errorf("V − E + F = %d − %d + %d ≠ 2 (internal error)", v, e, f)
	}
	counts := make([]int32, len(h.verts)+1)
	for _, f := range h.faces {
		for _, v := range f.verts {
			counts[v+1]++
		}
	}
	for i := range h.verts {
		counts[i+1] += counts[i]
	}
	h.vertFaceStart = counts
	h.vertFaces = make([]int32, counts[len(h.verts)])
	fill := append([]int32(nil), counts[:len(h.verts)]...)
	for fi, f := range h.faces { // faces in increasing order around every vertex
		for _, v := range f.verts {
			h.vertFaces[fill[v]] = int32(fi)
			fill[v]++
		}
	}
	return nil
}

// slotFrame chooses the in-plane axis u of the face so that the four
// slot directions ±u±v (v = n × u) are as far as possible (in angle) from
// the outward normals of the face's edges: the extreme point of a polygon
// along a direction then stays the same vertex under small rotations of a
// polygon with similar edges (see manifold.go). For a rectangle u is along an
// edge. Angles are tried in steps of 0.25°; ties go to the smallest.
func (h *Hull) slotFrame(f *hullFace) {
	e1, _ := h.verts[f.verts[1]].Sub(h.verts[f.verts[0]]).Normalize()
	e1, _ = e1.AddScaled(-e1.Dot(f.n), f.n).Normalize()
	e2 := f.n.Cross(e1)
	var ang []float64
	for k, a := range f.verts {
		t := h.verts[f.verts[(k+1)%len(f.verts)]].Sub(h.verts[a])
		m := t.Cross(f.n)
		ang = append(ang, math.Atan2(m.Dot(e2), m.Dot(e1)))
	}
	best, bestTheta := -1.0, 0.0
	for i := range 360 {
		theta := float64(i) * math.Pi / 720
		c := math.Inf(1)
		for _, a := range ang {
			x := a - theta - math.Pi/4
			x -= math.Pi / 2 * math.Round(x/(math.Pi/2))
			c = min(c, math.Abs(x))
		}
		if c > best {
			best, bestTheta = c, theta
		}
	}
	f.u = e1.Scale(math.Cos(bestTheta)).AddScaled(math.Sin(bestTheta), e2)
	v := f.n.Cross(f.u)
	o := h.verts[f.verts[0]]
	for k, a := range f.verts {
		b := f.verts[(k+1)%len(f.verts)]
		m, _ := h.verts[b].Sub(h.verts[a]).Cross(f.n).Normalize()
		m2 := [2]float64{m.Dot(f.u), m.Dot(v)}
		p := h.verts[a].Sub(o)
		f.sides = append(f.sides, sideLine{m: m2, off: m2[0]*p.Dot(f.u) + m2[1]*p.Dot(v)})
	}
}

// massProperties computes the volume, centroid and unit inertia of the
// solid hull exactly, summing the tetrahedra from an interior point o to
// the triangles of a fan of every face: a tetrahedron (o, o+a, o+b, o+c)
// of signed volume V = a·(b×c)/6 has ∫(x−o)dV = V(a+b+c)/4 and second
// moment ∫(x−o)(x−o)ᵀdV = V/20 (aaᵀ + bbᵀ + ccᵀ + ssᵀ) with s = a+b+c
// (the tetrahedron covariance; Tonon, J. Math. Stat. 1(1), 2004, eq. 2–4
// in covariance form). The inertia is I = tr(C)·1 − C for the covariance C
// about the centroid.
func (h *Hull) massProperties() error {
	var o spatial.Vec3
	for _, v := range h.verts {
		o = o.Add(v)
	}
	o = o.Scale(1 / float64(len(h.verts)))
	var vol float64
	var first spatial.Vec3
	var second spatial.Mat3
	for _, f := range h.faces {
		a := h.verts[f.verts[0]].Sub(o)
		for k := 1; k+1 < len(f.verts); k++ {
			b, c := h.verts[f.verts[k]].Sub(o), h.verts[f.verts[k+1]].Sub(o)
			v := a.Dot(b.Cross(c)) / 6
			s := a.Add(b).Add(c)
			vol += v
			first = first.AddScaled(v/4, s)
			m := spatial.Outer(a, a).Add(spatial.Outer(b, b)).Add(spatial.Outer(c, c)).Add(spatial.Outer(s, s))
			second = second.Add(m.Scale(v / 20))
		}
	}
	if !(vol > 0) {
		return fmt.Errorf("hull volume %v is not positive (internal error)", vol)
	}
	c := first.Scale(1 / vol)
	second = second.Sub(spatial.Outer(c, c).Scale(vol)) // about the centroid
	tr := second[0][0] + second[1][1] + second[2][2]
	h.unitI = spatial.Diag3(spatial.Vec3{tr, tr, tr}).Sub(second).Scale(1 / vol)
	for i := range 3 { // exact symmetry
		for j := range i {
			m := (h.unitI[i][j] + h.unitI[j][i]) / 2
			h.unitI[i][j], h.unitI[j][i] = m, m
		}
	}
	h.volume = vol
	h.centroid = o.Add(c)
	return nil
}
