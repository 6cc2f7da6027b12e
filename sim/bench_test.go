package sim_test

import "testing"

// BenchmarkStepClutter times one step of the 40-body clutter scene with
// walls, after 300 warm-up steps (the pile is still settling).
func BenchmarkStepClutter(b *testing.B) {
	s, _ := load(b, "clutter", "duration=1000")
	runSteps(b, s, 300)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := s.Step(); err != nil {
			b.Fatal(err)
		}
	}
}
