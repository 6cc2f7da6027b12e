package sensor

import (
	"testing"

	"github.com/stiction-sim/stiction/spatial"
)

// TestRayHitsZone: MuJoCo's touch rule on each zone shape — a point inside
// always counts, a point outside counts when its ray (along the normal,
// away from the sensor's body) enters the zone ahead.
func TestRayHitsZone(t *testing.T) {
	up, down := spatial.V3(0, 0, 1), spatial.V3(0, 0, -1)
	for _, c := range []struct {
		z    Zone
		p, d spatial.Vec3
		want bool
	}{
		{Zone{"sphere", spatial.V3(0.1, 0, 0)}, spatial.V3(0.05, 0, 0), up, true},
		{Zone{"sphere", spatial.V3(0.1, 0, 0)}, spatial.V3(0, 0, -0.2), up, true},
		{Zone{"sphere", spatial.V3(0.1, 0, 0)}, spatial.V3(0, 0, -0.2), down, false},
		{Zone{"sphere", spatial.V3(0.1, 0, 0)}, spatial.V3(0.2, 0, -0.2), up, false},
		{Zone{"box", spatial.V3(0.1, 0.2, 0.3)}, spatial.V3(0.09, 0.19, 0.29), down, true},
		{Zone{"box", spatial.V3(0.1, 0.2, 0.3)}, spatial.V3(0.09, 0.19, -0.5), up, true},
		{Zone{"box", spatial.V3(0.1, 0.2, 0.3)}, spatial.V3(0.11, 0, -0.5), up, false},
		{Zone{"box", spatial.V3(0.1, 0.2, 0.3)}, spatial.V3(0, 0, 0.5), up, false},
		{Zone{"ellipsoid", spatial.V3(0.1, 0.2, 0.3)}, spatial.V3(0, 0.19, 0), up, true},
		{Zone{"ellipsoid", spatial.V3(0.1, 0.2, 0.3)}, spatial.V3(0.09, 0.19, 0), up, false},
		{Zone{"cylinder", spatial.V3(0.1, 0.2, 0)}, spatial.V3(0.09, 0, -1), up, true},
		{Zone{"cylinder", spatial.V3(0.1, 0.2, 0)}, spatial.V3(0.11, 0, 0), up, false},
		{Zone{"cylinder", spatial.V3(0.1, 0.2, 0)}, spatial.V3(-1, 0, 0.19), spatial.V3(1, 0, 0), true},
		{Zone{"capsule", spatial.V3(0.1, 0.2, 0)}, spatial.V3(0, 0, 0.29), up, true},
		{Zone{"capsule", spatial.V3(0.1, 0.2, 0)}, spatial.V3(0.09, 0, 0.29), up, false},
	} {
		if got := rayHitsZone(c.p, c.d, c.z); got != c.want {
			t.Errorf("%v: ray from %v along %v: %v, want %v", c.z, c.p, c.d, got, c.want)
		}
	}
}
