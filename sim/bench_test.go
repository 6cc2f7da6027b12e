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

// BenchmarkClutterApproximation times a whole 10 s clutter run (1000
// steps, from the drop to the settled pile) per contact approximation,
// with the rest of the default contact model, and reports the mean Newton
// iterations per step (summed over the Lagged re-solves) and the time per
// step (BENCHMARKS.md, docs/CONTACT.md).
func BenchmarkClutterApproximation(b *testing.B) {
	for _, approx := range []string{"lagged", "sap", "similar"} {
		b.Run(approx, func(b *testing.B) {
			iters, steps := 0, 0
			for b.Loop() {
				s, bl := load(b, "clutter", "contact.approximation="+approx)
				for _, st := range runSteps(b, s, bl.Steps) {
					iters += st.Iterations
				}
				steps += bl.Steps
			}
			b.ReportMetric(float64(iters)/float64(steps), "iterations/step")
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(steps)/1e3, "µs/step")
		})
	}
}
