package sim

import (
	"slices"

	"github.com/stiction-sim/stiction/multibody"
)

// SweepProbe keeps four colliders over Compare calls, as a simulator keeps
// its own: three whose filteredBroadPhase sweeps (pairSweep) along the
// world axis x, y and z, and one that tests every listed pair.
type SweepProbe struct {
	c   [4]collider
	kin *multibody.Workspace
}

// Compare runs, at s's current state, filteredBroadPhase on the probe's
// four colliders with the state's speculative margins (none when stage
// is set, as at the rk4 stages). It returns the plain loop's candidate
// pairs and culled count so far, and the axes whose sweeping collider
// gave other candidates, other listed indices (via) or another culled
// count.
func (p *SweepProbe) Compare(s *Simulator, stage bool) (cand [][2]int32, culled int, differ []int) {
	m := s.Model
	if p.kin == nil {
		p.kin = multibody.NewWorkspace(m)
		for k := range p.c {
			c := &p.c[k]
			c.filter, c.cull = s.ws.col.filter, s.ws.col.cull
			s.filterSetup(c, p.kin)
			c.sweep.build(len(m.Geometries), c.filter.pairs, c.filter.plane)
			c.sweep.ax, c.sweep.on = k, k < 3
		}
	}
	p.kin.Update(s.State.Q, s.State.V)
	kin0 := s.ws.kin0
	s.ws.kin0 = p.kin // speculative reads the velocities of kin0
	defer func() { s.ws.kin0 = kin0 }()
	for k := range p.c {
		var spec []float64
		if !stage {
			spec = make([]float64, len(m.Geometries))
		}
		s.filteredBroadPhase(&p.c[k], p.kin, spec)
	}
	plain := &p.c[3]
	for k := range 3 {
		c := &p.c[k]
		if !slices.Equal(c.cand, plain.cand) || !slices.Equal(c.via[:len(c.cand)], plain.via[:len(plain.cand)]) || c.culled != plain.culled {
			differ = append(differ, k)
		}
	}
	return plain.cand, plain.culled, differ
}
