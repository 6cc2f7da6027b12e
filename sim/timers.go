package sim

import "time"

// Stage is a stage of the time step whose wall time the per-stage timers
// measure (Config.Profile), as MuJoCo's mjTIMER_* do.
type Stage int

// The stages of Simulator.Step, in the order it runs them.
const (
	StageKinematics         Stage = iota // forward kinematics at (q0, v0) (skipped when the last step's end state is unchanged)
	StageBroadPhase                      // geometry poses, inflated bounding boxes, BroadPhase.Pairs
	StageNarrowPhase                     // geometry.Collide per admitted candidate pair, speculative filtering
	StageContactMemory                   // contact.Memory Recall and Remember (persistent contacts)
	StageFreeMotion                      // v* and A (eq. 13–15), its factorization
	StageContactAssembly                 // contact rows: J, v̂, R, μ (contact.Assembler)
	StageConstraintAssembly              // limits, couplers, welds, actuators, joint friction
	StageElimination                     // attached and prescribed velocities: the reduced problem
	StageSolve                           // the contact solver, with the refiner's re-solves (solver.Stats.ResolveTime)
	StageExpansion                       // v = P u + c, and the optional relinearizations
	StagePositions                       // q from v (eq. 12), the second half kick, eliminated bodies
	StageStats                           // energies, constraint reports and the other statistics
	NumStages                            // number of stages
)

var stageNames = [NumStages]string{
	"kinematics", "broad phase", "narrow phase", "contact memory", "free motion",
	"contact assembly", "constraint assembly", "elimination", "solve", "expansion",
	"position update", "stats and energies",
}

// String returns the stage's name as `stiction run --profile` prints it.
func (s Stage) String() string {
	if s < 0 || s >= NumStages {
		return "unknown stage"
	}
	return stageNames[s]
}

// StepTimes are the wall times of one step's stages, all zero unless
// Config.Profile is set. The stages tile the step: their sum is the wall
// time of Simulator.Step from its first to its last clock reading, and
// Step is that sum.
type StepTimes struct {
	Stage [NumStages]time.Duration
	Step  time.Duration // the sum of the stages
}

// profiler takes the clock readings of the stage timers.
type profiler struct {
	on    bool
	last  time.Time
	times StepTimes
}

// start begins a step's timing. It is small enough to be inlined: with
// the timers off a step's start costs the test of p.on, and begin, out of
// line, does not sit between take's hot blocks.
func (p *profiler) start() {
	if p.on {
		p.begin()
	}
}

// begin clears the stage times and takes the step's first clock reading.
//
//go:noinline
func (p *profiler) begin() {
	p.times = StepTimes{}
	p.last = time.Now()
}

// lap charges the time since the last reading to stage s. It is small
// enough to be inlined, so that with the timers off a lap costs the test
// of p.on and no call.
func (p *profiler) lap(s Stage) {
	if p.on {
		p.read(s)
	}
}

// lap is profiler.lap for the stages of advance: its out-of-line part,
// readLap, takes the simulator, which advance holds in the call's
// register, so that each of advance's ten laps, when the timers are off,
// leaves a shorter call sequence between its hot blocks.
func (sim *Simulator) lap(s Stage) {
	if sim.prof.on {
		sim.readLap(s)
	}
}

// readLap takes a clock reading for lap.
//
//go:noinline
func (sim *Simulator) readLap(s Stage) { sim.prof.read(s) }

// read takes a clock reading for lap.
func (p *profiler) read(s Stage) {
	now := time.Now()
	p.times.Stage[s] += now.Sub(p.last)
	p.last = now
}

// finish completes the step's times.
func (p *profiler) finish() StepTimes {
	if !p.on {
		return StepTimes{}
	}
	t := &p.times
	t.Step = 0
	for _, d := range t.Stage {
		t.Step += d
	}
	return *t
}
