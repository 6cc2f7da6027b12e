package record

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"

	"github.com/stiction-sim/stiction/multibody"
	"github.com/stiction-sim/stiction/sim"
)

// StepsHeader, TrajectoryHeader and ContactsHeader are the CSV column names.
var (
	StepsHeader      = []string{"t", "iterations", "line_search_iterations", "momentum_error", "complementarity_error", "contacts", "max_penetration", "kinetic_energy", "potential_energy", "status", "max_slip"}
	TrajectoryHeader = []string{"t", "body", "px", "py", "pz", "qw", "qx", "qy", "qz", "vx", "vy", "vz", "wx", "wy", "wz"}
	ContactsHeader   = []string{"t", "body_a", "body_b", "px", "py", "pz", "nx", "ny", "nz", "phi", "impulse_t1", "impulse_t2", "impulse_n", "fx", "fy", "fz"}
)

// Writer writes steps.csv, trajectory.csv, contacts.csv and joints.csv as
// a run goes, scene.json when asked (Scene), and summary.json at the end.
type Writer struct {
	dir                           string
	files                         [4]*os.File
	steps, traj, contacts, joints *bufio.Writer
	buf                           []byte
}

// Create creates dir (if needed) and opens its output files.
func Create(dir string) (*Writer, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("record: %w", err)
	}
	w := &Writer{dir: dir}
	for i, name := range []string{"steps.csv", "trajectory.csv", "contacts.csv", "joints.csv"} {
		f, err := os.Create(filepath.Join(dir, name))
		if err != nil {
			w.closeFiles()
			return nil, fmt.Errorf("record: %w", err)
		}
		w.files[i] = f
	}
	w.steps, w.traj, w.contacts = bufio.NewWriter(w.files[0]), bufio.NewWriter(w.files[1]), bufio.NewWriter(w.files[2])
	w.joints = bufio.NewWriter(w.files[3])
	w.row(w.steps, StepsHeader...)
	w.row(w.traj, TrajectoryHeader...)
	w.row(w.contacts, ContactsHeader...)
	w.row(w.joints, JointsHeader...)
	return w, nil
}

func (w *Writer) row(b *bufio.Writer, cols ...string) {
	for i, c := range cols {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(c)
	}
	b.WriteByte('\n')
}

// num appends x to the line buffer in shortest round-trip form.
func (w *Writer) num(x float64) {
	w.buf = append(w.buf, ',')
	w.buf = strconv.AppendFloat(w.buf, x, 'g', -1, 64)
}

// Step writes one row of steps.csv.
func (w *Writer) Step(st sim.StepStats) {
	w.buf = strconv.AppendFloat(w.buf[:0], st.T, 'g', -1, 64)
	w.buf = append(w.buf, ',')
	w.buf = strconv.AppendInt(w.buf, int64(st.Iterations), 10)
	w.buf = append(w.buf, ',')
	w.buf = strconv.AppendInt(w.buf, int64(st.LineSearchIterations), 10)
	w.num(st.MomentumError)
	w.num(st.ComplementarityError)
	w.buf = append(w.buf, ',')
	w.buf = strconv.AppendInt(w.buf, int64(st.Contacts), 10)
	w.num(st.MaxPenetration)
	w.num(st.KineticEnergy)
	w.num(st.PotentialEnergy)
	w.buf = append(w.buf, ',')
	w.buf = append(w.buf, st.Status.String()...)
	w.num(st.MaxSlip)
	w.buf = append(w.buf, '\n')
	w.steps.Write(w.buf)
}

// Trajectory writes one row of trajectory.csv per free body at time s.T.
func (w *Writer) Trajectory(m *multibody.Model, s *multibody.State) {
	for b, body := range m.Bodies {
		if body.Tree < 0 {
			continue
		}
		x := m.BodyPose(s, b)
		om, v := m.BodyVelocity(s, b)
		w.buf = strconv.AppendFloat(w.buf[:0], s.T, 'g', -1, 64)
		w.buf = append(w.buf, ',')
		w.buf = append(w.buf, body.Name...)
		for _, c := range [...]float64{x.P[0], x.P[1], x.P[2], x.R.W, x.R.X, x.R.Y, x.R.Z, v[0], v[1], v[2], om[0], om[1], om[2]} {
			w.num(c)
		}
		w.buf = append(w.buf, '\n')
		w.traj.Write(w.buf)
	}
}

// Close flushes the CSV files and writes summary.json.
func (w *Writer) Close(s Summary) error {
	err := errors.Join(w.steps.Flush(), w.traj.Flush(), w.contacts.Flush(), w.joints.Flush(), w.closeFiles())
	data, jerr := json.MarshalIndent(s, "", "  ")
	if jerr == nil {
		jerr = os.WriteFile(filepath.Join(w.dir, "summary.json"), append(data, '\n'), 0o644)
	}
	if err = errors.Join(err, jerr); err != nil {
		return fmt.Errorf("record: %w", err)
	}
	return nil
}

func (w *Writer) closeFiles() error {
	var err error
	for _, f := range w.files {
		if f != nil {
			err = errors.Join(err, f.Close())
		}
	}
	return err
}
