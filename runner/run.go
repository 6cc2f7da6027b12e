package runner

import (
	"context"
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/stiction-sim/stiction/record"
	"github.com/stiction-sim/stiction/scene"
	"github.com/stiction-sim/stiction/sensor"
	"github.com/stiction-sim/stiction/sim"
)

// Options say what a run writes and when it stops.
type Options struct {
	Out    string        // run directory; "" writes no files
	Format record.Format // per-step file format
	// CheckpointEvery writes a checkpoint (CheckpointPath) every this many
	// steps; 0 writes none. Checkpoints need Out, CSV output and Source.
	CheckpointEvery int
	// Source is written into checkpoints, so that Resume can rebuild the
	// scene.
	Source *Source
	// EnergyGrowth is the blow-up factor of the divergence guard
	// (record.NewGuard); 0 turns the energy checks off, this one and the
	// energy rule of record.Validity.
	EnergyGrowth float64
	// OnStep, if set, is called after every step taken (progress bar,
	// live view).
	OnStep func(s *sim.Simulator, st sim.StepStats)
	// Profile, if set, turns the simulator's stage timers on
	// (sim.Config.Profile) and receives the steps' stage times and the
	// stepping and recording times of this run (of a resumed run: from
	// the checkpoint on).
	Profile *Profile
}

// StopError is returned with the summary of a run that did not reach its
// last step: its Status is record.StatusDiverged, StatusInvalid,
// StatusInterrupted or StatusError.
type StopError struct {
	Status string
	Step   int // the last step taken (interrupted) or attempted
	Err    error
}

func (e *StopError) Error() string {
	return fmt.Sprintf("%s at step %d: %v", e.Status, e.Step, e.Err)
}

func (e *StopError) Unwrap() error { return e.Err }

// run is one run in progress.
type run struct {
	b       *scene.Built
	o       Options
	sim     *sim.Simulator
	w       *record.Writer
	acc     record.Accumulator
	guard   record.Guard
	valid   *record.Validity
	wall    time.Duration      // stepping time
	lastRec int                // last step whose trajectory was recorded
	forces  record.JointForces // scratch for joints.csv: actuator and constraint forces per velocity

	// sensors.csv: the scene's sensors, their writer, the state at the
	// start of the current step and the values' scratch.
	sensors *sensor.Set
	sw      *record.SensorWriter
	q0, v0  []float64
	vals    []float64
}

// Simulate runs b from its initial state to its last step, or until ctx is
// cancelled, the run diverges or a step fails. It returns the summary (also
// written to o.Out) in every case where the run started; the error is a
// *StopError when the run stopped early, or an error writing the files.
func Simulate(ctx context.Context, b *scene.Built, o Options) (record.Summary, error) {
	r, err := start(b, o, nil)
	if err != nil {
		return record.Summary{}, err
	}
	if r.w != nil {
		r.w.Trajectory(b.Model, b.State)
		r.recordJoints()
		err := r.w.Scene(record.DescribeScene(b.Name, b.Config.DT, b.RecordEvery, b.Model, b.State))
		if err == nil {
			err = r.w.Sync() // the initial frame, for a run killed before its first step
		}
		if err != nil {
			r.w.CloseSummary(&record.Summary{})
			return record.Summary{}, err
		}
	}
	return r.loop(ctx)
}

// Resume continues the run of checkpoint c with b, built from c.Source
// (possibly with a longer duration). With o.Out set, the files of the run
// directory are truncated to their size at the checkpoint and continued
// (see CopyRun to continue into another directory).
func Resume(ctx context.Context, b *scene.Built, c *Checkpoint, o Options) (record.Summary, error) {
	if c.Sim.Step > b.Steps {
		return record.Summary{}, fmt.Errorf("runner: the checkpoint is at step %d, past the run's last step %d (give a longer --duration)", c.Sim.Step, b.Steps)
	}
	r, err := start(b, o, c)
	if err != nil {
		return record.Summary{}, err
	}
	return r.loop(ctx)
}

