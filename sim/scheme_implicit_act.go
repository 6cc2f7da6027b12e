package sim

import (
	"github.com/stiction-sim/stiction/constraint"
	"github.com/stiction-sim/stiction/multibody"
)

// MuJoCo 2.2.2's implicit integrator and actuators (engine_forward.c,
// mj_implicitSkip; engine_derivative.c, mjd_actuator_vel): every actuator
// force, clamped to its forcerange, is part of qfrc_smooth at (q0, v0), an
// explicit force; only its velocity derivative enters the implicit matrix,
// qDeriv += mᵀ (b2 + g2 u) m with m the actuator's moment (Gear on a
// joint, Gear·coef_k on a fixed tendon's coordinates), b2 the affine
// bias's velocity term and g2 an affine gain's (fixed gains here: 0). So
// M̂ = M − h qDeriv gets + h kv mᵀm for a servo of velocity gain kv, and
// the clamp does not change it.

// implicitActuatorSet returns set with the force of every position,
// velocity and general actuator taken at the start of the step
// (constraint.Actuator.Explicit), as mj_implicit takes it; set itself is
// not changed. It returns set when no actuator needs it. A PD actuator
// (which MJCF does not have: its u̇ term) stays an implicit row.
func implicitActuatorSet(set *constraint.Set) *constraint.Set {
	if set == nil {
		return nil
	}
	need := false
	for i := range set.Actuators {
		need = need || !set.Actuators[i].IsExplicit()
	}
	if !need {
		return set
	}
	cp := *set
	cp.Actuators = append([]constraint.Actuator(nil), set.Actuators...)
	for i := range cp.Actuators {
		switch cp.Actuators[i].Type {
		case constraint.General, constraint.Position, constraint.Velocity:
			cp.Actuators[i].Explicit = true
		}
	}
	return &cp
}

// actuatorVelocityGain is kv = −∂f/∂l̇ of actuator ac: Kd for position and
// velocity servos, −b2 for a general actuator, 0 otherwise (MuJoCo's
// −bias_vel in mjd_actuator_vel).
func actuatorVelocityGain(ac *constraint.Actuator) float64 {
	switch ac.Type {
	case constraint.Position, constraint.Velocity:
		return ac.Kd
	case constraint.General:
		return -ac.Bias[2]
	}
	return 0
}

// addActuatorDamping adds mᵀ kv m of every actuator (mjd_actuator_vel's
// −qDeriv part; addMomentDamping for spatial tendons, slider-cranks and
// muscles) to the blocks of g.jac, at the entries
// of M's pattern only: mjd_smooth_vel copies its dense DfDv into qDeriv's
// sparse structure, M's (D_rownnz, D_colind: i = j or one an ancestor of
// the other), so a tendon's terms in different trees or in sibling
// branches are dropped, as there.
func (sim *Simulator) addActuatorDamping(g *gyroJacobian) {
	set := sim.ws.cons.set
	if set == nil {
		return
	}
	m := sim.Model
	if len(g.par) != len(m.Trees) { // once: the model's structure
		g.par = make([][]int, len(m.Trees))
		for t := range m.Trees {
			g.par[t] = m.TreeVelocityParents(t)
		}
	}
	for i := range set.Actuators {
		ac := &set.Actuators[i]
		if ac.Transmission != nil || ac.Type == constraint.Muscle || ac.GainAffine[1] != 0 {
			sim.addMomentDamping(g, ac, i)
			continue
		}
		kv := actuatorVelocityGain(ac)
		if kv == 0 {
			continue
		}
		gear := ac.Gear
		if gear == 0 {
			gear = 1
		}
		if len(ac.Tendon) == 0 {
			addJacEntry(g, m, ac.Body, ac.DOF, ac.Body, ac.DOF, kv*gear*gear)
			continue
		}
		for _, a := range ac.Tendon {
			for _, b := range ac.Tendon {
				addJacEntry(g, m, a.Body, a.DOF, b.Body, b.DOF, kv*gear*gear*a.Coef*b.Coef)
			}
		}
	}
}

// addMomentDamping adds mᵀ kv m for actuator i whose moment m needs the
// kinematics (a spatial tendon or slider-crank: actuator_moment at q0,
// constraint.Actuator.Moment) or whose kv depends on the state: a
// muscle's kv = −GainVel(l, l̇)·act at (q0, v0) and the step's activation,
// an affine gain's −g2·act, or −g2·u without dynamics, u the control as
// given (mjd_actuator_vel: bias_vel += gain_vel·ctrl or ·act, MuJoCo
// 2.2.2).
func (sim *Simulator) addMomentDamping(g *gyroJacobian, ac *constraint.Actuator, i int) {
	w, m := &sim.ws, sim.Model
	if len(g.mom) != m.NV {
		g.mom, g.local = make([]float64, m.NV), make([]float64, 3*m.NV)
	}
	l := ac.Moment(m, w.kin, w.q0, g.mom, g.local)
	kv := actuatorVelocityGain(ac)
	switch {
	case ac.Type == constraint.Muscle && i < len(sim.State.Act):
		ld := 0.0
		for k, x := range g.mom {
			ld += x * w.v0[k]
		}
		kv -= ac.Muscle.GainVel(l, ld) * sim.State.Act[i] // the step's start activation
	case ac.GainAffine[1] != 0 && ac.Dyn != constraint.DynNone && i < len(sim.State.Act):
		kv -= ac.GainAffine[1] * sim.State.Act[i]
	case ac.GainAffine[1] != 0 && i < len(w.cons.controls):
		sim.evalControls()                            // the step's inputs (evaluated again, unchanged, before the constraint solve)
		kv -= ac.GainAffine[1] * w.cons.controls[i].U // MuJoCo 2.2.2 takes d->ctrl, not clamped
	}
	if kv == 0 {
		return
	}
	for vi, a := range g.mom {
		if a == 0 {
			continue
		}
		for vj, b := range g.mom {
			if b != 0 {
				addJacEntryV(g, m, vi, vj, kv*a*b)
			}
		}
	}
}

// addJacEntry adds x to g.jac at the row of velocity dof di of body bi and
// the column of dof dj of body bj, when both are in one tree and the entry
// is in M's pattern.
func addJacEntry(g *gyroJacobian, m *multibody.Model, bi, di, bj, dj int, x float64) {
	addJacEntryV(g, m, m.Bodies[bi].VOff+di, m.Bodies[bj].VOff+dj, x)
}

// addJacEntryV adds x to g.jac at the row of velocity vi and the column of
// velocity vj (indices into v), when both are in one tree and the entry is
// in M's pattern.
func addJacEntryV(g *gyroJacobian, m *multibody.Model, vi, vj int, x float64) {
	off := 0
	for t, tr := range m.Trees {
		if vi < tr.VOffset || vi >= tr.VOffset+tr.NV {
			off += tr.NV * tr.NV
			continue
		}
		i, j := vi-tr.VOffset, vj-tr.VOffset
		if j < 0 || j >= tr.NV || !related(g.par[t], i, j) {
			return
		}
		g.jac[off+i*tr.NV+j] += x
		return
	}
}

// related reports whether velocities i and j of a tree with velocity
// parents par are equal or one is an ancestor of the other (M_ij may be
// non-zero).
func related(par []int, i, j int) bool {
	a, b := max(i, j), min(i, j)
	for a > b {
		a = par[a]
	}
	return a == b
}
