package sim

import (
	"fmt"
	"math"
	"strings"
)

// Scheme is the θ-method of SAP §II-C (eq. 11–12): mid-step quantities
// q^θq = θq q + (1−θq) q0, v^θv = θv v + (1−θv) v0 and
// v^θvq = θvq v + (1−θvq) v0. The zero Scheme (no Name) is symplectic Euler,
// the default. Method selects one of the mechanics notes' other
// integrators (§0.9.3, §0.9.4; scheme_notes.go) or one of MuJoCo's
// (scheme_mujoco.go), which keep the θs of their position update.
type Scheme struct {
	Name    string  // preset name, or "custom"
	ThetaQ  float64 // θq: where M, k and N are evaluated in q
	ThetaV  float64 // θv: where k is evaluated in v
	ThetaVQ float64 // θvq: the velocity used in q = q0 + δt N(q^θq) v^θvq
	Method  Method  // integrator family; the zero value is the θ-method
}

// Method is an integrator family.
type Method uint8

// The integrator families.
const (
	ThetaMethod        Method = iota // SAP §II-C, eq. 11–15
	TrapezoidalRule                  // mechanics notes §0.9.3, linearized with the force elements' K and D
	BridsonMarinoRule                // mechanics notes §0.9.4, contact solve on the half-step velocity
	MuJoCoEulerRule                  // MuJoCo 2.2.2's mj_Euler: only joint damping implicit (scheme_mujoco.go)
	RungeKutta4                      // MuJoCo 2.2.2's mj_RungeKutta, N = 4, contacts and constraints solved at every stage
	MuJoCoImplicitRule               // MuJoCo 2.2.2's mj_implicit: damping, fluid and Coriolis velocity derivatives implicit (scheme_implicit.go)
)

// The presets of SAP §II-C.
var (
	ExplicitEuler   = Scheme{Name: "explicit-euler"}
	SymplecticEuler = Scheme{Name: "symplectic-euler", ThetaVQ: 1}
	ImplicitEuler   = Scheme{Name: "implicit-euler", ThetaQ: 1, ThetaV: 1, ThetaVQ: 1}
	Midpoint        = Scheme{Name: "midpoint", ThetaQ: 0.5, ThetaV: 0.5, ThetaVQ: 0.5}
	// Trapezoidal is the linearized trapezoidal rule of the mechanics notes
	// §0.9.3: M, k, K and D at (q0, v0), q = q0 + δt N(q0) (v0 + v)/2.
	Trapezoidal = Scheme{Name: "trapezoidal", ThetaVQ: 0.5, Method: TrapezoidalRule}
	// BridsonMarino is the mechanics notes' §0.9.4: a half kick, the
	// contact and constraint solve on the half-step velocity, the drift
	// q = q0 + δt N(q0) v½ and a second half kick at (q, v0).
	BridsonMarino = Scheme{Name: "bridson-marino", ThetaVQ: 1, Method: BridsonMarinoRule}
	// MuJoCoEuler is MuJoCo's Euler integrator (mj_Euler, MuJoCo 2.2.2):
	// v* = v0 + δt (M + δt B)⁻¹ k(q0, v0), B the diagonal of the joints'
	// damping, k all the other forces explicit (the damping's −B v0
	// included), and q = q0 ⊕ δt v with quaternions turned by the exact
	// rotation exp(δt ω) (mj_integratePos). MJCF's integrator="Euler".
	MuJoCoEuler = Scheme{Name: "mujoco-euler", ThetaVQ: 1, Method: MuJoCoEulerRule}
	// RK4 is MuJoCo's classical 4-stage Runge–Kutta (mj_RungeKutta, MuJoCo
	// 2.2.2) on (q, v), positions composed by the same exponential map. It
	// collides and solves the contacts and acting constraints at each of
	// its four stages, as MuJoCo's stages do (explicit actuators and limits
	// within their bounds are forces, constraint.Set.NeedsSolve); only with
	// attachments or prescribed motions is a step that has them taken with
	// MuJoCoEuler (StepStats.RK4Fallback).
	// MJCF's integrator="RK4".
	RK4 = Scheme{Name: "rk4", ThetaVQ: 1, Method: RungeKutta4}
	// MuJoCoImplicit is MuJoCo 2.2.2's implicit integrator (mj_implicit):
	// v* = v0 + δt (M − δt ∂f/∂v)⁻¹ k(q0, v0), ∂f/∂v the velocity
	// derivative of the passive forces (joint and tendon damping, fluid)
	// and of the actuators (kv of a servo or affine bias; their forces,
	// clamped, explicit) minus that of the Coriolis, centrifugal and
	// gyroscopic forces, all at (q0, v0); positions as MuJoCoEuler's.
	// MJCF's integrator="implicit".
	MuJoCoImplicit = Scheme{Name: "mujoco-implicit", ThetaVQ: 1, Method: MuJoCoImplicitRule}
)

