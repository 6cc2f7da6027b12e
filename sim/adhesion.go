package sim

import (
	"github.com/stiction-sim/stiction/constraint"
	"github.com/stiction-sim/stiction/contact"
	"github.com/stiction-sim/stiction/multibody"
	"github.com/stiction-sim/stiction/tendon"
)

// adhesion holds a simulator's adhesion actuators (MuJoCo 2.2.2's body
// transmission, tendon.BodyTransmission), whose moments it computes from
// the contacts of each step's collision detection, as MuJoCo's
// mj_transmission does after mj_collision (engine_forward.c,
// mj_fwdPosition).
type adhesion struct {
	tr    []*tendon.BodyTransmission // the set's body transmissions, this simulator's own
	local []float64                  // 3 NV: the point Jacobians' scratch
}

// init returns set with each body transmission replaced by a copy of its
// own (the moment is state of the simulator; the set may be shared), and
// lists them; set itself when it has none.
func (a *adhesion) init(m *multibody.Model, set *constraint.Set) *constraint.Set {
	a.tr = a.tr[:0]
	var out *constraint.Set
	for i := range set.Actuators {
		bt, ok := set.Actuators[i].Transmission.(*tendon.BodyTransmission)
		if !ok {
			continue
		}
		if out == nil {
			cp := *set
			cp.Actuators = append([]constraint.Actuator(nil), set.Actuators...)
			out = &cp
		}
		own := bt.Clone()
		own.Reset(m.NV)
		out.Actuators[i].Transmission = own
		a.tr = append(a.tr, own)
	}
	if out == nil {
		return set
	}
	a.local = make([]float64, 3*m.NV)
	return out
}

// moments sets each body transmission's moment from the step's contact
// pairs at the kinematics kin: the pairs MuJoCo has a contact for, those
// whose surfaces are closer than the larger of the two geometries'
// margins (mj_collideGeoms: dist < margin; in the gap beyond their
// standoff too, where MuJoCo's contact is excluded from the constraint
// rows but counted by mjTRN_BODY). It allocates nothing.
// A model without body transmissions (most) pays a length test for it,
// inlined (advanceActivations).
func (a *adhesion) moments(m *multibody.Model, kin *multibody.Workspace, pairs []contact.Pair) {
	if len(a.tr) != 0 {
		a.bodyMoments(m, kin, pairs)
	}
}

// bodyMoments is moments for a model with body transmissions.
func (a *adhesion) bodyMoments(m *multibody.Model, kin *multibody.Workspace, pairs []contact.Pair) {
	for _, bt := range a.tr {
		bt.Reset(m.NV)
		for i := range pairs {
			pr := &pairs[i]
			ga, gb := &m.Geometries[pr.GeomA], &m.Geometries[pr.GeomB]
			if !bt.Involves(m, pr.BodyA, pr.BodyB) || !(pr.Phi+pr.Standoff < max(ga.Margin, gb.Margin)) {
				continue
			}
			bt.AddContact(m, kin, a.local, pr.BodyA, pr.BodyB, pr.Point, pr.Normal)
		}
		bt.Finish()
	}
}
