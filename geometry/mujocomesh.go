package geometry

import (
	"github.com/stiction-sim/stiction/geometry/mjccd"
	"github.com/stiction-sim/stiction/spatial"
)

// MuJoCoMesh is a hull's mesh as MuJoCo 2.2.2 compiled it, for MuJoCo's
// own convex collider (package geometry/mjccd): its single-precision
// vertices and vertex graph in MuJoCo's mesh frame, that frame's pose in
// the hull's frame (MuJoCo moves a mesh to its centre of mass and
// principal axes), and MuJoCo's geom_rbound.
type MuJoCoMesh struct {
	Data   mjccd.MeshData
	Frame  spatial.Pose
	RBound float64
}

// SetMuJoCo attaches MuJoCo's compiled mesh to h (MJCF import, at build
// time, before h is shared).
func (h *Hull) SetMuJoCo(m *MuJoCoMesh) { h.mujoco = m }

// MuJoCo returns the MuJoCo mesh attached by SetMuJoCo, or nil.
func (h *Hull) MuJoCo() *MuJoCoMesh {
	if h == nil {
		return nil
	}
	return h.mujoco
}
