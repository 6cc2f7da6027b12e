package solver

import (
	"fmt"
	"math"
	"strconv"
)

// Kind is the kind of a constraint block: it fixes the block's number of
// rows, its parameters in Problem.Params and its convex cost ℓ_i(v_c,i),
// whose negative gradient is the block's impulse γ_i = −∂ℓ_i/∂v_c,i and
// whose Hessian is G_i = ∂²ℓ_i/∂v_c,i² (symmetric positive semi-definite).
// SAP minimises ℓp(v) = ½‖v − v*‖²_A + Σ_i ℓ_i(J_i v) (SAP eq. 19/24).
//
// Most kinds are regularized projections (SAP §III-B and eq. 22–23): with
// y = −R⁻¹(v_c − v̂) and a closed convex set C of impulses,
//
//	γ = P_C(y) (projection in the R-norm),
//	ℓ = ½‖y‖²_R − ½‖y − P_C(y)‖²_R = max_{γ∈C} (γᵀR y − ½γᵀRγ),
//
// which is ½‖P_C(y)‖²_R when C is a cone (SAP eq. 35). Each kind's file
// gives its maths, its R and v̂, and its G.
type Kind uint8

const (
	// ContactCone is SAP's frictional contact (cone.go): 3 rows
	// (t1, t2, n), C the Coulomb cone ‖γ_t‖ ≤ μ γ_n, R = diag(Rt, Rt, Rn)
	// (eq. 29–30). Params: μ.
	ContactCone Kind = iota
	// ContactLagged is the Lagged convex approximation of compliant contact
	// with regularized friction (lagged.go; Castro, Han and Masterjohn,
	// 2023): the normal impulse of SAP's linear compliance, friction
	// bounded by μ times the previous step's normal impulse n0. 3 rows.
	// Params: μ, n0, the stiction tolerance v_s, and a scale of the normal
	// impulse (the contact's own weight, ‖g‖δt/W_nn) used only to judge
	// changes of n0 (LaggedRefiner), and the stick flag (1: the contact
	// has a friction anchor, friction is a disk with R_t; 0: soft norm).
	ContactLagged
	// ContactSimilar is the Similar convex approximation (similar.go): the
	// normal impulse evaluated at z = v_n − μ‖v_t‖_s and friction −μ n(z) t̂.
	// 3 rows. Params: μ, ε_s.
	ContactSimilar
	// Bilateral is a regularized equality constraint (bilateral.go):
	// C = ℝ^k, γ = y. Any number of rows (welds 6, ball joints 3, distance
	// and joint couplers 1). No params.
	Bilateral
	// Interval is a one-row constraint with bounded impulse (interval.go):
	// C = [lo, hi], γ = clamp(y, lo, hi). Joint limits (C = [0, ∞)), PD
	// actuators with an effort limit, dry joint friction. Params: lo, hi.
	Interval
	// Disk is a two-row constraint with impulse in a disk (disk.go):
	// C = {‖γ‖ ≤ r}, R = diag(R, R). Rolling friction. Params: r.
	Disk
	// ContactEllipticN is MuJoCo's elliptic friction cone of condim 4 and
	// 6 (ellipticn.go): 4 or 6 rows (the friction rows, then n), C the
	// cone γ_n ≥ ‖(γ_j/μ_j)‖, R = diag(R_1 … R_m, R_n) with
	// R_j μ_j² = R_1 μ_1². Params: μ_1 … μ_5 (those past the block's
	// friction rows 0).
	ContactEllipticN
	numKinds
)

var kindNames = [numKinds]string{"contact-cone", "contact-lagged", "contact-similar", "bilateral", "interval", "disk", "contact-elliptic-n"}

// String returns the kind's name.
func (k Kind) String() string {
	if k >= numKinds {
		return "Kind(" + strconv.Itoa(int(k)) + ")"
	}
	return kindNames[k]
}

// valid reports whether k is a known kind.
func (k Kind) valid() bool { return k < numKinds }

// NumParams returns the number of parameters a constraint of kind k takes
// from Problem.Params.
func (k Kind) NumParams() int {
	switch k {
	case ContactCone, Disk:
		return 1
	case ContactLagged:
		return 5
	case ContactSimilar, Interval:
		return 2
	case ContactEllipticN:
		return maxEllipticFriction
	}
	return 0
}

// IsContact reports whether k is one of the frictional contact kinds
// (3 rows t1, t2, n; first parameter μ).
func (k Kind) IsContact() bool { return k <= ContactSimilar }

// sizeOK reports whether a block of kind k may have n rows.
func (k Kind) sizeOK(n int) bool {
	switch k {
	case ContactCone, ContactLagged, ContactSimilar:
		return n == 3
	case Interval:
		return n == 1
	case Disk:
		return n == 2
	case ContactEllipticN:
		return n == 4 || n == 6
	}
	return n >= 1
}

// sizeRule describes the valid sizes, for error messages.
func (k Kind) sizeRule() string {
	switch k {
	case ContactCone, ContactLagged, ContactSimilar:
		return "of 3"
	case Interval:
		return "of 1"
	case Disk:
		return "of 2"
	case ContactEllipticN:
		return "of 4 or 6"
	}
	return "≥ 1"
}

