package scene

import (
	"fmt"

	"github.com/stiction-sim/stiction/spatial"
)

// The ranges of mass and principal moment of inertia that a free body may
// have. Outside them the momentum balance is so badly scaled in double
// precision that the solver's error e_m is not even finite (a 1e-30 kg body
// gave e_m = +Inf); they are far beyond any body a robot meets (a 1 mm
// steel ball has 4e-6 kg and 2e-12 kg·m²). The lowest mass is MuJoCo's
// mjMINVAL, so that every model MuJoCo accepts loads (Gymnasium's pusher
// has a 4e-10 kg body; model/mjcf's TestTinyMasses steps such bodies).
const (
	minMass, maxMass     = 1e-15, 1e9  // kg
	minMoment, maxMoment = 1e-21, 1e15 // kg·m²
)

// physical rejects a spatial inertia outside the ranges above, naming the
// value and the range.
func physical(in spatial.SpatialInertia) error {
	if in.Mass < minMass || in.Mass > maxMass {
		return fmt.Errorf("mass %.3g kg is outside [%g, %g] kg: not a physical body (units are SI: kg, m)", in.Mass, minMass, maxMass)
	}
	for i := range 3 {
		// λmin ≤ Iii ≤ λmax for a symmetric positive-definite inertia.
		if d := in.Icom[i][i]; d < minMoment || d > maxMoment {
			return fmt.Errorf("moment of inertia %.3g kg·m² (axis %d) is outside [%g, %g] kg·m²: not a physical body", d, i, minMoment, maxMoment)
		}
	}
	return nil
}