// start builds the simulator, the writer and the guard, from a checkpoint
// if c is not nil.
func start(b *scene.Built, o Options, c *Checkpoint) (*run, error) {
	if o.CheckpointEvery < 0 {
		return nil, fmt.Errorf("runner: checkpoint interval %d steps must be ≥ 0", o.CheckpointEvery)
	}
	if o.CheckpointEvery > 0 && (o.Out == "" || o.Format != record.CSV || o.Source == nil) {
		return nil, errors.New("runner: checkpoints need an output directory (--out), CSV output and the run's source")
	}
	cfg := b.Config
	cfg.Profile = cfg.Profile || o.Profile != nil
	s, err := sim.New(b.Model, b.State, cfg)
	if err != nil {
		return nil, err
	}
	r := &run{b: b, o: o, sim: s}
	pe0 := s.PotentialEnergy()
	r.guard = record.NewGuard(b.Model, b.State, pe0, o.EnergyGrowth)
	r.valid = record.NewValidity(b.Model, &b.Config, b.State, pe0, o.EnergyGrowth > 0 && !math.IsInf(o.EnergyGrowth, 1))
	ro := record.Options{Format: o.Format}
	if c != nil {
		if err := s.Restore(c.Sim); err != nil {
			return nil, err
		}
		r.acc, r.wall, r.lastRec = c.Acc, time.Duration(c.WallTimeS*float64(time.Second)), c.Sim.Step
		ro.Resume = &c.Offsets
	}
	if o.Out != "" {
		if r.w, err = record.CreateWith(o.Out, ro); err != nil {
			return nil, err
		}
		if len(b.Sensors) > 0 {
			if r.sensors, err = sensor.NewSet(b.Model, b.Sensors); err != nil {
				return nil, errors.Join(err, r.w.CloseSummary(&record.Summary{}))
			}
			resumeT := -1.0
			if c != nil {
				resumeT = s.State.T
			}
			if r.sw, err = record.CreateSensors(o.Out, r.sensors.Names(), resumeT); err != nil {
				return nil, errors.Join(err, r.w.CloseSummary(&record.Summary{}))
			}
			r.q0, r.v0 = make([]float64, b.Model.NQ), make([]float64, b.Model.NV)
			r.vals = make([]float64, r.sensors.Len())
		}
	}
	return r, nil
}

// loop takes the steps and finishes the run.
func (r *run) loop(ctx context.Context) (record.Summary, error) {
	b, s := r.b, r.sim
	var stop *StopError
	for i := s.Steps() + 1; i <= b.Steps; i++ {
		select {
		case <-ctx.Done():
			stop = &StopError{Status: record.StatusInterrupted, Step: i - 1, Err: context.Cause(ctx)}
		default:
		}
		if stop != nil {
			break
		}
		if r.sensors != nil {
			copy(r.q0, s.State.Q)
			copy(r.v0, s.State.V)
		}
		t := time.Now()
		st, err := s.Step()
		wall := time.Since(t)
		r.wall += wall
		if err != nil {
			stop = &StopError{Status: record.StatusError, Step: i, Err: err}
			break
		}
		r.acc.Add(st)
		if cr := s.ConstraintReports(); len(cr) > 0 {
			r.acc.AddConstraints(cr, b.Config.DT)
		}
		r.record(st, i%b.RecordEvery == 0)
		if p := r.o.Profile; p != nil {
			p.add(&st, wall)
			p.Recording += time.Since(t) - wall
		}
		if r.o.OnStep != nil {
			r.o.OnStep(s, st)
		}
		if stop = r.check(st, i); stop != nil {
			break
		}
		if r.o.CheckpointEvery > 0 && i%r.o.CheckpointEvery == 0 {
			if err := r.checkpoint(); err != nil {
				stop = &StopError{Status: record.StatusError, Step: i, Err: err}
				break
			}
		}
	}
	if stop != nil && stop.Status == record.StatusInterrupted && r.o.CheckpointEvery > 0 {
		if err := r.checkpoint(); err != nil {
			stop.Err = errors.Join(stop.Err, err)
		}
	}
	return r.finish(stop)
}

