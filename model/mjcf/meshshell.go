package mjcf

import (
	"fmt"
	"math"

	"github.com/stiction-sim/stiction/scene"
	"github.com/stiction-sim/stiction/spatial"
)

// meshShellMass returns the mass properties per unit density of a mesh geom
// with shellinertia="true", as MuJoCo 2.2.2 computes them (mjCMesh::Process,
// its second pass with type mjSHELL_MESH; mjCGeom::GetVolume and
// SetInertia):
//
//   - the pass runs on the vertices as the volume pass leaves them: moved to
//     the volume's centre of mass and turned into its principal frame
//     (float);
//   - each triangle weighs its area a; the centre of mass is
//     Σ a · (3/4) c / Σ a with c the triangle's centre (the face centroid
//     term of the volume pass is zero in this pass);
//   - the products of inertia are density · a / 12 times the same float
//     bracket as the volume's (whose factor is 1/20), about the volume's
//     centre of mass;
//   - the principal moments (mju_eig3) give the equivalent inertia box.
//
// MuJoCo then places the geom's inertia at that centre and in that
// principal frame as offsets of the geom frame, and its mass is the density
// times the surface area under <compiler exactmeshinertia="true">, else
// times the volume's inertia box (GetVolume reads boxsz_volume either way).
func (c *compiler) meshShellMass(v view, sh *scene.Shape) (mjMeshProps, error) {
	vp, verts, _, err := c.meshCompile(v, sh, false)
	if err != nil {
		return mjMeshProps{}, err
	}
	p, err := mujocoShellMass(principalVerts(verts, vp.Quat), vp.Tris, c.meshDensity(v))
	if err != nil {
		return mjMeshProps{}, c.r.Errorf(v.e, "mesh", "shell inertia of %s: %v", meshLabel(sh), err)
	}
	if !c.exactMeshInertia {
		p.Volume = vp.BoxVolume
	}
	return p, nil
}

// principalVerts turns centred vertices into the volume's principal frame as
// mjCMesh::Process does: res = mat · vec with mat = quat2mat(q*) = Rᵀ
// (mjuu_mulvecmat multiplies the matrix by the vector), stored as float.
func principalVerts(verts []f32Vec, q mjQuat) []f32Vec {
	m := quat2Mat(mjQuat{q[0], -q[1], -q[2], -q[3]})
	out := make([]f32Vec, len(verts))
	for i, v := range verts {
		for k := range 3 {
			s := m[3*k]*float64(v[0]) + m[3*k+1]*float64(v[1]) + m[3*k+2]*float64(v[2])
			out[i][k] = float32(s)
		}
	}
	return out
}

// mujocoShellMass is the shell pass of mjCMesh::Process on verts (already
// centred and turned) and the mass properties it gives the geom: COM,
// Unit (the box's inertia per unit mass in the principal frame Quat) and
// Volume, the surface area.
func mujocoShellMass(verts []f32Vec, tris [][3]int32, density float64) (mjMeshProps, error) {
	var com spatial.Vec3
	var area float64
	for _, t := range tris {
		a, _, cen := areaNrmCen(verts[t[0]], verts[t[1]], verts[t[2]])
		area += a
		com = com.AddScaled(a, cen.Scale(3.0/4.0))
	}
	if area < mjMinVal {
		return mjMeshProps{}, fmt.Errorf("mesh surface area %g is too small", area)
	}
	com = com.Scale(1 / area)
	k := [6][2]int{{0, 0}, {1, 1}, {2, 2}, {0, 1}, {0, 2}, {1, 2}}
	var P [6]float64
	for _, t := range tris {
		D, E, F := verts[t[0]], verts[t[1]], verts[t[2]]
		a, _, _ := areaNrmCen(D, E, F)
		for j, kk := range k {
			P[j] += density * a / 12 * float64(productSum(D, E, F, kk[0], kk[1]))
		}
	}
	ev, q := mjEig3([9]float64{
		P[1] + P[2], -P[3], -P[4],
		-P[3], P[0] + P[2], -P[5],
		-P[4], -P[5], P[0] + P[1],
	})
	if ev[2] <= 0 || ev[0]+ev[1] < ev[2] || ev[0]+ev[2] < ev[1] || ev[1]+ev[2] < ev[0] {
		return mjMeshProps{}, fmt.Errorf("shell inertia's principal moments %v violate A + B ≥ C", ev)
	}
	mass := area * density
	b := [3]float64{
		math.Sqrt(6*(ev[1]+ev[2]-ev[0])/mass) / 2,
		math.Sqrt(6*(ev[0]+ev[2]-ev[1])/mass) / 2,
		math.Sqrt(6*(ev[0]+ev[1]-ev[2])/mass) / 2,
	}
	return mjMeshProps{Volume: area, COM: com, Unit: boxUnit(b, q), Quat: q}, nil
}

// boxUnit is the inertia per unit mass of a box of half-sizes b whose axes
// are the rotation of q: R diag((b_j² + b_k²)/3) Rᵀ (mjCGeom::SetInertia).
func boxUnit(b [3]float64, q mjQuat) spatial.Mat3 {
	d := [3]float64{(b[1]*b[1] + b[2]*b[2]) / 3, (b[0]*b[0] + b[2]*b[2]) / 3, (b[0]*b[0] + b[1]*b[1]) / 3}
	R := quat2Mat(q)
	var unit spatial.Mat3
	for i := range 3 {
		for j := range 3 {
			for k := range 3 {
				unit[i][j] += R[3*i+k] * d[k] * R[3*j+k]
			}
		}
	}
	return unit
}
