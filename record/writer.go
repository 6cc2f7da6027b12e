package record

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/stiction-sim/stiction/constraint"
	"github.com/stiction-sim/stiction/contact"
	"github.com/stiction-sim/stiction/multibody"
	"github.com/stiction-sim/stiction/sim"
)

// StepsHeader, TrajectoryHeader and ContactsHeader are the column names of
// steps, trajectory and contacts files (CSV and Parquet alike).
var (
	StepsHeader      = []string{"t", "iterations", "line_search_iterations", "momentum_error", "complementarity_error", "contacts", "max_penetration", "kinetic_energy", "potential_energy", "status", "max_slip"}
	TrajectoryHeader = []string{"t", "body", "px", "py", "pz", "qw", "qx", "qy", "qz", "vx", "vy", "vz", "wx", "wy", "wz"}
	ContactsHeader   = []string{"t", "body_a", "body_b", "px", "py", "pz", "nx", "ny", "nz", "phi", "impulse_t1", "impulse_t2", "impulse_n", "fx", "fy", "fz"}
)

// batchSteps and batchRows are how many steps, and trajectory and contact
// rows, a batch holds before it goes to the writer goroutine;
// batchesInFlight bounds the batches queued there.
const (
	batchSteps      = 256
	batchRows       = 4096
	batchesInFlight = 4
)

// Writer writes the per-step files of a run (steps, trajectory and
// contacts, as CSV or Parquet) as it goes, scene.json when asked (Scene),
// and summary.json at the end (Close). Step, Trajectory and Contacts only
// copy numbers into a batch; the formatting and writing happen on a
// goroutine of the Writer's own, so that they stay off the stepping
// goroutine. Once its batches have grown to the run's sizes, recording a
// step does not allocate. A Writer is not safe for concurrent use.
type Writer struct {
	dir     string
	format  Format
	model   *multibody.Model // for body names, set by Trajectory or Contacts
	cur     *batch
	free    chan *batch
	full    chan *batch
	done    chan struct{}
	sink    sink
	err     error         // first error of the writer goroutine; read after a sync or done
	busy    time.Duration // time the writer goroutine spent writing
	stopped bool
	// limit is the number of steps of the current batch: 1 for the first,
	// doubling up to batchSteps, so that a run's first steps reach the
	// files at once (a run killed early still leaves them).
	limit int
}

// batch is a run of recorded steps on its way to the writer goroutine. A
// batch with sync set is a request to flush the files and report back.
type batch struct {
	model    *multibody.Model
	steps    []sim.StepStats
	traj     []trajRow
	contacts []contactRow
	cons     []consRow
	joints   []jointRow
	sync     chan struct{}
}

// jointRow is one joint of a recorded frame (joints.csv).
type jointRow struct {
	t              float64
	body           int32
	nq, nv         int8
	q              [MaxJointQ]float64
	v, act, con    [MaxJointV]float64
	hasAct, hasCon bool
}

type trajRow struct {
	t    float64
	body int32
	x    [13]float64 // p, q (w, x, y, z), v, ω
}

type contactRow struct {
	t    float64
	a, b int32
	x    [13]float64 // point, normal, φ, γ (t1, t2, n), force
}

// consRow is one constraint report of a recorded step.
type consRow struct {
	t                float64
	name, typ, state string
	violation, force float64
	rows             int32
	impulse          [constraint.MaxRows]float64
	input            float64
	activation       float64
}

// Offsets are the sizes of the five per-step CSV files at a checkpoint:
// steps, trajectory, contacts, constraints, joints.
type Offsets [5]int64

// Options choose how Create writes.
type Options struct {
	Format Format
	// Resume, if set, continues the CSV files of an existing run directory:
	// each is truncated to its offset and appended to, without a header.
	Resume *Offsets
}

// Create creates dir (if needed) and opens its CSV output files.
func Create(dir string) (*Writer, error) { return CreateWith(dir, Options{}) }

// CreateWith creates dir (if needed) and opens its output files in the
// format of o.
func CreateWith(dir string, o Options) (*Writer, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("record: %w", err)
	}
	var (
		sk  sink
		err error
	)
	switch {
	case o.Resume != nil && o.Format != CSV:
		return nil, fmt.Errorf("record: resuming a run needs CSV output, not %v", o.Format)
	case o.Format == CSV:
		sk, err = newCSVSink(dir, o.Resume)
	case o.Format == Parquet:
		sk, err = newParquetSink(dir)
	default:
		return nil, fmt.Errorf("record: unknown format %d", o.Format)
	}
	if err != nil {
		return nil, err
	}
	w := &Writer{dir: dir, format: o.Format, sink: sk, limit: 1, free: make(chan *batch, batchesInFlight), full: make(chan *batch, batchesInFlight), done: make(chan struct{})}
	for range batchesInFlight {
		w.free <- &batch{}
	}
	w.cur = <-w.free
	go w.loop()
	return w, nil
}

// loop is the writer goroutine: it writes every batch it receives and
// hands it back.
func (w *Writer) loop() {
	defer close(w.done)
	for b := range w.full {
		start := time.Now()
		if w.err == nil {
			w.err = w.sink.write(b)
		}
		if b.sync != nil && w.err == nil {
			w.err = w.sink.flush()
		}
		w.busy += time.Since(start)
		if b.sync != nil {
			close(b.sync)
			b.sync = nil
		}
		b.steps, b.traj, b.contacts, b.cons, b.joints = b.steps[:0], b.traj[:0], b.contacts[:0], b.cons[:0], b.joints[:0]
		w.free <- b
	}
}

