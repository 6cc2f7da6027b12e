package sim

import (
	"fmt"
	"math"
	"strings"
)

// Scheme is the θ-method of SAP §II-C (eq. 11–12): mid-step quantities
// q^θq = θq q + (1−θq) q0, v^θv = θv v + (1−θv) v0 and
// v^θvq = θvq v + (1−θvq) v0. The zero Scheme (no Name) is symplectic Euler,
// the default.
type Scheme struct {
	Name    string  // preset name, or "custom"
	ThetaQ  float64 // θq: where M, k and N are evaluated in q
	ThetaV  float64 // θv: where k is evaluated in v
	ThetaVQ float64 // θvq: the velocity used in q = q0 + δt N(q^θq) v^θvq
}

// The presets of SAP §II-C.
var (
	ExplicitEuler   = Scheme{Name: "explicit-euler"}
	SymplecticEuler = Scheme{Name: "symplectic-euler", ThetaVQ: 1}
	ImplicitEuler   = Scheme{Name: "implicit-euler", ThetaQ: 1, ThetaV: 1, ThetaVQ: 1}
	Midpoint        = Scheme{Name: "midpoint", ThetaQ: 0.5, ThetaV: 0.5, ThetaVQ: 0.5}
)

// SchemeNames lists the preset names accepted by ParseScheme.
func SchemeNames() []string {
	return []string{ExplicitEuler.Name, SymplecticEuler.Name, ImplicitEuler.Name, Midpoint.Name}
}

// ParseScheme returns the preset of the given name ("" is symplectic Euler).
func ParseScheme(name string) (Scheme, error) {
	for _, s := range []Scheme{ExplicitEuler, SymplecticEuler, ImplicitEuler, Midpoint} {
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

// Validate checks that every θ is in [0, 1].
func (s Scheme) Validate() error {
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
