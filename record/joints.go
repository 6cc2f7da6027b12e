package record

import (
	"strconv"

	"github.com/stiction-sim/stiction/multibody"
)

// MaxJointQ and MaxJointV are the most coordinates and velocities of one
// joint (a free joint: 7 and 6), the number of q and v columns of
// joints.csv.
const (
	MaxJointQ = 7
	MaxJointV = 6
)

// JointsHeader is the header of joints.csv: t, joint, type, q0…q6, v0…v5,
// then one actuator force and one constraint force column per velocity
// (act0…act5, con0…con5), empty until the solver provides them (issue 13).
var JointsHeader = jointsHeader()

func jointsHeader() []string {
	h := []string{"t", "joint", "type"}
	for _, p := range []struct {
		prefix string
		n      int
	}{{"q", MaxJointQ}, {"v", MaxJointV}, {"act", MaxJointV}, {"con", MaxJointV}} {
		for i := range p.n {
			h = append(h, p.prefix+strconv.Itoa(i))
		}
	}
	return h
}

// JointForces are generalized forces per velocity index (length NV) for
// joints.csv: the actuators' and the constraints' (joint limits,
// couplers, equality constraints). A nil slice leaves its columns empty.
type JointForces struct {
	Actuator, Constraint []float64
}

// JointName returns the name of body b's joint: the joint's own name, or
// the body's.
func JointName(m *multibody.Model, b int) string {
	if n := m.Bodies[b].Joint.Name; n != "" {
		return n
	}
	return m.Bodies[b].Name
}

// Joints records one row of joints.csv per joint with degrees of freedom at
// time s.T: its coordinates and velocities in the joint's own convention
// (docs/SCENES.md), unused columns empty, and the generalized forces f of
// the step (nil, or a nil slice: those columns empty).
func (w *Writer) Joints(m *multibody.Model, s *multibody.State, f *JointForces) {
	w.model = m
	for b := range m.Bodies {
		body := &m.Bodies[b]
		nq, nv := body.Joint.NQ(), body.Joint.NV()
		if body.Tree < 0 || nv == 0 {
			continue
		}
		r := jointRow{t: s.T, body: int32(b), nq: int8(nq), nv: int8(nv)}
		copy(r.q[:], s.Q[body.QOff:body.QOff+nq])
		copy(r.v[:], s.V[body.VOff:body.VOff+nv])
		if f != nil && f.Actuator != nil {
			r.hasAct = true
			copy(r.act[:], f.Actuator[body.VOff:body.VOff+nv])
		}
		if f != nil && f.Constraint != nil {
			r.hasCon = true
			copy(r.con[:], f.Constraint[body.VOff:body.VOff+nv])
		}
		w.cur.joints = append(w.cur.joints, r)
	}
}
