package mjcf

import (
	"math"

	"github.com/stiction-sim/stiction/geometry"
	"github.com/stiction-sim/stiction/geometry/mjccd"
	"github.com/stiction-sim/stiction/scene"
	"github.com/stiction-sim/stiction/spatial"
)

// mujocoCollisionMesh returns the mesh of mesh geom view v (shape sh) as
// MuJoCo 2.2.2 compiles it for its convex collider (package
// geometry/mjccd, used for MJCF's soft contacts: contact.collider
// "mujoco"), once per mesh asset: the vertices centred on MuJoCo's centre
// of mass (meshCompile) and turned into its principal frame,
// float(R(q̄)·v) as mjCMesh::Process does (mjuu_quat2mat of the
// conjugate of mju_eig3's quaternion, mjuu_mulvecmat), that frame's pose
// in the mesh's own frame, and geom_rbound (the norm of the largest
// |coordinate| per axis, mjCGeom::GetRBound), and MuJoCo's vertex graph
// (mjCMesh::MakeGraph, mesh_graph) where qhullCollisionGraph reproduces
// it for sure: vertex-only meshes whose hull has merged (coplanar) faces,
// such as the collision_convex boxes and prisms; the collider then climbs
// the graph for the support (mjccd_support) as MuJoCo does. Other meshes
// get no graph and the exhaustive vertex search, which MuJoCo uses for
// meshes without a graph. Nil when the mass properties fail (the pair
// then keeps Stiction's narrow phase).
func (c *compiler) mujocoCollisionMesh(v view, sh *scene.Shape) *geometry.MuJoCoMesh {
	name := v.str("mesh", "")
	if m, ok := c.mjMeshes[name]; ok {
		return m
	}
	if c.mjMeshes == nil {
		c.mjMeshes = map[string]*geometry.MuJoCoMesh{}
	}
	p, verts, graph, err := c.meshCompile(v, sh, false)
	if err != nil {
		c.mjMeshes[name] = nil
		return nil
	}
	q := p.Quat
	R := quat2Mat(mjQuat{q[0], -q[1], -q[2], -q[3]})
	out := make([]float32, 0, 3*len(verts))
	var aabb [3]float64
	for _, vt := range verts {
		x := [3]float64{float64(vt[0]), float64(vt[1]), float64(vt[2])}
		for i := range 3 {
			f := float32(R[3*i]*x[0] + R[3*i+1]*x[1] + R[3*i+2]*x[2])
			out = append(out, f)
			aabb[i] = math.Max(aabb[i], math.Abs(float64(f)))
		}
	}
	m := &geometry.MuJoCoMesh{
		Data:   mjccd.MeshData{Vert: out, Graph: graph},
		Frame:  spatial.Pose{R: spatial.Quat{W: q[0], X: q[1], Y: q[2], Z: q[3]}, P: p.COM},
		RBound: math.Sqrt(aabb[0]*aabb[0] + aabb[1]*aabb[1] + aabb[2]*aabb[2]),
	}
	c.mjMeshes[name] = m
	return m
}
