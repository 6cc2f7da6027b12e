package record

import (
	"fmt"
	"math"

	"github.com/stiction-sim/stiction/contact"
	"github.com/stiction-sim/stiction/forces"
	"github.com/stiction-sim/stiction/geometry"
	"github.com/stiction-sim/stiction/multibody"
	"github.com/stiction-sim/stiction/sim"
	"github.com/stiction-sim/stiction/spatial"
)

// EnergyMargin is how far the total energy KE + PE of a passive system
// (Passive) may rise above its initial value before a step is invalid, as a
// fraction of the initial state's energy scale max(KE₀ + |PE₀|, Σ m‖g‖·1 m,
// 1 J) (the scale of NewGuard).
const EnergyMargin = 0.5

// Validity detects steps whose result is physically invalid although every
// number is finite (docs/OUTPUT.md, "Invalid steps"):
//   - a contact deeper than the smaller of its two geometries' sizes
//     (GeometrySize), at the start of a step (φ0 of the step's contacts);
//   - the centre of a geometry of a moving body deeper below a half-space
//     it can collide with than the geometry's size, at the end of a step;
//   - the total energy of a passive system (Passive) rising above its
//     initial value by more than EnergyMargin times the energy scale.
//
// Check does not allocate unless it fails.
type Validity struct {
	model *multibody.Model
	size  []float64 // per geometry: GeometrySize
	// floors are the (half-space, moving geometry) pairs that may collide,
	// as indices into halves and movers; planes and centres are their
	// scratch: each half-space's world normal and offset n·x, each moving
	// geometry's world centre.
	floors  [][2]int32
	halves  []int32
	movers  []int32
	planes  []plane
	centres []spatial.Vec3
	// maxEnergy is the limit on KE + PE; +Inf for a system that is not
	// passive.
	maxEnergy float64
}

// InvalidError says at which step and why a run's result became
// physically invalid; its message, like DivergedError's, gives the time
// and the reason.
type InvalidError struct{ DivergedError }

// NewValidity returns the validity check of a run of m with configuration
// cfg from state s, whose potential energy is pe0; energy false leaves the
// energy rule out.
func NewValidity(m *multibody.Model, cfg *sim.Config, s *multibody.State, pe0 float64, energy bool) *Validity {
	v := &Validity{model: m, size: make([]float64, len(m.Geometries)), maxEnergy: math.Inf(1)}
	for i, g := range m.Geometries {
		v.size[i] = GeometrySize(g.Shape)
	}
	v.findFloors()
	if energy && Passive(cfg) {
		e0 := m.KineticEnergy(s) + pe0
		v.maxEnergy = e0 + EnergyMargin*energyScale(m, s, pe0)
	}
	return v
}

// GeometrySize is the size of a shape that a contact may not penetrate
// deeper than: the smallest extent of its bounding box in its own frame
// (the diameter of a sphere, capsule or ellipsoid's smallest axis, the
// smallest edge of a box); +Inf for a half-space or a height field.
func GeometrySize(s geometry.Shape) float64 {
	if s.Kind == geometry.HalfSpace || s.Kind == geometry.HeightField {
		return math.Inf(1)
	}
	b := s.AABB(spatial.Pose{R: spatial.Quat{W: 1}})
	d := b.Max.Sub(b.Min)
	size := math.Min(d[0], math.Min(d[1], d[2]))
	if !(size > 0) || math.IsInf(size, 0) {
		return math.Inf(1)
	}
	return size
}

// Passive reports whether a run with configuration cfg can only lose
// energy (up to its integrator's error): no actuators, attachments or
// prescribed motions among its constraints, and no force elements besides
// springs and dampers (an applied wrench or a joint motor does work).
func Passive(cfg *sim.Config) bool {
	if c := cfg.Constraints; c != nil && len(c.Actuators)+len(c.Attachments)+len(c.Prescribed) > 0 {
		return false
	}
	for _, f := range cfg.Forces {
		switch f.(type) {
		case forces.Gravity, *forces.Gravity, *forces.FrameSpring, *forces.JointSpringDamper, *forces.PathSpring, *forces.FixedTendon, *forces.SpatialTendon:
		default:
			return false
		}
	}
	return true
}

