package sim

import (
	"fmt"
	"math"
	"slices"

	"github.com/stiction-sim/stiction/contact"
	"github.com/stiction-sim/stiction/multibody"
	"github.com/stiction-sim/stiction/solver"
)

// sleeper holds the sleeping of settled islands (contact.Params.Sleep,
// issue 23). An island is a set of trees joined by the step's contact
// pairs (the world joins nothing). When every velocity of every tree of an
// island stayed at most Sleep.Speed for Sleep.Steps consecutive steps, and
// no constraint row of the step (limit, actuator, coupler, friction,
// weld, …) touched any of them and none of their contacts slid
// (markSliding), the island falls asleep: its velocities are set to zero
// and, while it sleeps,
//   - the narrow phase skips the pairs of two sleeping geometries or of a
//     sleeping and a world geometry (narrowPhase), and the contact memory
//     keeps their last contacts (contact.Memory.Keep);
//   - its trees' v* is 0 (freezeVStar): they carry no constraint row, so
//     every solver returns v = v* = 0 for them, and their q is restored
//     bit for bit after the position update (holdSleeping); the free
//     motion skips their solve and keeps their block of M (heldMass);
//   - its e_m is that of the solve in which it fell asleep, and the step's
//     reported e_m is the larger of the two (stats).
//
// It wakes, whole, when a contact pair joins one of its geometries to an
// awake body's (wakeTouched, before the step's assembly: the narrow phase
// then runs again with it awake), when a force element other than gravity
// gives one of its velocities a non-zero generalized force (wakeForced),
// or on Simulator.Wake and Simulator.WakeBody. Trees that constraint rows
// touch never fall asleep, so actuators, controls, prescribed motions and
// attachments keep theirs awake. Everything is done in tree order, in the
// caller's goroutine: the result does not depend on the solver's workers.
type sleeper struct {
	on       bool
	skips    bool // sleeping trees skip their CRBA and free-motion solve (sleepSkips)
	any      bool // some tree is asleep
	rowsFrom int  // the step's first constraint row after the contact rows
	prm      contact.Sleep

	quiet  []int32   // per tree: consecutive quiet steps (capped at prm.Steps)
	asleep []bool    // per tree
	isle   []int32   // per sleeping tree: its island (the smallest tree of it)
	em     []float64 // per sleeping tree: e_m of the solve in which it fell asleep
	held   []bool    // per tree: touched by a constraint row this step
	root   []int32   // union-find over trees (settle)
	ready  []bool    // per root: every tree of its island quiet long enough
	tree   []int32   // per geometry: its body's tree (−1: welded to the world)
	frozen []bool    // per geometry: asleep or welded to the world

	massQ  []float64 // per coordinate: the q at which the tree's block of ws.mass was computed (heldMass)
	massOK []bool    // per tree: massQ holds the coordinates of its block
	kept   int       // blocks of M kept by heldMass since init (tests)

	bodies  int     // sleeping bodies
	islands int     // sleeping islands
	maxEM   float64 // largest e_m of a sleeping island
}

// init sizes the sleeper for model m with the parameters prm.
func (s *sleeper) init(m *multibody.Model, prm contact.Sleep) {
	s.on, s.prm = prm.On(), prm
	if !s.on {
		return
	}
	nt := len(m.Trees)
	s.quiet, s.asleep, s.isle = make([]int32, nt), make([]bool, nt), make([]int32, nt)
	s.em, s.held, s.root, s.ready = make([]float64, nt), make([]bool, nt), make([]int32, nt), make([]bool, nt)
	s.tree, s.frozen = make([]int32, len(m.Geometries)), make([]bool, len(m.Geometries))
	s.massQ, s.massOK, s.skips = make([]float64, m.NQ), make([]bool, nt), sleepSkips
	for i, g := range m.Geometries {
		s.tree[i] = int32(m.Bodies[g.Body].Tree)
	}
	s.refresh(m)
}

// refresh recomputes the frozen geometries and the counts from asleep.
func (s *sleeper) refresh(m *multibody.Model) {
	s.any, s.bodies, s.islands, s.maxEM = false, 0, 0, 0
	for t, a := range s.asleep {
		if !a {
			continue
		}
		s.any = true
		s.bodies += len(m.Trees[t].Bodies)
		if s.isle[t] == int32(t) {
			s.islands++
		}
		s.maxEM = max(s.maxEM, s.em[t])
	}
	for i, t := range s.tree {
		s.frozen[i] = t < 0 || s.asleep[t]
	}
}

