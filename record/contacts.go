package record

import (
	"math"
	"strconv"

	"github.com/stiction-sim/stiction/contact"
	"github.com/stiction-sim/stiction/multibody"
	"github.com/stiction-sim/stiction/sim"
	"github.com/stiction-sim/stiction/spatial"
)

// Scene writes dir/scene.json, the description of the bodies and their
// shapes (see DescribeScene).
func (w *Writer) Scene(sc SceneJSON) error { return WriteScene(w.dir, sc) }

// Contacts writes one row of contacts.csv per contact of the step that ended
// at time t: the pairs and their impulses γ (t1, t2, n per contact, as
// returned by sim.Simulator.Contacts and Impulses), and the world-frame
// force γ/dt that A exerts on B.
func (w *Writer) Contacts(t, dt float64, m *multibody.Model, pairs []contact.Pair, gamma []float64) {
	for i, p := range pairs {
		g := gamma[3*i : 3*i+3]
		f := ContactForce(p.Normal, g, dt)
		w.buf = strconv.AppendFloat(w.buf[:0], t, 'g', -1, 64)
		w.buf = append(w.buf, ',')
		w.buf = append(w.buf, m.Bodies[p.BodyA].Name...)
		w.buf = append(w.buf, ',')
		w.buf = append(w.buf, m.Bodies[p.BodyB].Name...)
		for _, c := range [...]float64{p.Point[0], p.Point[1], p.Point[2], p.Normal[0], p.Normal[1], p.Normal[2], p.Phi, g[0], g[1], g[2], f[0], f[1], f[2]} {
			w.num(c)
		}
		w.buf = append(w.buf, '\n')
		w.contacts.Write(w.buf)
	}
}

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
