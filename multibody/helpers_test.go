package multibody

import (
	"math"

	"github.com/stiction-sim/stiction/geometry"
	"github.com/stiction-sim/stiction/spatial"
)

func sphereShape() geometry.Shape { return geometry.NewSphere(0.1) }

// sameVecBits reports whether a and b hold the same float64 bit patterns.
func sameVecBits(a, b spatial.Vec3) bool {
	for i := range 3 {
		if math.Float64bits(a[i]) != math.Float64bits(b[i]) {
			return false
		}
	}
	return true
}