// check returns the StopError of step i when it diverged or its result is
// invalid (record.Guard, record.Validity), nil otherwise.
func (r *run) check(st sim.StepStats, i int) *StopError {
	s := r.sim
	if err := r.guard.Check(st, s.State); err != nil {
		return &StopError{Status: record.StatusDiverged, Step: i, Err: err}
	}
	if err := r.valid.Check(st, s.State, s.Contacts()); err != nil {
		return &StopError{Status: record.StatusInvalid, Step: i, Err: err}
	}
	return nil
}

// record writes the step's row, and its trajectory, contacts and
// constraints if traj.
func (r *run) record(st sim.StepStats, traj bool) {
	if r.w == nil {
		return
	}
	r.w.Step(st)
	if traj {
		r.recordFrame()
	}
}

func (r *run) recordFrame() {
	b, s := r.b, r.sim
	r.w.Trajectory(b.Model, b.State)
	r.w.Contacts(b.State.T, b.Config.DT, b.Model, s.Contacts(), s.Impulses())
	r.w.Constraints(b.State.T, b.Config.DT, s.ConstraintReports())
	r.recordJoints()
	r.recordSensors()
	r.lastRec = s.Steps()
}

// recordSensors writes the sensors.csv row of the step just taken (none
// before the first step: acceleration and force sensors describe a step).
func (r *run) recordSensors() {
	s := r.sim
	if r.sw == nil || s.Steps() == 0 {
		return
	}
	r.sensors.Evaluate(s.State, &sensor.Step{DT: r.b.Config.DT, Q0: r.q0, V0: r.v0,
		Contacts: s.Contacts(), Impulses: s.Impulses(), Reports: s.ConstraintReports()}, r.vals)
	r.sw.Row(s.State.T, r.vals)
}

// recordJoints records joints.csv rows, with the step's actuator and
// constraint forces when the scene has constraints.
func (r *run) recordJoints() {
	b := r.b
	if b.Config.Constraints == nil {
		r.w.Joints(b.Model, b.State, nil)
		return
	}
	if r.forces.Actuator == nil {
		r.forces = record.JointForces{Actuator: make([]float64, b.Model.NV), Constraint: make([]float64, b.Model.NV)}
	}
	if r.sim.Steps() > 0 {
		r.sim.JointForces(r.forces.Actuator, r.forces.Constraint)
	}
	r.w.Joints(b.Model, b.State, &r.forces)
}

// solverName names the run's solvers for its summary: the configured one
// (solver.type), after the port of MuJoCo 2.2.2's own solver that solves
// MuJoCo's rows where the scene asks for it (contact.mujoco_newton,
// mujoco_cg, pgs_iterations: the MJCF import's default; package sim,
// mujoco_newton.go, mujoco_cg.go, mujoco_pgs.go).
func solverName(b *scene.Built) string {
	switch c := b.Config.Contact; {
	case c.Newton && c.CG:
		return "mujoco-cg + " + b.SolverName
	case c.Newton:
		return "mujoco-newton + " + b.SolverName
	case c.PGSIterations > 0:
		return "mujoco-pgs + " + b.SolverName
	}
	return b.SolverName
}

// finish records the final frame (unless recorded), writes the summary and
// closes the files.
func (r *run) finish(stop *StopError) (record.Summary, error) {
	b := r.b
	if r.w != nil && r.lastRec != r.sim.Steps() {
		r.recordFrame()
	}
	sum := r.acc.Summary(b.Name, b.Config.DT, r.wall.Seconds(), b.Model, b.State)
	sum.Solver, sum.Approximation, sum.Scheme = solverName(b), b.Config.Contact.Approximation.String(), b.Config.Scheme.Name
	var err error
	if stop != nil {
		sum.Status, sum.StatusStep, sum.Message = stop.Status, stop.Step, stop.Err.Error()
		err = stop
	}
	if r.sw != nil {
		err = errors.Join(err, r.sw.Close())
	}
	if r.w != nil {
		err = errors.Join(err, r.w.CloseSummary(&sum))
	}
	return sum, err
}
