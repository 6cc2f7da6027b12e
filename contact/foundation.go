package contact

import (
	"fmt"
	"math"

	"github.com/stiction-sim/stiction/geometry"
	"github.com/stiction-sim/stiction/multibody"
	"github.com/stiction-sim/stiction/spatial"
)

// Foundation (Material.Foundation) makes a material an elastic foundation (Winkler model,
// Drumwright §5.5 and Fig. 7): a layer of independent springs of depth
// Depth and Young's modulus Modulus. A box resting on a half-space of such
// a material touches it through Elements × Elements spring elements, the
// centres of an even grid over the box face that looks most towards the
// half-space, instead of the corner points of the narrow phase. Each
// element of area a = face area / Elements² has stiffness
// K = Modulus·a/Depth (N/m) and damping Damping (N·s/m), i.e. τd =
// Damping/K; the box is rigid (its own material's stiffness is not used),
// friction combines as for point contact. The points are ordinary contact
// pairs, so every solver sees them.
type Foundation struct {
	Modulus  float64 // E, Pa
	Depth    float64 // thickness of the layer, m
	Elements int     // elements per side of the face (Elements² in all)
	Damping  float64 // per element, N·s/m
}

// Validate reports an error naming the bad field and value.
func (f *Foundation) Validate() error {
	switch {
	case !(f.Modulus > 0) || math.IsInf(f.Modulus, 0):
		return fmt.Errorf("foundation modulus %v must be positive and finite", f.Modulus)
	case !(f.Depth > 0) || math.IsInf(f.Depth, 0):
		return fmt.Errorf("foundation depth %v must be positive and finite", f.Depth)
	case f.Elements < 1 || f.Elements > 1000:
		return fmt.Errorf("foundation elements per side %d must be in [1, 1000]", f.Elements)
	case !(f.Damping >= 0) || math.IsInf(f.Damping, 0):
		return fmt.Errorf("foundation damping %v must be non-negative and finite", f.Damping)
	}
	return nil
}

// Collide appends the contacts between geometries ga at pose xa and gb at
// pose xb with gap at most margin: the element points of an elastic
// foundation when one is a half-space whose material is a foundation and
// the other a box, geometry.Collide's points otherwise. The element points'
// Feature is their index in the grid.
func Collide(mats []Material, ga *multibody.Geometry, xa spatial.Pose, gb *multibody.Geometry, xb spatial.Pose, margin float64, out []geometry.Contact) []geometry.Contact {
	if f, plane, box, xp, xbx, flip := patch(mats, ga, xa, gb, xb); f != nil {
		return f.elements(plane, xp, box, xbx, flip, margin, out)
	}
	return geometry.Collide(ga.Shape, xa, gb.Shape, xb, margin, out)
}

// patch returns the foundation of a half-space–box pair, its geometries
// and poses, and whether the box is A (the normal then points from the box
// towards the half-space, negated).
func patch(mats []Material, ga *multibody.Geometry, xa spatial.Pose, gb *multibody.Geometry, xb spatial.Pose) (f *Foundation, plane, box *multibody.Geometry, xp, xbx spatial.Pose, flip bool) {
	switch {
	case ga.Shape.Kind == geometry.HalfSpace && gb.Shape.Kind == geometry.Box && ga.Material < len(mats) && mats[ga.Material].Foundation != nil:
		return mats[ga.Material].Foundation, ga, gb, xa, xb, false
	case gb.Shape.Kind == geometry.HalfSpace && ga.Shape.Kind == geometry.Box && gb.Material < len(mats) && mats[gb.Material].Foundation != nil:
		return mats[gb.Material].Foundation, gb, ga, xb, xa, true
	}
	return nil, nil, nil, xp, xbx, false
}

// elements appends the element points of the box's face towards the plane
// (local z ≤ 0 of the half-space at pose xp; outward normal n = R_p e_z).
func (f *Foundation) elements(plane *multibody.Geometry, xp spatial.Pose, box *multibody.Geometry, xb spatial.Pose, flip bool, margin float64, out []geometry.Contact) []geometry.Contact {
	n := xp.R.Rotate(spatial.Vec3{0, 0, 1})
	axis, sign, u, v := faceTowards(box.Shape.HalfExtents, xb, n)
	h := box.Shape.HalfExtents
	e := f.Elements
	for iu := range e {
		for iv := range e {
			var local spatial.Vec3
			local[axis] = sign * h[axis]
			local[u] = h[u] * (2*(float64(iu)+0.5)/float64(e) - 1)
			local[v] = h[v] * (2*(float64(iv)+0.5)/float64(e) - 1)
			c := xb.Apply(local)
			phi := n.Dot(c.Sub(xp.P))
			if phi > margin {
				continue
			}
			nrm := n
			if flip {
				nrm = n.Scale(-1)
			}
			out = append(out, geometry.Contact{Point: c.Sub(n.Scale(0.5 * phi)), Normal: nrm, Phi: phi, Feature: uint32(iu*e + iv)})
		}
	}
	return out
}

// faceTowards returns the box face whose outward normal is most opposed to
// n: its local axis and sign, and the two other axes.
func faceTowards(h spatial.Vec3, xb spatial.Pose, n spatial.Vec3) (axis int, sign float64, u, v int) {
	best := math.Inf(1)
	for k := range 3 {
		var ek spatial.Vec3
		ek[k] = 1
		d := xb.R.Rotate(ek).Dot(n)
		for _, s := range [2]float64{1, -1} {
			if s*d < best {
				best, axis, sign = s*d, k, s
			}
		}
	}
	return axis, sign, (axis + 1) % 3, (axis + 2) % 3
}

// elementMaterial returns the material of one element of a foundation
// pair: K = E a/depth with a the element's area, τd = B/K, the friction of
// the combined materials.
func (f *Foundation) elementMaterial(box geometry.Shape, xb spatial.Pose, n spatial.Vec3, combined Material) Material {
	_, _, u, v := faceTowards(box.HalfExtents, xb, n)
	area := 4 * box.HalfExtents[u] * box.HalfExtents[v] / float64(f.Elements*f.Elements)
	k := f.Modulus * area / f.Depth
	combined.Stiffness, combined.Dissipation = k, f.Damping/k
	return combined
}

// pairMaterial returns the material of contact pr: the element material
// when the pair is a box on an elastic foundation, Combine's otherwise.
func pairMaterial(m *multibody.Model, kin *multibody.Workspace, pr *Pair, mats []Material) Material {
	ga, gb := &m.Geometries[pr.GeomA], &m.Geometries[pr.GeomB]
	ma, mb := mats[ga.Material], mats[gb.Material]
	mat := Combine(ma, mb)
	if ma.Foundation == nil && mb.Foundation == nil {
		return mat
	}
	xa, xb := kin.Pose(ga.Body).Compose(ga.Pose), kin.Pose(gb.Body).Compose(gb.Pose)
	if f, _, box, xp, xbx, _ := patch(mats, ga, xa, gb, xb); f != nil {
		return f.elementMaterial(box.Shape, xbx, xp.R.Rotate(spatial.Vec3{0, 0, 1}), mat)
	}
	return mat
}
