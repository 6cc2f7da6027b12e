package mjref

import (
	"fmt"

	"github.com/stiction-sim/stiction/multibody"
	"github.com/stiction-sim/stiction/spatial"
)

// BodyNames returns the names that Stiction's MJCF import gives MuJoCo's
// bodies, by index: the file's name, or "body<k>" for the k-th unnamed body
// in file order (MuJoCo's order), and "" for the world.
func (r *Run) BodyNames() []string {
	names := make([]string, len(r.Bodies))
	unnamed := 0
	for b := 1; b < len(r.Bodies); b++ {
		names[b] = r.Bodies[b].Name
		if names[b] == "" {
			unnamed++
			names[b] = fmt.Sprintf("body%d", unnamed)
		}
	}
	return names
}

// JointMap places one MuJoCo joint in both layouts.
type JointMap struct {
	Joint      Joint // MuJoCo's joint
	Body       int   // Stiction's body index
	BodyName   string
	StQ, StV   int // offsets in Stiction's q and v
	MjQ, MjV   int // offsets in MuJoCo's qpos and qvel
	NQ, NV     int
	Type       multibody.JointType // the Stiction type of the joint, or of its part
	MuJoCoName string              // the joint's name in the file ("" if unnamed)
}

// Map relates MuJoCo's coordinates to Stiction's for one model: joints are
// matched through their bodies' names, so the two orders may differ.
type Map struct {
	Joints []JointMap
	NQ, NV int
}

var stictionType = map[string]multibody.JointType{
	"free": multibody.JointFree, "ball": multibody.JointBall,
	"hinge": multibody.JointRevolute, "slide": multibody.JointPrismatic,
}

// NewMap matches every joint of the MuJoCo run r with the joint of the
// Stiction body of the same name. A MuJoCo body with several joints maps
// onto a Stiction body whose joint is compound (multibody's "compound"
// type, its parts in file order as MuJoCo's joints): part k's coordinates
// follow parts 0…k−1's, as in MuJoCo. NewMap fails, naming the body, when a
// body is missing, its joint has another type, or the sizes differ.
func NewMap(r *Run, m *multibody.Model) (*Map, error) {
	if r.NQ != m.NQ || r.NV != m.NV {
		return nil, fmt.Errorf("%s: nq, nv = %d, %d in MuJoCo, %d, %d in Stiction", r.File, r.NQ, r.NV, m.NQ, m.NV)
	}
	names := r.BodyNames()
	mp := &Map{NQ: r.NQ, NV: r.NV}
	for _, j := range r.Joints {
		mb := r.Bodies[j.Body]
		b := m.BodyByName(names[j.Body])
		if b < 0 {
			return nil, fmt.Errorf("%s: body %q (joint %q) is not in Stiction's model", r.File, names[j.Body], j.Name)
		}
		body := &m.Bodies[b]
		want := stictionType[j.Type]
		qoff, voff := body.QOff, body.VOff
		if mb.JntNum > 1 {
			if body.Joint.Type.String() != "compound" {
				return nil, fmt.Errorf("%s: body %q has %d joints in MuJoCo, a %s joint in Stiction", r.File, names[j.Body], mb.JntNum, body.Joint.Type)
			}
			// The parts before this one.
			for k := mb.JntAdr; k < j.index(r); k++ {
				qoff += r.Joints[k].NQ()
				voff += r.Joints[k].NV()
			}
		} else if body.Joint.Type != want {
			return nil, fmt.Errorf("%s: body %q: joint %q is %s in MuJoCo, %s in Stiction", r.File, names[j.Body], j.Name, j.Type, body.Joint.Type)
		}
		mp.Joints = append(mp.Joints, JointMap{
			Joint: j, Body: b, BodyName: names[j.Body],
			StQ: qoff, StV: voff, MjQ: j.QPosAdr, MjV: j.DofAdr,
			NQ: j.NQ(), NV: j.NV(), Type: want, MuJoCoName: j.Name,
		})
	}
	return mp, nil
}

