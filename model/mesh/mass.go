package mesh

import (
	"fmt"
	"math"

	"github.com/stiction-sim/stiction/spatial"
)

// Props are the mass properties of the solid bounded by a closed mesh at
// unit density: its volume, its centre of mass and its inertia tensor
// about the centre of mass (kg·m² per kg/m³ of density), in the mesh frame.
type Props struct {
	Volume float64
	COM    spatial.Vec3
	I      spatial.Mat3
}

// MassProperties integrates over the solid bounded by the mesh with the
// divergence theorem: every triangle (a, b, c) and a reference point o make a
// tetrahedron of signed volume V = (a−o)·((b−o)×(c−o))/6, whose centroid is
// (o+a+b+c)/4 and whose second moment about o is
// V/20 · (Σ pᵢpᵢᵀ + (Σ pᵢ)(Σ pᵢ)ᵀ) over its vertices p relative to o
// (Tonon 2004, "Explicit exact formulas for the 3-D tetrahedron inertia
// tensor"; mechanics notes §0.1 for the shift). Summed over a closed,
// consistently oriented mesh the signed tetrahedra add up to the solid; the
// reference point is the mean of the triangles' corners, which keeps round-off small. The
// inertia about the centre of mass is tr(C)·1 − C with C the second moment
// shifted by the parallel-axis theorem.
//
// A mesh wound inward (negative total volume) is taken with its
// orientation reversed, as MuJoCo does. An open or inconsistently oriented
// mesh gives a volume that is not the solid's: MassProperties returns an
// error when the volume is not positive or is below 1e-12 of the bounding
// box's, and when the inertia is not positive definite.
func (m *Mesh) MassProperties() (Props, error) {
	if err := m.Validate(); err != nil {
		return Props{}, err
	}
	var o spatial.Vec3
	for _, t := range m.Triangles {
		o = o.Add(m.Vertices[t[0]]).Add(m.Vertices[t[1]]).Add(m.Vertices[t[2]])
	}
	o = o.Scale(1 / float64(3*len(m.Triangles)))
	var vol float64
	var first spatial.Vec3 // Σ V·(a+b+c)/4, relative to o
	var C spatial.Mat3     // Σ second moments about o
	for _, t := range m.Triangles {
		a, b, c := m.Vertices[t[0]].Sub(o), m.Vertices[t[1]].Sub(o), m.Vertices[t[2]].Sub(o)
		v := a.Dot(b.Cross(c)) / 6
		vol += v
		s := a.Add(b).Add(c)
		first = first.AddScaled(v/4, s)
		C = C.Add(spatial.Outer(a, a).Add(spatial.Outer(b, b)).Add(spatial.Outer(c, c)).Add(spatial.Outer(s, s)).Scale(v / 20))
	}
	if vol < 0 {
		vol, first, C = -vol, first.Neg(), C.Scale(-1)
	}
	lo, hi := m.Bounds()
	ext := hi.Sub(lo)
	if !(vol > 1e-12*ext[0]*ext[1]*ext[2]) || vol == 0 {
		return Props{}, fmt.Errorf("mesh volume %g is not positive (is the mesh closed and consistently oriented?)", vol)
	}
	com := first.Scale(1 / vol)
	C = C.Sub(spatial.Outer(com, com).Scale(vol))
	tr := C[0][0] + C[1][1] + C[2][2]
	I := spatial.Identity3().Scale(tr).Sub(C)
	if !positiveDefinite(I) {
		return Props{}, fmt.Errorf("mesh inertia %v is not positive definite (is the mesh closed and consistently oriented?)", I)
	}
	return Props{Volume: vol, COM: com.Add(o), I: I}, nil
}

// positiveDefinite reports whether the symmetric matrix has a Cholesky
// factor and satisfies the triangle inequality of principal moments up to
// round-off.
func positiveDefinite(I spatial.Mat3) bool {
	if _, ok := I.Cholesky(); !ok {
		return false
	}
	return !math.IsNaN(I.FrobeniusNorm())
}
