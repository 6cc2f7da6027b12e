package constraint

import (
	"math"

	"github.com/stiction-sim/stiction/solver"
)

// Compliance is the stiffness k (N/m, or N·m/rad for rotations and joint
// angles) and dissipation time scale τd (s) of a regularized constraint
// (SAP §V-A). A Stiffness of 0 or +Inf means near-rigid: as stiff as the
// time step resolves (SAP eq. 29, period β δt).
//
// SolRef and SolImp, when SolRef[0] ≠ 0, make a one-sided constraint
// (limits) MuJoCo's soft constraint while it is violated (g0 < 0): solref
// (timeconst, dampratio), or its direct form (−stiffness, −damping), and
// solimp (dmin, dmax, width, midpoint, power), as MuJoCo's solreflimit and
// solimplimit (Compliance.soft); so do joint friction with SolRef
// (solreffriction) and couplers with SolRef (MuJoCo's joint and tendon
// equalities), always. Stiffness and Dissipation are then unused.
//
// Weight, when positive, is the row's weight in MuJoCo's R = (1 − d)/d · w
// instead of the Delassus estimate at the step's start: MuJoCo's
// diagApprox (dof_invweight0, tendon_invweight0, computed once at qpos0),
// so that R is MuJoCo's; SAP's near-rigid floor on R is then not applied.
type Compliance struct {
	Stiffness   float64
	Dissipation float64
	SolRef      [2]float64
	SolImp      [5]float64
	Weight      float64
}

// MuJoCo's default solref and solimp (mjModel's opt defaults, MJCF
// reference "solref", "solimp").
var (
	DefaultSolRef = [2]float64{0.02, 1}
	DefaultSolImp = [5]float64{0.9, 0.95, 0.001, 0.5, 2}
)

// mujoco reports whether c is MuJoCo's soft constraint.
func (c *Compliance) mujoco() bool { return c.SolRef[0] != 0 }

// Impedance returns MuJoCo's impedance d(r) ∈ (0, 1) of solimp (dmin, dmax,
// width, midpoint, power) at the constraint distance r (engine_core_constraint.c,
// getimpedance): x = |r|/width clamped to [0, 1], y = a xᵖ for x ≤ midpoint
// (a = 1/midpointᵖ⁻¹), y = 1 − b (1 − x)ᵖ above (b = 1/(1 − midpoint)ᵖ⁻¹),
// d = dmin + y (dmax − dmin); the mean of dmin and dmax when they are equal
// or width is 0.
func Impedance(imp [5]float64, r float64) float64 { return ImpedanceOf(&imp, r) }

// ImpedanceOf is Impedance reading solimp in place: a step's contacts
// pass their material's, which the call by value copied twice.
func ImpedanceOf(imp *[5]float64, r float64) float64 {
	if imp[0] == imp[1] || imp[2] <= 1e-15 {
		return 0.5 * (imp[0] + imp[1])
	}
	x := math.Abs(r) / imp[2]
	if x >= 1 {
		return imp[1]
	}
	if x <= 0 {
		return imp[0]
	}
	var y float64
	// solimp's usual power 2 in line, with the bits of the general
	// curve's: here 0 < x < 1, so 1 − x ≥ 2⁻⁵³ and pow(x, 2) and
	// pow(1 − x, 2) are the products for x ≥ 2⁻⁵¹¹, and math.Pow(m, 1)
	// is m (math.Pow's y = 1 case; its x = 1 case returns 1, m too).
	switch mid, p := imp[3], imp[4]; {
	case p == 1:
		y = x
	case p == 2 && x <= mid && x >= 0x1p-511:
		y = x * x / mid
	case p == 2 && x > mid:
		y = 1 - (1-x)*(1-x)/(1-mid)
	default:
		y = impedanceCurve(x, mid, p)
	}
	return imp[0] + y*(imp[1]-imp[0])
}

// impedanceCurve is ImpedanceOf's y at x ∈ (0, 1) for any power p:
// out of its line, which solimp's usual power 2 does not leave.
//
//go:noinline
func impedanceCurve(x, mid, p float64) float64 {
	if x <= mid {
		return pow(x, p) / math.Pow(mid, p-1)
	}
	return 1 - pow(1-x, p)/math.Pow(1-mid, p-1)
}

// pow returns math.Pow(x, p), as x·x for solimp's usual power p = 2 when
// x² is a normal number: math.Pow squares x's mantissa in [½, 1) and scales
// the result by a power of two, which is exact in the normal range, so the
// bits are x·x's (TestPowMatchesMathPow). (math.Pow(m, 1) returns m at
// once, so the divisors need no such path.)
func pow(x, p float64) float64 {
	if p == 2 && x >= 0x1p-511 && x <= 0x1p511 {
		return x * x
	}
	return math.Pow(x, p)
}

// SolRefKB returns MuJoCo's stiffness K and damping B of the reference
// acceleration a_ref = −B v − K d r (mj_makeImpedance): for solref (T, ζ),
// with T raised to 2 δt as MuJoCo does, K = 1/(dmax² T² ζ²) and
// B = 2/(dmax T); for the direct form (−k, −b), K = k/dmax², B = b/dmax.
func SolRefKB(ref [2]float64, dmax, dt float64) (k, b float64) {
	if ref[0] > 0 {
		T, zeta := max(ref[0], 2*dt), ref[1]
		return 1 / (dmax * dmax * T * T * zeta * zeta), 2 / (dmax * T)
	}
	return -ref[0] / (dmax * dmax), -ref[1] / dmax
}

