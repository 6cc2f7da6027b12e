package constraint

import (
	"math"

	"github.com/stiction-sim/stiction/multibody"
	"github.com/stiction-sim/stiction/solver"
	"github.com/stiction-sim/stiction/tendon"
)

// ActuatorType is the control law of an Actuator.
type ActuatorType uint8

const (
	// Motor applies the force f = u.
	Motor ActuatorType = iota
	// Position applies f = Kp (u − l) − Kd l̇ (MuJoCo's position actuator).
	Position
	// Velocity applies f = Kd (u − l̇) (MuJoCo's velocity actuator).
	Velocity
	// PD applies f = Kp (u − l) + Kd (u̇ − l̇) (Drake's PD controller).
	PD
	// General applies f = Gain u + Bias[0] + Bias[1] l + Bias[2] l̇
	// (MuJoCo's general actuator with a fixed gain and an affine bias).
	General
	// Muscle applies f = Gain(l, l̇)·act + Bias(l) with the activation act
	// a state, acṫ = Dynamics(u, act) (MuJoCo's muscle; MuscleParams).
	Muscle
)

var actuatorNames = [...]string{"motor", "position", "velocity", "pd", "general", "muscle"}

// String returns the scene-file name of the type.
func (t ActuatorType) String() string { return enumName(actuatorNames[:], t, "ActuatorType") }

// ParseActuatorType returns the type of a scene-file name.
func ParseActuatorType(s string) (ActuatorType, error) {
	t, ok := parseEnum[ActuatorType](actuatorNames[:], s)
	if !ok {
		return 0, errf("unknown actuator type %q (want motor, position, velocity, pd, general or muscle)", s)
	}
	return t, nil
}

// enumName is the name of v in names, or "Kind(?)" out of range.
func enumName[T ~uint8](names []string, v T, kind string) string {
	if int(v) < len(names) {
		return names[v]
	}
	return kind + "(?)"
}

// parseEnum is the value whose name is s, if any.
func parseEnum[T ~uint8](names []string, s string) (T, bool) {
	for i, n := range names {
		if n == s {
			return T(i), true
		}
	}
	return 0, false
}

// Actuator drives degree of freedom DOF of Body's joint (revolute,
// prismatic, planar or universal), or, when Tendon is not empty, the fixed
// tendon of length L = Σ coef_k q_k. Its length is l = Gear·q (Gear·L), its
// force f acts on the joint as the torque Gear·f (on each coordinate of the
// tendon as Gear·coef_k·f), and |f| ≤ e with e the smaller of Effort and
// the joint's effort limit / |Gear| (0 means none for both; a tendon
// actuator takes only Effort).
// The control input u (Target, or Simulator.SetControl) is clamped to
// [CtrlMin, CtrlMax] unless both are 0.
//
// Position, velocity and PD actuators are implicit in the step (Drake's
// SapPdControllerConstraint): with l1 = l0 + δt l̇1 the force
// f = Kp (u − l1) + Kd (u̇ − l̇1) is an impulse γ = δt f affine in the
// actuator velocity v_c = l̇1 = Gear·v, so γ = −(v_c − v̂)/R with
//
//	R = 1/(δt (δt Kp + Kd)),  v̂ = (Kp (u − l0) + Kd u̇)/(δt Kp + Kd),
//
// clamped to [−e δt, e δt] (solver.Interval): the effort limit holds inside
// the convex problem. (u̇ = 0 for Position, Kp = 0 for Velocity.) A motor's
// impulse δt·clamp(u, −e, e) does not depend on v: an Interval with
// lo = hi.
//
// A General actuator, f = g u + b0 + b1 l + b2 l̇, takes its position
// terms at the start of the step, as MuJoCo does, and its velocity term
// implicitly when it damps (b2 < 0, as MuJoCo's implicit integrators do)
// unless Explicit (as MuJoCo's Euler and RK4 do):
// f = (g u + b0 + b1 l0) + b2 l̇1, R = 1/(δt (−b2)),
// v̂ = (g u + b0 + b1 l0)/(−b2). With b2 ≥ 0, or Explicit, the force
// f = g u + b0 + b1 l0 + b2 l̇0 is applied as a motor's. A Position or
// Velocity actuator marked Explicit is taken the same way, its force
// Kp (u − l0) − Kd l̇0 or Kd (u − l̇0) at the start of the step (MuJoCo's
// Euler and RK4).
type Actuator struct {
	Name             string
	Type             ActuatorType
	Body, DOF        int
	Gear             float64 // non-zero; 0 is taken as 1
	Kp, Kd           float64 // ≥ 0
	Effort           float64 // > 0, or 0 for none
	CtrlMin, CtrlMax float64 // control range; both 0 for none
	Target           Signal  // control input in time; nil for 0
	// Gain and Bias are a General actuator's g and (b0, b1, b2).
	Gain float64
	Bias [3]float64
	// GainAffine makes a General actuator's gain affine, g + g1 l + g2 l̇
	// (MuJoCo's gaintype affine: gainprm[1], gainprm[2]; gainAt). With
	// g2 ≠ 0 the force is explicit (IsExplicit).
	GainAffine [2]float64
	// Explicit makes a General actuator's velocity term b2 l̇ explicit too,
	// and a Position or Velocity actuator's whole force (f at the start of
	// the step, as MuJoCo's Euler and RK4 take it).
	Explicit bool
	// Tendon, when not empty, is the fixed tendon the actuator drives
	// instead of Body's joint (Body and DOF are then ignored).
	Tendon []TendonTerm
	// Transmission, when not nil, is the spatial tendon or slider-crank
	// the actuator drives: its length is Gear·L(q), its moment arm Gear·G
	// (package tendon).
	Transmission tendon.Transmission
	// Muscle is a Muscle actuator's parameters (nil for the other types).
	Muscle *MuscleParams
	// Dyn gives a General actuator an activation state (MuJoCo's
	// dyntype; dynamics.go), DynTau is DynFilter's time constant and
	// ActRange, when not nil, clamps the activation after each step
	// (MuJoCo's actlimited and actrange).
	Dyn      ActDynamics
	DynTau   float64
	ActRange *[2]float64
}

