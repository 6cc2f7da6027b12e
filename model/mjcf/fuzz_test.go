package mjcf

import (
	"os"
	"testing"

	"github.com/stiction-sim/stiction/model"
	"github.com/stiction-sim/stiction/model/embedded"
)

// FuzzMJCF feeds arbitrary documents to the importer: it must return an
// import whose scene validated, or an error, and never panic. Mesh and
// include paths resolve against testdata/ (which holds no models).
func FuzzMJCF(f *testing.F) {
	for _, s := range []string{`<mujoco><compiler angle="degree" eulerseq="XyZ"/><option timestep="0.01" integrator="implicit"/><default><default class="c"><geom type="capsule" size="0.1 0.2"/><joint damping="1"/></default></default><worldbody><geom type="plane" size="1 1 1"/><body name="a" euler="10 20 30" childclass="c"><joint name="j" range="-30 30"/><geom fromto="0 0 0 0 0 1"/><site name="s"/><body name="b" xyaxes="1 0 0 0 1 0"><joint name="k" type="ball"/><inertial pos="0 0 1" mass="1" fullinertia="1 1 1 0 0 0"/></body></body><body name="f"><freejoint/><geom type="ellipsoid" size="1 2 3" mass="2"/></body></worldbody><contact><exclude body1="a" body2="b"/></contact><equality><joint joint1="j" joint2="k"/></equality><actuator><position joint="j" kp="10"/><general joint="j" biastype="affine" gainprm="5" biasprm="0 -5 -1"/></actuator><keyframe><key qpos="1 1 0 0 0 0 0 1 0 0 0 0" qvel="1 0 0 0 1 2 3 4 5 6"/></keyframe></mujoco>`,
		`<mujoco><compiler angle="radian"/><worldbody><body name="a"><joint name="j" axis="0 1 0" frictionloss="0.1" actuatorfrcrange="-2 2"/><inertial pos="0.5 0 0" mass="1" diaginertia="0.001 0.001 0.001"/><body name="c" pos="0 0 -0.3"><joint name="m" axis="0 1 0" range="-1 1"/><geom size="0.05" pos="0.2 0 0"/></body></body><body name="b" pos="1 0 0"><joint name="k" axis="0 1 0"/><inertial pos="0 0 -0.5" mass="1" diaginertia="0.001 0.001 0.001"/></body><body name="f" pos="0 1 1"><freejoint/><geom type="box" size="0.1 0.1 0.1"/></body></worldbody><equality><connect body1="c" body2="b" anchor="0.4 0 0" solref="0.004 1"/><weld body1="f" anchor="0 1 1" relpose="0 0 1 1 0 0 0"/><joint joint1="j" joint2="k" polycoef="0.1 -0.5 0 0 0"/><joint joint1="m" polycoef="0.2 1 0 0 0" solref="-100 -10"/></equality><actuator><motor joint="j" gear="2" forcerange="-1 3"/><velocity joint="k" kv="2" ctrlrange="-1 1"/><general joint="m" gainprm="3"/></actuator><keyframe><key ctrl="0.5 -0.5 0.1"/></keyframe></mujoco>`,
		`<mujoco><worldbody><composite type="particle" count="3 2 2" spacing="0.1" offset="0 0 1"><geom size=".02"/><joint kind="main" damping="0.1"/></composite><body name="B1" pos="0 0 2"><freejoint/><composite type="loop" count="6 1 1" spacing="0.05" solrefsmooth="0.02"><joint kind="main" damping="0.01"/><geom type="capsule" size=".01 .02"/><skin/></composite></body><body name="rB2" pos="1 0 2"><freejoint/><composite prefix="r" type="rope" count="4 1 1" spacing="0.05"><geom type="ellipsoid" size=".01 .02 .01"/></composite></body></worldbody></mujoco>`,
		`<mujoco><worldbody><composite type="grid" count="3 3 1" spacing="0.05" offset="0 0 1"><pin coord="0 0"/><pin coord="2"/><geom size=".01"/><site size=".005"/><tendon kind="main" solreffix="0.02" damping="0.1"/><tendon kind="shear"/></composite><body name="B1_1" pos="1 0 1"><freejoint/><composite type="cloth" count="3 3 1" spacing="0.05" flatinertia="0.01"><joint kind="main" damping="0.001"/><geom type="capsule" size=".01 .01"/></composite></body><body pos="0 1 1"><freejoint/><composite type="ellipsoid" count="4 4 4" spacing="0.04" solimpsmooth="0.8"><geom type="capsule" size=".01 .02"/><joint kind="main" solreffix="0.03 1" solimpfix="0 .1 .01"/></composite></body></worldbody></mujoco>`} {
		f.Add([]byte(s))
	}
	for _, uri := range []string{"embedded://mujoco_menagerie/kuka_iiwa_14/iiwa14.xml", "embedded://mujoco_menagerie/wonik_allegro/right_hand.xml"} {
		p, err := embedded.Path(uri)
		if err != nil {
			f.Fatal(err)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
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
