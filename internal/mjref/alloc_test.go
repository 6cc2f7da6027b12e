package mjref

import (
	"path/filepath"
	"testing"

	"github.com/stiction-sim/stiction/sim"
)

// TestSuiteStepsAllocateNothing: a warmed-up step of Gymnasium's humanoids
// (MuJoCo's PGS on their contacts, mujoco_pgs.go), of suite robots built
// from compound joints (bodies with several MJCF joints), with their
// contacts, limits, actuators and joint friction, and of the suite robots
// with fixed tendons (fish: a tendon spring and a position servo on a
// tendon; manipulator: a motor on a tendon and a tendon equality),
// and of the models under mujoco-implicit (MuJoCo's integrator="implicit":
// a pendulum with ball and slide joints; a free body in a fluid, landing on
// the floor, under the inertia-box and the ellipsoid fluid models), and
// of MuJoCo's force_free.xml (a soft weld, in contact), and of MuJoCo's
// cylinder_box and multiple_objects (MuJoCo's convex collider with
// multiccd, on cylinders, boxes and meshes), and of dm_control's stacker
// (boxes on the floor: MuJoCo's plane–box collider), of
// frameless_contact_hfield (a box on a height field: MuJoCo's
// height-field collider), and of MuJoCo's test model.xml (a spatial
// tendon's limit and motors on tendons whose constraint blocks span 3
// trees), allocates nothing.
func TestSuiteStepsAllocateNothing(t *testing.T) {
	for _, f := range []string{"gymnasium/humanoid.xml", "gymnasium/humanoidstandup.xml", "dm_control/suite/walker.xml", "dm_control/suite/cheetah.xml", "dm_control/suite/fish.xml", "dm_control/suite/manipulator.xml", "mujoco/test/engine/testdata/derivative/energy_conserving_pendulum.xml", "mujoco/test/engine/testdata/derivative/tumbling_thin_object.xml", "mujoco/test/engine/testdata/derivative/tumbling_thin_object_ellipsoid.xml", "mujoco/test/engine/testdata/core_smooth/rne_post/weld/force_free.xml", "mujoco/test/engine/testdata/collision_convex/cylinder_box.xml", "mujoco/test/engine/testdata/collision_convex/multiple_objects.xml", "dm_control/suite/stacker.xml", "mujoco/test/engine/testdata/collision_convex/frameless_contact_hfield.xml", "mujoco/test/testdata/model.xml"} {
		b, _, err := stiction(filepath.Join("testdata", f))
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		s, err := sim.New(b.Model, b.State, b.Config)
		if err != nil {
			t.Fatal(err)
		}
		for range 300 { // falls onto the floor: contacts come and go
			if _, err := s.Step(); err != nil {
				t.Fatalf("%s: %v", f, err)
			}
		}
		allocs := testing.AllocsPerRun(20, func() {
			if _, err := s.Step(); err != nil {
				t.Fatal(err)
			}
		})
		if allocs != 0 {
			t.Errorf("%s: %v allocations per warmed-up step", f, allocs)
		}
	}
}
