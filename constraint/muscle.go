package constraint

import "math"

// mjMinVal is MuJoCo's mjMINVAL, the floor of its divisors.
const mjMinVal = 1e-15

// MuscleParams holds the parameters of a Muscle actuator: MuJoCo 2.2.2's muscle
// (engine_util_misc.c: mju_muscleGain, mju_muscleBias,
// mju_muscleDynamics). Its force is f = FLV(l, l̇)·act + FP(l), with act its
// activation (Control.Act, a state of the simulator) and
// acṫ = (clamp(u, 0, 1) − act)/τ (Dynamics).
type MuscleParams struct {
	// TimeConst is (τ_act, τ_deact), s (MuJoCo's timeconst, default
	// 0.01 0.04).
	TimeConst [2]float64
	// Range is the operating range of the normalized length (MuJoCo's
	// range, default 0.75 1.05): the actuator's LengthRange maps onto it.
	Range [2]float64
	// Force is the peak active force F0 (> 0), or negative for
	// F0 = Scale/Acc0 (MuJoCo's default −1).
	Force float64
	// Scale is F0·acc0 when Force < 0 (MuJoCo's default 200).
	Scale float64
	// LMin, LMax are the normalized lengths where the active force
	// vanishes (default 0.5, 1.6); VMax the shortening velocity, in
	// optimal lengths per second, where it vanishes (default 1.5); FPMax
	// the passive force at LMax in units of F0 (default 1.3); FVMax the
	// active force at large lengthening velocity in units of F0 (default
	// 1.2).
	LMin, LMax, VMax, FPMax, FVMax float64
	// LengthRange is the actuator's length range [l_min, l_max] (length
	// l = Gear·L; MuJoCo's actuator_lengthrange).
	LengthRange [2]float64
	// Acc0 is ‖M⁻¹ Gear·G‖ at the model's reference configuration
	// (MuJoCo's actuator_acc0), used when Force < 0.
	Acc0 float64
}

// validate checks MuJoCo's compile-time rules for a muscle
// (user_objects.cc, mjCActuator::Compile) and ours.
func (mu *MuscleParams) validate() error {
	switch {
	case !finite(mu.TimeConst[0], mu.TimeConst[1], mu.Range[0], mu.Range[1], mu.Force, mu.Scale, mu.LMin, mu.LMax,
		mu.VMax, mu.FPMax, mu.FVMax, mu.LengthRange[0], mu.LengthRange[1], mu.Acc0):
		return errf("muscle parameters must be finite")
	case !(mu.TimeConst[0] > 0) || !(mu.TimeConst[1] > 0):
		return errf("muscle timeconst %v: need both > 0", mu.TimeConst)
	case !(mu.Range[0] < mu.Range[1]):
		return errf("muscle range %v: need range[0] < range[1]", mu.Range)
	case !(mu.LMin < 1) || !(mu.LMax > 1):
		return errf("muscle lmin %v, lmax %v: need lmin < 1 < lmax", mu.LMin, mu.LMax)
	case !(mu.Scale > 0) || !(mu.VMax > 0) || !(mu.FPMax > 0) || !(mu.FVMax > 0):
		return errf("muscle scale %v, vmax %v, fpmax %v, fvmax %v: need all > 0", mu.Scale, mu.VMax, mu.FPMax, mu.FVMax)
	case !(mu.LengthRange[0] < mu.LengthRange[1]):
		return errf("muscle length range %v: need lower < upper", mu.LengthRange)
	case mu.Force == 0:
		return errf("muscle force 0: give F0 > 0, or < 0 for scale/acc0")
	case mu.Force < 0 && !(mu.Acc0 > 0):
		return errf("muscle force %v needs acc0 > 0 (got %v)", mu.Force, mu.Acc0)
	}
	return nil
}

// F0 is the peak active force: Force, or Scale/max(mjMINVAL, Acc0) when
// Force < 0 (mju_muscleGain's rule).
func (mu *MuscleParams) F0() float64 {
	if mu.Force < 0 {
		return mu.Scale / math.Max(mjMinVal, mu.Acc0)
	}
	return mu.Force
}

// optimal returns the optimal length L0 = (l_max − l_min)/(range₁ − range₀)
// and the normalized length of l.
func (mu *MuscleParams) normalized(l float64) (l0, ln float64) {
	l0 = (mu.LengthRange[1] - mu.LengthRange[0]) / math.Max(mjMinVal, mu.Range[1]-mu.Range[0])
	return l0, mu.Range[0] + (l-mu.LengthRange[0])/math.Max(mjMinVal, l0)
}

