package constraint

import (
	"sort"

	"github.com/stiction-sim/stiction/solver"
)

// GeneralizedForces adds, for the constraints of the last Assemble, the
// generalized forces Jᵀγ/δt of their blocks (γ the step's impulses, rows
// of p) to actuator (actuators) or to other (limits, couplers, welds,
// friction, …), both of length p.NV, and the forces of the actuators that
// had no row (Params.ActuatorForces: Jᵀ (δt f)/δt, from the entry). It
// does not allocate.
func (a *Assembler) GeneralizedForces(p *solver.Problem, gamma []float64, dt float64, actuator, other []float64) {
	for _, e := range a.entries {
		if e.forced() {
			for _, t := range a.forced[e.term : e.term+e.nterm] {
				actuator[t.vi] += t.g * (e.impulse / dt)
			}
		}
		if e.block < 0 {
			continue
		}
		out := other
		if e.typ == TypeActuator {
			out = actuator
		}
		for c := int(e.block); c < int(e.block+e.blocks()); c++ {
			con := p.Constraints[c]
			b := sort.Search(len(p.JBlock), func(i int) bool { return p.JBlock[i].Constraint >= c })
			for ; b < len(p.JBlock) && p.JBlock[b].Constraint == c; b++ {
				q := p.Cliques[p.JBlock[b].Clique]
				d := p.JBlockData(b)
				for r := range con.Size {
					g := gamma[con.Row+r] / dt
					for j, x := range d[r*q.Size : (r+1)*q.Size] {
						out[q.Offset+j] += x * g
					}
				}
			}
		}
	}
}
