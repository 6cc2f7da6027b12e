package constraint

import (
	"math"

	"github.com/stiction-sim/stiction/multibody"
)

// What of a Set an explicit integrator (MuJoCo's RK4, sim.RungeKutta4) can
// take without a constraint solve. MuJoCo 2.2.2 makes a constraint row
// (efc row) for an equality, a DOF or tendon friction loss, a contact, and
// a joint or tendon limit only when its distance to the bound is below the
// margin (engine_core_constraint.c, mj_instantiateLimit: dist < margin,
// margin 0 here); actuator forces are not constraints there but
// qfrc_actuator, evaluated with the state of each RK4 stage
// (engine_forward.c, mj_RungeKutta calls mj_forwardSkip per stage).

// IsExplicit reports whether actuator ac's force is a function of the state
// alone (no implicit term): a motor, a general actuator whose velocity
// term is explicit (Explicit, or b2 ≥ 0), or a position or velocity
// actuator marked Explicit.
func (ac *Actuator) IsExplicit() bool {
	switch ac.Type {
	case Motor, Muscle:
		return true
	case General: // a gain that depends on l̇ makes f non-affine in v with dynamics or a varying u: explicit
		return ac.Explicit || !(-ac.Bias[2] > 0) || ac.GainAffine[1] != 0
	case Position, Velocity:
		return ac.Explicit
	}
	return false
}

// explicitForce is an explicit actuator's force for the control u and
// activation act at the length l and rate ld, before the effort bound: u
// (motor), g u + b0 + b1 l + b2 l̇ (general, g = gainAt(l, l̇); g act with dynamics), Kp (u − l) − Kd l̇
// (position), Kd (u − l̇) (velocity), Gain(l, l̇)·act + Bias(l) (muscle) —
// MuJoCo's actuator force (mj_fwdActuation).
func (ac *Actuator) explicitForce(u, act, l, ld float64) float64 {
	switch ac.Type {
	case Muscle:
		return ac.Muscle.force(l, ld, act)
	case General:
		return ac.gainAt(l, ld)*ac.drive(u, act) + ac.Bias[0] + ac.Bias[1]*l + ac.Bias[2]*ld
	case Position:
		return ac.Kp*(u-l) - ac.Kd*ld
	case Velocity:
		return ac.Kd * (u - ld)
	}
	return u
}

// NeedsSolve reports whether the set acts as a constraint in a step that
// starts at q0: whether it holds anything besides explicit actuators
// (Actuator.IsExplicit) and joint and fixed-tendon limits within their
// bounds at q0. When it does not, MuJoCo has no constraint row for it and
// its actuators' forces are ExplicitForces.
func (s *Set) NeedsSolve(m *multibody.Model, q0 []float64) bool {
	return s.NeedsSolveCached(m, q0, nil)
}

// NeedsSolveCached is NeedsSolve taking each joint limit's coordinate
// from lc (nil: found again, dofAt) where lc holds it for the same model,
// limit, body and degree of freedom: a compound joint's coordinate
// (multibody.Joint.ScalarCoordinate) is a call of some 50 instructions per
// limit and step (dm point_mass: two limits, BENCHMARKS.md sixty-fifth
// pass). lc keeps one entry per limit and checks it at every use, so a
// limit edited in place between steps is found again.
func (s *Set) NeedsSolveCached(m *multibody.Model, q0 []float64, lc *LimitCoords) bool {
	if s == nil {
		return false
	}
	if len(s.Cones)+len(s.Welds)+len(s.Balls)+len(s.Distances)+len(s.Couplers)+len(s.Frictions)+
		len(s.Attachments)+len(s.Prescribed) > 0 {
		return true
	}
	for i := range s.TendonLimits { // first: ball_in_cup's spatial tendon answers at once
		l := &s.TendonLimits[i] // in place: the loop copied each limit
		if l.Path != nil {
			return true // as for a spatial tendon's actuator
		}
		L, _ := TendonLength(m, l.Terms, q0, nil)
		if outside(L, l.Lower, l.Upper, l.Margin) {
			return true
		}
	}
	for i := range s.Actuators {
		if !s.Actuators[i].IsForce() {
			return true
		}
	}
	var keys []limitCoord // lc's answers for every limit of m, checked here in line (BENCHMARKS.md, seventy-third pass)
	if lc != nil && lc.model == m && len(lc.keys) >= len(s.Limits) {
		keys = lc.keys[:len(s.Limits)]
	}
	for i := range s.Limits {
		l := &s.Limits[i]
		qi, kept := 0, false
		if i < len(keys) {
			k := &keys[i]
			qi, kept = k.qi, k.body == l.Body && k.dof == l.DOF
		}
		if !kept {
			qi = lc.coord(m, i, l)
		}
		if outside(q0[qi], l.Lower, l.Upper, l.Margin) {
			return true
		}
	}
	return false
}

