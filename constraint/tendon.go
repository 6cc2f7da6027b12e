package constraint

import (
	"math"

	"github.com/stiction-sim/stiction/multibody"
	"github.com/stiction-sim/stiction/solver"
	"github.com/stiction-sim/stiction/tendon"
)

// TendonTerm is one term coef·q of a fixed tendon's length
// L = Σ coef_k q_k (MuJoCo's <fixed> tendon): the coordinate of degree of
// freedom DOF of Body's joint (revolute, prismatic, planar, universal, or a
// scalar part of a compound joint).
type TendonTerm struct {
	Body, DOF int
	Coef      float64
}

// validateTendon checks a tendon's terms: scalar coordinates and finite
// coefficients. The joints may be in any number of trees (a constraint
// block has one J block per tree it touches).
func validateTendon(m *multibody.Model, terms []TendonTerm) error {
	for k, t := range terms {
		if _, _, err := scalarDOF(m, t.Body, t.DOF); err != nil {
			return errf("tendon term %d: %w", k, err)
		}
		if !finite(t.Coef) {
			return errf("tendon term %d: coefficient %v must be finite", k, t.Coef)
		}
	}
	return nil
}

// TendonLength returns L = Σ coef_k q_k and L̇ = Σ coef_k v_k for the
// configuration q and velocities v of model m. The terms must name scalar
// coordinates of m (as a Set's validation checks); it does not check them
// again, since the step calls it for every tendon.
func TendonLength(m *multibody.Model, terms []TendonTerm, q, v []float64) (l, ld float64) {
	cur := (*TermCoords)(nil).cursor(m)
	return tendonLength(&cur, terms, q, v, nil)
}

// tendonLength is TendonLength with the terms' indices from cur
// (TermCoords), keeping each term's velocity index in vis[k] when vis is
// not nil (len(vis) ≥ len(terms)).
func tendonLength(cur *termCursor, terms []TendonTerm, q, v []float64, vis []int) (l, ld float64) {
	for k, t := range terms {
		qi, vi, ok := cur.hit(t.Body, t.DOF)
		if !ok {
			qi, vi = cur.miss(t.Body, t.DOF)
		}
		if vis != nil {
			vis[k] = vi
		}
		l += t.Coef * q[qi]
		if v != nil {
			ld += t.Coef * v[vi]
		}
	}
	return l, ld
}

// TendonLimit bounds the length of a fixed tendon, Lower ≤ L ≤ Upper
// (MuJoCo's limited tendon range), as Limit bounds one coordinate: each
// finite bound is a one-sided constraint, g = L − Lower ≥ 0 with
// J = (coef_k on the tendon's velocities), or g = Upper − L with −J;
// γ = clamp(y, 0, ∞) (solver.Interval), R and v̂ as a joint limit's
// (limitRow: near-rigid within the bound; violated, MuJoCo's soft
// constraint with Compliance.SolRef, else recovered without launching).
type TendonLimit struct {
	Name  string
	Terms []TendonTerm
	// Path, when not nil, is the spatial tendon whose length L(q) is
	// bounded instead (Terms empty; J = ±G, spatialLimit).
	Path         *tendon.Path
	Lower, Upper float64
	// Margin is MuJoCo's tendon margin, as Limit.Margin: each bound acts
	// within Margin of it, on g − Margin (mj_instantiateLimit).
	Margin     float64
	Compliance Compliance
}

func (l *TendonLimit) validate(m *multibody.Model) error {
	switch {
	case l.Path != nil:
		if err := validatePath(m, l.Path); err != nil {
			return err
		}
	case len(l.Terms) == 0:
		return errf("a tendon limit needs at least one term")
	default:
		if err := validateTendon(m, l.Terms); err != nil {
			return err
		}
	}
	if math.IsNaN(l.Lower) || math.IsNaN(l.Upper) || math.IsInf(l.Lower, 1) || math.IsInf(l.Upper, -1) || l.Lower > l.Upper {
		return errf("bounds [%v, %v] must satisfy −∞ ≤ lower ≤ upper ≤ ∞", l.Lower, l.Upper)
	}
	if err := validMargin(l.Margin); err != nil {
		return err
	}
	return l.Compliance.validate()
}

// tendonLimit appends the blocks of a fixed tendon's limit's finite
// bounds (a spatial tendon's: spatialLimit, which assembleLimits calls).
func (a *Assembler) tendonLimit(c *asmCtx, l *TendonLimit, i int) {
	L, _ := TendonLength(c.m, l.Terms, c.in.Q0, nil)
	e := a.next() // filled in place: nothing below adds an entry
	e.typ, e.item, e.block, e.bound, e.vec = TypeTendonLimit, int32(i), -1, math.Inf(1), -1
	for side, bound := range [2]float64{l.Lower, l.Upper} {
		if math.IsInf(bound, 0) {
			continue
		}
		sign, g := 1.0, L-bound-l.Margin
		if side == 1 {
			sign, g = -1, bound-L-l.Margin
		}
		if a.noRow(c, &l.Compliance, g) {
			continue
		}
		a.begin(1)
		var jv0, jvs float64
		for _, t := range l.Terms {
			_, vi := dofAt(c.m, t.Body, t.DOF)
			a.addDOF(c, t.Body, vi, 0, sign*t.Coef)
			jv0 += sign * t.Coef * elem(c.in.V0, vi)
			jvs += sign * t.Coef * elem(c.p.VStar, vi)
		}
		a.tendonLimitSide(c, e, &l.Compliance, sign, g, jv0, jvs)
	}
}

// tendonLimitSide emits the begun row of one side of a tendon limit (fixed
// or spatial) as an Interval with gap g, sign +1 for the lower bound and −1
// for the upper, and records it in e. cp is the limit's compliance, by
// pointer: its eleven words were copied at each call.
func (a *Assembler) tendonLimitSide(c *asmCtx, e *entry, cp *Compliance, sign, g, jv0, jvs float64) {
	k, row := a.emit(c, solver.Interval, 0, math.Inf(1))
	a.limitRow(c, row, cp, g, jv0, jvs)
	e.addSigned(k, sign)
	e.violation = max(e.violation, -g)
}
