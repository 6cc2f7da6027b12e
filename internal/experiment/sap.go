package experiment

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"

	"github.com/stiction-sim/stiction/scene"
	"github.com/stiction-sim/stiction/sim"
	"github.com/stiction-sim/stiction/solver"
	"github.com/stiction-sim/stiction/solver/sap"
)

// PaperContact returns the overrides that select the SAP paper's contact
// model (its cone approximation, no speculative contact, no load-aware
// regularization, no recovery cap, no substeps, no friction anchors in the named
// materials) and SAP on the whole problem as the paper solves it (no island
// splitting, so a step's iteration count is one solve's, as in its figures);
// the engine's defaults differ (docs/CONTACT.md).
func PaperContact(materials ...string) []string {
	s := []string{"contact.approximation=sap", "contact.speculative=false", "contact.load_aware=false", "contact.max_recovery_speed=0", "contact.substep_tolerance=0", "solver.islands=false"}
	for _, m := range materials {
		s = append(s, "materials."+m+".anchors=false")
	}
	return s
}

// Traced is what RunTraced measured.
type Traced struct {
	Stats    []sim.StepStats
	Costs    map[int][][]float64 // ℓp of every Newton iterate of every SAP solve (island, re-solve) of the requested steps (1-based)
	Cond     float64             // condition number of H = A + JᵀGJ at the last step's solution (if asked)
	MeanCond float64             // its mean over every condEvery-th step (if asked)
	MeanSlip float64             // mean ‖v_t‖ over the last step's contacts with γn > 0, m/s
	DT       float64             // the scene's time step, s
	Sigma    float64             // the scene's σ
	Mu       float64             // the friction coefficient of the scene's material "default"
}

// RunTraced runs n steps of scene name with overrides, recording SAP's
// cost per Newton iterate at the steps traceAt and, when condEvery > 0, the
// Hessian's condition number at every condEvery-th step and the last. SAP
// solves in the scene's solver stack (its refiner, and its island solver
// when the stack has one: the costs are then those of every island's solve).
func RunTraced(name string, n int, traceAt []int, condEvery int, sets ...string) (Traced, error) {
	sc, err := scene.Load(name, sets)
	if err != nil {
		return Traced{}, fmt.Errorf("experiment: %s: %w", name, err)
	}
	b, err := scene.Build(sc)
	if err != nil {
		return Traced{}, fmt.Errorf("experiment: %s: %w", name, err)
	}
	s0, ok := b.Stack.Solver().(*sap.Solver)
	if !ok {
		return Traced{}, fmt.Errorf("experiment: %s: solver %T is not SAP", name, b.Stack.Solver())
	}
	if b.Stack.Workers > 1 {
		return Traced{}, fmt.Errorf("experiment: %s: %d island workers: the trace wants one", name, b.Stack.Workers)
	}
	tr := &tracer{}
	p := s0.Params()
	p.Trace = &tr.trace
	b.Stack.Solver = func() solver.Solver { return &traced{inner: sap.New(p), t: tr} }
	sv, err := b.Stack.Build() // the scene's stack (refiner, islands) around the traced SAP
	if err != nil {
		return Traced{}, fmt.Errorf("experiment: %s: %w", name, err)
	}
	capt := &capture{inner: sv}
	b.Config.Solver = capt
	s, err := sim.New(b.Model, b.State, b.Config)
	if err != nil {
		return Traced{}, fmt.Errorf("experiment: %s: %w", name, err)
	}
	r := Traced{Costs: map[int][][]float64{}, DT: b.Config.DT, Sigma: b.Config.Contact.Sigma}
	if mi, ok := sc.Materials["default"]; ok && mi.Friction != nil {
		r.Mu = *mi.Friction
	}
	want := map[int]bool{}
	for _, k := range traceAt {
		want[k] = true
	}
	samples := 0
	for i := 1; i <= n; i++ {
		capt.on = condEvery > 0 && (i == n || i%condEvery == 0)
		tr.costs, tr.on = nil, want[i]
		sts, err := Steps(s, 1)
		if err != nil {
			return r, fmt.Errorf("experiment: %s: %w", name, err)
		}
		r.Stats = append(r.Stats, sts[0])
		if capt.on {
			if r.Cond, err = hessianCond(capt.p, capt.v); err != nil {
				return r, fmt.Errorf("experiment: %s: step %d: %w", name, i, err)
			}
			r.MeanCond += r.Cond
			samples++
		}
		if want[i] {
			r.Costs[i] = tr.costs
		}
	}
	r.MeanSlip = meanSlip(s)
	if samples > 0 {
		r.MeanCond /= float64(samples)
	}
	return r, nil
}

