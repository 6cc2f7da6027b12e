package contact

import "fmt"

// Cone selects the friction cone of MuJoCo's soft contacts (the materials
// with SlipTime, SlipStiffness and SlipWeight set, which the MJCF importer
// gives its geoms) where the simulator solves MuJoCo's own contact rows
// (sim's mujoco-euler and mujoco-implicit steps and the rk4 scheme's
// four stages). It is MuJoCo's <option cone>; other contacts ignore it.
type Cone int

const (
	// Elliptic is MuJoCo 2.2.2's elliptic cone: a contact of condim 1 or 3
	// keeps its three rows (t1, t2, n) as one cone block
	// (solver.ContactCone) with MuJoCo's R_n = (1 − d)/d · w and
	// R_t = R_n/ImpRatio (mj_makeImpedance), whose converged answer is
	// MuJoCo's (sim's elliptic.go). A contact of condim 4 or 6, whose
	// MuJoCo cone spans its torsional and rolling rows too, keeps the
	// approximation's (Params.Approximation: the Lagged disk) with separate
	// spin and rolling blocks.
	Elliptic Cone = iota
	// Pyramidal is MuJoCo 2.2.2's default cone: a contact of condim 3 has
	// four one-sided rows J_n ± μ J_t1, J_n ± μ J_t2, each with a force
	// ≥ 0 (mj_instantiateContact), the regularization Rpy = 2μ²(1 − d)/d
	// · (1 + μ²) w of all its edges (mj_makeImpedance, impratio 1) and
	// the reference acceleration −B J_e v − K d φ (mj_referenceConstraint).
	Pyramidal
)

var coneNames = [...]string{"elliptic", "pyramidal"}

// String returns "elliptic" or "pyramidal".
func (c Cone) String() string {
	if c < 0 || int(c) >= len(coneNames) {
		return fmt.Sprintf("Cone(%d)", int(c))
	}
	return coneNames[c]
}

// ParseCone parses "elliptic" or "pyramidal"; "" is Elliptic.
func ParseCone(s string) (Cone, error) {
	switch s {
	case "", "elliptic":
		return Elliptic, nil
	case "pyramidal":
		return Pyramidal, nil
	}
	return 0, fmt.Errorf("unknown friction cone %q (want elliptic or pyramidal)", s)
}

// Pyramidal reports whether MuJoCo's soft contacts take MuJoCo's
// pyramidal friction cone (Params.Cone). Its receiver is a pointer: a
// value receiver made each call copy the whole Params (33 instructions
// and two instruction-cache lines of the simulator's solvePyramid).
func (p *Params) Pyramidal() bool { return p.Cone == Pyramidal }
