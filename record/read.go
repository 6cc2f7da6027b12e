package record

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"

	"github.com/stiction-sim/stiction/spatial"
)

// Contact is one row of contacts.csv.
type Contact struct {
	BodyA, BodyB  string
	Point, Normal spatial.Vec3
	Phi           float64
	Impulse       [3]float64 // t1, t2, n
	Force         spatial.Vec3
}

// Frame is one recorded instant: the pose of every body of the scene (in
// the order of SceneJSON.Bodies; fixed bodies keep their fixed pose) and the
// contacts of the step that ended then.
type Frame struct {
	T           float64
	Poses       []spatial.Pose
	Contacts    []Contact
	Constraints []ConstraintRow
}

// Run is a run directory read back: scene.json, steps.csv, trajectory.csv,
// contacts.csv and, when present, constraints.csv.
type Run struct {
	Scene       SceneJSON
	StepColumns []string    // the column names of steps.csv
	Steps       [][]float64 // one row per step; NaN where a cell is not a number (status)
	Frames      []Frame
	// Warnings say what was dropped while reading: the incomplete last
	// row of a file that a killed run left.
	Warnings []string
}

// Column returns the values of the named steps.csv column, or an error
// naming the column and the ones that exist.
func (r *Run) Column(name string) ([]float64, error) {
	j := slices.Index(r.StepColumns, name)
	if j < 0 {
		return nil, fmt.Errorf("record: steps.csv has no column %q (have %v)", name, r.StepColumns)
	}
	out := make([]float64, len(r.Steps))
	for i, row := range r.Steps {
		out[i] = row[j]
	}
	return out, nil
}

// ReadRun reads the output of "stiction run --out dir", in CSV or Parquet.
func ReadRun(dir string) (*Run, error) {
	sc, err := ReadScene(dir)
	if err != nil {
		return nil, err
	}
	r := &Run{Scene: sc}
	if _, err := os.Stat(filepath.Join(dir, "steps.parquet")); err == nil {
		return r, readParquetRun(dir, r)
	}
	w := &r.Warnings
	if r.StepColumns, r.Steps, err = readSteps(filepath.Join(dir, "steps.csv"), w); err != nil {
		return nil, err
	}
	if r.Frames, err = readTrajectory(filepath.Join(dir, "trajectory.csv"), sc, w); err != nil {
		return nil, err
	}
	if err := readContacts(filepath.Join(dir, "contacts.csv"), r.Frames, w); err != nil {
		return nil, err
	}
	if err := readConstraints(filepath.Join(dir, "constraints.csv"), r.Frames, w); err != nil {
		return nil, err
	}
	return r, nil
}

// readCSV calls row for every record after the header, which must start
// with want[0] and have len(want) columns. An incomplete last row (a
// killed run's) is dropped with a warning appended to warns.
func readCSV(path string, want []string, warns *[]string, row func(line int, rec []string) error) ([]string, error) {
	data, err := completeRows(path, warns)
	if err != nil {
		return nil, err
	}
	cr := csv.NewReader(bytes.NewReader(data))
	cr.ReuseRecord = true
	head, err := cr.Read()
	if err != nil {
		return nil, fmt.Errorf("record: %s: header: %w", path, err)
	}
	if len(head) != len(want) || head[0] != want[0] {
		return nil, fmt.Errorf("record: %s: header %v, want %v", path, head, want)
	}
	head = slices.Clone(head)
	for line := 2; ; line++ {
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			return head, nil
		}
		if err == nil {
			err = row(line, rec)
		}
		if err != nil {
			return nil, fmt.Errorf("record: %s:%d: %w", path, line, err)
		}
	}
}

func readSteps(path string, warns *[]string) ([]string, [][]float64, error) {
	var rows [][]float64
	head, err := readCSV(path, StepsHeader, warns, func(_ int, rec []string) error {
		row := make([]float64, len(rec))
		for j, s := range rec {
			v, err := strconv.ParseFloat(s, 64)
			if err != nil {
				v = math.NaN()
			}
			row[j] = v
		}
		rows = append(rows, row)
		return nil
	})
	return head, rows, err
}

// parseFloats parses rec[from:from+len(out)] into out, naming the column of
// a bad value.
func parseFloats(head []string, rec []string, from int, out []float64) error {
	for k := range out {
		v, err := strconv.ParseFloat(rec[from+k], 64)
		if err != nil {
			return fmt.Errorf("column %s: value %q is not a number", head[from+k], rec[from+k])
		}
		out[k] = v
	}
	return nil
}

func readTrajectory(path string, sc SceneJSON, warns *[]string) ([]Frame, error) {
	index := make(map[string]int, len(sc.Bodies))
	initial := make([]spatial.Pose, len(sc.Bodies))
	for i, b := range sc.Bodies {
		index[b.Name], initial[i] = i, b.Pose.Pose()
	}
	var frames []Frame
	var v [8]float64
	_, err := readCSV(path, TrajectoryHeader, warns, func(_ int, rec []string) error {
		b, ok := index[rec[1]]
		if !ok {
			return fmt.Errorf("column body: %q is not a body of scene.json", rec[1])
		}
		if err := parseFloats(TrajectoryHeader, rec, 0, v[:1]); err != nil {
			return err
		}
		if err := parseFloats(TrajectoryHeader, rec, 2, v[1:]); err != nil {
			return err
		}
		if n := len(frames); n == 0 || frames[n-1].T != v[0] {
			frames = append(frames, Frame{T: v[0], Poses: slices.Clone(initial)})
		}
		frames[len(frames)-1].Poses[b] = spatial.Pose{P: spatial.Vec3{v[1], v[2], v[3]}, R: spatial.Quat{W: v[4], X: v[5], Y: v[6], Z: v[7]}}
		return nil
	})
	return frames, err
}

// readContacts attaches each row of contacts.csv to the frame of the same
// time.
func readContacts(path string, frames []Frame, warns *[]string) error {
	k := 0
	var v [13]float64
	_, err := readCSV(path, ContactsHeader, warns, func(_ int, rec []string) error {
		if err := parseFloats(ContactsHeader, rec, 0, v[:1]); err != nil {
			return err
		}
		if err := parseFloats(ContactsHeader, rec, 3, v[:]); err != nil {
			return err
		}
		t, _ := strconv.ParseFloat(rec[0], 64)
		for k < len(frames) && frames[k].T < t {
			k++
		}
		if k == len(frames) || frames[k].T != t {
			return fmt.Errorf("column t: %v is not a time of trajectory.csv", t)
		}
		frames[k].Contacts = append(frames[k].Contacts, Contact{
			BodyA: rec[1], BodyB: rec[2],
			Point: spatial.Vec3{v[0], v[1], v[2]}, Normal: spatial.Vec3{v[3], v[4], v[5]}, Phi: v[6],
			Impulse: [3]float64{v[7], v[8], v[9]}, Force: spatial.Vec3{v[10], v[11], v[12]},
		})
		return nil
	})
	return err
}