// wakeIsland wakes the island of sleeping tree t and reports whether it
// was asleep.
func (s *sleeper) wakeIsland(t int32) bool {
	if t < 0 || !s.asleep[t] {
		return false
	}
	k := s.isle[t]
	for u := range s.asleep {
		if s.asleep[u] && s.isle[u] == k {
			s.asleep[u], s.quiet[u] = false, 0
		}
	}
	return true
}

// skip reports whether the narrow phase leaves out the pair of geometries
// i and j: both asleep or welded to the world.
func (s *sleeper) skip(i, j int) bool { return s.any && s.frozen[i] && s.frozen[j] }

// Wake wakes every sleeping island (contact.Params.Sleep). Call it after
// changing the State of a sleeping body from outside the simulator.
func (sim *Simulator) Wake() {
	s := &sim.sleep
	if !s.any {
		return
	}
	for t := range s.asleep {
		s.asleep[t], s.quiet[t] = false, 0
	}
	s.refresh(sim.Model)
}

// WakeBody wakes the island of body b if it sleeps, and reports whether it
// did.
func (sim *Simulator) WakeBody(b int) bool {
	s := &sim.sleep
	if !s.any || b < 0 || b >= len(sim.Model.Bodies) {
		return false
	}
	woke := s.wakeIsland(int32(sim.Model.Bodies[b].Tree))
	if woke {
		s.refresh(sim.Model)
	}
	return woke
}

// Sleeping reports how many bodies and islands sleep.
func (sim *Simulator) Sleeping() (bodies, islands int) { return sim.sleep.bodies, sim.sleep.islands }

// wakeForced wakes the islands of sleeping trees on which a force element
// other than gravity acts: a non-zero generalized force at the step's
// start (q0, v0, t0), evaluated on the kinematics kin0 as the explicit
// free motion evaluates it.
//
// It is the inlined test (advanceActivations); wakeForcedTrees the rest.
func (sim *Simulator) wakeForced() {
	if sim.sleep.any && len(sim.ws.elems) >= 2 {
		sim.wakeForcedTrees()
	}
}

// wakeForcedTrees is wakeForced when some tree sleeps and a force
// element other than gravity may act.
func (sim *Simulator) wakeForcedTrees() {
	s, w, st := &sim.sleep, &sim.ws, sim.State
	sim.resetForces(false)
	w.ctx.WS, w.ctx.Q, w.ctx.V, w.ctx.T = w.kin0, st.Q, st.V, st.T
	for _, e := range w.elems[1:] {
		e.Apply(&w.ctx, w.fout)
	}
	woke := false
	for t, tr := range sim.Model.Trees {
		if !s.asleep[t] {
			continue
		}
		for _, f := range w.fout.F[tr.VOffset : tr.VOffset+tr.NV] {
			if f != 0 {
				woke = s.wakeIsland(int32(t)) || woke
				break
			}
		}
	}
	if woke {
		s.refresh(sim.Model)
	}
}

// wakeTouched wakes the islands that a contact pair joins to an awake
// body, and runs the narrow phase again while it woke any (the woken
// islands' own pairs were skipped).
func (sim *Simulator) wakeTouched() {
	s, w := &sim.sleep, &sim.ws
	for s.any {
		woke := false
		for i := range w.pairs {
			pr := &w.pairs[i]
			ta, tb := s.tree[pr.GeomA], s.tree[pr.GeomB]
			if ta >= 0 && tb >= 0 && s.asleep[ta] != s.asleep[tb] {
				woke = s.wakeIsland(ta) || s.wakeIsland(tb) || woke
			}
		}
		if !woke {
			return
		}
		s.refresh(sim.Model)
		w.pairs = sim.narrowPhase(&w.col, w.spec, w.pairs[:0])
	}
}

// freezeVStar sets v* = 0 for the sleeping trees.
func (sim *Simulator) freezeVStar() {
	s := &sim.sleep
	if !s.any {
		return
	}
	p := &sim.ws.problem
	for t, tr := range sim.Model.Trees {
		if s.asleep[t] {
			clear(p.VStar[tr.VOffset : tr.VOffset+tr.NV])
		}
	}
}

