package record

import (
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"

	"github.com/parquet-go/parquet-go"
)

// StepRow is one row of steps.parquet, with the columns of StepsHeader.
type StepRow struct {
	T                    float64 `parquet:"t"`
	Iterations           int32   `parquet:"iterations"`
	LineSearchIterations int32   `parquet:"line_search_iterations"`
	MomentumError        float64 `parquet:"momentum_error"`
	ComplementarityError float64 `parquet:"complementarity_error"`
	Contacts             int32   `parquet:"contacts"`
	MaxPenetration       float64 `parquet:"max_penetration"`
	KineticEnergy        float64 `parquet:"kinetic_energy"`
	PotentialEnergy      float64 `parquet:"potential_energy"`
	Status               string  `parquet:"status,dict"`
	MaxSlip              float64 `parquet:"max_slip"`
}

// TrajectoryRow is one row of trajectory.parquet, with the columns of
// TrajectoryHeader.
type TrajectoryRow struct {
	T    float64 `parquet:"t"`
	Body string  `parquet:"body,dict"`
	Px   float64 `parquet:"px"`
	Py   float64 `parquet:"py"`
	Pz   float64 `parquet:"pz"`
	Qw   float64 `parquet:"qw"`
	Qx   float64 `parquet:"qx"`
	Qy   float64 `parquet:"qy"`
	Qz   float64 `parquet:"qz"`
	Vx   float64 `parquet:"vx"`
	Vy   float64 `parquet:"vy"`
	Vz   float64 `parquet:"vz"`
	Wx   float64 `parquet:"wx"`
	Wy   float64 `parquet:"wy"`
	Wz   float64 `parquet:"wz"`
}

// ContactRow is one row of contacts.parquet, with the columns of
// ContactsHeader.
type ContactRow struct {
	T         float64 `parquet:"t"`
	BodyA     string  `parquet:"body_a,dict"`
	BodyB     string  `parquet:"body_b,dict"`
	Px        float64 `parquet:"px"`
	Py        float64 `parquet:"py"`
	Pz        float64 `parquet:"pz"`
	Nx        float64 `parquet:"nx"`
	Ny        float64 `parquet:"ny"`
	Nz        float64 `parquet:"nz"`
	Phi       float64 `parquet:"phi"`
	ImpulseT1 float64 `parquet:"impulse_t1"`
	ImpulseT2 float64 `parquet:"impulse_t2"`
	ImpulseN  float64 `parquet:"impulse_n"`
	Fx        float64 `parquet:"fx"`
	Fy        float64 `parquet:"fy"`
	Fz        float64 `parquet:"fz"`
}

// ConstraintParquetRow is one row of constraints.parquet, with the columns
// of constraints.csv.
type ConstraintParquetRow struct {
	T          float64 `parquet:"t"`
	Name       string  `parquet:"name,dict"`
	Type       string  `parquet:"type,dict"`
	State      string  `parquet:"state,dict"`
	Violation  float64 `parquet:"violation"`
	Force      float64 `parquet:"force"`
	Rows       int32   `parquet:"rows"`
	Impulse0   float64 `parquet:"impulse_0"`
	Impulse1   float64 `parquet:"impulse_1"`
	Impulse2   float64 `parquet:"impulse_2"`
	Impulse3   float64 `parquet:"impulse_3"`
	Impulse4   float64 `parquet:"impulse_4"`
	Impulse5   float64 `parquet:"impulse_5"`
	Input      float64 `parquet:"input"`
	Activation float64 `parquet:"activation"`
}

