package sim

import "math"

// ExplicitVStarCheck redoes the last step's explicit free-motion solve with
// its factor from the accelerations k and velocities v0 (of the model's
// size), in one pass (explicitVStarBy, no tree asleep) and clique by clique
// (explicitVStarAsleep), and returns both v*, each written over a v* of
// NaNs, for glue7_test.go.
func ExplicitVStarCheck(s *Simulator, k, v0 []float64) (onePass, perClique []float64) {
	w, p := &s.ws, &s.ws.problem
	run := func(f func()) []float64 {
		copy(w.k, k)
		copy(w.v0, v0)
		for i := range p.VStar {
			p.VStar[i] = math.NaN()
		}
		f()
		return append([]float64(nil), p.VStar...)
	}
	onePass = run(func() { _ = s.explicitVStarBy(&w.factor) })
	perClique = run(func() { s.explicitVStarAsleep(&w.factor) })
	return onePass, perClique
}
