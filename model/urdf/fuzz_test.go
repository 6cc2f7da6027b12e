package urdf

import (
	"testing"

	"github.com/stiction-sim/stiction/model"
)

// FuzzURDF feeds arbitrary documents to the importer: it must return an
// import whose scene validated, or an error, and never panic. Mesh and
// include paths resolve against testdata/ (which holds no models).
func FuzzURDF(f *testing.F) {
	for _, s := range []string{`<robot name="r"><link name="a"><inertial><mass value="1"/><inertia ixx="1" iyy="1" izz="1"/></inertial><collision><geometry><box size="1 1 1"/></geometry></collision></link><link name="b"><inertial><origin xyz="0 0 1" rpy="0 1 0"/><mass value="2"/><inertia ixx="1" iyy="1" izz="1"/></inertial></link><joint name="j" type="revolute"><origin xyz="0 0 1"/><axis xyz="0 1 0"/><limit lower="-1" upper="1" effort="1" velocity="1"/><parent link="a"/><child link="b"/><mimic joint="j"/></joint><transmission name="t"><joint name="j"/><actuator name="m"><mechanicalReduction>2</mechanicalReduction></actuator></transmission></robot>`, `<robot><link name="a"/><link name="b"/><joint name="j" type="planar"><axis xyz="1 0 0"/><parent link="a"/><child link="b"/></joint></robot>`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, self := range []bool{false, true} { // with self-collision, the initial-overlap test builds the model
			im, err := Parse("testdata/fuzz.urdf", data, model.Options{SelfCollision: self})
			if err == nil {
				if err := im.Scene.Validate("fuzz"); err != nil {
					t.Fatalf("self-collision %v: accepted a scene that does not validate: %v", self, err)
				}
			}
		}
	})
}