// send hands the current batch to the writer goroutine and takes a free
// one.
func (w *Writer) send() {
	w.cur.model = w.model
	w.full <- w.cur
	w.cur = <-w.free
}

// Step records one row of the steps file. Record a step's trajectory and
// contacts before the step itself, or after it, but consistently: a batch is
// handed over in Step.
func (w *Writer) Step(st sim.StepStats) {
	c := w.cur
	c.steps = append(c.steps, st)
	if len(c.steps) >= w.limit || len(c.traj)+len(c.contacts)+len(c.cons)+len(c.joints) >= batchRows {
		w.send()
		w.limit = min(2*w.limit, batchSteps)
	}
}

// Trajectory records one row of the trajectory file per free body at time
// s.T.
func (w *Writer) Trajectory(m *multibody.Model, s *multibody.State) {
	w.model = m
	for b, body := range m.Bodies {
		if body.Tree < 0 {
			continue
		}
		x := m.BodyPose(s, b)
		om, v := m.BodyVelocity(s, b)
		w.cur.traj = append(w.cur.traj, trajRow{t: s.T, body: int32(b), x: [13]float64{x.P[0], x.P[1], x.P[2], x.R.W, x.R.X, x.R.Y, x.R.Z, v[0], v[1], v[2], om[0], om[1], om[2]}})
	}
}

// Contacts records one row of the contacts file per contact of the step
// that ended at time t: the pairs and their impulses γ (t1, t2, n per
// contact, as returned by sim.Simulator.Contacts and Impulses), and the
// world-frame force γ/dt that A exerts on B.
func (w *Writer) Contacts(t, dt float64, m *multibody.Model, pairs []contact.Pair, gamma []float64) {
	w.model = m
	for i, p := range pairs {
		g := gamma[3*i : 3*i+3]
		f := ContactForce(p.Normal, g, dt)
		w.cur.contacts = append(w.cur.contacts, contactRow{t: t, a: int32(p.BodyA), b: int32(p.BodyB), x: [13]float64{
			p.Point[0], p.Point[1], p.Point[2], p.Normal[0], p.Normal[1], p.Normal[2], p.Phi, g[0], g[1], g[2], f[0], f[1], f[2]}})
	}
}

// Sync waits until everything recorded so far is written to the files and
// returns the first write error.
func (w *Writer) Sync() error {
	if w.stopped {
		return errors.New("record: writer is closed")
	}
	done := make(chan struct{})
	w.cur.sync = done
	w.send()
	<-done
	return w.wrap(w.err)
}

// Offsets syncs the CSV files and returns their sizes, for a checkpoint
// that a resumed run continues from (Options.Resume).
func (w *Writer) Offsets() (Offsets, error) {
	if err := w.Sync(); err != nil {
		return Offsets{}, err
	}
	return w.sink.offsets()
}

// WriteTime returns the time the writer goroutine has spent formatting and
// writing so far (complete after Close).
func (w *Writer) WriteTime() time.Duration {
	if !w.stopped {
		_ = w.Sync()
	}
	return w.busy
}

// stop flushes the last batch, ends the writer goroutine and closes the
// files.
func (w *Writer) stop() error {
	if w.stopped {
		return nil
	}
	w.stopped = true
	w.cur.model = w.model
	w.full <- w.cur
	close(w.full)
	<-w.done
	start := time.Now()
	err := errors.Join(w.err, w.sink.close())
	w.busy += time.Since(start)
	return w.wrap(err)
}

// Close writes the outstanding rows, closes the per-step files and writes
// summary.json, with WriteTimeS set to the writing time.
func (w *Writer) Close(s Summary) error { return w.CloseSummary(&s) }

// CloseSummary is Close, and also sets s.WriteTimeS to the time spent
// writing, the summary excepted.
func (w *Writer) CloseSummary(s *Summary) error {
	err := w.stop()
	start := time.Now()
	s.WriteTimeS = w.busy.Seconds()
	data, jerr := json.MarshalIndent(s, "", "  ")
	if jerr == nil {
		jerr = WriteFileAtomic(filepath.Join(w.dir, "summary.json"), append(data, '\n'))
	}
	w.busy += time.Since(start)
	return errors.Join(err, jerr)
}

func (w *Writer) wrap(err error) error {
	if err != nil {
		return fmt.Errorf("record: %s: %w", w.dir, err)
	}
	return nil
}

func writeFileAtomic(path string, data []byte) error {
	tmp := path + ".tmp"
	f, err := os.Create(tmp)
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if err = errors.Join(err, f.Sync(), f.Close()); err != nil {
		os.Remove(tmp)
		return err
	}
	return os.Rename(tmp, path)
}

// WriteFileAtomic writes data to path through a temporary file in the same
// directory, synced and renamed, so that readers and crashes never leave a
// partial file.
func WriteFileAtomic(path string, data []byte) error {
	if err := writeFileAtomic(path, data); err != nil {
		return fmt.Errorf("record: %w", err)
	}
	return nil
}