// presets are the schemes ParseScheme accepts, in SchemeNames order.
var presets = []Scheme{ExplicitEuler, SymplecticEuler, ImplicitEuler, Midpoint, Trapezoidal, BridsonMarino, MuJoCoEuler, RK4, MuJoCoImplicit}

// SchemeNames lists the preset names accepted by ParseScheme.
func SchemeNames() []string {
	names := make([]string, len(presets))
	for i, s := range presets {
		names[i] = s.Name
	}
	return names
}

// ParseScheme returns the preset of the given name ("" is symplectic Euler).
func ParseScheme(name string) (Scheme, error) {
	for _, s := range presets {
		if s.Name == name {
			return s, nil
		}
	}
	if name == "" {
		return SymplecticEuler, nil
	}
	return Scheme{}, fmt.Errorf("sim: unknown scheme %q (one of %s)", name, strings.Join(SchemeNames(), ", "))
}

// resolved returns s, or symplectic Euler for the zero Scheme.
func (s Scheme) resolved() Scheme {
	if s == (Scheme{}) {
		return SymplecticEuler
	}
	return s
}

// Explicit reports whether v* is explicit (θq = θv = 0): then m(v*) = 0
// (eq. 13–14) is linear in v* with matrix M(q0) and needs one solve.
func (s Scheme) Explicit() bool { return s.ThetaQ == 0 && s.ThetaV == 0 }

// Validate checks that every θ is in [0, 1] and that a non-θ-method integrator
// keeps its preset's θs.
func (s Scheme) Validate() error {
	var p Scheme
	switch s.Method {
	case ThetaMethod:
		p = s
	case TrapezoidalRule:
		p = Trapezoidal
	case BridsonMarinoRule:
		p = BridsonMarino
	case MuJoCoEulerRule:
		p = MuJoCoEuler
	case RungeKutta4:
		p = RK4
	case MuJoCoImplicitRule:
		p = MuJoCoImplicit
	default:
		return fmt.Errorf("sim: scheme %s: unknown method %d", s.Name, s.Method)
	}
	if s.ThetaQ != p.ThetaQ || s.ThetaV != p.ThetaV || s.ThetaVQ != p.ThetaVQ {
		return fmt.Errorf("sim: scheme %s: the %s method has fixed θs (%g, %g, %g)", s.Name, p.Name, p.ThetaQ, p.ThetaV, p.ThetaVQ)
	}
	for _, t := range []struct {
		n string
		v float64
	}{{"theta_q", s.ThetaQ}, {"theta_v", s.ThetaV}, {"theta_vq", s.ThetaVQ}} {
		if !(t.v >= 0 && t.v <= 1) || math.IsNaN(t.v) {
			return fmt.Errorf("sim: scheme %s: %s = %v must be in [0, 1]", s.Name, t.n, t.v)
		}
	}
	return nil
}