// Stateful reports whether the actuator has an activation state (a
// muscle, or a General actuator with dynamics): its force takes
// Control.Act, which the simulator advances by ActRate.
func (ac *Actuator) Stateful() bool { return ac.Type == Muscle || ac.Dyn != DynNone }

// ActRate is the rate of the actuator's activation act under the control
// u (clamped to the control range first, as MuJoCo's mj_fwdActuation
// does): MuscleParams.Dynamics for a muscle, the dynamics' rate for a
// General actuator with dynamics (dynamics.go), 0 for a stateless
// actuator.
func (ac *Actuator) ActRate(u, act float64) float64 {
	if ac.Type != Muscle {
		return ac.dynRate(ac.clampControl(u), act)
	}
	return ac.Muscle.Dynamics(ac.clampControl(u), act)
}

// gainAt is a General actuator's gain at length l and rate ld: Gain, or
// Gain + g1 l + g2 l̇ with an affine gain (MuJoCo's mjGAIN_AFFINE,
// mj_fwdActuation).
func (ac *Actuator) gainAt(l, ld float64) float64 {
	if ac.GainAffine == [2]float64{} {
		return ac.Gain
	}
	return ac.Gain + ac.GainAffine[0]*l + ac.GainAffine[1]*ld
}

// gear returns the gear ratio (1 when unset).
func (ac *Actuator) gear() float64 {
	if ac.Gear == 0 {
		return 1
	}
	return ac.Gear
}

