package viewer

import (
	"encoding/json"
	"math"
	"slices"
	"strconv"
	"sync"

	"github.com/stiction-sim/stiction/constraint"
	"github.com/stiction-sim/stiction/contact"
	"github.com/stiction-sim/stiction/multibody"
	"github.com/stiction-sim/stiction/record"
	"github.com/stiction-sim/stiction/spatial"
)

// Num is a float64 that encodes NaN and ±Inf as JSON null.
type Num float64

// MarshalJSON writes the shortest round-trip form, or null.
func (x Num) MarshalJSON() ([]byte, error) {
	f := float64(x)
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return []byte("null"), nil
	}
	return strconv.AppendFloat(nil, f, 'g', -1, 64), nil
}

// FrameJSON is one recorded instant: per body of the scene its pose
// (px, py, pz, qw, qx, qy, qz), per contact (px, py, pz, nx, ny, nz,
// fx, fy, fz): point, normal and the world force on body B, N, and the
// constraints that acted in the step (active or saturated; inactive limits
// are left out).
type FrameJSON struct {
	T           float64          `json:"t"`
	Poses       [][7]float32     `json:"poses"`
	Contacts    [][9]float32     `json:"contacts"`
	Constraints []ConstraintJSON `json:"constraints,omitempty"`
}

// ConstraintJSON is one acting constraint of a frame: its name, type
// (constraint.Type), state (active, saturated) and force magnitude ‖γ‖/δt.
type ConstraintJSON struct {
	Name  string `json:"name"`
	Type  string `json:"type"`
	State string `json:"state"`
	Force Num    `json:"force"`
}

// AddConstraints appends to fr the constraints of reports that acted
// (state active or saturated), for a step of length dt.
func AddConstraints(fr *FrameJSON, reports []constraint.Report, dt float64) {
	for i := range reports {
		r := &reports[i]
		if r.State == constraint.Inactive {
			continue
		}
		fr.Constraints = append(fr.Constraints, ConstraintJSON{Name: r.Name, Type: r.Type.String(), State: r.State.String(), Force: Num(record.ConstraintForce(r, dt))})
	}
}

// StepsJSON holds the numeric columns of steps.csv, one row per step.
type StepsJSON struct {
	Columns []string `json:"columns"`
	Rows    [][]Num  `json:"rows"`
}

// RunJSON is the document served at /api/run.
type RunJSON struct {
	Live   bool             `json:"live"` // the run is streamed while it goes
	Done   bool             `json:"done"` // no more frames will come
	Scene  record.SceneJSON `json:"scene"`
	Frames []FrameJSON      `json:"frames"`
	Steps  StepsJSON        `json:"steps"`
}

// Feed holds a run for the viewer, and lets a live run grow while pages
// read it. It is safe for concurrent use.
type Feed struct {
	mu      sync.Mutex
	run     RunJSON
	keep    []int         // indices of the steps.csv columns kept in Steps
	changed chan struct{} // closed and replaced on every change
}

// NewFeed returns an empty live feed for scene sc.
func NewFeed(sc record.SceneJSON) *Feed {
	f := &Feed{changed: make(chan struct{})}
	f.run = RunJSON{Live: true, Scene: sc, Frames: []FrameJSON{}}
	for j, c := range record.StepsHeader {
		if c != "status" {
			f.keep = append(f.keep, j)
			f.run.Steps.Columns = append(f.run.Steps.Columns, c)
		}
	}
	f.run.Steps.Rows = [][]Num{}
	return f
}

// FeedFromRun returns a finished feed holding run r.
func FeedFromRun(r *record.Run) *Feed {
	f := NewFeed(r.Scene)
	f.run.Live = false
	for _, fr := range r.Frames {
		f.AddFrame(FrameFromRecord(fr))
	}
	for _, row := range r.Steps {
		f.AddStep(row)
	}
	f.Finish()
	return f
}

// AddStep appends one step row, with values in the order of
// record.StepsHeader (record.StepValues).
func (f *Feed) AddStep(values []float64) {
	row := make([]Num, len(f.keep))
	for k, j := range f.keep {
		row[k] = Num(values[j])
	}
	f.mu.Lock()
	f.run.Steps.Rows = append(f.run.Steps.Rows, row)
	f.notify()
}

// AddFrame appends one frame.
func (f *Feed) AddFrame(fr FrameJSON) {
	f.mu.Lock()
	f.run.Frames = append(f.run.Frames, fr)
	f.notify()
}

// Finish marks the run as complete.
func (f *Feed) Finish() {
	f.mu.Lock()
	f.run.Done = true
	f.notify()
}

// notify wakes the waiting streams and unlocks f.mu.
func (f *Feed) notify() {
	close(f.changed)
	f.changed = make(chan struct{})
	f.mu.Unlock()
}

// snapshotJSON encodes the whole run so far.
func (f *Feed) snapshotJSON() ([]byte, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return json.Marshal(f.run)
}

// since returns the frames and step rows after the first nf and ns, whether
// the run is done, and a channel closed on the next change.
func (f *Feed) since(nf, ns int) ([]FrameJSON, [][]Num, bool, <-chan struct{}) {
	f.mu.Lock()
	defer f.mu.Unlock()
	fr := slices.Clone(f.run.Frames[min(nf, len(f.run.Frames)):])
	st := slices.Clone(f.run.Steps.Rows[min(ns, len(f.run.Steps.Rows)):])
	return fr, st, f.run.Done, f.changed
}

// FrameFromRecord converts a frame read back from a run directory.
func FrameFromRecord(r record.Frame) FrameJSON {
	out := FrameJSON{T: r.T, Poses: make([][7]float32, len(r.Poses)), Contacts: make([][9]float32, len(r.Contacts))}
	for i, x := range r.Poses {
		out.Poses[i] = pose7(x)
	}
	for i, c := range r.Contacts {
		out.Contacts[i] = contact9(c.Point, c.Normal, c.Force)
	}
	for _, c := range r.Constraints {
		if c.State != constraint.Inactive.String() {
			out.Constraints = append(out.Constraints, ConstraintJSON{Name: c.Name, Type: c.Type, State: c.State, Force: Num(c.Force)})
		}
	}
	return out
}

// FrameFromState builds the frame of model m in state s, with the contacts
// pairs and impulses gamma of the step that ended there (time step dt).
func FrameFromState(m *multibody.Model, s *multibody.State, pairs []contact.Pair, gamma []float64, dt float64) FrameJSON {
	out := FrameJSON{T: s.T, Poses: make([][7]float32, len(m.Bodies)), Contacts: make([][9]float32, len(pairs))}
	for b := range m.Bodies {
		out.Poses[b] = pose7(m.BodyPose(s, b))
	}
	for i, p := range pairs {
		out.Contacts[i] = contact9(p.Point, p.Normal, record.ContactForce(p.Normal, gamma[3*i:3*i+3], dt))
	}
	return out
}

func pose7(x spatial.Pose) [7]float32 {
	return [7]float32{float32(x.P[0]), float32(x.P[1]), float32(x.P[2]), float32(x.R.W), float32(x.R.X), float32(x.R.Y), float32(x.R.Z)}
}

func contact9(p, n, f spatial.Vec3) [9]float32 {
	var out [9]float32
	for k := range 3 {
		out[k], out[3+k], out[6+k] = float32(p[k]), float32(n[k]), float32(f[k])
	}
	return out
}
