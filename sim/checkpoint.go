package sim

import (
	"encoding/gob"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"

	"github.com/stiction-sim/stiction/contact"
)

// CheckpointVersion is the version of the Checkpoint format written by
// WriteCheckpoint. ReadCheckpoint refuses any other version.
const CheckpointVersion = 5

// Checkpoint is everything the next Step of a Simulator depends on besides
// the Model and the Config: the state (q, v, t), the step counter and the
// time of the initial state (the step's end time is t0 + (step+1)·δt, so
// both are needed for bit-identical times), the contact solver's warm start
// (v0 = State.V) and the persistent contacts of the last step (their
// identities, ages, impulses, predicted gaps and friction anchors: the
// Lagged approximation, the gap correction and friction with memory depend
// on them). New per-step state goes here as new fields, each filled in
// Simulator.Checkpoint and applied in Simulator.Restore.
//
// The encoding (WriteCheckpoint) is encoding/gob, which is self-describing
// and exact for float64: a field added later decodes as its zero value from
// an older file, and Version says which fields a file is expected to have.
type Checkpoint struct {
	Version int
	NQ, NV  int     // model sizes, checked by Restore
	DT      float64 // time step, checked by Restore
	Scheme  Scheme  // integrator, checked by Restore
	Step    int     // steps taken since the initial state
	T0      float64 // time of the initial state, s
	T       float64 // time of the state, s
	Q, V    []float64
	// Act is the actuators' activations (State.Act; version 5).
	Act []float64
	// Contacts are the persistent contacts of the last step, in key order.
	Contacts []ContactMemo
	// QAccWarm is MuJoCo's qacc_warmstart, the warm start of the PGS
	// solver (contact.Params.PGSIterations): nil before its first solve
	// and without PGS (and in files written before it was added).
	QAccWarm []float64
	// Sleep is the sleeping islands' state (contact.Params.Sleep): nil
	// when sleeping is off (and in files written before it was added,
	// which then restore every body awake).
	Sleep *SleepMemo
}

// SleepMemo is what a checkpoint keeps of the sleeping islands, per tree:
// its quiet steps, whether it sleeps, its island and that island's e_m.
type SleepMemo struct {
	Quiet  []int32
	Asleep []bool
	Island []int32
	EM     []float64
}

// ContactMemo is what a checkpoint keeps of one persistent contact: its
// identity, age, impulse, predicted gap and anchors (contact.Memory).
type ContactMemo = contact.Memo

// Checkpoint returns a snapshot of everything the next step depends on. The
// snapshot does not share memory with the simulator.
func (sim *Simulator) Checkpoint() *Checkpoint {
	return &Checkpoint{
		Version:  CheckpointVersion,
		NQ:       sim.Model.NQ,
		NV:       sim.Model.NV,
		DT:       sim.cfg.DT,
		Scheme:   sim.scheme,
		Step:     sim.step,
		T0:       sim.t0,
		T:        sim.State.T,
		Q:        slices.Clone(sim.State.Q),
		V:        slices.Clone(sim.State.V),
		Act:      slices.Clone(sim.State.Act),
		Contacts: sim.mem.Memos(),
		QAccWarm: sim.pgsWarm.checkpoint(),
		Sleep:    sim.sleep.checkpoint(),
	}
}

