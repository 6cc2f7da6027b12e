package sim

import (
	"github.com/stiction-sim/stiction/geometry/mjccd"
	"github.com/stiction-sim/stiction/multibody"
)

// SetTreeFactor turns the tree factor of branched trees' free-motion
// blocks on or off for the simulators made afterwards and returns a
// function that restores the previous setting.
func SetTreeFactor(on bool) (restore func()) {
	old := treeFactor
	treeFactor = on
	return func() { treeFactor = old }
}

// SetFreeSolutions turns the solver-free solution of problems without
// rows (freeSolution) on or off for the simulators made afterwards and
// returns a function that restores the previous setting.
func SetFreeSolutions(on bool) (restore func()) {
	old := freeSolutions
	freeSolutions = on
	return func() { freeSolutions = old }
}

// StageProbe runs the rk4 stages' broad phase (stageBroadPhase) and the
// full one (broadPhase, no speculative margins) on a simulator's current
// state, each with its own scratch memory.
type StageProbe struct {
	stage, full collider
	kin         *multibody.Workspace
}

// Candidates returns the candidate pairs of both broad phases at the
// simulator's state and how many times the stage one rebuilt its tree.
func (p *StageProbe) Candidates(s *Simulator) (stage, full [][2]int32, rebuilds int) {
	if p.kin == nil {
		p.kin = multibody.NewWorkspace(s.Model)
	}
	p.kin.Update(s.State.Q, s.State.V)
	s.stageBroadPhase(&p.stage, p.kin)
	s.broadPhase(&p.full, p.kin, nil)
	return p.stage.cand, p.full.cand, p.stage.rebuilds
}

// FilteredStage returns, at the simulator's current state, the candidate
// pairs that the rk4 stages' broad phase gives with the simulator's pair
// filter (filteredBroadPhase without speculative margins) and those of the
// full broad phase (the tree, no speculative margins) that
// Model.Collidable admits, and whether the filter is direct.
func (p *StageProbe) FilteredStage(s *Simulator) (direct bool, filtered, full [][2]int32) {
	if p.kin == nil {
		p.kin = multibody.NewWorkspace(s.Model)
	}
	p.kin.Update(s.State.Q, s.State.V)
	var f collider
	f.filter = s.ws.col.filter
	s.stageBroadPhase(&f, p.kin)
	s.broadPhase(&p.full, p.kin, nil)
	for _, c := range p.full.cand {
		if s.Model.Collidable(int(c[0]), int(c[1])) {
			full = append(full, c)
		}
	}
	return f.filter.direct, f.cand, full
}

// MuJoCoGeom returns geometry i of s at its current state as the convex
// collider takes it (mjGeom), and whether it takes it.
func MuJoCoGeom(s *Simulator, i int) (mjccd.Geom, bool) {
	g := &s.Model.Geometries[i]
	var out mjccd.Geom
	kin := multibody.NewWorkspace(s.Model)
	kin.Update(s.State.Q, s.State.V)
	x := s.Model.BodyPose(s.State, g.Body).Compose(g.Pose)
	ok := mjGeom(g, &x, kin, &out)
	return out, ok
}

// SetPlaneCulling turns the narrow phase's half-space culling
// (beyondHalfSpace) on or off for the simulators made afterwards and
// returns a function that restores the previous setting.
func SetPlaneCulling(on bool) (restore func()) {
	old := planeCulling
	planeCulling = on
	return func() { planeCulling = old }
}

// PlaneCulled returns how many candidate pairs the step's narrow phase
// has culled (beyondHalfSpace) so far.
func PlaneCulled(s *Simulator) int { return s.ws.col.culled }

// SetSleepSkips turns the skipped free-motion work of sleeping trees
// (sleepSkips) on or off for the simulators made afterwards and returns a
// function that restores the previous setting.
func SetSleepSkips(on bool) (restore func()) {
	old := sleepSkips
	sleepSkips = on
	return func() { sleepSkips = old }
}

// KeptMassBlocks returns how many blocks of M the sleeping trees kept
// instead of running CRBA (heldMass).
func (sim *Simulator) KeptMassBlocks() int { return sim.sleep.kept }

// ForcesPass runs resetForces(jac) and the force elements' pass (gravity
// aside) at the simulator's state, and returns the output's K, D and N.
func ForcesPass(s *Simulator, jac bool) (k, d, n []float64) {
	w := &s.ws
	s.resetForces(jac)
	w.kin.Update(s.State.Q, s.State.V)
	w.ctx.WS, w.ctx.Q, w.ctx.V, w.ctx.T = w.kin, s.State.Q, s.State.V, s.State.T
	for _, e := range w.elems[1:] {
		e.Apply(&w.ctx, w.fout)
	}
	return w.fout.K, w.fout.D, w.fout.N
}
