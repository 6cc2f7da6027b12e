package experiment

import (
	"fmt"
	"math"

	"github.com/stiction-sim/stiction/constraint"
	"github.com/stiction-sim/stiction/contact"
	"github.com/stiction-sim/stiction/multibody"
	"github.com/stiction-sim/stiction/sim"
	"github.com/stiction-sim/stiction/solver/sap"
	"github.com/stiction-sim/stiction/spatial"
)

// PendulumRun is what a stiff-pendulum run measured.
type PendulumRun struct {
	Deviation  float64 // largest ‖g‖ of the bob's pivot point from the world pivot, m
	EnergyGain float64 // largest rise of the mechanical energy above the initial one, J
	EnergyLoss float64 // largest fall below it, J
}

// StiffPendulum runs Drumwright's Fig. 4 pendulum for T seconds with scheme
// sc and step h: a free bob (1 kg, a small sphere of radius 1 cm, its
// centre L = 1 m from the pivot) held to the world pivot by a ball
// constraint of stiffness k = 1e15 N/m and dissipation τd = 1/k (damping
// b = 1 N·s/m), released horizontally at rest. configure, when not nil,
// adjusts the configuration (SAP and the default contact model) before the
// simulator is made, e.g. to run it under Drumwright's solver.
func StiffPendulum(sc sim.Scheme, h, T float64, configure func(*sim.Config)) (PendulumRun, error) {
	m := &multibody.Model{Gravity: spatial.Vec3{0, 0, -gravity}}
	i := 0.4 * 1e-4
	bob, err := m.AddFreeBody("bob", spatial.SpatialInertia{Mass: 1, Icom: spatial.Diag3(spatial.Vec3{i, i, i})})
	if err != nil {
		return PendulumRun{}, fmt.Errorf("experiment: stiff pendulum: %w", err)
	}
	s := m.NewState()
	m.SetFreeBodyPose(s, bob, spatial.Pose{R: spatial.QuatIdentity(), P: spatial.Vec3{1, 0, 0}})
	set := &constraint.Set{Balls: []constraint.Ball{{Name: "pivot", BodyA: -1, BodyB: bob, PointB: spatial.Vec3{-1, 0, 0},
		Compliance: constraint.Compliance{Stiffness: 1e15, Dissipation: 1 / 1e15}}}}
	cfg := sim.Config{DT: h, Contact: contact.DefaultParams(), Solver: sap.New(sap.DefaultParams()), Scheme: sc, Constraints: set}
	if configure != nil {
		configure(&cfg)
	}
	sm, err := sim.New(m, s, cfg)
	if err != nil {
		return PendulumRun{}, fmt.Errorf("experiment: stiff pendulum: %w", err)
	}
	e0 := m.KineticEnergy(s) + sm.PotentialEnergy()
	var r PendulumRun
	for range int(math.Round(T / h)) {
		sts, err := Steps(sm, 1)
		if err != nil {
			return r, fmt.Errorf("experiment: stiff pendulum, %s, h = %g: %w", sc.Name, h, err)
		}
		for _, rep := range sm.ConstraintReports() {
			if rep.Name == "pivot" {
				r.Deviation = math.Max(r.Deviation, rep.Violation)
			}
		}
		e := sts[0].KineticEnergy + sts[0].PotentialEnergy - e0
		r.EnergyGain, r.EnergyLoss = math.Max(r.EnergyGain, e), math.Max(r.EnergyLoss, -e)
	}
	return r, nil
}