func (ac *Actuator) validate(m *multibody.Model) error {
	if ac.Transmission != nil {
		if err := validatePath(m, ac.Transmission); err != nil {
			return err
		}
	} else if len(ac.Tendon) > 0 {
		if err := validateTendon(m, ac.Tendon); err != nil {
			return err
		}
	} else if _, _, err := scalarDOF(m, ac.Body, ac.DOF); err != nil {
		return err
	}
	if ac.Type > Muscle {
		return errf("unknown actuator type %d", ac.Type)
	}
	if (ac.Type == Muscle) != (ac.Muscle != nil) {
		return errf("a %s actuator with muscle parameters %v: only a muscle takes them, and needs them", ac.Type, ac.Muscle != nil)
	}
	if ac.Muscle != nil {
		if err := ac.Muscle.validate(); err != nil {
			return err
		}
	}
	if err := ac.validateDynamics(); err != nil {
		return err
	}
	if ac.Type != General && (ac.Gain != 0 || ac.Bias != [3]float64{} || ac.GainAffine != [2]float64{}) {
		return errf("gain %v, affine gain %v and bias %v given for a %s actuator; only general takes them", ac.Gain, ac.GainAffine, ac.Bias, ac.Type)
	}
	if !finite(ac.GainAffine[0], ac.GainAffine[1]) {
		return errf("affine gain %v: need finite values", ac.GainAffine)
	}
	if ac.Explicit && ac.Type != General && ac.Type != Position && ac.Type != Velocity {
		return errf("explicit given for a %s actuator; only general, position and velocity take it", ac.Type)
	}
	if !finite(ac.Gear, ac.Kp, ac.Kd, ac.CtrlMin, ac.CtrlMax, ac.Gain, ac.Bias[0], ac.Bias[1], ac.Bias[2]) || ac.Kp < 0 || ac.Kd < 0 || !(ac.Effort >= 0) || ac.CtrlMin > ac.CtrlMax {
		return errf("gear %v, kp %v, kd %v, effort %v, control range [%v, %v]: need finite values, gains and effort ≥ 0, ordered range",
			ac.Gear, ac.Kp, ac.Kd, ac.Effort, ac.CtrlMin, ac.CtrlMax)
	}
	switch {
	case ac.Type == Motor && (ac.Kp != 0 || ac.Kd != 0):
		return errf("a motor takes no gains (kp %v, kd %v)", ac.Kp, ac.Kd)
	case ac.Type == Position && !(ac.Kp > 0):
		return errf("a position actuator needs kp > 0")
	case ac.Type == Velocity && (ac.Kp != 0 || !(ac.Kd > 0)):
		return errf("a velocity actuator needs kd > 0 and no kp")
	case ac.Type == PD && !(ac.Kp+ac.Kd > 0):
		return errf("a pd actuator needs kp > 0 or kd > 0")
	case (ac.Type == General || ac.Type == Muscle) && (ac.Kp != 0 || ac.Kd != 0):
		return errf("a %s actuator takes no kp %v, kd %v", ac.Type, ac.Kp, ac.Kd)
	}
	return nil
}

// effort returns the bound e on |f| (+Inf for none).
func (ac *Actuator) effort(m *multibody.Model) float64 {
	e := math.Inf(1)
	if ac.Effort > 0 {
		e = ac.Effort
	}
	if len(ac.Tendon) > 0 || ac.Transmission != nil {
		return e
	}
	if je := m.Bodies[ac.Body].Joint.Effort; je > 0 {
		e = min(e, je/math.Abs(ac.gear()))
	}
	return e
}

// clampControl clamps u to the control range.
func (ac *Actuator) clampControl(u float64) float64 {
	if ac.CtrlMin == 0 && ac.CtrlMax == 0 {
		return u
	}
	return max(ac.CtrlMin, min(ac.CtrlMax, u))
}

// actuator appends the actuator's block. Its common case, a motor on one
// joint (MuJoCo's motor, f = u), runs in line; every other actuator
// (actuatorAny) is out of line, so that its code does not sit between the
// common case's blocks (BENCHMARKS.md, the hundred-and-forty-fourth and
// two-hundred-and-seventeenth passes).
func (a *Assembler) actuator(c *asmCtx, ac *Actuator, i int, ctl Control) {
	if ac.Type != Motor || ac.Transmission != nil || len(ac.Tendon) > 0 {
		a.actuatorAny(c, ac, i, ctl)
		return
	}
	u := ac.clampControl(ctl.U)
	if c.prm.ActuatorForces { // IsForce
		if !c.prm.RowsOnly { // its entry alone: no block
			a.forcedActuator(c, ac, i, ctl, u)
		}
		return
	}
	e := ac.effort(c.m)
	a.begin(1)
	_, vi, ok := a.actDOFs.kept(c.m, i, ac.Body, ac.DOF) // dofAt's, kept across steps
	if !ok {
		_, vi = a.actDOFs.find(c.m, i, ac.Body, ac.DOF)
	}
	a.addDOF(c, ac.Body, vi, 0, ac.gear())
	a.explicitEntry(c, i, u, u, e) // a motor's force is its control
}

