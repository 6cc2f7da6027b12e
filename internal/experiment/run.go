package experiment

import (
	"fmt"

	"github.com/stiction-sim/stiction/scene"
	"github.com/stiction-sim/stiction/sim"
	"github.com/stiction-sim/stiction/solver"
)

// Load builds an embedded scene (or a scene file) with --set style
// overrides and returns its simulator.
func Load(name string, sets ...string) (*sim.Simulator, error) {
	sc, err := scene.Load(name, sets)
	if err != nil {
		return nil, fmt.Errorf("experiment: %s: %w", name, err)
	}
	b, err := scene.Build(sc)
	if err != nil {
		return nil, fmt.Errorf("experiment: %s: %w", name, err)
	}
	s, err := sim.New(b.Model, b.State, b.Config)
	if err != nil {
		return nil, fmt.Errorf("experiment: %s: %w", name, err)
	}
	return s, nil
}

// Steps takes n steps and returns their statistics; each step must succeed
// and its contact solve converge.
func Steps(s *sim.Simulator, n int) ([]sim.StepStats, error) {
	out := make([]sim.StepStats, 0, n)
	for range n {
		st, err := s.Step()
		if err != nil {
			return out, err
		}
		if st.Status != solver.Converged {
			return out, fmt.Errorf("experiment: step %d: contact solve %v", st.Step, st.Status)
		}
		out = append(out, st)
	}
	return out, nil
}
