package main

import (
	"fmt"
	"math"
	"strings"

	"github.com/stiction-sim/stiction/geometry"
	"github.com/stiction-sim/stiction/multibody"
	"github.com/stiction-sim/stiction/scene"
	"github.com/stiction-sim/stiction/sim"
)

// stepWarnings returns a warning for every free body that can cross more
// than its own smallest size in one step of b: its speed is bounded by its
// initial speed plus the speed of a fall from its height above the lowest
// body of the scene, √(2 g h). A step that long lets bodies pass through
// each other or sink deep into contact before any contact is detected.
// (Stiff contact itself needs no small δt: SAP's near-rigid regime handles
// contact periods far below δt, SAP §V-B.)
func stepWarnings(b *scene.Built) []string {
	m, s, dt := b.Model, b.State, b.Config.DT
	size := bodySizes(m)
	floor := math.Inf(1)
	for i := range m.Bodies {
		floor = math.Min(floor, m.BodyPose(s, i).P[2])
	}
	g := m.Gravity.Norm()
	var out []string
	for i, body := range m.Bodies {
		if body.Tree < 0 || !(size[i] > 0) || math.IsInf(size[i], 0) {
			continue
		}
		w, v := m.BodyVelocity(s, i)
		h := math.Max(0, m.BodyPose(s, i).P[2]-floor)
		speed := v.Norm() + w.Norm()*size[i]/2 + math.Sqrt(2*g*h)
		if reach := speed * dt; reach > size[i] {
			out = append(out, fmt.Sprintf("dt = %g s is too large for body %q: at up to %.3g m/s it can move %.3g m in one step, more than its size %.3g m (use dt ≤ %.2g s)",
				dt, body.Name, speed, reach, size[i], size[i]/speed))
		}
	}
	if len(out) > 3 {
		out = append(out[:3], fmt.Sprintf("and %d more bodies can move more than their size in one step at dt = %g s", len(out)-3, dt))
	}
	if w := rk4Warning(b); w != "" {
		out = append(out, w)
	}
	return out
}

// rk4Warning warns, once before the run, that scheme rk4 takes the steps
// that have contacts or acting constraints with mujoco-euler (sim.RK4):
// only when the constraint set has attachments or prescribed motions,
// whose eliminated velocities the stages cannot take, and two geometries
// may touch (multibody.Model.Collidable), constraints act from the start
// (equalities, friction loss, implicit actuators, a limit already passed:
// constraint.Set.NeedsSolve) or the run has limits. Otherwise rk4 solves
// contacts and constraints at every stage, as MuJoCo's RK4, and does not
// warn. "" otherwise.
func rk4Warning(b *scene.Built) string {
	cons := b.Config.Constraints
	if b.Config.Scheme.Method != sim.RungeKutta4 || cons == nil || len(cons.Attachments)+len(cons.Prescribed) == 0 {
		return ""
	}
	var why []string
	if n := collidablePairs(b.Model); n > 0 {
		why = append(why, fmt.Sprintf("%d pairs of geometries that may touch (the steps with contacts)", n))
	}
	switch {
	case cons.NeedsSolve(b.Model, b.State.Q):
		why = append(why, "constraints that act from the start (equalities, friction loss, implicit actuators or a limit already passed)")
	case len(cons.Limits)+len(cons.TendonLimits) > 0:
		why = append(why, "limits (the steps that reach one)")
	}
	if len(why) == 0 {
		return ""
	}
	return fmt.Sprintf("scheme rk4 cannot solve contacts and constraints at its stages with attachments or prescribed motions; this model has %s: those steps are taken with mujoco-euler (sim.StepStats.RK4Fallback)", strings.Join(why, " and "))
}

// collidablePairs returns the number of geometry pairs the model's
// collision filters let touch.
func collidablePairs(m *multibody.Model) int {
	n := 0
	for i := range m.Geometries {
		for j := i + 1; j < len(m.Geometries); j++ {
			if m.Collidable(i, j) {
				n++
			}
		}
	}
	return n
}

// bodySizes returns, per body, the smallest extent of its geometries (the
// diameter of a sphere or capsule, the smallest edge of a box); +Inf for a
// body with no finite geometry.
func bodySizes(m *multibody.Model) []float64 {
	size := make([]float64, len(m.Bodies))
	for i := range size {
		size[i] = math.Inf(1)
	}
	for _, g := range m.Geometries {
		if d := minExtent(g.Shape); d > 0 {
			size[g.Body] = math.Min(size[g.Body], d)
		}
	}
	return size
}

// minExtent returns the smallest extent of a shape; 0 for a half-space.
func minExtent(s geometry.Shape) float64 {
	switch s.Kind {
	case geometry.Sphere, geometry.Capsule, geometry.Cylinder:
		d := 2 * s.Radius
		if s.Kind == geometry.Cylinder {
			d = math.Min(d, 2*s.HalfLength)
		}
		return d
	case geometry.Box:
		h := s.HalfExtents
		return 2 * math.Min(h[0], math.Min(h[1], h[2]))
	}
	return 0
}
