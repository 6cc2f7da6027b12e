package sim_test

import "testing"

// TestKinematicsAfterStateChange: the kinematics a step ends with serve the
// next step's collision detection only while the state is unchanged. A
// sphere resting on the ground (drop) that a caller lifts by 1 m between
// steps, in place or through a new velocity slice, has no contact in the
// next step; put back, it has its contact again.
func TestKinematicsAfterStateChange(t *testing.T) {
	s, _ := load(t, "drop")
	runSteps(t, s, 20)
	if len(s.Contacts()) == 0 {
		t.Fatal("drop: no contact at rest")
	}
	z := len(s.State.Q) - 1 // free body: (qw, qx, qy, qz, x, y, z)
	s.State.Q[z]++
	runSteps(t, s, 1)
	if n := len(s.Contacts()); n != 0 {
		t.Fatalf("lifted by 1 m in place: %d contacts", n)
	}
	s.State.Q[z]--
	s.State.V = append([]float64(nil), s.State.V...) // a new slice with the same values
	runSteps(t, s, 1)
	if len(s.Contacts()) == 0 {
		t.Fatal("put back on the ground with a new velocity slice: no contact")
	}
}
