package robotrun

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// erdDir is example-robot-data: the testdata subset (the files whose
// meshes fit in the repository), or the checkout named by
// STICTION_ERD_DIR.
func erdDir() string {
	if d := os.Getenv("STICTION_ERD_DIR"); d != "" {
		return d
	}
	return "../../model/urdf/testdata/example-robot-data"
}

// failing are the robots whose 2-s run does not meet every bound, with
// why (measured; docs/MODELS.md's table). A robot listed here that passes
// fails the test, so that the list stays true.
var failing = map[string]string{
	"robots/alex_description/urdf/alex_nub_hands.urdf":                "peak ground penetration 2.1 mm > 1.9 mm as it falls or tips over (zero control); 0.63 mm over the last 0.1 s",
	"robots/alex_description/urdf/alex_psyonic_hands.urdf":            "peak ground penetration 2.4 mm > 1.9 mm as it falls or tips over (zero control); 0.39 mm over the last 0.1 s",
	"robots/bluevolta_description/urdf/bluevolta_bravo7_gripper.urdf": "peak ground penetration 11.0 mm > 5.1 mm as it falls or tips over (zero control); 1.5 mm over the last 0.1 s",
	"robots/bluevolta_description/urdf/bluevolta_bravo7_no_ee.urdf":   "peak ground penetration 12.0 mm > 5.1 mm as it falls or tips over (zero control); 1.5 mm over the last 0.1 s",
	"robots/falcon_description/urdf/falcon_bravo7_gripper.urdf":       "peak ground penetration 20.0 mm > 9.1 mm as it falls or tips over (zero control); 4.7 mm over the last 0.1 s",
	"robots/falcon_description/urdf/falcon_bravo7_no_ee.urdf":         "peak ground penetration 21.0 mm > 9.1 mm as it falls or tips over (zero control); 4.7 mm over the last 0.1 s",
	"robots/hextilt_description/urdf/hextilt_flying_arm_5.urdf":       "peak ground penetration 1.7 mm > 1.0 mm as it falls or tips over (zero control); 0.016 mm over the last 0.1 s",
	"robots/hyq_description/robots/hyq_no_sensors.urdf":               "peak ground penetration 3.0 mm > 2.7 mm as it falls or tips over (zero control); 0.47 mm over the last 0.1 s",
	"robots/romeo_description/urdf/romeo.urdf":                        "peak ground penetration 3.7 mm > 1.8 mm as it falls or tips over (zero control); 0.47 mm over the last 0.1 s",
	"robots/simple_humanoid_description/urdf/simple_humanoid.urdf":    "peak ground penetration 4.0 mm > 3.6 mm as it falls or tips over (zero control); 0.4 mm over the last 0.1 s",
	"robots/talos_data/robots/talos_full_v2.urdf":                     "peak ground penetration 6.5 mm > 2.8 mm as it falls or tips over (zero control); 0.64 mm over the last 0.1 s",
	"robots/talos_data/robots/talos_full_v2_box.urdf":                 "peak ground penetration 4.3 mm > 2.8 mm as it falls or tips over (zero control); 0.64 mm over the last 0.1 s",
	"robots/talos_data/robots/talos_reduced.urdf":                     "peak ground penetration 7.6 mm > 2.8 mm as it falls or tips over (zero control); 0.84 mm over the last 0.1 s",
	"robots/talos_data/robots/talos_reduced_box.urdf":                 "peak ground penetration 5.6 mm > 2.8 mm as it falls or tips over (zero control); 0.46 mm over the last 0.1 s",
	"robots/talos_data/robots/talos_reduced_corrected.urdf":           "peak ground penetration 7.6 mm > 2.8 mm as it falls or tips over (zero control); 0.84 mm over the last 0.1 s",
}

// TestTwoSeconds runs every loadable URDF of example-robot-data for 2 s on
// a ground with zero control, floating or on its fixed base (Fixed), and
// checks issue 27's bounds (Outcome.OK): no failed step, no NaN, ground
// penetration ≤ the resting-depth estimate + 1 mm, energy rise ≤ 0.1 % of
// m·g·1 m. The testdata subset runs by default; the whole checkout
// (STICTION_ERD_DIR) only with STICTION_LONG=1. ROBOT=substring picks
// files.
func TestTwoSeconds(t *testing.T) {
	if os.Getenv("STICTION_ERD_DIR") != "" && os.Getenv("STICTION_LONG") == "" {
		t.Skip("the whole of example-robot-data takes minutes: set STICTION_LONG=1")
	}
	dir := erdDir()
	files, err := Files(dir)
	if err != nil {
		t.Fatal(err)
	}
	ran := 0
	for _, f := range files {
		rel, _ := filepath.Rel(dir, f)
		if r := os.Getenv("ROBOT"); r != "" && !strings.Contains(rel, r) {
			continue
		}
		o := Run(f, Fixed(rel), 2, "", nil)
		if o.Steps == 0 && o.Failed == 0 {
			t.Logf("%-62s does not load: %s", rel, firstLine(o.Err))
			continue
		}
		ran++
		t.Logf("%-62s %s, %s", rel, o.Scheme, o.Summary())
		why, known := failing[rel]
		switch {
		case !o.OK() && !known:
			t.Errorf("%s: %s", rel, o.Summary())
		case o.OK() && known:
			t.Errorf("%s passes now (listed as failing: %s): take it off the list", rel, why)
		}
	}
	t.Logf("%d robots ran", ran)
}
