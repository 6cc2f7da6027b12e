package sim

import (
	"fmt"
	"slices"

	"github.com/stiction-sim/stiction/multibody"
)

// PlainProbe keeps a collider over Check calls, as a simulator keeps its
// own (the bounds, exact boxes and retry counts of filteredBroadPhase
// carry over from call to call), and a second one for the plain test.
type PlainProbe struct {
	c, ref collider
	kin    *multibody.Workspace
}

// Check runs filteredBroadPhase at s's current state with the state's
// speculative margins (none when stage is set, as at the rk4 stages) and
// compares its candidates, their listed indices and the pairs it culled
// with the plain test of every listed pair in order: every geometry's
// exact inflated box (geometryBoxes), Meets, then, when the collider
// culls, beyondHalfSpace on the narrow phase's slack (pairSlack). It
// returns the candidates and culled pairs of the call, and a description
// of the first difference ("" when none).
func (p *PlainProbe) Check(s *Simulator, stage bool) (cands, culled int, differ string) {
	m := s.Model
	if p.kin == nil {
		p.kin = multibody.NewWorkspace(m)
		p.c.filter, p.c.cull = s.ws.col.filter, s.ws.col.cull
		s.filterSetup(&p.c, p.kin)
		p.ref.fixedPoses(m, p.kin, s.cfg.Materials)
	}
	p.kin.Update(s.State.Q, s.State.V)
	kin0 := s.ws.kin0
	s.ws.kin0 = p.kin // speculative reads the velocities of kin0
	defer func() { s.ws.kin0 = kin0 }()
	var spec, mine []float64
	if !stage {
		spec, mine = make([]float64, len(m.Geometries)), make([]float64, len(m.Geometries))
		for i, g := range m.Geometries {
			spec[i] = s.speculative(g.Body, s.ws.reach[i])
		}
	}
	c0 := p.c.culled
	s.filteredBroadPhase(&p.c, p.kin, mine)
	s.geometryBoxes(&p.ref, p.kin, spec)
	var want [][2]int32
	var via []int32
	wantCulled := 0
	for k, pr := range p.c.filter.pairs {
		i, j := int(pr[0]), int(pr[1])
		if !p.ref.boxes[i].Meets(&p.ref.boxes[j]) {
			continue
		}
		if p.c.cull && s.beyondHalfSpace(&p.ref, i, j, s.pairSlack(i, j, spec)) {
			wantCulled++
			continue
		}
		want, via = append(want, pr), append(via, int32(k))
	}
	switch got := p.c.culled - c0; {
	case !slices.Equal(p.c.cand, want):
		differ = fmt.Sprintf("candidates %v, the plain test's %v", p.c.cand, want)
	case !slices.Equal(p.c.via[:len(p.c.cand)], via):
		differ = fmt.Sprintf("listed indices %v, the plain test's %v", p.c.via[:len(p.c.cand)], via)
	case got != wantCulled:
		differ = fmt.Sprintf("%d culled, the plain test %d", got, wantCulled)
	}
	return len(want), wantCulled, differ
}
