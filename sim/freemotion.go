package sim

import (
	"fmt"

	"github.com/stiction-sim/stiction/solver"
)

// freeMotion fills the dynamics part of the problem: one clique per tree
// with A = M(q0) (eq. 15 with K = D = 0), diag(M), and the free-motion
// velocities of symplectic Euler, v* = v0 + δt M⁻¹ (τ_g − C(q0, v0))
// (eq. 13–14 with θv = 0).
func (sim *Simulator) freeMotion() error {
	m, s, w := sim.Model, sim.State, &sim.ws
	p := &w.problem
	p.Reset(m.NV)
	for ti, t := range m.Trees {
		off := len(p.A)
		p.Cliques = append(p.Cliques, solver.Clique{Offset: t.VOffset, Size: t.NV, AOff: off})
		p.A = solver.Resize(p.A, off+t.NV*t.NV)
		m.TreeMassMatrix(s, ti, p.A[off:])
	}
	m.MassDiagonal(s, p.MDiag)
	if err := w.factor.Factor(p); err != nil {
		return fmt.Errorf("sim: step %d: mass matrix: %w", sim.step+1, err)
	}
	m.BiasForces(s, w.bias)
	dt := sim.cfg.DT
	for c, q := range p.Cliques {
		acc := w.bias[q.Offset : q.Offset+q.Size]
		w.factor.Solve(p.Cliques[c], acc, 1) // M⁻¹ (τ − C), in place
		for i := range q.Size {
			p.VStar[q.Offset+i] = s.V[q.Offset+i] + dt*acc[i]
		}
	}
	return nil
}
