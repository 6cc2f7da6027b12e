package constraint

import (
	"errors"
	"fmt"
	"math"

	"github.com/stiction-sim/stiction/multibody"
)

// Set is the static list of constraints and actuators of a simulation
// (besides contact). Body indices are model body indices, −1 for the world;
// a degree of freedom DOF is the index of a velocity in its body's joint
// (0 ≤ DOF < JointType.NV()). A Set does not change while a simulation
// runs; the simulator keeps the time-varying control inputs.
type Set struct {
	Limits      []Limit
	Cones       []ConeLimit
	Welds       []Weld
	Balls       []Ball
	Distances   []Distance
	Couplers    []Coupler
	Actuators   []Actuator
	Frictions   []JointFriction
	Attachments []Attachment
	Prescribed  []Prescribed
	// TendonLimits bound fixed tendons' lengths (tendon.go).
	TendonLimits []TendonLimit
}

// Empty reports whether the set holds nothing.
func (s *Set) Empty() bool {
	return s == nil || len(s.Limits)+len(s.Cones)+len(s.Welds)+len(s.Balls)+len(s.Distances)+len(s.Couplers)+
		len(s.Actuators)+len(s.Frictions)+len(s.Attachments)+len(s.Prescribed)+len(s.TendonLimits) == 0
}

// Rows returns the number of problem rows the set adds per step (its
// blocks are added every step, active or not, so the problem keeps its
// shape).
func (s *Set) Rows() int {
	n := 0
	for _, l := range s.Limits {
		if !math.IsInf(l.Lower, -1) {
			n++
		}
		if !math.IsInf(l.Upper, 1) {
			n++
		}
	}
	for _, l := range s.TendonLimits {
		if !math.IsInf(l.Lower, -1) {
			n++
		}
		if !math.IsInf(l.Upper, 1) {
			n++
		}
	}
	return n + len(s.Cones) + 6*len(s.Welds) + 3*len(s.Balls) + len(s.Distances) + len(s.Couplers) + len(s.Actuators) + len(s.Frictions)
}

// ActuatorIndex returns the index of the actuator called name, or −1.
func (s *Set) ActuatorIndex(name string) int {
	for i, a := range s.Actuators {
		if a.Name == name {
			return i
		}
	}
	return -1
}

// ExcludeCollisions tells m not to collide the bodies that welds, balls and
// attachments join (they touch by design). Call it while building the model.
func (s *Set) ExcludeCollisions(m *multibody.Model) {
	for _, w := range s.Welds {
		m.ExcludeCollision(w.BodyA, w.BodyB)
	}
	for _, b := range s.Balls {
		m.ExcludeCollision(b.BodyA, b.BodyB)
	}
	for _, a := range s.Attachments {
		m.ExcludeCollision(a.Master, a.Body)
	}
}

// errf formats a constraint error.
func errf(format string, args ...any) error { return fmt.Errorf(format, args...) }

// Validate checks every item against model m: bodies and degrees of freedom
// that exist, joint types that the item acts on, finite numbers, ordered
// bounds, positive gains and lengths, attachments that form a forest and
// bodies attached or prescribed at most once. Errors name the item by list
// and index (and name).
func (s *Set) Validate(m *multibody.Model) error {
	if s == nil {
		return nil
	}
	var errs []error
	check := func(list string, i int, name string, err error) {
		if err != nil {
			if name != "" {
				list += fmt.Sprintf("[%d] %q", i, name)
			} else {
				list += fmt.Sprintf("[%d]", i)
			}
			errs = append(errs, fmt.Errorf("constraint: %s: %w", list, err))
		}
	}
	for i := range s.Limits {
		check("Limits", i, s.Limits[i].Name, s.Limits[i].validate(m))
	}
	for i := range s.Cones {
		check("Cones", i, s.Cones[i].Name, s.Cones[i].validate(m))
	}
	for i := range s.Welds {
		check("Welds", i, s.Welds[i].Name, s.Welds[i].validate(m))
	}
	for i := range s.Balls {
		check("Balls", i, s.Balls[i].Name, s.Balls[i].validate(m))
	}
	for i := range s.Distances {
		check("Distances", i, s.Distances[i].Name, s.Distances[i].validate(m))
	}
	for i := range s.Couplers {
		check("Couplers", i, s.Couplers[i].Name, s.Couplers[i].validate(m))
	}
	for i := range s.Actuators {
		check("Actuators", i, s.Actuators[i].Name, s.Actuators[i].validate(m))
	}
	for i := range s.Frictions {
		check("Frictions", i, s.Frictions[i].Name, s.Frictions[i].validate(m))
	}
	for i := range s.TendonLimits {
		check("TendonLimits", i, s.TendonLimits[i].Name, s.TendonLimits[i].validate(m))
	}
	errs = append(errs, s.validateElimination(m)...)
	return errors.Join(errs...)
}

// body checks a body index (−1, the world, when world is true).
func body(m *multibody.Model, b int, world bool) error {
	if (world && b == -1) || (b >= 0 && b < len(m.Bodies)) {
		return nil
	}
	return errf("body %d does not exist (model has %d bodies)", b, len(m.Bodies))
}

// scalarDOF checks that body b has a joint with one coordinate per degree
// of freedom (revolute, prismatic, planar, universal) and that dof is one
// of them, and returns the coordinate and velocity indices in q and v.
func scalarDOF(m *multibody.Model, b, dof int) (qi, vi int, err error) {
	if err := body(m, b, false); err != nil {
		return 0, 0, err
	}
	bd := &m.Bodies[b]
	t := bd.Joint.Type
	if bd.Tree < 0 || (t != multibody.JointRevolute && t != multibody.JointPrismatic && t != multibody.JointPlanar && t != multibody.JointUniversal && t != multibody.JointCompound) {
		return 0, 0, errf("body %q has a %s joint; this needs a revolute, prismatic, planar, universal or compound joint", bd.Name, t)
	}
	if dof < 0 || dof >= bd.Joint.NV() {
		return 0, 0, errf("dof %d is not a degree of freedom of the %s joint of %q", dof, t, bd.Name)
	}
	qi = dof
	if t == multibody.JointCompound {
		if qi = bd.Joint.ScalarCoordinate(dof); qi < 0 {
			return 0, 0, errf("dof %d of the compound joint of %q belongs to a ball part; this needs a revolute or prismatic part", dof, bd.Name)
		}
	}
	return bd.QOff + qi, bd.VOff + dof, nil
}

// dofAt returns scalarDOF's coordinate and velocity indices for a body and
// degree of freedom that the set's validation has checked, without the
// checks: the per-step paths (assembly, explicit forces, tendon lengths)
// call it for every term of every step.
func dofAt(m *multibody.Model, b, dof int) (qi, vi int) {
	bd := &m.Bodies[b]
	qi = dof
	if bd.Joint.Type == multibody.JointCompound {
		qi = bd.Joint.ScalarCoordinate(dof)
	}
	return bd.QOff + qi, bd.VOff + dof
}

// finite reports whether every x is finite.
func finite(xs ...float64) bool {
	for _, x := range xs {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return false
		}
	}
	return true
}
