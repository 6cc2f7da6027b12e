package record

import (
	"math"

	"github.com/stiction-sim/stiction/sim"
	"github.com/stiction-sim/stiction/spatial"
)

// Scene writes dir/scene.json, the description of the bodies and their
// shapes (see DescribeScene).
func (w *Writer) Scene(sc SceneJSON) error { return WriteScene(w.dir, sc) }

// ContactForce returns the world-frame force (γt1 t1 + γt2 t2 + γn n̂)/dt of
// the impulse g = (γt1, γt2, γn) in the contact frame of normal n, where
// t1, t2 = spatial.Orthonormal(n).
func ContactForce(n spatial.Vec3, g []float64, dt float64) spatial.Vec3 {
	t1, t2 := spatial.Orthonormal(n)
	return t1.Scale(g[0]).AddScaled(g[1], t2).AddScaled(g[2], n).Scale(1 / dt)
}

// StepValues returns the values of one steps.csv row, in the order of
// StepsHeader, with NaN for the status column.
func StepValues(st sim.StepStats) []float64 {
	return []float64{st.T, float64(st.Iterations), float64(st.LineSearchIterations), st.MomentumError,
		st.ComplementarityError, float64(st.Contacts), st.MaxPenetration, st.KineticEnergy,
		st.PotentialEnergy, math.NaN(), st.MaxSlip}
}
