package sim

import (
	"github.com/stiction-sim/stiction/contact"
	"github.com/stiction-sim/stiction/forces"
	"github.com/stiction-sim/stiction/multibody"
	"github.com/stiction-sim/stiction/solver"
)

// Workspace is the scratch memory of a Simulator, reused from step to step.
type Workspace struct {
	// geometry
	col   collider       // collision detection at q0: geometry poses, boxes, candidates
	reach []float64      // how far each geometry reaches from its body's origin (static)
	curv  []curvTerms    // each geometry's constants for curvatureError (static)
	spec  []float64      // each geometry's speculative margin this step
	pairs []contact.Pair // the step's contacts

	// dynamics (θ-method, SAP §II-C/D)
	kin    *multibody.Workspace // kinematics, CRBA, RNEA at the mid-step point
	kin0   *multibody.Workspace // kinematics at (q0, v0): geometry poses and contact Jacobians; at the end of a step, at the new state (kinreuse.go)
	kinAt  kinKey               // the state kin0 was last updated at by the statistics
	elems  []forces.Element     // gravity, joint spring–dampers, Config.Forces
	fout   *forces.Output       // their k, K, D
	lin    linWeights           // linearize's weights for the last time step
	foutKD bool                 // fout's K, D, N may be non-zero: its last pass had Jacobians (resetForces)
	ctx    forces.Context
	mass   []float64 // M(q^θq) tree blocks, same layout as problem.A
	q0, v0 []float64 // state at the start of the step
	qth    []float64 // q^θq
	vth    []float64 // v^θv
	vtq    []float64 // v^θvq
	k      []float64 // k(q^θq, v^θv) = τ_g − C + Σ element forces
	res    []float64 // momentum residual m(v), then the Newton update
	vstar  []float64 // Newton iterate for v*
	newton int       // Newton iterations of the step (0 for explicit schemes)
	conv   bool      // whether the Newton iteration converged
	// treePar holds each tree's velocity parents (solver.Clique.Parent),
	// nil where the tree factor is off (treeFactor).
	treePar [][]int
	// cliques are the dynamics part's cliques, one per tree with A's
	// blocks in tree order (ws.mass's layout), which linearizeAt gives
	// every problem it fills: they depend on the model alone.
	cliques []solver.Clique
	// freeSolve: a problem with no rows takes v = v* without the solver
	// (freeSolution; freeSolutions).
	freeSolve bool
	// noContact: no two geometries of the model can touch
	// (pairFilter.none), decided once at New from the model, which does
	// not change after it (nor does Config). idle marks a step of such a
	// model whose contact memory is empty (it holds memos only after a
	// Restore of a checkpoint that has some): the step detects no
	// contact (noContacts) and skips the contact memory and the contact
	// assembly, which would find, remember and append nothing, leaving
	// the state they keep as the last idle step left it.
	noContact, idle bool
	// midKin: the scheme's mid-step point is not (q0, v0) (θq ≠ 0 or
	// θv ≠ 0), so that midStepKinematics updates kin; decided at New.
	midKin bool

	// contact problem
	factor   solver.CliqueFactor
	assemble contact.Assembler
	problem  solver.Problem
	result   solver.Result

	cons     constraintWork // constraints, actuators, attachments, prescribed motions (constraints.go)
	notes    notesWork      // the notes' trapezoidal and Bridson–Marino integrators (scheme_notes.go)
	mj       mujocoWork     // MuJoCo's Euler and RK4 (scheme_mujoco.go)
	pgs      pgsWork        // MuJoCo's PGS on MuJoCo's rows (mujoco_pgs.go)
	noslip   noSlipWork     // MuJoCo's noslip pass (mujoco_noslip.go)
	mjnewton newtonWork     // MuJoCo's Newton on MuJoCo's rows (mujoco_newton.go)
}

func (w *Workspace) init(m *multibody.Model, cfg *Config) {
	w.reach = make([]float64, len(m.Geometries))
	w.spec = make([]float64, len(m.Geometries))
	for i := range m.Geometries {
		w.reach[i] = reach(&m.Geometries[i].Shape, m.Geometries[i].Pose)
	}
	w.curv = curvatureTerms(m, w.reach)
	w.col.filter.init(m)
	w.noContact = idleSteps && w.col.filter.none()
	w.col.cull = planeCulling
	w.kin = multibody.NewWorkspace(m)
	w.kin0 = multibody.NewWorkspace(m)
	// Gravity first: linearizeAt computes its τ_g together with C.
	w.elems = append([]forces.Element{forces.Gravity{}}, forces.JointSpringDampers(m)...)
	w.elems = append(w.elems, cfg.Forces...)
	sc := cfg.Scheme.resolved() // Simulator.scheme
	w.midKin = sc.ThetaQ != 0 || sc.ThetaV != 0
	w.mj.init(m, sc, w.elems, w.kin)
	w.mj.staged.col.filter, w.mj.staged.col.cull = w.col.filter, w.col.cull // the rk4 stages' collider lists the same pairs
	w.fout = forces.NewOutput(m)
	w.ctx = forces.Context{Model: m, WS: w.kin}
	w.mass = make([]float64, len(w.fout.K))
	w.freeSolve = freeSolutions
	w.treePar = make([][]int, len(m.Trees))
	w.cliques = make([]solver.Clique, len(m.Trees))
	off := 0
	for t, tr := range m.Trees {
		if treeFactor {
			w.treePar[t] = m.TreeVelocityParents(t)
		}
		w.cliques[t] = solver.Clique{Offset: tr.VOffset, Size: tr.NV, AOff: off, Parent: w.treePar[t]}
		off += tr.NV * tr.NV
	}
	nq, nv := m.NQ, m.NV
	w.q0, w.qth = make([]float64, nq), make([]float64, nq)
	w.v0, w.vth, w.vtq = make([]float64, nv), make([]float64, nv), make([]float64, nv)
	w.k, w.res, w.vstar = make([]float64, nv), make([]float64, nv), make([]float64, nv)
	// linearize (freemotion.go) factors A for the free motion; the contact
	// assembly's Delassus estimates use the same factors (A is not changed
	// in between), so A is factored once per step.
	w.assemble.Factored = &w.factor
}

// treeFactor gives the free motion's cliques their trees' velocity
// parents (solver.Clique.Parent), so that branched trees' A is factored
// along the tree. Tests turn it off to compare with the dense factor.
var treeFactor = true

// idleSteps lets a model none of whose geometries can touch another skip
// the contact stages (Workspace.idle). Tests turn it off to compare with
// the steps that run them.
var idleSteps = true

// freeSolutions makes a step whose problem has no constraint rows take
// v = v* without calling the solver (freeSolution). Tests turn it off to
// compare with the solver's answer.
var freeSolutions = true
