package solver

import "time"

// Status says how a solve ended.
type Status int

const (
	// Converged means the optimality criterion (SAP eq. 26) was met.
	Converged Status = iota
	// Stalled means the cost stopped decreasing before the optimality
	// criterion was met (cost-stall criterion); v is the best iterate found
	// and e_m tells how accurate it is.
	Stalled
	// MaxIterations means the iteration limit was reached first.
	MaxIterations
	// Failed means the Newton system could not be solved (for example a
	// Hessian that is not numerically positive definite) or a non-finite
	// number appeared; v is the last finite iterate.
	Failed
	// RoundOff means the iterations ended (stalled or at the iteration
	// limit) without meeting the optimality criterion, at an iterate whose
	// scaled gradient norm ‖D ∇ℓp‖ is already below the round-off of its own
	// evaluation, ε·‖D (|A| |v − v*| + |J|ᵀ |γ|)‖ (Stats.MomentumFloor):
	// the criterion's right side, relative to the net momentum
	// max(‖D p‖, ‖D Jᵀγ‖), asks for less than float64 resolves, as when a
	// body at rest is held by impulses that cancel (an actuator pressing a
	// joint on its limit). It is not Converged: e_m is what it is, and
	// Stats.OK is false; it says why, unlike Stalled or MaxIterations.
	RoundOff
)

// String returns the status name.
func (s Status) String() string {
	switch s {
	case Converged:
		return "converged"
	case Stalled:
		return "stalled"
	case MaxIterations:
		return "max-iterations"
	case Failed:
		return "failed"
	case RoundOff:
		return "round-off"
	}
	return "unknown"
}

// OK reports whether the solve converged.
func (s Stats) OK() bool { return s.Status == Converged }

// Stats are the statistics of one solve.
type Stats struct {
	Status               Status
	Iterations           int     // Newton iterations (search directions computed or attempted)
	LineSearchIterations int     // total line-search iterations over all Newton iterations
	MomentumError        float64 // e_m, SAP eq. 32
	ComplementarityError float64 // e_μ, SAP eq. 33
	// MomentumFloor is, when Status is RoundOff, the round-off floor of e_m
	// at the returned v: ε·‖D (|A| |v − v*| + |J|ᵀ |γ|)‖ / max(‖D p‖,
	// ‖D Jᵀγ‖), which e_m does not exceed; zero otherwise.
	MomentumFloor float64
	Cost          float64 // ℓp at the returned v
	InitialCost   float64 // ℓp at the warm start
	// Resolves counts the re-solves of LaggedRefiner (summed over islands),
	// and ResolveTime is their wall time when profiling (Profiler; zero
	// otherwise).
	Resolves    int
	ResolveTime time.Duration
}

// Profiler is implemented by solvers that time parts of their work when
// asked to (sim.Config.Profile): LaggedRefiner times its re-solves.
type Profiler interface {
	SetProfile(on bool)
}

// Result holds a solution. Its slices are reused across solves.
type Result struct {
	V     []float64 // generalized velocities, length NV
	Gamma []float64 // contact impulses, length 3·NC, (t1, t2, n) per contact
	VC    []float64 // contact velocities J v, length 3·NC
	Stats Stats
}

// Solver is implemented by every contact solver.
type Solver interface {
	// Solve solves p starting from the warm start v0 (length p.NV; nil means
	// start from v*) and writes
	// the solution into res, resizing its slices as needed. It returns an
	// error only for a malformed problem; a solve that does not converge
	// returns nil and says so in res.Stats.Status, with finite values in res.
	Solve(p *Problem, v0 []float64, res *Result) error
}

// Resolver is a Solver that can solve again the problem of its last Solve
// after only the lagged normal impulses of its ContactLagged blocks
// changed (Problem.SetLaggedNormal), as LaggedRefiner's re-solves do,
// reusing what it derived from the problem's structure (validation, J's
// packed columns, the Newton system's pattern). Resolve gives the result
// that Solve would give; when p is not the problem of the last Solve, or
// that Solve returned an error, it is Solve.
type Resolver interface {
	Solver
	Resolve(p *Problem, v0 []float64, res *Result) error
}
