package sim

import (
	"math"

	"github.com/stiction-sim/stiction/multibody"
)

// FilterProbe keeps a collider over FilteredBoxes calls, as a simulator
// keeps its own: its fixed geometries' boxes and its list of moving ones
// are set at the first call (filterSetup) and read at the others.
type FilterProbe struct {
	c   collider
	kin *multibody.Workspace
}

// FilteredBoxes runs, at s's current state, filteredBroadPhase on the
// probe's collider and geometryBoxes on a fresh one, both with the state's
// speculative margins (none when stage is set, as at the rk4 stages). It
// returns how many listed geometries' exact boxes (those not bounded by
// ballBox) it compared, the geometries whose boxes differ in a bit, and the
// probe's candidate pairs. A geometry differs too when its speculative
// margin does.
func (p *FilterProbe) FilteredBoxes(s *Simulator, stage bool) (compared int, differ []int, cand [][2]int32) {
	m := s.Model
	if p.kin == nil {
		p.kin = multibody.NewWorkspace(m)
		p.c.filter, p.c.cull = s.ws.col.filter, s.ws.col.cull
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
	var t collider
	s.filteredBroadPhase(&p.c, p.kin, mine)
	s.geometryBoxes(&t, p.kin, spec)
	for _, i := range p.c.filter.geoms {
		if p.c.moved[i].coarse {
			continue
		}
		compared++
		a, b := &p.c.boxes[i], &t.boxes[i]
		same := spec == nil || bitsEqual(mine[i], spec[i])
		for k := range 3 {
			same = same && bitsEqual(a.Min[k], b.Min[k]) && bitsEqual(a.Max[k], b.Max[k])
		}
		if !same {
			differ = append(differ, int(i))
		}
	}
	return compared, differ, p.c.cand
}

func bitsEqual(a, b float64) bool { return math.Float64bits(a) == math.Float64bits(b) }
