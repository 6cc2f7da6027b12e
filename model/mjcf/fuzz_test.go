package mjcf

import (
	"os"
	"testing"

	"github.com/stiction-sim/stiction/model"
)

// FuzzMJCF feeds arbitrary documents to the importer: it must return an
// import whose scene validated, or an error, and never panic. Mesh and
// include paths resolve against testdata/ (which holds no models).
func FuzzMJCF(f *testing.F) {
	for _, s := range []string{`<mujoco><compiler angle="degree" eulerseq="XyZ"/><option timestep="0.01" integrator="implicit"/><default><default class="c"><geom type="capsule" size="0.1 0.2"/><joint damping="1"/></default></default><worldbody><geom type="plane" size="1 1 1"/><body name="a" euler="10 20 30" childclass="c"><joint name="j" range="-30 30"/><geom fromto="0 0 0 0 0 1"/><site name="s"/><body name="b" xyaxes="1 0 0 0 1 0"><joint name="k" type="ball"/><inertial pos="0 0 1" mass="1" fullinertia="1 1 1 0 0 0"/></body></body><body name="f"><freejoint/><geom type="ellipsoid" size="1 2 3" mass="2"/></body></worldbody><contact><exclude body1="a" body2="b"/></contact><equality><joint joint1="j" joint2="k"/></equality><actuator><position joint="j" kp="10"/><general joint="j" biastype="affine" gainprm="5" biasprm="0 -5 -1"/></actuator><keyframe><key qpos="1 1 0 0 0 0 0 1 0 0 0 0" qvel="1 0 0 0 1 2 3 4 5 6"/></keyframe></mujoco>`} {
		f.Add([]byte(s))
	}
	for _, p := range []string{"/work/shared/models/mujoco_menagerie/kuka_iiwa_14/iiwa14.xml", "/work/shared/models/mujoco_menagerie/wonik_allegro/right_hand.xml"} {
		if data, err := os.ReadFile(p); err == nil {
			f.Add(data)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		im, err := Parse("testdata/fuzz.xml", data, model.Options{})
		if err == nil {
			if err := im.Scene.Validate("fuzz"); err != nil {
				t.Fatalf("accepted a scene that does not validate: %v", err)
			}
		}
	})
}