// actuatorAny is actuator for any actuator: explicit or implicit, on a
// joint, a fixed tendon or a transmission.
//
//go:noinline
func (a *Assembler) actuatorAny(c *asmCtx, ac *Actuator, i int, ctl Control) {
	u := ac.clampControl(ctl.U)
	explicit := ac.IsExplicit()
	if c.prm.ActuatorForces && explicit && ac.Transmission == nil { // IsForce
		if !c.prm.RowsOnly { // its entry alone: no block
			a.forcedActuator(c, ac, i, ctl, u)
		}
		return
	}
	gear, dt := ac.gear(), c.in.DT
	e := ac.effort(c.m)
	a.begin(1)
	var l0, ld0 float64 // length and its rate at the start of the step
	if ac.Transmission != nil || len(ac.Tendon) > 0 {
		l0, ld0 = a.actuatorPath(c, ac, gear)
	} else {
		qi, vi, ok := a.actDOFs.kept(c.m, i, ac.Body, ac.DOF) // dofAt's, kept across steps
		if !ok {
			qi, vi = a.actDOFs.find(c.m, i, ac.Body, ac.DOF)
		}
		a.addDOF(c, ac.Body, vi, 0, gear)
		l0, ld0 = jointLength(gear, c.in.Q0, c.in.V0, qi, vi)
	}
	var ent *entry
	if explicit {
		ent = a.explicitEntry(c, i, u, ac.explicitForce(u, ctl.Act, l0, ld0), e)
	} else {
		k := a.implicitRow(c, ac, ctl, u, e, l0)
		ent = a.next()
		ent.typ, ent.item, ent.block, ent.bound, ent.input, ent.vec = TypeActuator, int32(i), int32(k), e*dt, u, -1
	}
	if ac.Stateful() {
		ent.act = ctl.Act
	}
}

// explicitEntry emits the row of explicit actuator i of force f (before
// its effort bound e) under the control u, the impulse δt·clamp(f, −e, e)
// as lo = hi, and appends its entry, saturated when |f| > e (saturation is
// decided on the input: no bound).
func (a *Assembler) explicitEntry(c *asmCtx, i int, u, f, e float64) *entry {
	fc := max(-e, min(e, f))
	k, row := a.emit(c, solver.Interval, fc*c.in.DT, fc*c.in.DT)
	c.p.R[row] = a.fixedR(c, row) // any R > 0: the impulse does not depend on it
	ent := a.next()
	ent.typ, ent.item, ent.block, ent.bound, ent.input, ent.vec, ent.sat = TypeActuator, int32(i), int32(k), math.Inf(1), u, -1, math.Abs(f) > e
	return ent
}

// fixedR is the R of an explicit actuator's row (lo = hi), the block just
// emitted: NearRigidR of its Delassus estimate, or, with
// Params.FixedRUnread on a row with one non-zero J_i (a.one), of the
// estimate 1, the row kept for FillFixedR (pend).
func (a *Assembler) fixedR(c *asmCtx, row int) float64 {
	if c.prm.FixedRUnread && a.one >= 0 && a.nr == 1 && a.jr.N == 1 && !a.wSet {
		a.pend = append(a.pend, pendingR{row: row, clique: a.jr.Cliques[0], at: a.one, x: a.jr.Data[0][a.one]})
		return solver.NearRigidR(1, c.prm.Beta)
	}
	return solver.NearRigidR(a.weight(c, 0), c.prm.Beta)
}

// pendingR is an explicit actuator's row whose R waits for FillFixedR:
// its row, the clique of its one non-zero J_i, that entry's column in the
// clique and its value.
type pendingR struct {
	row, clique, at int
	x               float64
}

// FillFixedR sets the R of the explicit actuators' rows that the last
// assembly left for later (Params.FixedRUnread) to those of an assembly
// without it, bit for bit: NearRigidR(w) with w = J_i² (A_t⁻¹)_ii, or 1
// where that is not positive (single, setW), from the same factor f and
// problem p, which must be the assembly's, unchanged since.
func (a *Assembler) FillFixedR(f *solver.CliqueFactor, p *solver.Problem) {
	for _, pr := range a.pend {
		w := orOne(pr.x * pr.x * a.invDiag(f, p, pr.clique, pr.at))
		p.R[pr.row] = solver.NearRigidR(w, a.beta)
	}
	a.pend = a.pend[:0]
}

// FixedRPending reports whether the last assembly left rows for
// FillFixedR.
func (a *Assembler) FixedRPending() bool { return len(a.pend) != 0 }