// Restore sets the simulator to the snapshot c, taken from a simulator of
// the same model and configuration, so that the steps that follow are
// bit-identical to those that followed the snapshot. It checks the version,
// the model sizes, the time step, the scheme and that the state is finite,
// and leaves the simulator unchanged on error.
func (sim *Simulator) Restore(c *Checkpoint) error {
	if err := c.check(); err != nil {
		return err
	}
	switch {
	case c.NQ != sim.Model.NQ || c.NV != sim.Model.NV:
		return fmt.Errorf("sim: checkpoint has %d positions and %d velocities, model needs %d and %d", c.NQ, c.NV, sim.Model.NQ, sim.Model.NV)
	case c.DT != sim.cfg.DT:
		return fmt.Errorf("sim: checkpoint time step %v differs from the simulator's %v", c.DT, sim.cfg.DT)
	case c.Scheme != sim.scheme:
		return fmt.Errorf("sim: checkpoint scheme %+v differs from the simulator's %+v", c.Scheme, sim.scheme)
	case len(c.Act) != len(sim.State.Act):
		return fmt.Errorf("sim: checkpoint has %d activations, the simulator %d", len(c.Act), len(sim.State.Act))
	case c.QAccWarm != nil && len(c.QAccWarm) != sim.Model.NV:
		return fmt.Errorf("sim: checkpoint has a warm start of %d accelerations, model needs %d", len(c.QAccWarm), sim.Model.NV)
	}
	if err := sim.sleep.check(c.Sleep, len(sim.Model.Trees)); err != nil {
		return err
	}
	sim.pgsWarm.restore(c.QAccWarm)
	copy(sim.State.Act, c.Act)
	copy(sim.State.Q, c.Q)
	copy(sim.State.V, c.V)
	sim.State.T = c.T
	sim.step, sim.t0 = c.Step, c.T0
	sim.last = lastStep{} // Stats: no step since the restore
	sim.mem.Restore(c.Contacts, c.DT)
	sim.sleep.restore(c.Sleep, sim.Model)
	return nil
}

// Steps returns the number of steps taken since the initial state (including
// those before a restored checkpoint).
func (sim *Simulator) Steps() int { return sim.step }

// check validates a decoded snapshot on its own.
func (c *Checkpoint) check() error {
	switch {
	case c.Version != CheckpointVersion:
		return fmt.Errorf("sim: checkpoint version %d, this build reads version %d", c.Version, CheckpointVersion)
	case len(c.Q) != c.NQ || len(c.V) != c.NV:
		return fmt.Errorf("sim: checkpoint holds %d positions and %d velocities but declares %d and %d", len(c.Q), len(c.V), c.NQ, c.NV)
	case c.Step < 0:
		return fmt.Errorf("sim: checkpoint step %d is negative", c.Step)
	case !finite(c.T) || !finite(c.T0) || !finite(c.DT):
		return fmt.Errorf("sim: checkpoint times t = %v, t0 = %v, dt = %v are not all finite", c.T, c.T0, c.DT)
	}
	for i, x := range c.Q {
		if !finite(x) {
			return fmt.Errorf("sim: checkpoint q[%d] = %v is not finite", i, x)
		}
	}
	for i, x := range c.V {
		if !finite(x) {
			return fmt.Errorf("sim: checkpoint v[%d] = %v is not finite", i, x)
		}
	}
	for i, x := range c.Act {
		if !finite(x) {
			return fmt.Errorf("sim: checkpoint act[%d] = %v is not finite", i, x)
		}
	}
	for i, x := range c.QAccWarm {
		if !finite(x) {
			return fmt.Errorf("sim: checkpoint qacc_warmstart[%d] = %v is not finite", i, x)
		}
	}
	for i, m := range c.Contacts {
		for _, x := range [...]float64{m.Impulse[0], m.Impulse[1], m.Impulse[2], m.PhiEnd, m.Shift[0], m.Shift[1], m.Shift[2], m.Roll[0], m.Roll[1], m.Roll[2], m.Spin} {
			if !finite(x) {
				return fmt.Errorf("sim: checkpoint contact %d (geometries %d, %d) holds a non-finite number %v", i, m.GeomA, m.GeomB, x)
			}
		}
		if m.Age < 0 {
			return fmt.Errorf("sim: checkpoint contact %d has negative age %d", i, m.Age)
		}
	}
	return nil
}

func finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }

// WriteCheckpoint encodes c to w with encoding/gob.
func WriteCheckpoint(w io.Writer, c *Checkpoint) error {
	if err := gob.NewEncoder(w).Encode(c); err != nil {
		return fmt.Errorf("sim: write checkpoint: %w", err)
	}
	return nil
}

// ReadCheckpoint decodes a checkpoint written by WriteCheckpoint and checks
// its version and consistency.
func ReadCheckpoint(r io.Reader) (*Checkpoint, error) {
	var c Checkpoint
	if err := gob.NewDecoder(r).Decode(&c); err != nil {
		if errors.Is(err, io.EOF) {
			err = io.ErrUnexpectedEOF
		}
		return nil, fmt.Errorf("sim: read checkpoint: %w", err)
	}
	if err := c.check(); err != nil {
		return nil, err
	}
	return &c, nil
}
