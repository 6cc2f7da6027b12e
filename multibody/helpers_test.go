package multibody

import "github.com/stiction-sim/stiction/geometry"

func sphereShape() geometry.Shape { return geometry.NewSphere(0.1) }