// Check returns an *InvalidError if the step that produced st, with the
// contacts pairs (at its start), and left s is invalid, and nil otherwise.
func (v *Validity) Check(st sim.StepStats, s *multibody.State, pairs []contact.Pair) error {
	if e := st.KineticEnergy + st.PotentialEnergy; e > v.maxEnergy {
		return v.fail(st, "the total energy %.6g J of a passive system exceeds its initial value plus the margin, %.6g J (record.EnergyMargin)", e, v.maxEnergy)
	}
	for i := range pairs {
		p := &pairs[i]
		if size := math.Min(v.size[p.GeomA], v.size[p.GeomB]); -p.Phi > size {
			return v.fail(st, "bodies %q and %q overlap by %.3g m at the start of the step, more than the smaller geometry's size %.3g m",
				v.model.Bodies[p.BodyA].Name, v.model.Bodies[p.BodyB].Name, -p.Phi, size)
		}
	}
	return v.checkFloors(st, s)
}

// plane is a half-space's boundary in the world: normal n (outward) and
// offset n·x of its points.
type plane struct {
	n spatial.Vec3
	d float64
}

// findFloors lists the pairs of a half-space and a geometry of a moving
// body, with a finite size, that may collide.
func (v *Validity) findFloors() {
	m := v.model
	mover := make(map[int]int32)
	for h, gh := range m.Geometries {
		if gh.Shape.Kind != geometry.HalfSpace {
			continue
		}
		k, n := int32(len(v.halves)), len(v.floors)
		for i, g := range m.Geometries {
			if m.Bodies[g.Body].Tree < 0 || math.IsInf(v.size[i], 1) || !m.Collidable(h, i) {
				continue
			}
			j, ok := mover[i]
			if !ok {
				j = int32(len(v.movers))
				mover[i] = j
				v.movers = append(v.movers, int32(i))
			}
			v.floors = append(v.floors, [2]int32{k, j})
		}
		if len(v.floors) > n {
			v.halves = append(v.halves, int32(h))
		}
	}
	v.planes, v.centres = make([]plane, len(v.halves)), make([]spatial.Vec3, len(v.movers))
}

// checkFloors checks the depth of every moving geometry's centre below the
// half-spaces it can collide with.
func (v *Validity) checkFloors(st sim.StepStats, s *multibody.State) error {
	m := v.model
	for k, h := range v.halves {
		g := &m.Geometries[h]
		x := m.BodyPose(s, g.Body).Compose(g.Pose)
		n := x.R.Rotate(spatial.Vec3{0, 0, 1})
		v.planes[k] = plane{n: n, d: n.Dot(x.P)}
	}
	for j, i := range v.movers {
		g := &m.Geometries[i]
		v.centres[j] = m.BodyPose(s, g.Body).Apply(g.Pose.P)
	}
	for _, f := range v.floors {
		p, c := v.planes[f[0]], v.centres[f[1]]
		if depth := p.d - p.n.Dot(c); depth > v.size[v.movers[f[1]]] {
			h, g := &m.Geometries[v.halves[f[0]]], &m.Geometries[v.movers[f[1]]]
			return v.fail(st, "body %q is %.3g m below a half-space of body %q, more than its geometry's size %.3g m",
				m.Bodies[g.Body].Name, depth, m.Bodies[h.Body].Name, v.size[v.movers[f[1]]])
		}
	}
	return nil
}

func (v *Validity) fail(st sim.StepStats, format string, a ...any) error {
	return &InvalidError{DivergedError{Step: st.Step, T: st.T, Reason: fmt.Sprintf(format, a...)}}
}

// energyScale is max(KE₀ + |PE₀|, Σ mᵢ‖g‖·(1 m), 1 J) of the initial state s.
func energyScale(m *multibody.Model, s *multibody.State, pe0 float64) float64 {
	weight := 0.0
	for _, b := range m.Bodies {
		if b.Tree >= 0 {
			weight += b.Inertia.Mass * m.Gravity.Norm()
		}
	}
	return max(m.KineticEnergy(s)+math.Abs(pe0), weight*1, 1)
}
