package mjref

import "testing"

func TestZZNewtonDebug(t *testing.T) {
	path := "testdata/mujoco/test/engine/testdata/collision_convex/cylinder_box.xml"
	mj := run(t, path, Options{Steps: 4, Every: 1, KeepWarm: true})
	b, mp := mappedModel(t, path, mj)
	c := &b.Config.Contact
	c.Newton, c.PGSIterations, c.PGSTolerance = true, mj.Iterations, 1e-15
	s := startedSim(t, b, mp, mj)
	b2, _ := mappedModel(t, path, mj)
	c2 := &b2.Config.Contact
	c2.Newton, c2.PGSIterations = false, 0
	s2 := startedSim(t, b2, mp, mj)
	for k := 1; k <= 3; k++ {
		st, _ := s.Step()
		st2, _ := s2.Step()
		t.Logf("step %d: it %d/%d v %v\n sap %v (%v)", k, st.Iterations, st2.Iterations, s.State.V, s2.State.V, mj.Steps[k].QVel)
	}
}
