package contact

import (
	"fmt"
	"math"
)

// DelassusEstimate selects how the per-contact Delassus scale w of SAP
// eq. 29–30 is estimated from the 3×3 block W_ii ≈ Σ_t J_it A_t⁻¹ J_itᵀ.
type DelassusEstimate int

const (
	// DelassusDiagonal uses each direction's own diagonal entry: w_n = W_nn
	// for R_n (eq. 29) and w_t = (W_t1t1 + W_t2t2)/2 for R_t (eq. 30). The
	// near-rigid rule of eq. 29 is derived for the normal oscillator of a
	// point mass (w = 1/m); W_nn is exactly the inverse effective mass along
	// the normal for any body, so the normal contact period is exactly β δt
	// and a resting body penetrates β² g δt²/(4π²) whatever its shape.
	DelassusDiagonal DelassusEstimate = iota
	// DelassusRMS uses the paper's w = ‖W_ii‖_rms = ‖W_ii‖_F/3 (§V-B) for
	// both directions. For a sphere on the ground (W = diag(3.5, 3.5, 1)/m)
	// this is 1.68/m: softer near-rigid contact, 1.68× the resting
	// penetration.
	DelassusRMS
)

// String returns "diagonal" or "rms".
func (d DelassusEstimate) String() string {
	if d == DelassusRMS {
		return "rms"
	}
	return "diagonal"
}

// ParseDelassus parses "diagonal" or "rms".
func ParseDelassus(s string) (DelassusEstimate, error) {
	switch s {
	case "", "diagonal":
		return DelassusDiagonal, nil
	case "rms":
		return DelassusRMS, nil
	}
	return 0, fmt.Errorf("unknown Delassus estimate %q (want diagonal or rms)", s)
}

// Approximation selects the convex approximation of compliant contact with
// friction that each contact block uses (package solver, Kind).
type Approximation int

const (
	// SAP is the approximation of the SAP paper (§III): the friction cone
	// projected in the norm of R (solver.ContactCone). While sliding, its
	// normal velocity is about μ‖v_t‖ (the paper's gliding artifact), so
	// sliding boxes hop.
	SAP Approximation = iota
	// Lagged is the Lagged approximation (Castro, Han and Masterjohn 2023,
	// solver.ContactLagged): friction bounded by μ times the normal impulse
	// that the step's initial penetration gives; the normal impulse does not
	// depend on the slip, so sliding does not lift a body.
	Lagged
	// Similar is the Similar approximation (solver.ContactSimilar): the
	// normal impulse evaluated at v_n − μ‖v_t‖; sliding lifts a body by
	// about μ‖v_t‖δt.
	Similar
)

var approximationNames = [...]string{"sap", "lagged", "similar"}

// String returns "sap", "lagged" or "similar".
func (a Approximation) String() string {
	if a < 0 || int(a) >= len(approximationNames) {
		return fmt.Sprintf("Approximation(%d)", int(a))
	}
	return approximationNames[a]
}

// ParseApproximation parses "sap", "lagged" or "similar".
func ParseApproximation(s string) (Approximation, error) {
	for i, n := range approximationNames {
		if s == n {
			return Approximation(i), nil
		}
	}
	return 0, fmt.Errorf("unknown contact approximation %q (want sap, lagged or similar)", s)
}