// JointParquetRow is one row of joints.parquet, with the columns of
// joints.csv; an unused or absent value is NaN.
type JointParquetRow struct {
	T     float64 `parquet:"t"`
	Joint string  `parquet:"joint,dict"`
	Type  string  `parquet:"type,dict"`
	Q0    float64 `parquet:"q0"`
	Q1    float64 `parquet:"q1"`
	Q2    float64 `parquet:"q2"`
	Q3    float64 `parquet:"q3"`
	Q4    float64 `parquet:"q4"`
	Q5    float64 `parquet:"q5"`
	Q6    float64 `parquet:"q6"`
	V0    float64 `parquet:"v0"`
	V1    float64 `parquet:"v1"`
	V2    float64 `parquet:"v2"`
	V3    float64 `parquet:"v3"`
	V4    float64 `parquet:"v4"`
	V5    float64 `parquet:"v5"`
	Act0  float64 `parquet:"act0"`
	Act1  float64 `parquet:"act1"`
	Act2  float64 `parquet:"act2"`
	Act3  float64 `parquet:"act3"`
	Act4  float64 `parquet:"act4"`
	Act5  float64 `parquet:"act5"`
	Con0  float64 `parquet:"con0"`
	Con1  float64 `parquet:"con1"`
	Con2  float64 `parquet:"con2"`
	Con3  float64 `parquet:"con3"`
	Con4  float64 `parquet:"con4"`
	Con5  float64 `parquet:"con5"`
}

// parquetSink writes steps.parquet, trajectory.parquet, contacts.parquet
// and constraints.parquet, zstd-compressed. A Parquet file is readable only once
// closed (its footer holds the metadata), so a run that is killed leaves
// them unreadable; Ctrl-C closes them.
type parquetSink struct {
	files    [5]*os.File
	steps    *parquet.GenericWriter[StepRow]
	traj     *parquet.GenericWriter[TrajectoryRow]
	contacts *parquet.GenericWriter[ContactRow]
	cons     *parquet.GenericWriter[ConstraintParquetRow]
	joints   *parquet.GenericWriter[JointParquetRow]
	sr       []StepRow
	tr       []TrajectoryRow
	cr       []ContactRow
	kr       []ConstraintParquetRow
	jr       []JointParquetRow
}

func newParquetSink(dir string) (*parquetSink, error) {
	s := &parquetSink{}
	for i, name := range Parquet.fileNames() {
		f, err := os.Create(filepath.Join(dir, name))
		if err != nil {
			s.closeFiles()
			return nil, fmt.Errorf("record: %w", err)
		}
		s.files[i] = f
	}
	opt := parquet.Compression(&parquet.Zstd)
	s.steps = parquet.NewGenericWriter[StepRow](s.files[0], opt)
	s.traj = parquet.NewGenericWriter[TrajectoryRow](s.files[1], opt)
	s.contacts = parquet.NewGenericWriter[ContactRow](s.files[2], opt)
	s.cons = parquet.NewGenericWriter[ConstraintParquetRow](s.files[3], opt)
	s.joints = parquet.NewGenericWriter[JointParquetRow](s.files[4], opt)
	return s, nil
}