// actuatorPath adds to the block the Jacobian of a transmission's or a
// fixed tendon's actuator (gear·J of its length) and returns its length
// and rate at the start of the step (actuator).
//
//go:noinline
func (a *Assembler) actuatorPath(c *asmCtx, ac *Actuator, gear float64) (l0, ld0 float64) {
	if ac.Transmission != nil {
		l0, ld0, _ = a.addPath(c, ac.Transmission, 0, gear)
		return l0 * gear, ld0
	}
	for _, t := range ac.Tendon {
		qi, vi := dofAt(c.m, t.Body, t.DOF)
		a.addDOF(c, t.Body, vi, 0, gear*t.Coef)
		l0 += gear * t.Coef * c.in.Q0[qi]
		if c.in.V0 != nil {
			ld0 += gear * t.Coef * c.in.V0[vi]
		}
	}
	return l0, ld0
}

// implicitRow emits the row of an implicit actuator (not IsExplicit) of
// effort e at the length l0 and returns its block: a General actuator's
// force g u + b0 + b1 l is v̂ over the damping −b2 (R = 1/(δt·(−b2))), a
// servo's (Kp (u − l) + Kd rate)/(δt Kp + Kd) with R = 1/(δt (δt Kp + Kd)).
//
//go:noinline
func (a *Assembler) implicitRow(c *asmCtx, ac *Actuator, ctl Control, u, e, l0 float64) int {
	dt := c.in.DT
	if ac.Type == General {
		cd := -ac.Bias[2]
		f0 := ac.gainAt(l0, 0)*ac.drive(u, ctl.Act) + ac.Bias[0] + ac.Bias[1]*l0
		k, row := a.emit(c, solver.Interval, -e*dt, e*dt)
		c.p.R[row] = 1 / (dt * cd)
		c.p.VHat[row] = f0 / cd
		return k
	}
	kp, kd, rate := ac.Kp, ac.Kd, ctl.Rate
	switch ac.Type {
	case Position:
		rate = 0
	case Velocity:
		kp = 0
	}
	den := dt*kp + kd
	k, row := a.emit(c, solver.Interval, -e*dt, e*dt)
	c.p.R[row] = 1 / (dt * den)
	c.p.VHat[row] = (kp*(u-l0) + kd*rate) / den
	if ac.Type == Velocity {
		c.p.VHat[row] = u
	}
	return k
}

// forcedActuator appends the entry of an explicit actuator whose force is
// in the step's free motion (Params.ActuatorForces): no block, the impulse
// δt f of its force at (q0, v0) (stateForce, as Set.ExplicitForces) and
// its Jacobian's terms.
func (a *Assembler) forcedActuator(c *asmCtx, ac *Actuator, i int, ctl Control, u float64) {
	// The entry first, and filled as its numbers come: taken last, its
	// call had the force, its flag and the first term kept on the stack
	// across it and read back.
	ent := a.next()
	ent.typ, ent.item, ent.block, ent.bound, ent.input, ent.vec = TypeActuator, int32(i), -1, math.Inf(1), u, -1
	if kept := c.in.Forces; kept != nil {
		ent.impulse, ent.sat = kept[i].F*c.in.DT, kept[i].Sat // the free motion's (Input.Forces)
	} else {
		f, sat := ac.stateForce(c.m, c.in.Q0, c.in.V0, ctl)
		ent.impulse, ent.sat = f*c.in.DT, sat
	}
	term := int32(len(a.forced))
	if len(ac.Tendon) == 0 { // a joint's one term, without terms' closure
		_, vi, ok := a.actDOFs.kept(c.m, i, ac.Body, ac.DOF) // dofAt's, kept across steps
		if !ok {
			_, vi = a.actDOFs.find(c.m, i, ac.Body, ac.DOF)
		}
		a.forced = append(a.forced, forceTerm{vi, ac.gear()})
	} else {
		a.forcedTerms(c.m, ac)
	}
	ent.term, ent.nterm = term, int32(len(a.forced))-term
	if ac.Stateful() {
		ent.act = ctl.Act
	}
}

// forcedTerms appends the Jacobian's terms of forcedActuator's actuator
// ac on a tendon. It is out of line: the joint actuators of robots never
// run it, and inlined, its closure sat between forcedActuator's hot
// blocks.
//
//go:noinline
func (a *Assembler) forcedTerms(m *multibody.Model, ac *Actuator) {
	ac.terms(m, func(vi int, g float64) { a.forced = append(a.forced, forceTerm{vi, g}) })
}
