package validate

import (
	"fmt"
	"math"
	"time"

	"github.com/stiction-sim/stiction/constraint"
	"github.com/stiction-sim/stiction/contact"
	"github.com/stiction-sim/stiction/internal/experiment"
	"github.com/stiction-sim/stiction/multibody"
	"github.com/stiction-sim/stiction/scene"
	"github.com/stiction-sim/stiction/sim"
	"github.com/stiction-sim/stiction/solver"
	"github.com/stiction-sim/stiction/solver/drumwright"
	"github.com/stiction-sim/stiction/spatial"
)

// The scenes of Drumwright's paper as the claims of drumwright.go run them
// (the same scenes as sim/drumwright_*_test.go). Every one uses his purely
// compliant constraint model: contact β = 1e-6, so that SAP eq. 29's
// near-rigid bound lies far below each compliant R = 1/(h(hk + b)).

const dwGravity = 9.81

// dwSolver returns Drumwright's solver for time step h.
func dwSolver(h float64) solver.Solver { return drumwright.New(drumwright.DefaultParams(h)) }

// dwConfig returns a configuration with solver sv (nil: Drumwright's) and
// the purely compliant model.
func dwConfig(h float64, sv solver.Solver, set *constraint.Set) sim.Config {
	if sv == nil {
		sv = dwSolver(h)
	}
	c := sim.Config{DT: h, Contact: contact.DefaultParams(), Solver: sv, Constraints: set}
	c.Contact.Beta = 1e-6
	return c
}

// dwSteps takes n steps and returns an error for a failed or non-converged
// step.
func dwSteps(s *sim.Simulator, n int, each func(sim.StepStats)) error {
	for range n {
		st, err := s.Step()
		if err != nil {
			return err
		}
		if st.Status != solver.Converged {
			return fmt.Errorf("step %d: solve %v", st.Step, st.Status)
		}
		if each != nil {
			each(st)
		}
	}
	return nil
}

// dwPointMass is a 1 kg point-like body (small isotropic inertia).
func dwPointMass(com spatial.Vec3) spatial.SpatialInertia {
	i := 0.4 * 1e-4
	return spatial.SpatialInertia{Mass: 1, Com: com, Icom: spatial.Diag3(spatial.Vec3{i, i, i})}
}

func dwAt(x, y, z float64) spatial.Pose {
	return spatial.Pose{R: spatial.QuatIdentity(), P: spatial.Vec3{x, y, z}}
}

// stiffPendulumDeviation runs Fig. 4 (internal/experiment.StiffPendulum:
// free bob, L = 1 m, point coupler of k = 1e15 N/m and b = 1 N·s/m,
// released horizontally, 1 s) under Drumwright's solver and the purely
// compliant model, and returns the largest deviation from the pivot and
// the largest energy gain.
func stiffPendulumDeviation(h float64) (dev, gain float64, err error) {
	r, err := experiment.StiffPendulum(sim.SymplecticEuler, h, 1, func(c *sim.Config) { *c = dwConfig(h, nil, c.Constraints) })
	return r.Deviation, r.EnergyGain, err
}