// LimitCoords keeps the coordinate index of each joint limit of a Set
// (Set.Limits, by index) for NeedsSolveCached, with the model, body and
// degree of freedom it was found for. The zero value is empty; the first
// use fills it (an allocation), later uses of the same limits allocate
// nothing. One LimitCoords serves one caller at a time. The Assembler
// keeps two more, of the limits' and the actuators' joints (at).
type LimitCoords struct {
	model *multibody.Model
	keys  []limitCoord
}

// limitCoord is one item's joint (body, DOF) and its coordinate and
// velocity indices qi and vi (dofAt).
type limitCoord struct{ body, dof, qi, vi int }

// coord returns limit l's coordinate, the i-th of its set's limits, from
// lc when lc holds it for m, l.Body and l.DOF (lc nil: dofAt).
func (lc *LimitCoords) coord(m *multibody.Model, i int, l *Limit) int {
	if lc == nil {
		qi, _ := dofAt(m, l.Body, l.DOF)
		return qi
	}
	qi, _ := lc.at(m, i, l.Body, l.DOF)
	return qi
}

// at returns dofAt(m, b, dof), the indices of the joint of the i-th item
// (a limit, or an actuator on a joint), kept in lc when lc holds them for
// m, b and dof, else found and kept (find).
func (lc *LimitCoords) at(m *multibody.Model, i, b, dof int) (qi, vi int) {
	if qi, vi, ok := lc.kept(m, i, b, dof); ok {
		return qi, vi
	}
	return lc.find(m, i, b, dof)
}

// kept returns the indices that lc holds for the i-th item's joint and
// true when they were found for m, b and dof, else false (then find finds
// them): short enough to be inlined, so that the assembly's limits and
// actuators read their joint's indices without a call (dofAt reads the
// 584-byte Body for a compound joint's test at every step).
func (lc *LimitCoords) kept(m *multibody.Model, i, b, dof int) (qi, vi int, ok bool) {
	if lc.model == m && i < len(lc.keys) {
		if k := &lc.keys[i]; k.body == b && k.dof == dof {
			return k.qi, k.vi, true
		}
	}
	return 0, 0, false
}

// find is at for indices that lc does not hold (kept false): dofAt, kept as item i's.
//
//go:noinline
func (lc *LimitCoords) find(m *multibody.Model, i, b, dof int) (qi, vi int) {
	if lc.model != m {
		lc.model, lc.keys = m, lc.keys[:0]
	}
	for len(lc.keys) <= i {
		lc.keys = append(lc.keys, limitCoord{body: -1})
	}
	qi, vi = dofAt(m, b, dof)
	lc.keys[i] = limitCoord{body: b, dof: dof, qi: qi, vi: vi}
	return qi, vi
}

// outside reports whether x is past a bound or within margin of it
// (MuJoCo's dist < margin).
func outside(x, lo, hi, margin float64) bool { return x-lo < margin || hi-x < margin }

// ExplicitForces adds to f (length NV) the generalized forces of the set's
// explicit actuators at the state (q, v) with the controls ctl (one per
// Set.Actuators entry; implicit actuators are skipped): Gear·force on the
// joint's velocity, Gear·coef_k·force on each velocity of a tendon. The
// force is the one the assembly gives an explicit actuator
// (explicitForce, with the control clamped to its range and the force to
// the effort bound), here at (q, v): MuJoCo's
// qfrc_actuator at an RK4 stage (mj_fwdActuation).
func (s *Set) ExplicitForces(m *multibody.Model, q, v []float64, ctl []Control, f []float64) {
	s.ExplicitForcesKept(m, q, v, ctl, f, nil)
}

// ActuatorForce is an explicit actuator's force at a state, after the
// effort bound, and whether the bound clamped it (stateForce).
type ActuatorForce struct {
	F   float64
	Sat bool
}

// ExplicitForcesKept is ExplicitForces that also keeps in kept (nil, or
// one per Set.Actuators entry) the force of each actuator it applies
// (IsForce), for Input.Forces: the assembly of the same step then takes
// them instead of computing them again.
func (s *Set) ExplicitForcesKept(m *multibody.Model, q, v []float64, ctl []Control, f []float64, kept []ActuatorForce) {
	s.ExplicitForcesCoords(m, q, v, ctl, f, kept, nil)
}

// ExplicitForcesCoords is ExplicitForcesKept taking the joints'
// coordinate and velocity indices from tc (nil: found again, dofAt) where
// tc holds them for the same model, body and degree of freedom
// (TermCoords).
func (s *Set) ExplicitForcesCoords(m *multibody.Model, q, v []float64, ctl []Control, f []float64, kept []ActuatorForce, tc *TermCoords) {
	if s == nil {
		return
	}
	cur := tc.cursor(m)
	for i := range s.Actuators {
		ac := &s.Actuators[i]
		if !ac.IsForce() {
			continue
		}
		var force float64
		var sat bool
		if len(ac.Tendon) == 0 { // stateForce and terms for a joint, its indices found once
			qi, vi, ok := cur.hit(ac.Body, ac.DOF)
			if !ok {
				qi, vi = cur.miss(ac.Body, ac.DOF)
			}
			gear := ac.gear()
			var l, ld float64 // a motor's force does not read them (boundedForce)
			if ac.Type != Motor {
				l, ld = jointLength(gear, q, v, qi, vi) // in line (a clampedForce call was three instruction-cache lines of the step)
			}
			force, sat = ac.boundedForce(m, l, ld, ctl[i])
			f[vi] += gear * force
		} else {
			force, sat = ac.tendonForce(m, &cur, q, v, ctl[i], f)
		}
		if kept != nil {
			kept[i] = ActuatorForce{force, sat}
		}
	}
}