func (s *parquetSink) write(b *batch) error {
	s.sr = s.sr[:0]
	for i := range b.steps {
		st := &b.steps[i]
		s.sr = append(s.sr, StepRow{T: st.T, Iterations: int32(st.Iterations), LineSearchIterations: int32(st.LineSearchIterations),
			MomentumError: st.MomentumError, ComplementarityError: st.ComplementarityError, Contacts: int32(st.Contacts),
			MaxPenetration: st.MaxPenetration, KineticEnergy: st.KineticEnergy, PotentialEnergy: st.PotentialEnergy,
			Status: st.Status.String(), MaxSlip: st.MaxSlip})
	}
	s.tr = s.tr[:0]
	for i := range b.traj {
		r := &b.traj[i]
		x := &r.x
		s.tr = append(s.tr, TrajectoryRow{T: r.t, Body: b.model.Bodies[r.body].Name, Px: x[0], Py: x[1], Pz: x[2],
			Qw: x[3], Qx: x[4], Qy: x[5], Qz: x[6], Vx: x[7], Vy: x[8], Vz: x[9], Wx: x[10], Wy: x[11], Wz: x[12]})
	}
	s.cr = s.cr[:0]
	for i := range b.contacts {
		r := &b.contacts[i]
		x := &r.x
		s.cr = append(s.cr, ContactRow{T: r.t, BodyA: b.model.Bodies[r.a].Name, BodyB: b.model.Bodies[r.b].Name,
			Px: x[0], Py: x[1], Pz: x[2], Nx: x[3], Ny: x[4], Nz: x[5], Phi: x[6],
			ImpulseT1: x[7], ImpulseT2: x[8], ImpulseN: x[9], Fx: x[10], Fy: x[11], Fz: x[12]})
	}
	s.kr = s.kr[:0]
	for i := range b.cons {
		r := &b.cons[i]
		m := &r.impulse
		s.kr = append(s.kr, ConstraintParquetRow{T: r.t, Name: r.name, Type: r.typ, State: r.state, Violation: r.violation,
			Force: r.force, Rows: r.rows, Impulse0: m[0], Impulse1: m[1], Impulse2: m[2], Impulse3: m[3], Impulse4: m[4], Impulse5: m[5],
			Input: r.input, Activation: r.activation})
	}
	s.jr = s.jr[:0]
	for i := range b.joints {
		r := &b.joints[i]
		jr := JointParquetRow{T: r.t, Joint: JointName(b.model, int(r.body)), Type: b.model.Bodies[r.body].Joint.Type.String()}
		jr.Q0 = cell(r.q[:], 0, int(r.nq), true)
		jr.Q1 = cell(r.q[:], 1, int(r.nq), true)
		jr.Q2 = cell(r.q[:], 2, int(r.nq), true)
		jr.Q3 = cell(r.q[:], 3, int(r.nq), true)
		jr.Q4 = cell(r.q[:], 4, int(r.nq), true)
		jr.Q5 = cell(r.q[:], 5, int(r.nq), true)
		jr.Q6 = cell(r.q[:], 6, int(r.nq), true)
		jr.V0 = cell(r.v[:], 0, int(r.nv), true)
		jr.V1 = cell(r.v[:], 1, int(r.nv), true)
		jr.V2 = cell(r.v[:], 2, int(r.nv), true)
		jr.V3 = cell(r.v[:], 3, int(r.nv), true)
		jr.V4 = cell(r.v[:], 4, int(r.nv), true)
		jr.V5 = cell(r.v[:], 5, int(r.nv), true)
		jr.Act0 = cell(r.act[:], 0, int(r.nv), r.hasAct)
		jr.Act1 = cell(r.act[:], 1, int(r.nv), r.hasAct)
		jr.Act2 = cell(r.act[:], 2, int(r.nv), r.hasAct)
		jr.Act3 = cell(r.act[:], 3, int(r.nv), r.hasAct)
		jr.Act4 = cell(r.act[:], 4, int(r.nv), r.hasAct)
		jr.Act5 = cell(r.act[:], 5, int(r.nv), r.hasAct)
		jr.Con0 = cell(r.con[:], 0, int(r.nv), r.hasCon)
		jr.Con1 = cell(r.con[:], 1, int(r.nv), r.hasCon)
		jr.Con2 = cell(r.con[:], 2, int(r.nv), r.hasCon)
		jr.Con3 = cell(r.con[:], 3, int(r.nv), r.hasCon)
		jr.Con4 = cell(r.con[:], 4, int(r.nv), r.hasCon)
		jr.Con5 = cell(r.con[:], 5, int(r.nv), r.hasCon)
		s.jr = append(s.jr, jr)
	}
	_, e1 := s.steps.Write(s.sr)
	_, e2 := s.traj.Write(s.tr)
	_, e3 := s.contacts.Write(s.cr)
	_, e4 := s.cons.Write(s.kr)
	_, e5 := s.joints.Write(s.jr)
	return errors.Join(e1, e2, e3, e4, e5)
}

// flush is a no-op: flushing a Parquet writer ends a row group, and small
// row groups would defeat the compression.
func (s *parquetSink) flush() error { return nil }

func (s *parquetSink) offsets() (Offsets, error) {
	return Offsets{}, errors.New("record: checkpoints need CSV output (--format csv)")
}

func (s *parquetSink) close() error {
	err := errors.Join(s.steps.Close(), s.traj.Close(), s.contacts.Close(), s.cons.Close(), s.joints.Close())
	return errors.Join(err, s.closeFiles())
}

func (s *parquetSink) closeFiles() error {
	var err error
	for _, f := range s.files {
		if f != nil {
			err = errors.Join(err, f.Close())
		}
	}
	return err
}

// cell returns x[i] when the row has that value (i < n and has), else NaN.
func cell(x []float64, i, n int, has bool) float64 {
	if !has || i >= n {
		return math.NaN()
	}
	return x[i]
}
