package sim_test

import (
	"testing"

	"github.com/stiction-sim/stiction/sim"
)

// BenchmarkStepArm times one step of the embedded 7-link arm with joint
// limits (14 one-sided rows) and PD actuators (7 rows), after 200 warm-up
// steps.
func BenchmarkStepArm(b *testing.B) {
	s, _ := load(b, "arm", "duration=1000")
	runSteps(b, s, 200)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := s.Step(); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkStepArmFree times the same arm without its constraints (the
// dynamics alone, falling), for the cost of the constraint rows.
func BenchmarkStepArmFree(b *testing.B) {
	_, built := load(b, "arm", "duration=1000")
	cfg := built.Config
	cfg.Constraints = nil
	s, err := sim.New(built.Model, built.State, cfg)
	if err != nil {
		b.Fatal(err)
	}
	runSteps(b, s, 200)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := s.Step(); err != nil {
			b.Fatal(err)
		}
	}
}
