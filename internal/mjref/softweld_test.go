package mjref

import (
	"fmt"
	"testing"
)

// TestSoftWeld: a weld equality is MuJoCo 2.2.2's soft weld (three
// position rows of the anchor, three from the vector part of the relative
// quaternion with their Jacobian times torquescale, R = (1 − d)/d · w on
// all six rows with w the bodies' translational body_invweight0, d at the
// norm of the error with the orientation part times torquescale;
// constraint.Weld with a Compliance.SolRef, mjcf softBody). Two free
// bodies welded through an offset anchor and a relpose they do not start
// at, a two-hinge arm holding a free box by a weld (torquescale 2), and a
// box welded to the world and set spinning, follow MuJoCo to 1e-9 in qpos
// over 100 steps; so does MuJoCo's force_free.xml (a box
// welded below a fixed one, touching it) over 1000 steps.
func TestSoftWeld(t *testing.T) {
	const pair = `<mujoco><worldbody>
  <body name="a" pos="0 0 1"><freejoint/><geom type="box" size="0.1 0.05 0.02" mass="2"/></body>
  <body name="b" pos="0.3 0.1 1.2" euler="10 -20 30"><freejoint/><geom type="capsule" size="0.03 0.1" mass="0.7"/></body>
  </worldbody><equality><weld body1="a" body2="b" anchor="0.05 0.02 -0.03" relpose="0.25 0.12 0.15 0.9 0.1 0.3 -0.2"%s/></equality></mujoco>`
	for _, c := range []struct {
		name, doc  string
		qpos, qvel []float64
		file       string
		steps      int
	}{
		{name: "pair with relpose", doc: fmt.Sprintf(pair, "")},
		{name: "pair, torquescale 0.3, solref and solimp", doc: fmt.Sprintf(pair, ` torquescale="0.3" solref="0.01 0.7" solimp="0.8 0.95 0.01 0.5 2"`)},
		{name: "hinged arm welded to a free box", doc: `<mujoco><worldbody>
  <body name="arm" pos="0 0 1"><joint type="hinge" axis="0 1 0" damping="0.1"/><geom type="capsule" fromto="0 0 0 0.4 0 0" size="0.02" mass="0.5"/>
    <body name="fore" pos="0.4 0 0"><joint type="hinge" axis="0 0 1"/><geom type="capsule" fromto="0 0 0 0.3 0 0" size="0.02" mass="0.3"/></body></body>
  <body name="box" pos="0.75 0.05 0.95" euler="0 15 -10"><freejoint/><geom type="box" size="0.05 0.04 0.03" mass="0.4"/></body>
  </worldbody><equality><weld body1="fore" body2="box" anchor="-0.03 0 0.01" torquescale="2"/></equality></mujoco>`},
		{name: "force_free.xml", file: "testdata/mujoco/test/engine/testdata/core_smooth/rne_post/weld/force_free.xml", steps: 1000},
		{name: "box on the world, spinning", doc: `<mujoco><worldbody>
  <body name="box" pos="0 0 1"><freejoint/><geom type="box" size="0.1 0.05 0.02" mass="2"/></body>
  </worldbody><equality><weld body1="box" anchor="0.1 0.05 1.02"/></equality></mujoco>`,
			qpos: []float64{0, 0, 1, 1, 0, 0, 0}, qvel: []float64{0.3, -0.2, 0.1, 2, -1, 3}},
	} {
		t.Run(c.name, func(t *testing.T) {
			steps, path := 100, c.file
			if c.steps > 0 {
				steps = c.steps
			}
			if path == "" {
				path = writeModel(t, c.doc)
			}
			worst, moved := qposError(t, path, steps, c.qpos, c.qvel)
			t.Logf("max |Δqpos| over %d steps %.2g (MuJoCo's qpos moved by up to %.3g)", steps, worst, moved)
			if worst > 1e-9 {
				t.Errorf("max |Δqpos| = %.2g, want ≤ 1e-9", worst)
			}
		})
	}
}
