package constraint

import "github.com/stiction-sim/stiction/multibody"

// TermCoords keeps the coordinate and velocity indices (dofAt) of the joint
// terms that ExplicitForcesCoords visits, by their order in a call (each
// joint actuator's joint, each term of a short fixed tendon's), with the
// model and the body and degree of freedom each was found for, checked at
// every use: a term edited in place, or another model, is found again.
// dofAt is a call of some 31 instructions a term (dm point_mass's two
// tendons 124 a step; BENCHMARKS.md seventy-third and seventy-sixth
// passes). The zero value is empty; the first use fills it (an
// allocation), later uses with the same terms allocate nothing. One
// TermCoords serves one caller at a time.
type TermCoords struct {
	model *multibody.Model
	keys  []termCoord
}

// termCoord is one term's joint (body, DOF) and its indices qi and vi.
type termCoord struct{ body, dof, qi, vi int }

// termCursor walks a TermCoords in the order of one call's terms.
type termCursor struct {
	tc   *TermCoords
	m    *multibody.Model
	keys []termCoord // tc's keys when they are m's
	n    int         // the next term's index
}

// cursor starts a walk over tc's terms for m (tc nil: every term found
// again by dofAt).
func (tc *TermCoords) cursor(m *multibody.Model) termCursor {
	c := termCursor{tc: tc, m: m}
	if tc != nil && tc.model == m {
		c.keys = tc.keys
	}
	return c
}

// hit returns the next term's kept indices and true when they were found
// for the joint of body b and degree of freedom dof, else false (then
// miss finds them): short enough to be inlined in the callers' loops.
func (c *termCursor) hit(b, dof int) (qi, vi int, ok bool) {
	if n := c.n; n < len(c.keys) {
		if e := &c.keys[n]; e.body == b && e.dof == dof {
			c.n++
			return e.qi, e.vi, true
		}
	}
	return 0, 0, false
}

// miss finds the next term's indices (dofAt) and keeps them.
func (c *termCursor) miss(b, dof int) (qi, vi int) {
	qi, vi = dofAt(c.m, b, dof)
	n := c.n
	c.n++
	tc := c.tc
	if tc == nil {
		return qi, vi
	}
	if tc.model != c.m {
		tc.model, tc.keys = c.m, tc.keys[:0]
	}
	for len(tc.keys) <= n {
		tc.keys = append(tc.keys, termCoord{body: -1})
	}
	tc.keys[n] = termCoord{body: b, dof: dof, qi: qi, vi: vi}
	c.keys = tc.keys
	return qi, vi
}
