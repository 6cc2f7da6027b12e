package sim

import (
	"fmt"
	"math"

	"github.com/stiction-sim/stiction/solver"
)

// notesWork is the scratch memory of the notes' integrators.
type notesWork struct {
	kick   solver.Problem      // Bridson–Marino: the dynamics part at (q1, v0)
	factor solver.CliqueFactor // its A = M(q1) + δt/2 D factored
	gyro   gyroJacobian        // ∂C/∂v and the LU solve with M̂ (scheme_gyro.go)
}

// jacobianWeights returns the weights of K and D in A = M + cK K + cD D:
// δt² θq θvq and δt θv for the θ-method (SAP eq. 15); δt²/4 and δt/2 for
// the trapezoidal rule (notes §0.9.3: M̂ = M − h/2 ∂f/∂ẋ − h²/4 ∂f/∂x with
// ∂f/∂x = −K, ∂f/∂ẋ = −D); 0 and δt/2 for Bridson–Marino (§0.9.4, which
// never uses the position Jacobian); 0 and δt for MuJoCo's implicit
// integrator (scheme_implicit.go: its damping is implicit).
func (s Scheme) jacobianWeights(dt float64) (cK, cD float64) {
	switch s.Method {
	case TrapezoidalRule:
		return dt * dt / 4, dt / 2
	case BridsonMarinoRule:
		return 0, dt / 2
	case MuJoCoImplicitRule:
		return 0, dt
	}
	return dt * dt * s.ThetaQ * s.ThetaVQ, dt * s.ThetaV
}

// notesFreeMotion computes v* for the notes' integrators from the
// linearization at (q0, v0) (θq = θv = 0: the kinematics of detectContacts).
func (sim *Simulator) notesFreeMotion() error {
	w := &sim.ws
	if err := sim.linearize(w.vstar); err != nil {
		return err
	}
	if sim.scheme.Method == TrapezoidalRule {
		sim.trapezoidalVStar()
		return nil
	}
	p, dt := &w.problem, sim.cfg.DT
	return sim.kick(p, w.q0, w.v0, dt/2, w.v0, p.VStar)
}

// trapezoidalVStar sets v* from the notes' eq. of §0.9.3,
// (M − h/2 ∂f/∂ẋ − h²/4 ∂f/∂x) v* = (M − h/2 ∂f/∂ẋ + h²/4 ∂f/∂x) v0 + h f,
// which in A = M + h²/4 K + h/2 D reads A (v* − v0) = h k − h²/2 K v0.
func (sim *Simulator) trapezoidalVStar() {
	w, p, dt := &sim.ws, &sim.ws.problem, sim.cfg.DT
	for _, q := range p.Cliques {
		r := w.res[q.Offset : q.Offset+q.Size]
		K := w.fout.K[q.AOff : q.AOff+q.Size*q.Size]
		for i := range q.Size {
			kv := 0.0
			for j := range q.Size {
				kv += K[i*q.Size+j] * w.v0[q.Offset+j]
			}
			r[i] = dt*w.k[q.Offset+i] - dt*dt/2*kv
		}
		w.factor.Solve(q, r, 1)
		for i := range q.Size {
			p.VStar[q.Offset+i] = w.v0[q.Offset+i] + r[i]
		}
	}
}

// kick sets out = from + h M̂⁻¹ k with M̂ = A + h ∂C/∂v, A the dynamics
// part of p (M + h D) and ∂C/∂v the velocity Jacobian of the inertial
// forces at (q, v): the notes' M − h/2 ∂f/∂ẋ (§0.9.4) with f = k = −C + Σ
// element forces. M̂ is not symmetric, so the kick solves it by LU; the
// contact problem keeps the symmetric A. out may alias from.
func (sim *Simulator) kick(p *solver.Problem, q, v []float64, h float64, from, out []float64) error {
	w, g := &sim.ws, &sim.ws.notes.gyro
	g.jacobian(sim.Model, w.kin, q, v)
	for _, c := range p.Cliques {
		r := w.res[c.Offset : c.Offset+c.Size]
		copy(r, w.k[c.Offset:c.Offset+c.Size])
		if err := g.solve(p, c, h, r); err != nil {
			return fmt.Errorf("sim: step %d: Bridson–Marino kick: %w", sim.step+1, err)
		}
		for i := range c.Size {
			out[c.Offset+i] = from[c.Offset+i] + h*r[i]
		}
	}
	return nil
}

// secondHalfKick ends a Bridson–Marino step (notes §0.9.4): with the new
// positions q1 = q0 + δt N(q0) v½ in the state and v½ the solver's
// (constrained) half-step velocity, f′ = f(v0, q1) and
// (M(q1) + δt/2 D) (v1 − v½) = δt/2 f′. Without contact this is the notes'
// M̂ v1 = M̂ v0 + h/2 (f + f′); with contact the second half starts from the
// constrained v½, as in Bridson, Marino and Fedkiw's scheme, so that the
// impulse is kept. Other schemes return at once.
//
// The test is inlined (advanceActivations); bridsonMarinoKick the rest.
func (sim *Simulator) secondHalfKick() error {
	if sim.scheme.Method != BridsonMarinoRule {
		return nil
	}
	return sim.bridsonMarinoKick()
}

// bridsonMarinoKick is secondHalfKick for the Bridson–Marino scheme.
func (sim *Simulator) bridsonMarinoKick() error {
	w, s, nw, dt := &sim.ws, sim.State, &sim.ws.notes, sim.cfg.DT
	copy(w.qth, s.Q)
	copy(w.vth, w.v0)
	w.kin.Update(w.qth, w.vth)
	if err := sim.linearizeAt(w.kin, s.T, 0, dt/2, 0, &nw.kick, &nw.factor); err != nil {
		return err
	}
	err := sim.kick(&nw.kick, w.qth, w.vth, dt/2, s.V, s.V)
	for i, x := range s.V {
		if err != nil || math.IsNaN(x) || math.IsInf(x, 0) {
			copy(s.Q, w.q0)
			copy(s.V, w.v0)
			s.T = sim.t0 + float64(sim.step)*dt
			return fmt.Errorf("sim: step %d: Bridson–Marino second half kick: v[%d] = %v: %w", sim.step+1, i, x, err)
		}
	}
	return nil
}