// meanSlip is the mean tangential speed over the last step's contacts that
// push (γn > 0).
func meanSlip(s *sim.Simulator) float64 {
	g, vc := s.Impulses(), s.ContactVelocities()
	sum, n := 0.0, 0
	for i := range s.Contacts() {
		if g[3*i+2] > 0 {
			sum += math.Hypot(vc[3*i], vc[3*i+1])
			n++
		}
	}
	if n == 0 {
		return 0
	}
	return sum / float64(n)
}

// tracer collects the costs of the Newton iterates of the SAP solves (one
// per island and Lagged re-solve) while on is set; the solves share trace,
// which each Solve resets (one worker solves the islands in turn).
type tracer struct {
	trace sap.Trace
	on    bool
	costs [][]float64
}

// traced is a SAP solver whose iterates' costs go to t.
type traced struct {
	inner *sap.Solver
	t     *tracer
}

// Solve implements solver.Solver.
func (s *traced) Solve(p *solver.Problem, v0 []float64, res *solver.Result) error {
	err := s.inner.Solve(p, v0, res)
	s.t.keep()
	return err
}

// Resolve implements solver.Resolver (the refiner's re-solves take SAP's
// warm path, as without the trace).
func (s *traced) Resolve(p *solver.Problem, v0 []float64, res *solver.Result) error {
	err := s.inner.Resolve(p, v0, res)
	s.t.keep()
	return err
}

// keep appends the costs of the solve just made, when on.
func (t *tracer) keep() {
	if !t.on {
		return
	}
	c := make([]float64, len(t.trace.Entries))
	for i, e := range t.trace.Entries {
		c[i] = e.Cost
	}
	t.costs = append(t.costs, c)
}

// capture is a solver that keeps a copy of the problem and the solution of
// the solves made while on is set.
type capture struct {
	inner solver.Solver
	on    bool
	p     *solver.Problem
	v     []float64
}

// Solve implements solver.Solver.
func (c *capture) Solve(p *solver.Problem, v0 []float64, res *solver.Result) error {
	err := c.inner.Solve(p, v0, res)
	if c.on && err == nil {
		c.p, c.v = p.Clone(), append([]float64(nil), res.V...)
	}
	return err
}

// hessianCond returns λmax/λmin of SAP's Hessian H = A + JᵀGJ (SAP §IV-A)
// at v.
func hessianCond(p *solver.Problem, v []float64) (float64, error) {
	if p == nil {
		return 0, fmt.Errorf("no problem captured")
	}
	n := p.NV
	h := mat.NewDense(n, n, p.DenseA())
	if p.NR > 0 {
		j := mat.NewDense(p.NR, n, p.DenseJ())
		g := mat.NewDense(p.NR, p.NR, nil)
		vc := make([]float64, p.NR)
		p.MulJ(v, vc)
		for i := range p.NumConstraints() {
			lo, hi := p.Rows(i)
			m := hi - lo
			gi, gam := make([]float64, m*m), make([]float64, m)
			p.Eval(i, vc[lo:hi], gam, gi)
			for a := range m {
				for b := range m {
					g.Set(lo+a, lo+b, gi[a*m+b])
				}
			}
		}
		var gj, jtgj mat.Dense
		gj.Mul(g, j)
		jtgj.Mul(j.T(), &gj)
		h.Add(h, &jtgj)
	}
	sym := mat.NewSymDense(n, nil)
	for a := range n {
		for b := a; b < n; b++ {
			sym.SetSym(a, b, (h.At(a, b)+h.At(b, a))/2)
		}
	}
	var eig mat.EigenSym
	if !eig.Factorize(sym, false) {
		return 0, fmt.Errorf("eigen decomposition of the Hessian failed")
	}
	ev := eig.Values(nil)
	if !(ev[0] > 0) {
		return 0, fmt.Errorf("Hessian not positive definite (λmin = %g)", ev[0])
	}
	return ev[len(ev)-1] / ev[0], nil
}
