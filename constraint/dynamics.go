package constraint

import "math"

// ActDynamics is a General actuator's activation dynamics (MuJoCo's
// dyntype). With dynamics the actuator has an activation state act
// (Control.Act, advanced by the simulator with ActRate) and its force
// takes act in place of the control: f = Gain·act + Bias(l, l̇)
// (MuJoCo 2.2.2, engine_forward.c, mj_fwdActuation).
type ActDynamics uint8

const (
	// DynNone: no activation; the force takes the control u.
	DynNone ActDynamics = iota
	// DynIntegrator: acṫ = u (MuJoCo's mjDYN_INTEGRATOR).
	DynIntegrator
	// DynFilter: acṫ = (u − act)/τ, τ = Actuator.DynTau (mjDYN_FILTER).
	DynFilter
)

var dynNames = [...]string{"none", "integrator", "filter"}

// String returns the scene-file name of the dynamics.
func (d ActDynamics) String() string { return enumName(dynNames[:], d, "ActDynamics") }

// ParseActDynamics returns the dynamics of a scene-file name.
func ParseActDynamics(s string) (ActDynamics, error) {
	d, ok := parseEnum[ActDynamics](dynNames[:], s)
	if !ok {
		return 0, errf("unknown actuator dynamics %q (want none, integrator or filter)", s)
	}
	return d, nil
}

// dynRate is acṫ of a General actuator's dynamics for the clamped
// control u: u (integrator) or (u − act)/τ (filter), as mj_fwdActuation
// computes act_dot.
func (ac *Actuator) dynRate(u, act float64) float64 {
	switch ac.Dyn {
	case DynIntegrator:
		return u
	case DynFilter:
		return (u - act) / ac.DynTau
	}
	return 0
}

// drive is what a General actuator's gain multiplies: the activation act
// when it has dynamics, the control u otherwise (mj_fwdActuation).
func (ac *Actuator) drive(u, act float64) float64 {
	if ac.Dyn != DynNone {
		return act
	}
	return u
}

// ClampAct clamps an activation to ActRange when it is set (MuJoCo's
// actlimited, applied in mj_advance after the activation's update).
func (ac *Actuator) ClampAct(act float64) float64 {
	if r := ac.ActRange; r != nil {
		return max(r[0], min(r[1], act))
	}
	return act
}

// validateDynamics checks the activation dynamics and range.
func (ac *Actuator) validateDynamics() error {
	switch {
	case ac.Dyn > DynFilter:
		return errf("unknown actuator dynamics %d", ac.Dyn)
	case ac.Dyn != DynNone && ac.Type != General:
		return errf("dynamics %s given for a %s actuator; only general takes it", ac.Dyn, ac.Type)
	case ac.Dyn == DynFilter && !(ac.DynTau > 0 && !math.IsInf(ac.DynTau, 1)):
		return errf("filter dynamics needs a finite time constant > 0 (%v)", ac.DynTau)
	case ac.Dyn != DynFilter && ac.DynTau != 0:
		return errf("time constant %v given for %s dynamics; only filter takes it", ac.DynTau, ac.Dyn)
	case ac.ActRange != nil && (!ac.Stateful() || !finite(ac.ActRange[0], ac.ActRange[1]) || !(ac.ActRange[0] < ac.ActRange[1])):
		return errf("activation range %v: needs an activation (a muscle, or dynamics: %s) and a finite range lo < hi", *ac.ActRange, ac.Dyn)
	}
	return nil
}
