package sim

import (
	"math"

	"github.com/stiction-sim/stiction/contact"
	"github.com/stiction-sim/stiction/geometry"
	"github.com/stiction-sim/stiction/multibody"
	"github.com/stiction-sim/stiction/solver"
	"github.com/stiction-sim/stiction/spatial"
)

// MaxSubsteps is the most substeps a step is split into
// (contact.Params.SubstepTolerance).
const MaxSubsteps = 8

// substepWork holds what a substepped step restores when one of its
// substeps fails: the state and the contact memory at its start.
type substepWork struct {
	q, v, act []float64
	t         float64
	mem       contact.Memory
}

// substeps returns how many substeps the step takes: the smallest k with
// e/k² ≤ SubstepTolerance, e the largest curvature error of a contact
// geometry's linearized path over the step (curvatureError), at most
// MaxSubsteps; 1 when the tolerance is 0 or there are no contacts, and
// for an rk4 step that detects its contacts anew at each stage's q_i
// (stagedContacts, rk4ContactVStar), as MuJoCo's mj_RungeKutta does in
// one step: no stage follows a linearized path. Substeps there changed the
// step itself: Gymnasium's ant from a perturbed state, one speculative pair
// 8.6 cm from the floor, took its step 13 as 5 rk4 substeps of δt/5 and
// left MuJoCo 2.2.2's RK4 by 2.6e-8 (1.5e-3 a step later).
// The pairs that MuJoCo's integrators solve with MuJoCo's rows
// (muJoCoRowPair) do not count either: MuJoCo takes the step whole, its
// contacts not linearized.
//
// The test is inlined (advanceActivations); substepsFor the rest.
func (sim *Simulator) substeps() int {
	if len(sim.ws.pairs) == 0 {
		return 1
	}
	return sim.substepsFor()
}

// substepsFor is substeps for a step with some pairs. The pairs that
// MuJoCo's rows solve (muJoCoRowPair, which also keeps each one's
// material) are passed over here; the curvature errors of the others are
// curvatureSubsteps', out of line: on an MJCF model every pair is MuJoCo's
// and that loop's code sat between this one's hot blocks.
func (sim *Simulator) substepsFor() int {
	tol := sim.cfg.Contact.SubstepTolerance
	if !(tol > 0) {
		return 1
	}
	if sim.scheme.Method == RungeKutta4 && sim.stagedContacts() {
		return 1
	}
	pairs, i := sim.ws.pairs, 0 // read once: the calls below do not change it
	if sim.mujocoRowScheme() {
		for i < len(pairs) && sim.muJoCoRowPair(&pairs[i]) {
			i++
		}
		if i == len(pairs) {
			return 1 // e = 0 ≤ tol
		}
	}
	return sim.curvatureSubsteps(i, tol)
}

// curvatureSubsteps is substepsFor from pair from on, the first that
// MuJoCo's rows do not solve: the substeps that the largest curvature
// error e of the remaining pairs asks for, ⌈√(e/tol)⌉ up to MaxSubsteps.
//
//go:noinline
func (sim *Simulator) curvatureSubsteps(from int, tol float64) int {
	e := 0.0
	var last *contact.Pair        // the last pair measured
	rows := sim.mujocoRowScheme() // the same for every pair
	pairs := sim.ws.pairs
	for i := from; i < len(pairs); i++ {
		pr := &pairs[i]
		if rows && i > from && sim.muJoCoRowPair(pr) { // pair from was tested by substepsFor
			continue
		}
		if last != nil && sameGeometries(last, pr) {
			continue // a manifold's next point: the same two errors, and max is idempotent
		}
		e = growMax(growMax(e, sim.curvatureError(pr.GeomA, pr.BodyA)), sim.curvatureError(pr.GeomB, pr.BodyB))
		last = pr
	}
	if e <= tol {
		return 1
	}
	return int(min(MaxSubsteps, math.Ceil(math.Sqrt(e/tol))))
}

// growMax is max(e, a) for an e that is +0, positive or NaN (a running
// maximum from +0, curvatureSubsteps'), by comparisons: the built-in's
// sign-and-MINSD sequence for its ±0 rule, which such an e never needs,
// was a hot line there. A NaN a is kept, and a NaN e stays, as max does.
func growMax(e, a float64) float64 {
	if a > e || a != a {
		return a
	}
	return e
}

// sameGeometries reports whether pairs x and y join the same geometries
// of the same bodies, whose curvature errors (curvatureError) are then the
// same numbers.
func sameGeometries(x, y *contact.Pair) bool {
	return x.GeomA == y.GeomA && x.BodyA == y.BodyA && x.GeomB == y.GeomB && x.BodyB == y.BodyB
}

// curvatureError returns how far geometry g of body b leaves the path
// linearized at the start of the step, ½δt²(d‖ω‖² + ρ‖ω⊥‖²): the
// centripetal acceleration of its centre, at d from the body's origin,
// and of its surface, at ρ (the shape's reach) from its centre, where ω⊥
// is ω without the components that do not move the surface (none for a
// sphere, the axial one for a cylinder or capsule: offAxis). 0 for a body
// welded to the world. d, ρ and the shape's kind are the geometry's
// curvTerms, set at New.
func (sim *Simulator) curvatureError(g, b int) float64 {
	if b < 0 || sim.Model.Bodies[b].Tree < 0 {
		return 0
	}
	ct := &sim.ws.curv[g]
	w, _ := sim.ws.kin0.VelocityOf(b) // in place: a Vec3 is copied through the stack
	ww := dot3(w, w)
	wp := ww // ‖ω⊥‖² = ‖ω‖²
	switch ct.surf {
	case surfNone:
		wp = 0 // ω⊥ = 0: 0·0 + 0·0 + 0·0 is +0
	case surfOffAxis:
		p := sim.offAxis(g, b, *w)
		wp = dot3(&p, &p)
	}
	dt := sim.cfg.DT
	return dt * dt / 2 * (ct.d*ww + ct.rho*wp)
}

