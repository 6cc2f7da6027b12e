package sim

import (
	"errors"
	"fmt"

	"github.com/stiction-sim/stiction/contact"
	"github.com/stiction-sim/stiction/multibody"
	"github.com/stiction-sim/stiction/solver"
)

// Simulator advances a State of a Model in time.
type Simulator struct {
	Model  *multibody.Model
	State  *multibody.State
	cfg    Config
	scheme Scheme // cfg.Scheme, or symplectic Euler for the zero Scheme
	// explicit is scheme.Explicit(), fixed at New with the scheme: the
	// step's test reads one flag, not a copy of the scheme (Explicit's
	// value receiver).
	explicit bool
	ws       Workspace
	mem      contact.Memory // the last step's contacts (persistent contacts)
	step     int            // steps taken
	t0       float64        // time of the initial state
	prof     profiler       // the stage timers (Config.Profile)

	pgsWarm     pgsWarm // MuJoCo's qacc_warmstart, carried between steps (mujoco_pgs.go)
	meanInertia float64 // MuJoCo's stat.meaninertia, for PGS's stopping rule (mujoco_pgs.go)
	sleep       sleeper // the sleeping islands (contact.Params.Sleep, sleep.go)
	// last and sub come after the fields every step reads, on cache lines
	// of their own: lastStep's statistics are written by Step and read by
	// Stats, and sub only by a substepped step.
	last lastStep    // the statistics of the last step, gathered when read (Stats)
	sub  substepWork // a substepped step's saved start (substep.go)
}

// lastStep holds the statistics of the last step: st once gathered
// (Step, or the first Stats after Advance), times its stage timers until
// then.
type lastStep struct {
	taken    bool // a step was taken since New, Restore or a failed step
	gathered bool
	st       StepStats
	times    StepTimes
}

// New returns a Simulator for model m starting from state s (which it then
// owns and advances).
func New(m *multibody.Model, s *multibody.State, cfg Config) (*Simulator, error) {
	if m == nil || s == nil {
		return nil, errors.New("sim: New needs a model and a state")
	}
	nmat := 0
	for _, g := range m.Geometries {
		nmat = max(nmat, g.Material+1)
	}
	if err := cfg.Validate(nmat); err != nil {
		return nil, err
	}
	if len(s.Q) != m.NQ || len(s.V) != m.NV {
		return nil, fmt.Errorf("sim: state has %d positions and %d velocities, model needs %d and %d", len(s.Q), len(s.V), m.NQ, m.NV)
	}
	if err := m.CheckFinite(s); err != nil {
		return nil, fmt.Errorf("sim: initial state: %w", err)
	}
	sim := &Simulator{Model: m, State: s, cfg: cfg, scheme: cfg.Scheme.resolved(), t0: s.T, prof: profiler{on: cfg.Profile}}
	if pr, ok := cfg.Solver.(solver.Profiler); ok {
		pr.SetProfile(cfg.Profile)
	}
	sim.explicit = sim.scheme.Explicit()
	sim.ws.init(m, &sim.cfg)
	sim.ws.cons.relinearizes = cfg.Relinearizations != 0 && !sim.explicit && sim.scheme.ThetaQ != 0 // relinearize
	sim.sleep.init(m, cfg.Contact.Sleep)
	sim.mem.Keep = sim.sleep.frozen
	sim.initPGS()
	if err := sim.initConstraints(); err != nil {
		return nil, err
	}
	return sim, nil
}

// Config returns the simulator's configuration.
func (sim *Simulator) Config() Config { return sim.cfg }

// Scheme returns the θ-method in use.
func (sim *Simulator) Scheme() Scheme { return sim.scheme }

// Step advances the state by one time step δt (SAP Algorithm 1) and returns
// the step's statistics. A contact solve that does not converge still
// advances the state with the solver's last iterate and reports its status;
// Step returns an error only when the problem cannot be built or the new
// state is not finite, and then leaves the state unchanged. A step whose
// contacts rotate fast is taken as substeps
// (contact.Params.SubstepTolerance, substep.go).
func (sim *Simulator) Step() (StepStats, error) {
	err := sim.take(true)
	return sim.last.st, err // on an error, empty but for a substepped step's Times
}

// Advance takes one time step as Step does, with the same state after it
// to the bit, without gathering its statistics: Stats gathers them when
// they are read. The energies of StepStats are the costly part (gravity's
// potential energy visits every body; ½ vᵀ M v every body and armature),
// which a caller that does not read them (a batch of environments, a
// benchmark) need not pay for; MuJoCo likewise computes its energies only
// when asked (mjENBL_ENERGY). The end-of-step kinematics that the energies
// use are then computed by the next step, which needs them at its start
// (startKinematics), or by Stats. The constraint rows of a mujoco-euler
// or rk4 step in which none acts (v = v*) are likewise assembled only when
// Stats, ConstraintReports, JointForces, Impulses or ContactVelocities
// read them (deferRows).
func (sim *Simulator) Advance() error { return sim.take(false) }

// Stats returns the statistics of the last step taken by Step or Advance
// (the zero StepStats before the first, after Restore and after a step
// that failed), gathering them at the first call after an Advance: their
// energies are then those of the state at that call, so read them before
// changing State. Later calls return the same value until the next step.
func (sim *Simulator) Stats() StepStats {
	if l := &sim.last; l.taken && !l.gathered {
		l.st = sim.stats()
		l.st.Substeps, l.st.Times, l.gathered = 1, l.times, true
	}
	return sim.last.st
}