// tendonForce adds the forces of explicit actuator ac on a fixed tendon
// at the state (q, v) with the control ctl to f (ExplicitForcesCoords),
// the terms' indices of a short tendon from cur, and returns its force
// and whether the effort bound clamped it. It is out of line: the joint
// actuators of robots never run it, and inlined, it sat between the hot
// blocks of ExplicitForcesCoords' loop.
//
//go:noinline
func (ac *Actuator) tendonForce(m *multibody.Model, cur *termCursor, q, v []float64, ctl Control, f []float64) (float64, bool) {
	var vis [8]int                  // a short tendon's velocity indices
	if len(ac.Tendon) <= len(vis) { // a fixed tendon's terms, their indices found once
		gear := ac.gear()
		l, ld := tendonLength(cur, ac.Tendon, q, v, vis[:])
		force, sat := ac.boundedForce(m, gear*l, gear*ld, ctl)
		for k, t := range ac.Tendon {
			f[vis[k]] += gear * t.Coef * force // terms' coefficient Gear·coef_k
		}
		return force, sat
	}
	force, sat := ac.stateForce(m, q, v, ctl)
	ac.terms(m, func(vi int, g float64) { f[vi] += g * force })
	return force, sat
}

// IsForce reports whether the actuator is explicit (IsExplicit) and acts
// on a joint or a fixed tendon, so that its force is a function of
// (q, v) alone that ExplicitForces applies. A spatial tendon's or
// slider-crank's length needs the kinematics: the assembly computes it,
// and NeedsSolve is true for it.
func (ac *Actuator) IsForce() bool { return ac.IsExplicit() && ac.Transmission == nil }

// stateForce is the force of an explicit actuator on a joint or fixed
// tendon (IsForce) at the state (q, v) (v nil: l̇ = 0) with the control
// ctl: explicitForce at its length Gear·L(q) and rate Gear·L̇, clamped to
// the effort bound, and whether the bound clamped it.
func (ac *Actuator) stateForce(m *multibody.Model, q, v []float64, ctl Control) (float64, bool) {
	gear := ac.gear()
	if len(ac.Tendon) == 0 {
		qi, vi := dofAt(m, ac.Body, ac.DOF)
		l, ld := jointLength(gear, q, v, qi, vi)
		return ac.boundedForce(m, l, ld, ctl)
	}
	l, ld := TendonLength(m, ac.Tendon, q, v)
	return ac.boundedForce(m, gear*l, gear*ld, ctl)
}

// jointLength returns the length l = gear·q[qi] and rate l̇ = gear·v[vi]
// (v nil: l̇ = 0) of an actuator on a joint of coordinate q[qi] and
// velocity v[vi], gear its gear.
func jointLength(gear float64, q, v []float64, qi, vi int) (l, ld float64) {
	l = gear * q[qi]
	if v != nil {
		ld = gear * v[vi]
	}
	return l, ld
}

// boundedForce is explicitForce at the length l and rate ld with the
// control clamped to its range, clamped to the effort bound, and whether
// the bound clamped it.
//
// A motor's force is its control (explicitForce's last case), taken here
// without the call; and with no bound (e = +Inf) the clamp leaves every
// force as it is (min(+Inf, f) and max(−Inf, f) are f, a zero's sign
// and an infinity included) and |f| > +Inf is false, so it is skipped:
// the joint motors of robots mostly have no force range.
func (ac *Actuator) boundedForce(m *multibody.Model, l, ld float64, ctl Control) (float64, bool) {
	force := ac.clampControl(ctl.U)
	if ac.Type != Motor {
		force = ac.explicitForce(force, ctl.Act, l, ld)
	}
	e := ac.effort(m)
	if e > math.MaxFloat64 {
		return force, false
	}
	return max(-e, min(e, force)), math.Abs(force) > e
}

// terms calls fn with each velocity index vi the actuator on a joint or
// fixed tendon moves and its coefficient in the actuator's Jacobian:
// Gear on the joint's velocity, Gear·coef_k on each of a tendon's.
func (ac *Actuator) terms(m *multibody.Model, fn func(vi int, g float64)) {
	gear := ac.gear()
	if len(ac.Tendon) == 0 {
		_, vi := dofAt(m, ac.Body, ac.DOF)
		fn(vi, gear)
		return
	}
	for _, t := range ac.Tendon {
		_, vi := dofAt(m, t.Body, t.DOF)
		fn(vi, gear*t.Coef)
	}
}
