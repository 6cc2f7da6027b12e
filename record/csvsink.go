package record

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"

	"github.com/stiction-sim/stiction/sim"
)

// sink encodes batches into the per-step files of one format. Its methods
// run on the writer goroutine, except offsets and close, which run after
// a sync or the end of that goroutine.
type sink interface {
	write(b *batch) error
	flush() error
	offsets() (Offsets, error)
	close() error
}

// csvSink writes steps.csv, trajectory.csv, contacts.csv, constraints.csv
// and joints.csv.
type csvSink struct {
	files [5]*os.File
	out   [5]rowFile
	line  []byte
}

// newCSVSink creates the three CSV files with their headers, or with
// resume opens them truncated to the offsets and positioned at their end.
func newCSVSink(dir string, resume *Offsets) (*csvSink, error) {
	s := &csvSink{}
	heads := [5][]string{StepsHeader, TrajectoryHeader, ContactsHeader, ConstraintsHeader, JointsHeader}
	for i, name := range CSV.fileNames() {
		path := filepath.Join(dir, name)
		var f *os.File
		var err error
		if resume == nil {
			f, err = os.Create(path)
		} else {
			f, err = openTruncated(path, resume[i])
		}
		if err != nil {
			s.close()
			return nil, fmt.Errorf("record: %w", err)
		}
		s.files[i], s.out[i] = f, rowFile{f: f}
		if resume == nil {
			s.header(&s.out[i], heads[i])
		}
	}
	if err := s.flush(); err != nil {
		s.close()
		return nil, fmt.Errorf("record: %w", err)
	}
	return s, nil
}

// openTruncated opens path for writing, truncated to size, at its end.
func openTruncated(path string, size int64) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		return nil, err
	}
	st, err := f.Stat()
	if err == nil && st.Size() < size {
		err = fmt.Errorf("%s has %d bytes, the checkpoint needs %d", path, st.Size(), size)
	}
	if err == nil {
		err = f.Truncate(size)
	}
	if err == nil {
		_, err = f.Seek(size, io.SeekStart)
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

func (s *csvSink) header(f *rowFile, cols []string) {
	s.line = s.line[:0]
	for i, c := range cols {
		if i > 0 {
			s.line = append(s.line, ',')
		}
		s.line = append(s.line, c...)
	}
	f.row(append(s.line, '\n'))
}

func (s *csvSink) write(b *batch) error {
	for i := range b.steps {
		s.step(&b.steps[i])
	}
	for i := range b.traj {
		r := &b.traj[i]
		s.line = AppendTime(s.line[:0], r.t)
		s.line = append(s.line, ',')
		s.line = append(s.line, b.model.Bodies[r.body].Name...)
		s.nums(r.x[:])
		s.out[1].row(s.line)
	}
	for i := range b.contacts {
		r := &b.contacts[i]
		s.line = AppendTime(s.line[:0], r.t)
		s.line = append(s.line, ',')
		s.line = append(s.line, b.model.Bodies[r.a].Name...)
		s.line = append(s.line, ',')
		s.line = append(s.line, b.model.Bodies[r.b].Name...)
		s.nums(r.x[:])
		s.out[2].row(s.line)
	}
	for i := range b.cons {
		r := &b.cons[i]
		s.line = AppendTime(s.line[:0], r.t)
		for _, str := range [...]string{r.name, r.typ, r.state} {
			s.line = append(s.line, ',')
			s.line = append(s.line, str...)
		}
		for _, x := range [...]float64{r.violation, r.force} {
			s.line = append(s.line, ',')
			s.line = AppendNumber(s.line, x)
		}
		s.line = append(s.line, ',')
		s.line = strconv.AppendInt(s.line, int64(r.rows), 10)
		for _, x := range r.impulse {
			s.line = append(s.line, ',')
			s.line = AppendNumber(s.line, x)
		}
		s.line = append(s.line, ',')
		s.line = AppendNumber(s.line, r.input)
		s.line = append(s.line, ',')
		s.line = AppendNumber(s.line, r.activation)
		s.line = append(s.line, '\n')
		s.out[3].row(s.line)
	}
	for i := range b.joints {
		r := &b.joints[i]
		body := &b.model.Bodies[r.body]
		s.line = AppendTime(s.line[:0], r.t)
		s.line = append(s.line, ',')
		s.line = append(s.line, JointName(b.model, int(r.body))...)
		s.line = append(s.line, ',')
		s.line = append(s.line, body.Joint.Type.String()...)
		s.cells(r.q[:r.nq], MaxJointQ, true)
		s.cells(r.v[:r.nv], MaxJointV, true)
		s.cells(r.act[:r.nv], MaxJointV, r.hasAct)
		s.cells(r.con[:r.nv], MaxJointV, r.hasCon)
		s.line = append(s.line, '\n')
		s.out[4].row(s.line)
	}
	return s.flush() // whole rows, once per batch: a killed run's files end at a row boundary
}

// cells appends ",x" for each x when has, and then empty cells up to n
// columns.
func (s *csvSink) cells(xs []float64, n int, has bool) {
	k := 0
	if has {
		for _, x := range xs {
			s.line = append(s.line, ',')
			s.line = AppendNumber(s.line, x)
		}
		k = len(xs)
	}
	for range n - k {
		s.line = append(s.line, ',')
	}
}

// nums appends ",x" for each x and a newline.
func (s *csvSink) nums(xs []float64) {
	for _, x := range xs {
		s.line = append(s.line, ',')
		s.line = AppendNumber(s.line, x)
	}
	s.line = append(s.line, '\n')
}

func (s *csvSink) step(st *sim.StepStats) {
	b := AppendTime(s.line[:0], st.T)
	b = append(b, ',')
	b = strconv.AppendInt(b, int64(st.Iterations), 10)
	b = append(b, ',')
	b = strconv.AppendInt(b, int64(st.LineSearchIterations), 10)
	for _, x := range [...]float64{st.MomentumError, st.ComplementarityError} {
		b = append(b, ',')
		b = AppendNumber(b, x)
	}
	b = append(b, ',')
	b = strconv.AppendInt(b, int64(st.Contacts), 10)
	for _, x := range [...]float64{st.MaxPenetration, st.KineticEnergy, st.PotentialEnergy} {
		b = append(b, ',')
		b = AppendNumber(b, x)
	}
	b = append(b, ',')
	b = append(b, st.Status.String()...)
	b = append(b, ',')
	b = AppendNumber(b, st.MaxSlip)
	s.line = append(b, '\n')
	s.out[0].row(s.line)
}

// flush writes the buffered rows of every file, in the order steps,
// trajectory, contacts, constraints, joints, so that a killed run's
// contacts and constraints never name a time its trajectory lacks.
func (s *csvSink) flush() error {
	var err error
	for i := range s.out {
		if s.out[i].f != nil {
			err = errors.Join(err, s.out[i].flush())
		}
	}
	return err
}

func (s *csvSink) offsets() (Offsets, error) {
	var o Offsets
	for i, f := range s.files {
		n, err := f.Seek(0, io.SeekCurrent)
		if err != nil {
			return o, fmt.Errorf("record: %w", err)
		}
		o[i] = n
	}
	return o, nil
}

func (s *csvSink) close() error {
	err := s.flush()
	for _, f := range s.files {
		if f != nil {
			err = errors.Join(err, f.Close())
		}
	}
	return err
}
