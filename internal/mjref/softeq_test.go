package mjref

import "testing"

// TestSoftJointEquality: two hinges coupled by a joint equality
// q1 = 0.05 + 0.7 q2, or the first locked at q1 = 0.05 (no joint2):
// MuJoCo's soft constraint with its solref and solimp, weighted by
// dof_invweight0 of the joints. Started off the coupling and moving,
// without and with damping on one hinge and with the default and custom
// solref/solimp, they follow MuJoCo 2.2.2 over 20 steps (7.1e-4 and
// 8.5e-4 apart when the coupler was SAP's regularization with solref's
// stiffness).
func TestSoftJointEquality(t *testing.T) {
	for _, c := range []struct{ damping, sol, joint2 string }{
		{"0", "", "jb"}, {"0.05", "", "jb"}, {"0", `solref=".005 .5" solimp="0.95 0.99 0.001"`, "jb"}, {"0.05", `solref=".01 .8" solimp="0.8 0.9 0.05 0.3 3"`, "jb"},
		{"0", "", ""}, {"0.05", `solref=".01 .8" solimp="0.8 0.9 0.05 0.3 3"`, ""},
	} {
		j2 := ""
		if c.joint2 != "" {
			j2 = ` joint2="` + c.joint2 + `"`
		}
		doc := `<mujoco><option gravity="0 0 -9.81"/><worldbody>
  <body name="a"><joint name="ja" axis="0 1 0" damping="` + c.damping + `"/><geom type="capsule" fromto="0 0 0 0.3 0 0" size="0.05"/></body>
  <body name="b" pos="1 0 0"><joint name="jb" axis="0 1 0"/><geom type="capsule" fromto="0 0 0 0.2 0 0" size="0.04"/></body></worldbody>
  <equality><joint joint1="ja"` + j2 + ` polycoef="0.05 0.7 0 0 0" ` + c.sol + `/></equality></mujoco>`
		path := writeModel(t, doc)
		mj := run(t, path, Options{Steps: 20, Every: 1, QPos: []float64{0.01, -0.02}, QVel: []float64{0.5, 0.3}})
		worst := followMuJoCo(t, path, mj)
		t.Logf("joint2 %q, damping %s, %q: qpos within %.2g of MuJoCo's over 20 steps", c.joint2, c.damping, c.sol, worst)
		if worst > 1e-12 {
			t.Errorf("joint2 %q, damping %s, %q: qpos %.2g from MuJoCo's over 20 steps", c.joint2, c.damping, c.sol, worst)
		}
	}
}

// TestEqualitiesFromQpos0: MuJoCo measures joint and tendon equalities
// from qpos0 (the joints' ref): q1 − ref1 = a0 + a1 (q2 − ref2), and
// L − tendon_length0 = a0 with tendon_length0 = Σ coef_k ref_k. Two hinges
// with ref 0.2 and −0.1 rad, coupled either way and started off the
// coupling, follow MuJoCo 2.2.2 over 20 steps.
func TestEqualitiesFromQpos0(t *testing.T) {
	bodies := `<mujoco><compiler angle="radian"/><option gravity="0 0 -9.81"/><worldbody>
  <body name="a"><joint name="ja" axis="0 1 0" ref="0.2"/><geom type="capsule" fromto="0 0 0 0.3 0 0" size="0.05"/></body>
  <body name="b" pos="1 0 0"><joint name="jb" axis="0 1 0" ref="-0.1"/><geom type="capsule" fromto="0 0 0 0.2 0 0" size="0.04"/></body></worldbody>`
	for _, c := range []struct{ name, xml string }{
		{"joint", `<equality><joint joint1="ja" joint2="jb" polycoef="0.05 0.7 0 0 0"/></equality></mujoco>`},
		{"joint lock", `<equality><joint joint1="jb" polycoef="0.05 1 0 0 0"/></equality></mujoco>`},
		{"tendon", `<tendon><fixed name="t"><joint joint="ja" coef=".5"/><joint joint="jb" coef=".7"/></fixed></tendon>
  <equality><tendon tendon1="t" polycoef="0.05 0 0 0 0"/></equality></mujoco>`},
	} {
		path := writeModel(t, bodies+c.xml)
		mj := run(t, path, Options{Steps: 20, Every: 1, QPos: []float64{0.25, -0.05}, QVel: []float64{0.5, 0.3}})
		worst := followMuJoCo(t, path, mj)
		t.Logf("%s: qpos within %.2g of MuJoCo's over 20 steps", c.name, worst)
		if worst > 1e-12 {
			t.Errorf("%s: qpos %.2g from MuJoCo's over 20 steps", c.name, worst)
		}
	}
}
