package sim

import "github.com/stiction-sim/stiction/multibody"

// RowsWaiting reports whether the last step's constraint rows wait to be
// assembled when read (deferRows).
func RowsWaiting(s *Simulator) bool { return s.ws.cons.lazy }

// FilteredCandidates returns, at the simulator's current state, the
// candidate pairs of filteredBroadPhase and those of broadPhase (the
// tree) that Model.Collidable admits, each with its own scratch memory
// and the speculative margins of the state, and whether the simulator
// takes the filtered path (pairFilter.direct).
func FilteredCandidates(s *Simulator) (direct bool, filtered, tree [][2]int32) {
	m := s.Model
	kin := multibody.NewWorkspace(m)
	kin.Update(s.State.Q, s.State.V)
	kin0 := s.ws.kin0
	s.ws.kin0 = kin // speculative reads the velocities of kin0
	defer func() { s.ws.kin0 = kin0 }()
	spec := make([]float64, len(m.Geometries))
	for i, g := range m.Geometries {
		spec[i] = s.speculative(g.Body, s.ws.reach[i])
	}
	var f, t collider
	f.filter = s.ws.col.filter
	s.filteredBroadPhase(&f, kin, make([]float64, len(m.Geometries)))
	s.broadPhase(&t, kin, spec)
	for _, c := range t.cand {
		if m.Collidable(int(c[0]), int(c[1])) {
			tree = append(tree, c)
		}
	}
	return s.ws.col.filter.direct, f.cand, tree
}

// SlowPaths makes s build the broad phase's tree every step and assemble
// every direct step's constraint rows at once, as before the filtered
// broad phase and deferRows (BenchmarkFastPaths).
func SlowPaths(s *Simulator) {
	s.ws.col.filter.direct = false
	s.ws.cons.eager = true
}