// holdSleeping keeps the sleeping trees where they were: v = 0 and q = q0,
// bit for bit (the position update's normalization of a quaternion could
// otherwise move its last bit).
func (sim *Simulator) holdSleeping() {
	s, st, w := &sim.sleep, sim.State, &sim.ws
	if !s.any {
		return
	}
	for t, tr := range sim.Model.Trees {
		if s.asleep[t] {
			clear(st.V[tr.VOffset : tr.VOffset+tr.NV])
			copy(st.Q[tr.QOffset:tr.QOffset+tr.NQ], w.q0[tr.QOffset:tr.QOffset+tr.NQ])
		}
	}
}

// settle counts the quiet steps of the awake trees and puts to sleep the
// islands whose trees have all been quiet for Sleep.Steps steps, after a
// step taken whole (not in substeps).
//
// It is the inlined test (advanceActivations); settleTrees the rest.
func (sim *Simulator) settle() {
	if sim.sleep.on {
		sim.settleTrees()
	}
}

// settleTrees is settle with sleeping on.
func (sim *Simulator) settleTrees() {
	s, m, w := &sim.sleep, sim.Model, &sim.ws
	sim.markHeld()
	for t, tr := range m.Trees {
		s.root[t], s.ready[t] = int32(t), false
		if s.asleep[t] {
			continue
		}
		if !s.held[t] && maxAbs(sim.State.V[tr.VOffset:tr.VOffset+tr.NV]) <= s.prm.Speed {
			s.quiet[t] = min(s.quiet[t]+1, int32(s.prm.Steps))
		} else {
			s.quiet[t] = 0
		}
	}
	for i := range w.pairs {
		ta, tb := s.tree[w.pairs[i].GeomA], s.tree[w.pairs[i].GeomB]
		if ta >= 0 && tb >= 0 {
			s.union(ta, tb)
		}
	}
	for t := range m.Trees {
		r := s.find(int32(t))
		if int(r) == t {
			s.ready[t] = true
		}
	}
	for t := range m.Trees { // an island is ready when all its trees are
		if r := s.find(int32(t)); s.asleep[t] || int(s.quiet[t]) < s.prm.Steps {
			s.ready[r] = false
		}
	}
	fell := false
	for t, tr := range m.Trees {
		if r := s.find(int32(t)); s.ready[r] {
			s.asleep[t], s.isle[t], s.em[t] = true, r, w.result.Stats.MomentumError
			clear(sim.State.V[tr.VOffset : tr.VOffset+tr.NV])
			fell = true
		}
	}
	if fell {
		s.refresh(m)
	}
}

// markHeld marks the trees that the step's constraint rows (those after
// the contact rows) touch, and those of sliding contacts (markSliding).
func (sim *Simulator) markHeld() {
	s, p := &sim.sleep, &sim.ws.problem
	if sim.ws.cons.elim.on || len(p.Cliques) != len(sim.Model.Trees) {
		for t := range s.held {
			s.held[t] = true // a reduced problem: no tree sleeps
		}
		return
	}
	clear(s.held)
	for _, b := range p.JBlock {
		if b.Constraint >= s.rowsFrom {
			s.held[b.Clique] = true
		}
	}
	sim.markSliding()
}

// markSliding marks as held the trees of the step's contacts that slide,
// roll or spin on their friction bound (contact.Assembler.Slides): a body
// that slides, however slowly, is not at rest and must not fall asleep
// (a box creeping down a slope just steeper than its friction angle
// accelerates by g(sin θ − μ cos θ), which can stay below Speed for
// Steps steps). Only resting contacts, whose friction sticks inside its
// bound, let an island sleep.
func (sim *Simulator) markSliding() {
	s, w := &sim.sleep, &sim.ws
	for i := range w.pairs {
		if !w.assemble.Slides(i, w.result.Gamma, &w.problem) {
			continue
		}
		for _, g := range [2]int{w.pairs[i].GeomA, w.pairs[i].GeomB} {
			if t := s.tree[g]; t >= 0 {
				s.held[t] = true
			}
		}
	}
}

// find returns the root of tree t, halving paths.
func (s *sleeper) find(t int32) int32 {
	for s.root[t] != t {
		s.root[t] = s.root[s.root[t]]
		t = s.root[t]
	}
	return t
}

