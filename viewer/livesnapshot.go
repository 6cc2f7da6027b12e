package viewer

import (
	"errors"
	"slices"

	"github.com/stiction-sim/stiction/multibody"
	"github.com/stiction-sim/stiction/sim"
)

// errStopped is the error of a command sent to a session that has stopped.
var errStopped = errors.New("viewer: the session has stopped")

// Snapshot is a read-only view of a session's simulation, valid inside the
// function given to Session.Inspect only.
type Snapshot struct{ s *Session }

// T returns the simulated time, s.
func (v *Snapshot) T() float64 { return v.s.sim.State.T }

// Steps returns the steps taken since the start or the last reset.
func (v *Snapshot) Steps() int { return v.s.sim.Steps() }

// DT returns the time step, s.
func (v *Snapshot) DT() float64 { return v.s.b.Config.DT }

// Paused reports whether the session is paused.
func (v *Snapshot) Paused() bool { return v.s.paused }

// Rate returns the real-time factor (0: as fast as possible).
func (v *Snapshot) Rate() float64 { return v.s.rate }

// Model returns the session's model name and model.
func (v *Snapshot) Model() (string, *multibody.Model) { return v.s.name, v.s.b.Model }

// State returns a copy of the current state.
func (v *Snapshot) State() multibody.State {
	st := v.s.sim.State
	return multibody.State{Q: slices.Clone(st.Q), V: slices.Clone(st.V), T: st.T}
}

// Checkpoint returns a checkpoint of the simulator.
func (v *Snapshot) Checkpoint() *sim.Checkpoint { return v.s.sim.Checkpoint() }

// Control returns the control the page set on actuator i (NaN: none).
func (v *Snapshot) Control(i int) float64 { return v.s.ctrl[i] }

// History returns the steps and frames kept for the record command.
func (v *Snapshot) History() (steps, frames int) { return len(v.s.hist.stats), len(v.s.hist.frames) }

// Perturbation returns the perturbed body and the last force (or torque),
// and whether one is applied.
func (v *Snapshot) Perturbation() (body int, force [3]float64, on bool) {
	b, on := v.s.pert.Active()
	f, _ := v.s.pert.Last()
	return b, f, on
}

// Watchers returns the number of connected pages.
func (v *Snapshot) Watchers() int { return int(v.s.watchers.Load()) }