// limitPendulum runs Fig. 6 (1 kg at L = 1 m on a revolute joint, limit
// θ ≥ 0 of k = 1e12, b = 0, released from θ = π/2, 2 s) and returns the
// largest energy rise, the largest penetration, its bound ω_max h and the
// swing energy left over m g L.
func limitPendulum(h float64) (rise, pen, bound, swing float64, err error) {
	m := &multibody.Model{Gravity: spatial.Vec3{0, 0, -dwGravity}}
	b, err := m.AddBody("arm", dwPointMass(spatial.Vec3{0, 0, -1}), multibody.Joint{Type: multibody.JointRevolute, Parent: -1,
		ParentFrame: dwAt(0, 0, 2), ChildFrame: spatial.PoseIdentity(), Axis: spatial.Vec3{0, 1, 0}})
	if err != nil {
		return 0, 0, 0, 0, err
	}
	s := m.NewState()
	s.Q[0] = math.Pi / 2
	set := &constraint.Set{Limits: []constraint.Limit{{Name: "limit", Body: b, Lower: 0, Upper: math.Inf(1), Compliance: constraint.Compliance{Stiffness: 1e12}}}}
	sm, err := sim.New(m, s, dwConfig(h, nil, set))
	if err != nil {
		return 0, 0, 0, 0, err
	}
	e0 := m.KineticEnergy(s) + sm.PotentialEnergy()
	speed := 0.0
	err = dwSteps(sm, int(math.Round(2/h)), func(st sim.StepStats) {
		rise = math.Max(rise, st.KineticEnergy+st.PotentialEnergy-e0)
		pen = math.Max(pen, -sm.State.Q[0])
		speed = math.Max(speed, math.Abs(sm.State.V[0]))
	})
	swing = (m.KineticEnergy(sm.State) + sm.PotentialEnergy() - (e0 - dwGravity)) / dwGravity
	return rise, pen, speed * h, swing, err
}

// dwBuild parses YAML or loads an embedded scene with the overrides, sets
// the purely compliant model and returns the built scene.
func dwBuild(name string, yaml []byte, sets ...string) (*scene.Built, error) {
	sets = append([]string{"contact.beta=1e-6"}, sets...)
	var sc *scene.Scene
	var err error
	if yaml != nil {
		sc, err = scene.Parse(name, yaml, sets)
	} else {
		sc, err = scene.Load(name, sets)
	}
	if err != nil {
		return nil, err
	}
	return scene.Build(sc)
}

// inclineSlide runs Fig. 9: the incline scene (1 kg box, 15°) with the
// paper's parameters (k = 1e10 N/m, b = 1 N·s/m, R_t from σ = 1e-6,
// h = 0.01 s) for 1 s at friction mu and returns the distance travelled.
func inclineSlide(mu float64) (float64, error) {
	b, err := dwBuild("incline", nil, fmt.Sprintf("materials.default.friction=%g", mu),
		"materials.default.stiffness=1e10", "materials.default.dissipation=1e-10", "contact.sigma=1e-6")
	if err != nil {
		return 0, err
	}
	b.Config.Solver = dwSolver(b.Config.DT)
	s, err := sim.New(b.Model, b.State, b.Config)
	if err != nil {
		return 0, err
	}
	box := b.Model.BodyByName("box")
	x0 := b.Model.BodyPose(s.State, box).P
	if err := dwSteps(s, 100, nil); err != nil {
		return 0, err
	}
	return b.Model.BodyPose(s.State, box).P.Sub(x0).Norm(), nil
}

// sphereStack runs Fig. 10: n spheres (r = 5 cm, 1000 kg/m³, E = 1e11,
// b = 1 N·s/m, μ = 0.5) 1 mm apart in mid-air, 500 steps of 10 ms, and
// returns the largest off-axis distance, height error from (2i + 1) r,
// final speed and the wall time.
func sphereStack(n int) (off, dz, speed float64, wall time.Duration, err error) {
	b, err := dwBuild("stack.yaml", experiment.SphereStackYAML(n))
	if err != nil {
		return 0, 0, 0, 0, err
	}
	b.Config.Solver = dwSolver(b.Config.DT)
	s, err := sim.New(b.Model, b.State, b.Config)
	if err != nil {
		return 0, 0, 0, 0, err
	}
	start := time.Now()
	if err := dwSteps(s, 500, nil); err != nil {
		return 0, 0, 0, 0, err
	}
	wall = time.Since(start)
	for i := range n {
		p := b.Model.BodyPose(s.State, b.Model.BodyByName(fmt.Sprintf("s%d", i))).P
		off = math.Max(off, math.Hypot(p[0], p[1]))
		dz = math.Max(dz, math.Abs(p[2]-0.05*float64(2*i+1)))
	}
	for _, v := range s.State.V {
		speed = math.Max(speed, math.Abs(v))
	}
	return off, dz, speed, wall, nil
}