// validate checks the parameters and the regularization of one block.
func (k Kind) validate(par, r []float64) error {
	switch k {
	case ContactCone:
		if !(par[0] >= 0) || math.IsInf(par[0], 0) {
			return fmt.Errorf("friction coefficient μ = %v must be non-negative and finite", par[0])
		}
		if r[0] != r[1] {
			return fmt.Errorf("unequal tangential regularization R = (%v, %v); R_i must be diag(Rt, Rt, Rn)", r[0], r[1])
		}
	case ContactLagged, ContactSimilar:
		if !(par[0] >= 0) || math.IsInf(par[0], 0) {
			return fmt.Errorf("friction coefficient μ = %v must be non-negative and finite", par[0])
		}
		eps := par[1] // Similar: ε_s
		if k == ContactLagged {
			eps = par[2] // Lagged: v_s
			if !(par[1] >= 0) || math.IsInf(par[1], 0) {
				return fmt.Errorf("lagged normal impulse n0 = %v must be non-negative and finite", par[1])
			}
			if !(par[3] >= 0) || math.IsInf(par[3], 0) {
				return fmt.Errorf("normal impulse scale %v must be non-negative and finite", par[3])
			}
			if par[4] != 0 && par[4] != 1 {
				return fmt.Errorf("stick flag %v must be 0 or 1", par[4])
			}
			if par[4] == 1 && r[0] != r[1] {
				return fmt.Errorf("unequal tangential regularization R = (%v, %v) of an anchored block", r[0], r[1])
			}
		}
		if !(eps > 0) || math.IsInf(eps, 0) {
			return fmt.Errorf("friction regularization %v must be positive and finite", eps)
		}
	case Interval:
		if math.IsNaN(par[0]) || math.IsNaN(par[1]) || !(par[0] <= par[1]) || math.IsInf(par[0], 1) || math.IsInf(par[1], -1) {
			return fmt.Errorf("impulse bounds [%v, %v] must satisfy −∞ ≤ lo ≤ hi ≤ ∞ with lo < ∞ and hi > −∞", par[0], par[1])
		}
	case Disk:
		if !(par[0] >= 0) || math.IsInf(par[0], 0) {
			return fmt.Errorf("disk radius %v must be non-negative and finite", par[0])
		}
		if r[0] != r[1] {
			return fmt.Errorf("unequal regularization R = (%v, %v); a disk needs R = diag(R, R)", r[0], r[1])
		}
	case ContactEllipticN:
		return validateEllipticN(par, r)
	}
	return nil
}

// Eval returns the cost ℓ_i of constraint i at its constraint velocity vc
// (its Size rows of J v), writes its impulse γ_i = −∂ℓ_i/∂v_c into gamma
// (Size entries) and, when g is not nil, G_i = ∂²ℓ_i/∂v_c² into g
// (Size×Size, row-major). It does not allocate.
func (p *Problem) Eval(i int, vc, gamma, g []float64) float64 {
	c := p.Constraints[i]
	par := p.Params[c.Par:]
	vhat, r := p.VHat[c.Row:c.Row+c.Size], p.R[c.Row:c.Row+c.Size]
	switch c.Kind {
	case ContactCone:
		return evalCone(par[0], r, vhat, vc, gamma, g)
	case ContactLagged:
		return p.evalLagged(i, vc, gamma, g)
	case ContactSimilar:
		return evalSimilar(par[0], par[1], r[2], vhat, vc, gamma, g)
	case Bilateral:
		return evalBilateral(r, vhat, vc, gamma, g)
	case Interval:
		return evalInterval(par[0], par[1], r[0], vhat[0], vc[0], gamma, g)
	case Disk:
		return evalDisk(par[0], r[0], vhat, vc, gamma, g)
	case ContactEllipticN:
		return evalEllipticN(par, r, vhat, vc, gamma, g)
	}
	panic("solver: Eval on a constraint of unknown kind " + c.Kind.String() + " (call Validate first)")
}

// laggedOK reports whether the ContactLagged block whose parameters start
// at params[par] and whose rows start at r[row] passes validate: μ, n0 and
// the normal impulse scale non-negative and finite, v_s positive and
// finite, the stick flag 0 or 1 and, for a stuck block, R_t equal on both
// tangents. The same conditions, read without validate's call, switch and
// error result; a false answer sends the caller to validate for the message.
func laggedOK(params []float64, par int, r []float64, row int) bool {
	if par < 0 || par > len(params)-5 || row < 0 || row > len(r)-3 {
		return false
	}
	q, rr := (*[5]float64)(params[par:par+5]), (*[3]float64)(r[row:row+3])
	return nonNegFinite(q[0]) && nonNegFinite(q[1]) && nonNegFinite(q[3]) &&
		q[2] > 0 && q[2] <= math.MaxFloat64 &&
		(q[4] == 0 || q[4] == 1 && rr[0] == rr[1])
}

// nonNegFinite reports whether x ≥ 0 and x is not +Inf (validate's
// !(x >= 0) || math.IsInf(x, 0) test, negated).
func nonNegFinite(x float64) bool { return x >= 0 && x <= math.MaxFloat64 }
