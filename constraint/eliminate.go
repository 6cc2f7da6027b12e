package constraint

import (
	"github.com/stiction-sim/stiction/multibody"
	"github.com/stiction-sim/stiction/spatial"
)

// Attachment attaches Body, a body on a free joint, to Master (a body, or
// −1 for the world) at their relative pose in the initial state, exactly:
// Body's velocities are not unknowns of the step but functions of Master's,
// v_Body = T v_Master (mechanics notes §0.17, eq. 0.18 with G_βα = −T), and
// package sim removes them from the problem by the null-space reduction of
// §0.17–0.19 (masses and fictitious forces move onto the master; chains of
// attachments reduce in order, §0.18). With PointOnly, only Body's point
// Point (body frame) is held to Master's material point that coincides
// with it initially, and Body still turns freely: its three translational
// velocities are eliminated, its rotations stay unknowns. Unlike a Weld
// there is no regularization and the constraint error is zero to round-off.
type Attachment struct {
	Name      string
	Master    int
	Body      int
	PointOnly bool
	Point     spatial.Vec3
}

// Prescribed makes the joint of Body follow given trajectories: coordinate
// DOFs[k] of a revolute, prismatic, planar or universal joint is
// Motion[k](t) (value and rate). For a body on a free joint DOFs must be
// nil and Motion has three signals, the world position x, y, z of the body
// origin, whose orientation is held at its initial value. The prescribed
// velocities are removed from the unknowns (mechanics notes §0.21) and the
// generalized force f_ρ the motion needs is reported.
type Prescribed struct {
	Name   string
	Body   int
	DOFs   []int
	Motion []Signal
}

// IsFreeRoot reports whether body b is the root of its tree on a free joint.
func IsFreeRoot(m *multibody.Model, b int) bool {
	bd := &m.Bodies[b]
	return bd.Tree >= 0 && bd.Joint.Type == multibody.JointFree && bd.Joint.Parent < 0
}

// validateElimination checks the attachments and prescribed motions.
func (s *Set) validateElimination(m *multibody.Model) []error {
	var errs []error
	fail := func(list string, i int, name string, err error) {
		errs = append(errs, errf("constraint: %s[%d] %q: %w", list, i, name, err))
	}
	moved := map[int]string{}
	for i := range s.Attachments {
		at := &s.Attachments[i]
		if err := body(m, at.Master, true); err != nil {
			fail("Attachments", i, at.Name, err)
			continue
		}
		if err := body(m, at.Body, false); err != nil || !IsFreeRoot(m, at.Body) || at.Body == at.Master {
			fail("Attachments", i, at.Name, errf("body %d must be a body on a free joint other than the master", at.Body))
			continue
		}
		if !at.Point.IsFinite() {
			fail("Attachments", i, at.Name, errf("point %v must be finite", at.Point))
			continue
		}
		if w, dup := moved[at.Body]; dup {
			fail("Attachments", i, at.Name, errf("body %q is already moved by %s", m.Bodies[at.Body].Name, w))
			continue
		}
		moved[at.Body] = "an attachment"
	}
	for i := range s.Prescribed {
		pr := &s.Prescribed[i]
		if err := pr.validate(m); err != nil {
			fail("Prescribed", i, pr.Name, err)
			continue
		}
		if w, dup := moved[pr.Body]; dup {
			fail("Prescribed", i, pr.Name, errf("body %q is already moved by %s", m.Bodies[pr.Body].Name, w))
			continue
		}
		moved[pr.Body] = "a prescribed motion"
	}
	if len(errs) == 0 {
		if _, err := s.AttachmentOrder(); err != nil {
			errs = append(errs, err)
		}
	}
	return errs
}

// validate checks one prescribed motion.
func (pr *Prescribed) validate(m *multibody.Model) error {
	if err := body(m, pr.Body, false); err != nil {
		return err
	}
	if IsFreeRoot(m, pr.Body) {
		if pr.DOFs != nil || len(pr.Motion) != 3 {
			return errf("a free body's motion is its position x, y, z: no DOFs and 3 signals (got %d DOFs, %d signals)", len(pr.DOFs), len(pr.Motion))
		}
	} else {
		seen := map[int]bool{}
		for _, d := range pr.DOFs {
			if _, _, err := scalarDOF(m, pr.Body, d); err != nil {
				return err
			}
			if seen[d] {
				return errf("dof %d listed twice", d)
			}
			seen[d] = true
		}
		if len(pr.Motion) != len(pr.DOFs) || len(pr.DOFs) == 0 {
			return errf("%d signals for %d DOFs; give one signal per listed dof", len(pr.Motion), len(pr.DOFs))
		}
	}
	for k, s := range pr.Motion {
		if s == nil {
			return errf("signal %d is nil", k)
		}
	}
	return nil
}

// AttachmentOrder returns the attachments' indices ordered so that every
// attachment comes after the attachment of its master (if the master is
// itself attached), or an error when the attachments form a loop (notes
// §0.18: the elimination needs a directed acyclic graph).
func (s *Set) AttachmentOrder() ([]int, error) {
	by := map[int]int{} // attached body → attachment
	for i, at := range s.Attachments {
		by[at.Body] = i
	}
	depth := make([]int, len(s.Attachments))
	for i := range s.Attachments {
		d, b := 0, s.Attachments[i].Master
		for {
			j, ok := by[b]
			if !ok {
				break
			}
			d++
			if d > len(s.Attachments) {
				return nil, errf("constraint: Attachments[%d] %q: the attachments form a loop", i, s.Attachments[i].Name)
			}
			b = s.Attachments[j].Master
		}
		depth[i] = d
	}
	order := make([]int, 0, len(s.Attachments))
	for d := 0; len(order) < len(s.Attachments); d++ {
		for i := range s.Attachments {
			if depth[i] == d {
				order = append(order, i)
			}
		}
	}
	return order, nil
}