// Params are the contact-model parameters shared by all contacts.
type Params struct {
	Beta     float64          // β of SAP eq. 29 (near-rigid contact period β δt), default 1
	Sigma    float64          // σ of SAP eq. 30 (stiction regularization), default 1e-3
	Margin   float64          // pairs closer than this (m) become contacts, default 1e-3
	Delassus DelassusEstimate // default DelassusDiagonal
	// Approximation is the convex approximation of each contact, default SAP.
	Approximation Approximation
	// StictionTolerance is v_s in m/s, the slip speed below which Lagged and
	// Similar friction is regularized (ε_s = max(v_s, μ R_t n0)); default
	// 1e-4 (Drake's default stiction tolerance).
	StictionTolerance float64
	// Speculative turns on speculative contact: a pair becomes a contact
	// when its gap could close within one step, not only within Margin; and
	// a persistent contact's gap linearization error of the last step is
	// expected again (Pair.GapError).
	// Each geometry's margin grows by its largest point speed times δt,
	// capped at SpeculativeMax (m). Default on, 0.1 m.
	Speculative    bool
	SpeculativeMax float64
	// LoadAware makes the near-rigid regularization of each contact's
	// normal use the mass the contact carries (from its previous normal
	// impulse) when that is larger than its own effective mass 1/W_nn, so
	// that tall stacks do not sink (see loadAwareW).
	LoadAware bool
	// AnchorRadius is how far (m) a sticking contact may slip before its
	// friction anchor is dropped (it has in effect slid); default 1 mm.
	AnchorRadius float64
	// MaxRecoverySpeed caps the speed v̂_n = −φ0/(δt + τd) at which a
	// penetration φ0 < 0 is pushed out (m/s; 0: no cap, as in the SAP
	// paper). A contact whose stiffness rises while it is deep (load-aware
	// regularization) would otherwise push bodies apart at −φ0/(δt + τd).
	// It caps near-rigid contacts only: a contact whose material's
	// compliance exceeds the near-rigid one keeps its spring force k φ.
	MaxRecoverySpeed float64
	// SubstepTolerance (m) bounds the error of the linearized gap from
	// rotation within a step: a contact geometry at r from its rotation's
	// axis leaves its linearized path by about r(‖ω‖δt)²/2. A step whose
	// contact geometries would exceed it is taken as k equal substeps,
	// r(‖ω‖δt/k)²/2 ≤ SubstepTolerance, at most MaxSubsteps (sim). 0: never.
	SubstepTolerance float64
	// Sleep puts settled islands to sleep (sim, sleep.go); the zero Sleep
	// keeps every body awake.
	Sleep Sleep
	// Cone is the friction cone of MuJoCo's soft contacts where their own
	// rows are solved (MuJoCo's <option cone>; Pyramidal reports it),
	// default Elliptic.
	Cone Cone
	// ImpRatio is MuJoCo's <option impratio> for MuJoCo's soft contacts
	// where their own rows are solved: MuJoCo 2.2.2 divides the R of the
	// pyramid's edges (J_n ± μ J_t) and of the elliptic cone's friction
	// rows (R_t = R_n/ImpRatio) by it (package sim). 0 stands for MuJoCo's
	// default 1.
	ImpRatio float64
	// PGSIterations > 0 is MuJoCo's <option solver="PGS" iterations>:
	// where MuJoCo's rows of its soft contacts with the pyramidal cone are
	// solved (mujoco-euler and rk4, package sim), they are solved by
	// MuJoCo 2.2.2's projected Gauss–Seidel on the dual for at most this
	// many sweeps, as MuJoCo does, rather than to convergence. 0: off
	// (MuJoCo's Newton, whose converged answer the configured solver
	// finds).
	PGSIterations int
	// PGSTolerance is MuJoCo's <option tolerance> for PGS: its sweeps stop
	// when the rescaled cost improvement of one is below it.
	PGSTolerance float64
	// NoSlipIterations > 0 is MuJoCo's <option noslip_iterations>: where
	// MuJoCo's rows of its soft contacts with the pyramidal cone are
	// solved (package sim), the main solver's answer is post-processed by
	// MuJoCo 2.2.2's noslip solver for at most this many sweeps
	// (mj_solNoSlip: the friction rows without regularization, the normal
	// forces fixed). 0: off.
	NoSlipIterations int
	// NoSlipTolerance is MuJoCo's <option noslip_tolerance>: the noslip
	// sweeps stop when the rescaled cost improvement of one is below it.
	// 0 stands for MuJoCo's default 1e-6.
	NoSlipTolerance float64
	// Newton, with PGSIterations > 0, solves those rows (and with them
	// limits, friction loss and equalities) by MuJoCo 2.2.2's Newton
	// solver (<option solver="Newton">, MuJoCo's default) rather than PGS:
	// at most PGSIterations Newton iterations, stopping at MuJoCo's
	// tolerance PGSTolerance (package sim, mujoco_newton.go), the
	// elliptic cone's contacts included.
	Newton bool
	// CG, with Newton, runs MuJoCo 2.2.2's CG solver (<option
	// solver="CG">: Polak–Ribière preconditioned by M⁻¹, the same line
	// search and stopping rule; package sim, mujoco_cg.go) instead of its
	// Newton solver.
	CG bool
	// MuJoCoCollider makes the contacts of MuJoCo's soft materials, where
	// their own rows are solved (package sim), between geom types that
	// MuJoCo 2.2.2 collides with its convex collider mjc_Convex (cylinder
	// with box, mesh with box, mesh with mesh, ...; mjccd.Table), and
	// those of its plane, box and height-field colliders, come from ports
	// of them (package geometry/mjccd) instead of Stiction's narrow phase.
	// The MJCF import sets it.
	MuJoCoCollider bool
	// MultiCCD is MuJoCo's <flag multiccd="enable"/>: MuJoCoCollider's
	// pairs get the extra contacts of the flag (mjccd.Options.MultiCCD).
	MultiCCD bool
	// MPRTolerance and MPRIterations are MuJoCo's <option mpr_tolerance
	// mpr_iterations> for MuJoCoCollider's pairs (mjccd.Options); 0 means
	// MuJoCo's defaults, 1e-6 and 50.
	MPRTolerance  float64
	MPRIterations int
}