// Gain is the muscle's active force per unit activation at length l and
// rate ld, −F0·FL(L)·FV(V) (negative: a muscle pulls), MuJoCo's
// mju_muscleGain: L the normalized length, V = l̇/(L0·VMax), FL the
// length curve (lengthCurve), FV the velocity curve (velocityCurve).
func (mu *MuscleParams) Gain(l, ld float64) float64 {
	l0, L := mu.normalized(l)
	fv, _ := mu.velocityCurve(ld / math.Max(mjMinVal, l0*mu.VMax))
	return -mu.F0() * mu.lengthCurve(L) * fv
}

// GainVel is ∂Gain/∂l̇ at length l and rate ld, MuJoCo 2.2.2's
// mjd_muscleGain_vel (engine_derivative.c): −F0·FL(L)·FV′(V)/(L0·VMax).
// mujoco-implicit puts −GainVel·act into its implicit matrix.
func (mu *MuscleParams) GainVel(l, ld float64) float64 {
	l0, L := mu.normalized(l)
	_, dfv := mu.velocityCurve(ld / math.Max(mjMinVal, l0*mu.VMax))
	return -mu.F0() * mu.lengthCurve(L) * dfv / math.Max(mjMinVal, l0*mu.VMax)
}

// velocityCurve is the force–velocity curve FV at the normalized velocity
// V and its derivative FV′ (mju_muscleGain, mjd_muscleGain_vel): 0 for
// V ≤ −1, (V + 1)² up to 0, rising to FVMax at V = y = FVMax − 1,
// FVMax − (y − V)²/y between, FVMax beyond.
func (mu *MuscleParams) velocityCurve(V float64) (fv, dfv float64) {
	y := mu.FVMax - 1
	switch {
	case V <= -1:
		return 0, 0
	case V <= 0:
		return (V + 1) * (V + 1), 2*V + 2
	case V <= y:
		return mu.FVMax - (y-V)*(y-V)/math.Max(mjMinVal, y), (-2*V + 2*y) / math.Max(mjMinVal, y)
	}
	return mu.FVMax, 0
}

// lengthCurve is the active force–length curve FL at the normalized
// length L (mju_muscleGain): two half-quadratics up to 1 at L = 1 and
// down to 0 at LMin and LMax; below LMin MuJoCo's if-chain takes the
// second piece, which is negative there (kept for parity).
func (mu *MuscleParams) lengthCurve(L float64) float64 {
	a, b := 0.5*(mu.LMin+1), 0.5*(1+mu.LMax)
	switch {
	case L >= mu.LMin && L <= a:
		x := (L - mu.LMin) / math.Max(mjMinVal, a-mu.LMin)
		return 0.5 * x * x
	case L <= 1:
		x := (1 - L) / math.Max(mjMinVal, 1-a)
		return 1 - 0.5*x*x
	case L <= b:
		x := (L - 1) / math.Max(mjMinVal, b-1)
		return 1 - 0.5*x*x
	case L <= mu.LMax:
		x := (mu.LMax - L) / math.Max(mjMinVal, mu.LMax-b)
		return 0.5 * x * x
	}
	return 0
}

// Bias is the muscle's passive force at length l, MuJoCo's
// mju_muscleBias: 0 up to L = 1, −F0·FPMax·x²/2 up to b = (1 + LMax)/2
// (x = (L − 1)/(b − 1)), then linear, −F0·FPMax·(1/2 + (L − b)/(b − 1)).
func (mu *MuscleParams) Bias(l float64) float64 {
	_, L := mu.normalized(l)
	b := 0.5 * (1 + mu.LMax)
	switch {
	case L <= 1:
		return 0
	case L <= b:
		x := (L - 1) / math.Max(mjMinVal, b-1)
		return -mu.F0() * mu.FPMax * 0.5 * x * x
	}
	x := (L - b) / math.Max(mjMinVal, b-1)
	return -mu.F0() * mu.FPMax * (0.5 + x)
}

// Dynamics is the activation's rate acṫ = (u_c − act)/τ for the control u,
// MuJoCo's mju_muscleDynamics: u_c = clamp(u, 0, 1), and with
// a_c = clamp(act, 0, 1), τ = τ_act (1/2 + 3/2 a_c) when u_c > act,
// τ_deact/(1/2 + 3/2 a_c) otherwise (Millard et al. 2013).
func (mu *MuscleParams) Dynamics(u, act float64) float64 {
	uc := max(0, min(1, u))
	ac := max(0, min(1, act))
	var tau float64
	if uc > act {
		tau = mu.TimeConst[0] * (0.5 + 1.5*ac)
	} else {
		tau = mu.TimeConst[1] / (0.5 + 1.5*ac)
	}
	return (uc - act) / math.Max(mjMinVal, tau)
}

// Force is the muscle's force at length l, rate ld and activation act,
// Gain·act + Bias (mj_fwdActuation).
func (mu *MuscleParams) force(l, ld, act float64) float64 {
	return mu.Gain(l, ld)*act + mu.Bias(l)
}
