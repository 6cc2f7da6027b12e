package scene

import (
	"strings"
	"testing"
)

// TestSiteTransmissionValidation: a site transmission's errors name the
// field and value (the MJCF importer's site actuators are checked against
// MuJoCo in internal/mjref, TestSiteTransmissionMuJoCo).
func TestSiteTransmissionValidation(t *testing.T) {
	for _, c := range []struct{ yaml, want string }{
		{"actuators:\n  - {type: motor, site: {site: {body: a}, gear: [0, 0, 0, 0, 0, 0]}}\n", "actuators[0].site.gear: [0, 0, 0, 0, 0, 0] must be finite and not all 0"},
		{"actuators:\n  - {type: motor, site: {site: {body: nope}, gear: [1, 0, 0, 0, 0, 0]}}\n", `actuators[0].site.site.body: "nope" is not a body name`},
		{"actuators:\n  - {type: motor, site: {site: {body: a}, ref: {body: \"\"}, gear: [1, 0, 0, 0, 0, 0]}}\n", "actuators[0].site.ref.body: missing"},
		{"actuators:\n  - {type: motor, site: {site: {body: a, frame: {quaternion: [0, 0, 0, 0]}}, gear: [1, 0, 0, 0, 0, 0]}}\n", "actuators[0].site.site.frame.quaternion"},
		{"actuators:\n  - {type: motor, joint: a, site: {site: {body: a}, gear: [1, 0, 0, 0, 0, 0]}}\n", "actuators[0].site: given with a joint, tendon or slider-crank"},
	} {
		_, err := Parse("t.yaml", []byte(tendonBase+c.yaml), nil)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: error %v, want %q", c.yaml, err, c.want)
		}
	}
}