// DefaultParams returns β = 1, σ = 1e-3, margin = 1 mm, diagonal estimate,
// the SAP approximation, v_s = 1e-4 m/s, and speculative contact up to
// 0.1 m.
func DefaultParams() Params {
	return Params{Beta: 1, Sigma: 1e-3, Margin: 1e-3, Delassus: DelassusDiagonal, Approximation: SAP, StictionTolerance: 1e-4,
		Speculative: true, SpeculativeMax: 0.1, AnchorRadius: 1e-3}
}

// EngineParams returns the engine's default contact model, the one a scene
// gets for the fields it leaves out (docs/CONTACT.md; scene.Build and the
// Go API share it, scene's TestEngineDefaults checks that they agree): the
// Lagged approximation, speculative contact up to 0.1 m, load-aware
// regularization, friction anchors of 1 mm and a 0.3 m/s recovery cap, with
// DefaultParams' β, σ, margin, Delassus estimate and v_s, and sleeping
// islands at DefaultSleepSpeed and DefaultSleepSteps when SleepByDefault.
// DefaultParams is the SAP paper's model.
func EngineParams() Params {
	p := DefaultParams()
	if SleepByDefault {
		p.Sleep = Sleep{Speed: DefaultSleepSpeed, Steps: DefaultSleepSteps}
	}
	p.Approximation, p.LoadAware, p.MaxRecoverySpeed, p.SubstepTolerance = Lagged, true, 0.3, 1e-4
	return p
}

// Validate reports an error naming the bad field.
func (p Params) Validate() error {
	switch {
	case !(p.Beta > 0) || math.IsInf(p.Beta, 0):
		return fmt.Errorf("contact: beta %v must be positive and finite", p.Beta)
	case !(p.Sigma > 0) || math.IsInf(p.Sigma, 0):
		return fmt.Errorf("contact: sigma %v must be positive and finite", p.Sigma)
	case !(p.Margin >= 0) || math.IsInf(p.Margin, 0):
		return fmt.Errorf("contact: margin %v must be non-negative and finite", p.Margin)
	case p.Approximation < SAP || p.Approximation > Similar:
		return fmt.Errorf("contact: unknown approximation %v", p.Approximation)
	case !(p.StictionTolerance > 0) || math.IsInf(p.StictionTolerance, 0):
		return fmt.Errorf("contact: stiction tolerance %v must be positive and finite", p.StictionTolerance)
	case !(p.SpeculativeMax >= 0) || math.IsInf(p.SpeculativeMax, 0):
		return fmt.Errorf("contact: speculative margin cap %v must be non-negative and finite", p.SpeculativeMax)
	case !(p.SubstepTolerance >= 0) || math.IsInf(p.SubstepTolerance, 0):
		return fmt.Errorf("contact: substep tolerance %v must be non-negative and finite", p.SubstepTolerance)
	case !(p.Sleep.Speed >= 0) || math.IsInf(p.Sleep.Speed, 0):
		return fmt.Errorf("contact: sleep speed %v must be non-negative and finite", p.Sleep.Speed)
	case p.Sleep.Steps < 0:
		return fmt.Errorf("contact: sleep steps %d must be non-negative", p.Sleep.Steps)
	case p.Cone != Elliptic && p.Cone != Pyramidal:
		return fmt.Errorf("contact: unknown friction cone %v", p.Cone)
	case !(p.ImpRatio >= 0) || math.IsInf(p.ImpRatio, 0):
		return fmt.Errorf("contact: impratio %v must be non-negative and finite", p.ImpRatio)
	case p.PGSIterations < 0:
		return fmt.Errorf("contact: PGS iterations %d must be non-negative", p.PGSIterations)
	case !(p.MPRTolerance >= 0) || math.IsInf(p.MPRTolerance, 0):
		return fmt.Errorf("contact: MPR tolerance %v must be non-negative and finite", p.MPRTolerance)
	case p.MPRIterations < 0:
		return fmt.Errorf("contact: MPR iterations %d must be non-negative", p.MPRIterations)
	case !(p.PGSTolerance >= 0) || math.IsInf(p.PGSTolerance, 0):
		return fmt.Errorf("contact: PGS tolerance %v must be non-negative and finite", p.PGSTolerance)
	case p.NoSlipIterations < 0:
		return fmt.Errorf("contact: noslip iterations %d must be non-negative", p.NoSlipIterations)
	case !(p.NoSlipTolerance >= 0) || math.IsInf(p.NoSlipTolerance, 0):
		return fmt.Errorf("contact: noslip tolerance %v must be non-negative and finite", p.NoSlipTolerance)
	}
	return nil
}