// soft returns R and v̂ of MuJoCo's soft constraint for a row with
// Delassus estimate w (MuJoCo's diagApprox), distance g0 and velocity
// jv0 = J v0 at the start of the step. MuJoCo's force on a row in its
// quadratic zone is f = −(J v̇ − a_ref)/R with R = (1 − d)/d · w and
// a_ref = −B jv0 − K d g0 (mj_makeImpedance, mj_referenceConstraint); with
// v̇ = (v − v0)/δt its impulse δt f = −(v_c − jv0 − δt a_ref)/R is SAP's
// −(v_c − v̂)/R with the same R and v̂ = jv0 + δt a_ref. The near-rigid
// floor β²w/(4π²) of SAP eq. 29 is kept (below the default impedance's
// (1 − 0.95)/0.95 w it does not bind).
//
// With Weight set, R = max(10⁻¹⁵, (1 − d)/d · Weight), MuJoCo's own.
func (c *Compliance) soft(w, g0, jv0, beta, dt float64) (r, vhat float64) {
	return c.softAt(ImpedanceOf(&c.SolImp, g0), w, g0, jv0, beta, dt)
}

// softAt is soft with the impedance d given: MuJoCo takes a connect's and
// a weld's at the norm of the constraint's error over all its rows
// (getposdim), not at each row's own.
func (c *Compliance) softAt(d, w, g0, jv0, beta, dt float64) (r, vhat float64) {
	k, b := SolRefKB(c.SolRef, c.SolImp[1], dt)
	if c.Weight > 0 {
		r = max(1e-15, (1-d)*c.Weight/d) // mj_makeImpedance
	} else {
		r = max((1-d)/d*w, solver.NearRigidR(w, beta))
	}
	return r, jv0 - dt*(b*jv0+k*d*g0)
}

// rigid reports whether c is near-rigid.
func (c *Compliance) rigid() bool { return c.Stiffness == 0 || math.IsInf(c.Stiffness, 1) }

// regularization returns R and v̂ of a constraint row with Delassus estimate
// w and value g0 at q0: R = max(β²w/(4π²), 1/(δt k (δt + τd))) (SAP eq. 29)
// and v̂ = −g0/(δt + τd) (SAP §V-A with g in place of φ).
func (c *Compliance) regularization(w, g0, beta, dt float64) (r, vhat float64) {
	vhat = solver.BiasVelocity(g0, c.Dissipation, dt)
	if c.rigid() {
		return solver.NearRigidR(w, beta), vhat
	}
	return solver.Regularization(w, beta, c.Stiffness, c.Dissipation, dt), vhat
}

// equality returns R and v̂ of a row of an equality constraint (weld, ball,
// distance, coupler). For θq = 0 (symplectic and explicit Euler) it is
// SAP's regularization with g0 = g(q0). For a θ-method with θq > 0
// (implicit Euler, midpoint) the constraint force is evaluated, like every
// other force of the scheme, at the mid-step configuration q^θq: with g* =
// g(q^θq(v*)) and J at the mid-step of the velocities v* the dynamics were
// linearized at (the arguments g0 and jvs = J v*, jv0 = J v0),
// g_θ(v) = g* + θq θvq δt (v_c − J v*) and
// J v^θvq = (1 − θvq) J v0 + θvq v_c, so γ = −δt k (g_θ + τd J v^θvq) is
// affine in v_c:
//
//	R = 1/(δt k θvq (θq δt + τd)),
//	v̂ = −(g* − θq θvq δt J v* + τd (1 − θvq) J v0)/(θvq (θq δt + τd)),
//
// with the near-rigid floor β²w/(4π² θq θvq) (the stiffness of SAP's
// eq. 29). For θq = θvq = 1 this is SAP's form at the predicted end of the
// step. With the midpoint rule the constraint is an implicit-midpoint
// spring: it stores and returns energy instead of dissipating it, so a
// closed loop keeps its energy (TestFourBarEnergy).
func (c *Compliance) equality(w, g0, jv0, jvs, beta, dt, tq, tvq float64) (r, vhat float64) {
	if tq == 0 || tvq == 0 {
		return c.regularization(w, g0, beta, dt)
	}
	h := tq * dt
	r = solver.NearRigidR(w, beta) / (tq * tvq)
	if !c.rigid() {
		h += c.Dissipation
		r = max(r, 1/(dt*c.Stiffness*tvq*h))
	}
	return r, -(g0 - tq*tvq*dt*jvs + c.Dissipation*(1-tvq)*jv0) / (tvq * h)
}

// validate checks k ≥ 0 and τd ≥ 0, and MuJoCo's solref and solimp.
func (c Compliance) validate() error {
	if c.mujoco() {
		r, m := c.SolRef, c.SolImp
		if (r[0] > 0) != (r[1] > 0) || math.IsInf(r[0], 0) || math.IsInf(r[1], 0) || math.IsNaN(r[1]) {
			return errf("solref %v: want (timeconst > 0, dampratio > 0) or (−stiffness < 0, −damping < 0)", r)
		}
		if !(m[0] > 0 && m[0] < 1 && m[1] > 0 && m[1] < 1 && m[2] >= 0 && m[3] > 0 && m[3] < 1 && m[4] >= 1) {
			return errf("solimp %v: want 0 < dmin, dmax < 1, width ≥ 0, 0 < midpoint < 1, power ≥ 1", m)
		}
		if !(c.Weight >= 0) || math.IsInf(c.Weight, 0) {
			return errf("weight %v: want a finite value ≥ 0", c.Weight)
		}
		return nil
	}
	if !(c.Stiffness >= 0) || !(c.Dissipation >= 0) || math.IsInf(c.Dissipation, 0) {
		return errf("stiffness %v and dissipation %v must be ≥ 0 (dissipation finite)", c.Stiffness, c.Dissipation)
	}
	return nil
}
