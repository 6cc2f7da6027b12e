package sim

import (
	"github.com/stiction-sim/stiction/contact"
	"github.com/stiction-sim/stiction/geometry"
	"github.com/stiction-sim/stiction/multibody"
	"github.com/stiction-sim/stiction/solver"
	"github.com/stiction-sim/stiction/spatial"
)

// Workspace is the scratch memory of a Simulator, reused from step to step.
type Workspace struct {
	// geometry
	poses []spatial.Pose  // world pose of every geometry at q0
	boxes []geometry.AABB // their bounding boxes, inflated by the margin
	broad geometry.BroadPhase
	cand  [][2]int32         // broad-phase candidate pairs
	hits  []geometry.Contact // narrow-phase output of one pair
	pairs []contact.Pair     // the step's contacts

	// dynamics and contact problem
	bias     []float64 // gravity − gyroscopic terms, length NV
	factor   solver.CliqueFactor
	assemble contact.Assembler
	problem  solver.Problem
	result   solver.Result
}

func (w *Workspace) init(m *multibody.Model) {
	w.poses = make([]spatial.Pose, len(m.Geometries))
	w.boxes = make([]geometry.AABB, len(m.Geometries))
	w.bias = make([]float64, m.NV)
}
