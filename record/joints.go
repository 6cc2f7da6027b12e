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

// Joints writes one row of joints.csv per joint with degrees of freedom at
// time s.T: its coordinates and velocities in the joint's own convention
// (docs/SCENES.md), unused columns empty, and the forces f (nil: none).
func (w *Writer) Joints(m *multibody.Model, s *multibody.State, f *JointForces) {
	for b := range m.Bodies {
		body := &m.Bodies[b]
		nq, nv := body.Joint.Type.NQ(), body.Joint.Type.NV()
		if body.Tree < 0 || nv == 0 {
			continue
		}
		w.buf = strconv.AppendFloat(w.buf[:0], s.T, 'g', -1, 64)
		w.buf = append(w.buf, ',')
		w.buf = append(w.buf, JointName(m, b)...)
		w.buf = append(w.buf, ',')
		w.buf = append(w.buf, body.Joint.Type.String()...)
		w.cells(s.Q[body.QOff:body.QOff+nq], MaxJointQ)
		w.cells(s.V[body.VOff:body.VOff+nv], MaxJointV)
		var act, con []float64
		if f != nil && f.Actuator != nil {
			act = f.Actuator[body.VOff : body.VOff+nv]
		}
		if f != nil && f.Constraint != nil {
			con = f.Constraint[body.VOff : body.VOff+nv]
		}
		w.cells(act, MaxJointV)
		w.cells(con, MaxJointV)
		w.buf = append(w.buf, '\n')
		w.joints.Write(w.buf)
	}
}

// cells appends the values, then empty cells up to n columns.
func (w *Writer) cells(x []float64, n int) {
	for _, v := range x {
		w.num(v)
	}
	for range n - len(x) {
		w.buf = append(w.buf, ',')
	}
}