// index returns the joint's index in r.Joints (joints are told apart by
// their coordinate address).
func (j Joint) index(r *Run) int {
	for k := range r.Joints {
		if r.Joints[k].QPosAdr == j.QPosAdr && r.Joints[k].DofAdr == j.DofAdr {
			return k
		}
	}
	return -1
}

// QToStiction converts MuJoCo's qpos into Stiction's q.
func (mp *Map) QToStiction(mj, st []float64) {
	for _, j := range mp.Joints {
		a, b := mj[j.MjQ:j.MjQ+j.NQ], st[j.StQ:j.StQ+j.NQ]
		if j.Joint.Type == "free" {
			FreeQ(a, b)
		} else {
			copy(b, a)
		}
	}
}

// QToMuJoCo converts Stiction's q into MuJoCo's qpos.
func (mp *Map) QToMuJoCo(st, mj []float64) {
	for _, j := range mp.Joints {
		a, b := st[j.StQ:j.StQ+j.NQ], mj[j.MjQ:j.MjQ+j.NQ]
		if j.Joint.Type == "free" {
			FreeQToMuJoCo(a, b)
		} else {
			copy(b, a)
		}
	}
}

// VToStiction converts MuJoCo's qvel into Stiction's v at MuJoCo's qpos mjq.
func (mp *Map) VToStiction(mjq, mj, st []float64) {
	for _, j := range mp.Joints {
		q, a, b := mjq[j.MjQ:j.MjQ+j.NQ], mj[j.MjV:j.MjV+j.NV], st[j.StV:j.StV+j.NV]
		switch j.Joint.Type {
		case "free":
			FreeV(q, a, b)
		case "ball":
			BallV(q, a, b)
		default:
			copy(b, a)
		}
	}
}

// VToMuJoCo converts Stiction's v into MuJoCo's qvel at MuJoCo's qpos mjq.
func (mp *Map) VToMuJoCo(mjq, st, mj []float64) {
	for _, j := range mp.Joints {
		q, a, b := mjq[j.MjQ:j.MjQ+j.NQ], st[j.StV:j.StV+j.NV], mj[j.MjV:j.MjV+j.NV]
		switch j.Joint.Type {
		case "free":
			FreeVToMuJoCo(q, a, b)
		case "ball":
			BallVToMuJoCo(q, a, b)
		default:
			copy(b, a)
		}
	}
}

// Jacobian returns T (NV×NV, row-major) with v_Stiction = T v_MuJoCo at
// MuJoCo's qpos mjq; MuJoCo's mass matrix is then Tᵀ M_Stiction T.
func (mp *Map) Jacobian(mjq []float64) []float64 {
	n := mp.NV
	t := make([]float64, n*n)
	for _, j := range mp.Joints {
		switch j.Joint.Type {
		case "free", "ball":
			q := mjq[j.MjQ : j.MjQ+4]
			rs, rm := j.StV, j.MjV+3 // rotation rows and MuJoCo's angular columns
			if j.Joint.Type == "free" {
				q = mjq[j.MjQ+3 : j.MjQ+7]
				for k := range 3 {
					t[(j.StV+3+k)*n+j.MjV+k] = 1
				}
			} else {
				rm = j.MjV
			}
			r := quatAt(q).Normalize().RotMat()
			for a := range 3 {
				for c := range 3 {
					t[(rs+a)*n+rm+c] = r[a][c]
				}
			}
		default:
			t[j.StV*n+j.MjV] = 1
		}
	}
	return t
}

// Inertia returns MuJoCo's body b as Stiction's spatial inertia: mass,
// centre of mass in the body frame, and the rotational inertia about the
// centre of mass in the body frame.
func (r *Run) Inertia(b int) spatial.SpatialInertia {
	body := r.Bodies[b]
	rot := quatAt(body.IQuat[:]).Normalize().RotMat()
	return spatial.SpatialInertia{
		Mass: body.Mass,
		Com:  spatial.Vec3(body.IPos),
		Icom: spatial.RotateInertia(rot, spatial.Diag3(spatial.Vec3(body.Inertia))),
	}
}