// union joins the sets of trees a and b; the smaller root stays root.
func (s *sleeper) union(a, b int32) {
	x, y := s.find(a), s.find(b)
	if x > y {
		x, y = y, x
	}
	s.root[y] = x
}

// maxAbs returns max |x_i| (0 for none).
func maxAbs(x []float64) float64 {
	m := 0.0
	for _, v := range x {
		m = max(m, math.Abs(v))
	}
	return m
}

// checkpoint returns a copy of the sleeping state (nil when off).
func (s *sleeper) checkpoint() *SleepMemo {
	if !s.on {
		return nil
	}
	return &SleepMemo{Quiet: slices.Clone(s.quiet), Asleep: slices.Clone(s.asleep), Island: slices.Clone(s.isle), EM: slices.Clone(s.em)}
}

// check validates a checkpoint's sleeping state for nt trees.
func (s *sleeper) check(c *SleepMemo, nt int) error {
	if c == nil || !s.on {
		return nil
	}
	if len(c.Quiet) != nt || len(c.Asleep) != nt || len(c.Island) != nt || len(c.EM) != nt {
		return fmt.Errorf("sim: checkpoint's sleeping state has %d, %d, %d, %d entries, model has %d trees", len(c.Quiet), len(c.Asleep), len(c.Island), len(c.EM), nt)
	}
	for t := range nt {
		if c.Island[t] < 0 || int(c.Island[t]) >= nt || c.Quiet[t] < 0 || !finite(c.EM[t]) {
			return fmt.Errorf("sim: checkpoint's sleeping tree %d: island %d, quiet steps %d, e_m %v", t, c.Island[t], c.Quiet[t], c.EM[t])
		}
	}
	return nil
}

// restore sets the sleeping state from a checked checkpoint's (every tree
// awake for nil).
func (s *sleeper) restore(c *SleepMemo, m *multibody.Model) {
	if !s.on {
		return
	}
	clear(s.massOK)
	if c == nil {
		clear(s.quiet)
		clear(s.asleep)
	} else {
		copy(s.quiet, c.Quiet)
		copy(s.asleep, c.Asleep)
		copy(s.isle, c.Island)
		copy(s.em, c.EM)
	}
	s.refresh(m)
}

// heldMass reports whether the block of tree ti in ws.mass already holds
// its mass matrix at the coordinates of ws.qth, so that linearizeAt can
// skip the tree's CRBA: the tree sleeps and the block was computed at the
// same coordinates, bit for bit (a sleeping tree's q is held, and M is a
// function of q alone, so the block is the one CRBA would compute).
// Otherwise it records ws.qth as the coordinates at which the caller
// computes the block and reports false. Only the step's own problem p
// keeps blocks from step to step; a linearization into another problem
// (never with sleeping on, which needs a θ-method scheme) forgets them.
//
// It is the inlined test (advanceActivations); heldTreeMass the rest.
func (sim *Simulator) heldMass(ti int, p *solver.Problem) bool {
	return sim.sleep.skips && sim.heldTreeMass(ti, p)
}

// heldTreeMass is heldMass when sleeping trees may skip their CRBA.
func (sim *Simulator) heldTreeMass(ti int, p *solver.Problem) bool {
	s, w := &sim.sleep, &sim.ws
	if p != &w.problem {
		clear(s.massOK)
		return false
	}
	tr := &sim.Model.Trees[ti]
	q, at := w.qth[tr.QOffset:tr.QOffset+tr.NQ], s.massQ[tr.QOffset:tr.QOffset+tr.NQ]
	if s.asleep[ti] && s.massOK[ti] && sameBits(q, at) {
		s.kept++
		return true
	}
	copy(at, q)
	s.massOK[ti] = true
	return false
}

// sleepSkips makes the sleeping trees of the simulators made afterwards
// skip their CRBA (heldMass) and their free-motion solve (explicitVStar),
// work whose result a sleeping tree does not use or already has; off, they
// do it as awake trees do, with the same results (TestSleepSkipsSameBits).
var sleepSkips = true

// skipping reports whether tree t sleeps and skips its free-motion work.
func (s *sleeper) skipping(t int) bool { return s.any && s.skips && s.asleep[t] }