// take takes one step, gathering its statistics into sim.last when gather
// is set (a substepped step always gathers them, per substep).
func (sim *Simulator) take(gather bool) error {
	p := &sim.prof
	p.start()
	// Not sim.last = lastStep{}: an Advance leaves st as it was (Stats
	// overwrites it when it gathers), and without the profiler times stay
	// zero; a failed step clears it below.
	sim.last.taken, sim.last.gathered = false, false
	// No contact possible and none remembered: the step skips the
	// contact stages (Workspace.idle).
	sim.ws.idle = sim.ws.noContact && sim.mem.Len() == 0
	sim.ws.cons.lazy = false        // the last step's rows, if they waited (deferRows), are not read now
	sim.detectContacts()            // geometry at q0: C(q0) with p, n̂, φ0 (laps kinematics, broad and narrow phase)
	if k := sim.substeps(); k > 1 { // fast rotation in contact: k substeps of δt/k (substep.go)
		return sim.takeSubsteps(k)
	}
	if err := sim.advance(); err != nil {
		return sim.failed(err)
	}
	sim.settle() // settled islands fall asleep (sleep.go)
	sim.step++
	sim.last.taken = true
	if gather || p.on {
		sim.gatherStep(gather)
	}
	return nil
}

// gatherStep gathers a step's statistics into sim.last when gather is set
// and completes its stage timers (take). It is out of line: an Advance
// without the profiler runs neither, and the statistics' large struct
// would sit between take's hot blocks.
//
//go:noinline
func (sim *Simulator) gatherStep(gather bool) {
	if gather {
		sim.last.st = sim.stats()
		sim.prof.lap(StageStats)
		sim.last.st.Substeps, sim.last.gathered = 1, true
	}
	if sim.prof.on {
		sim.finishTimes()
	}
}

// failed clears the last step's statistics after a step that failed with
// err (Step and Stats return the zero StepStats) and returns err. It and
// finishTimes are out of line, as the rarely taken parts of take: the
// large structs they write would sit between its hot blocks.
//
//go:noinline
func (sim *Simulator) failed(err error) error {
	sim.last = lastStep{}
	return err
}

// finishTimes completes the stage timers of a step that take gathers.
//
//go:noinline
func (sim *Simulator) finishTimes() {
	sim.last.times = sim.prof.finish()
	sim.last.st.Times = sim.last.times
}

// recallContacts rescales the remembered impulses to the step's δt (they
// are per δt) and recalls what the last step knew of each persistent
// contact (advance). Out of line: inlined, Rescale's test and its loop over
// the memos, which runs only when δt changed, took two of advance's hot
// code lines (Gymnasium pusher).
//
//go:noinline
func (sim *Simulator) recallContacts() {
	sim.mem.Rescale(sim.cfg.DT)
	sim.mem.Recall(sim.ws.pairs)
}

// advance takes the step from its detected contacts to the new state.
func (sim *Simulator) advance() error {
	if !sim.ws.idle {
		sim.recallContacts() // persistent contacts: what the last step knew of each
	}
	sim.lap(StageContactMemory)
	if err := sim.freeMotion(); err != nil { // v* from m(v*) = 0 and A (eq. 13–15)
		return err
	}
	sim.freezeVStar() // v* = 0 on sleeping trees (sleep.go)
	sim.lap(StageFreeMotion)
	if !sim.ws.idle { // an idle step has no pair to assemble (Workspace.idle)
		if err := sim.assembleContacts(); err != nil { // J, v̂, R, μ (SAP §V)
			return err
		}
	}
	sim.lap(StageContactAssembly)
	sim.sleep.rowsFrom = len(sim.ws.problem.Constraints)
	if err := sim.assembleConstraints(); err != nil { // limits, couplers, actuators, friction
		return err
	}
	sim.lap(StageConstraintAssembly)
	if err := sim.reduceProblem(); err != nil { // eliminate attached, prescribed v (notes §0.17–0.21)
		return err
	}
	sim.lap(StageElimination)
	if err := sim.solveContacts(); err != nil { // v = argmin ℓp(v) (eq. 24)
		return err
	}
	sim.keepEulerWarm()           // MuJoCo's qacc_warmstart of a mujoco-euler step (mujoco_pgs.go)
	sim.ws.noslip.pending = false // a pre-noslip warm start is kept within its step only (mujoco_noslip.go)
	sim.lap(StageSolve)
	sim.expandSolution()                      // v = P u + c
	if err := sim.relinearize(); err != nil { // optional: implicit step at the solution's mid-step
		return err
	}
	sim.lap(StageExpansion)
	w := &sim.ws
	if !w.idle {
		sim.mem.Remember(w.pairs, &w.assemble, &w.problem, &w.result) // impulses, predicted gaps and anchors by contact identity, for the next step
	}
	sim.lap(StageContactMemory)
	if err := sim.updatePositions(); err != nil { // q = q0 + δt N(q^θq) v^θvq (eq. 12)
		return err
	}
	sim.holdSleeping()                           // sleeping trees keep v = 0 and q0 (sleep.go)
	if err := sim.secondHalfKick(); err != nil { // Bridson–Marino only (scheme_notes.go)
		return err
	}
	sim.advanceActivations() // act = act0 + δt acṫ (activation.go)
	sim.enforceEliminated()  // attached and prescribed bodies exactly on their constraints
	sim.lap(StagePositions)
	return nil
}
