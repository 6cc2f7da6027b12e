package tendon

import (
	"fmt"

	"github.com/stiction-sim/stiction/multibody"
	"github.com/stiction-sim/stiction/spatial"
)

// BodyTransmission is MuJoCo 2.2.2's body transmission (mjTRN_BODY, the
// transmission of its <adhesion> actuator; mj_transmission,
// engine_core_smooth.c): the length is 0 and the moment is minus the mean,
// over the contacts of the step that involve Body, of the contacts'
// normal Jacobians,
//
//	G = −(1/n) Σ_c n̂_cᵀ (J_B(p_c) − J_A(p_c)),
//
// n̂_c the contact's normal (from A towards B), p_c its point and J_X(p)
// the Jacobian of the velocity of body X's material point at p. A
// positive actuator force therefore pulls the body onto what it touches.
// MuJoCo counts every contact it has, those within the geoms' margin
// that are no constraint row (in the gap, exclude = 1) too, and leaves
// out contacts that move no degree of freedom (exclude = 4); for a
// contact row it reads the rows' Jacobians through mj_mulJacTVec (the
// pyramid's edges averaged, which is n̂ᵀ J up to round-off), for one in
// the gap mj_jacDifPair projected on the normal, which this is.
//
// The contacts are the simulator's: it calls Reset, AddContact for each
// contact and Finish after its collision detection at the start of each
// step (package sim); Jacobian then gives the moment so found. The moment
// is state of one simulator, so each simulator holds its own copy
// (Clone).
type BodyTransmission struct {
	Body int
	g    []float64 // the moment, length NV, after Finish
	n    int       // contacts counted since Reset
}

// Bodies lists the body (the moment moves the trees of the bodies it
// touches too; the assembly reads G whole).
func (s *BodyTransmission) Bodies() []int { return []int{s.Body} }

// Validate checks the body.
func (s *BodyTransmission) Validate(m *multibody.Model) error {
	if s.Body < 0 || s.Body >= len(m.Bodies) {
		return fmt.Errorf("body transmission: body %d out of range", s.Body)
	}
	return nil
}

// Clone returns a transmission on the same body with its own moment.
func (s *BodyTransmission) Clone() *BodyTransmission { return &BodyTransmission{Body: s.Body} }

// Reset clears the moment and the contact count for a model of nv
// velocities.
func (s *BodyTransmission) Reset(nv int) {
	if len(s.g) != nv {
		s.g = make([]float64, nv)
	}
	clear(s.g)
	s.n = 0
}

// Involves reports whether a contact between bodies a and b counts:
// one of them is Body and one of them moves (MuJoCo's exclude = 4
// otherwise).
func (s *BodyTransmission) Involves(m *multibody.Model, a, b int) bool {
	if a != s.Body && b != s.Body {
		return false
	}
	return moves(m, a) || moves(m, b)
}

// moves reports whether body b has a degree of freedom above it.
func moves(m *multibody.Model, b int) bool { return b >= 0 && m.Bodies[b].Tree >= 0 }

// AddContact adds n̂ᵀ (J_B(p) − J_A(p)) of a contact between bodies a and
// b (Involves) at point p with normal n (from a towards b) at the
// kinematics of ws; local is scratch of length ≥ 3 NV.
func (s *BodyTransmission) AddContact(m *multibody.Model, ws *multibody.Workspace, local []float64, a, b int, p, n spatial.Vec3) {
	addPoint(m, ws, s.g, local, b, &p, &n)
	n = n.Neg()
	addPoint(m, ws, s.g, local, a, &p, &n)
	s.n++
}

// Finish scales the sum by −1/n (MuJoCo's mju_scl by −1/counter); with no
// contact the moment stays 0.
func (s *BodyTransmission) Finish() {
	if s.n == 0 {
		return
	}
	k := -1 / float64(s.n)
	for i := range s.g {
		s.g[i] *= k
	}
}

// Contacts is the number of contacts counted since Reset.
func (s *BodyTransmission) Contacts() int { return s.n }

// Jacobian writes G into g and returns the length 0 (Transmission).
func (s *BodyTransmission) Jacobian(m *multibody.Model, ws *multibody.Workspace, g, local []float64) float64 {
	clear(g[:m.NV])
	copy(g[:m.NV], s.g)
	return 0
}