// curvTerms are a geometry's constants for curvatureError: d, its
// centre's distance from its body's origin, ρ = reach − d, and which
// components of ω move its surface (surf).
type curvTerms struct {
	d, rho float64
	surf   uint8
}

// The components of ω that move a geometry's surface (curvTerms.surf).
const (
	surfAll     = iota // any shape but those below
	surfNone           // a sphere
	surfOffAxis        // a cylinder or capsule: all but the axial one (offAxis)
)

// curvatureTerms returns the curvTerms of m's geometries, of reaches reach.
func curvatureTerms(m *multibody.Model, reach []float64) []curvTerms {
	ct := make([]curvTerms, len(m.Geometries))
	for g := range m.Geometries {
		geo := &m.Geometries[g]
		d := geo.Pose.P.Norm()
		ct[g] = curvTerms{d: d, rho: reach[g] - d}
		switch geo.Shape.Kind {
		case geometry.Sphere:
			ct[g].surf = surfNone
		case geometry.Cylinder, geometry.Capsule:
			ct[g].surf = surfOffAxis
		}
	}
	return ct
}

// offAxis returns ω without its component along the axis of geometry g
// (a cylinder or capsule) of body b (curvatureError), out of line: most
// contact shapes are not such.
//
//go:noinline
func (sim *Simulator) offAxis(g, b int, w spatial.Vec3) spatial.Vec3 {
	geo := &sim.Model.Geometries[g]
	axis := sim.ws.kin0.Pose(b).R.Rotate(geo.Pose.R.Rotate(spatial.Vec3{0, 0, 1}))
	return w.Sub(axis.Scale(w.Dot(axis)))
}

// takeSubsteps is take for a step of k substeps (substepped): it keeps
// the step's statistics and times as the last step's.
//
//go:noinline (take's rare path: inlined, it would lengthen take's code)
func (sim *Simulator) takeSubsteps(k int) error {
	st, err := sim.substepped(k)
	st.Times = sim.prof.finish()
	sim.last = lastStep{st: st, times: st.Times, taken: err == nil, gathered: err == nil}
	return err
}

// substepped takes the step as k substeps of δt/k, each a whole step of
// its own (contacts detected anew, certified solve, memory recalled and
// remembered), and returns the step's statistics: the last substep's, with
// the iteration counts summed and the errors, penetration and slip the
// largest over the substeps (the first unconverged status wins). The
// contact memory keeps impulses per δt between steps (Memory.Rescale), and
// the time ends at exactly t0 + (step+1)δt. On error the state and the
// memory are those of the step's start.
func (sim *Simulator) substepped(k int) (StepStats, error) {
	dt, s, sw := sim.cfg.DT, sim.State, &sim.sub
	sw.q, sw.v, sw.t = append(sw.q[:0], s.Q...), append(sw.v[:0], s.V...), s.T
	sw.act = append(sw.act[:0], s.Act...)
	sw.mem.CopyFrom(&sim.mem)
	h := dt / float64(k)
	defer func() { sim.cfg.DT = dt }()
	var total StepStats
	for j := range k {
		sim.cfg.DT = h
		if j > 0 {
			sim.detectContacts()
		}
		err := sim.advance()
		if err == nil && j < k-1 {
			s.T = sim.t0 + float64(sim.step)*dt + float64(j+1)*h
		}
		if err != nil {
			copy(s.Q, sw.q)
			copy(s.V, sw.v)
			copy(s.Act, sw.act)
			s.T = sw.t
			sim.mem.CopyFrom(&sw.mem)
			return StepStats{}, err
		}
		if j == k-1 {
			sim.cfg.DT = dt
			s.T = sim.t0 + float64(sim.step+1)*dt
			sim.step++
		}
		total = mergeStats(total, sim.stats(), j)
		sim.prof.lap(StageStats)
	}
	sim.mem.Rescale(dt)
	total.Substeps = k
	return total, nil
}

// mergeStats folds substep j's statistics st into the step's total.
func mergeStats(total, st StepStats, j int) StepStats {
	if j == 0 {
		return st
	}
	if total.Status != solver.Converged {
		st.Status = total.Status
	}
	st.Iterations += total.Iterations
	st.LineSearchIterations += total.LineSearchIterations
	st.Resolves += total.Resolves
	st.ResolveTime += total.ResolveTime
	st.NewtonIterations += total.NewtonIterations
	st.NewtonConverged = st.NewtonConverged && total.NewtonConverged
	st.MomentumError = max(st.MomentumError, total.MomentumError)
	st.MomentumFloor = max(st.MomentumFloor, total.MomentumFloor)
	st.ComplementarityError = max(st.ComplementarityError, total.ComplementarityError)
	st.MaxPenetration = max(st.MaxPenetration, total.MaxPenetration)
	st.MaxSlip = max(st.MaxSlip, total.MaxSlip)
	st.MaxConstraintViolation = max(st.MaxConstraintViolation, total.MaxConstraintViolation)
	st.Relinearizations += total.Relinearizations
	st.RK4Fallback = st.RK4Fallback || total.RK4Fallback
	return st
}
