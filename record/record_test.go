package record_test

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stiction-sim/stiction/constraint"
	"github.com/stiction-sim/stiction/record"
	"github.com/stiction-sim/stiction/scene"
	"github.com/stiction-sim/stiction/sim"
)

// writeDrop runs the drop scene (a 5 cm, 1000 kg/m³ sphere resting on the
// ground) for 20 steps of 1 ms, records every step, and returns the
// directory.
func writeDrop(t *testing.T) string {
	t.Helper()
	dir, _, _ := writeRun(t, "drop", "duration=0.02")
	return dir
}

// writeRun runs an embedded scene with overrides, records every step
// (constraints included) into a new directory with the summary, and
// returns the directory, the last step's constraint reports and the
// summary.
func writeRun(t *testing.T, name string, sets ...string) (string, []constraint.Report, record.Summary) {
	t.Helper()
	sc, err := scene.Load(name, sets)
	if err != nil {
		t.Fatal(err)
	}
	b, err := scene.Build(sc)
	if err != nil {
		t.Fatal(err)
	}
	s, err := sim.New(b.Model, b.State, b.Config)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	w, err := record.Create(dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Scene(record.DescribeScene(b.Name, b.Config.DT, b.RecordEvery, b.Model, b.State)); err != nil {
		t.Fatal(err)
	}
	w.Trajectory(b.Model, b.State)
	var acc record.Accumulator
	var last []constraint.Report
	for range b.Steps {
		st, err := s.Step()
		if err != nil {
			t.Fatal(err)
		}
		acc.Add(st)
		if cr := s.ConstraintReports(); len(cr) > 0 {
			acc.AddConstraints(cr, b.Config.DT)
		}
		w.Step(st)
		w.Trajectory(b.Model, b.State)
		w.Contacts(st.T, b.Config.DT, b.Model, s.Contacts(), s.Impulses())
		w.Constraints(st.T, b.Config.DT, s.ConstraintReports())
		last = append(last[:0], s.ConstraintReports()...)
	}
	sum := acc.Summary(b.Name, b.Config.DT, 1, b.Model, b.State)
	if err := w.Close(sum); err != nil {
		t.Fatal(err)
	}
	return dir, last, sum
}

// TestReadRunRoundTrip writes a run and reads it back: the scene, one frame
// per step plus the initial one, and contact forces equal to impulse/dt,
// which for a resting sphere is its weight m g.
func TestReadRunRoundTrip(t *testing.T) {
	r, err := record.ReadRun(writeDrop(t))
	if err != nil {
		t.Fatal(err)
	}
	sc := r.Scene
	if sc.Scene != "drop" || sc.DT != 0.001 || len(sc.Bodies) != 2 || !sc.Bodies[0].Fixed || sc.Bodies[1].Fixed {
		t.Fatalf("scene %+v", sc)
	}
	if g := sc.Bodies[1].Geometries; len(g) != 1 || g[0].Shape != "sphere" || g[0].Radius != 0.05 || sc.Bodies[0].Geometries[0].Shape != "halfspace" {
		t.Errorf("geometries %+v %+v", sc.Bodies[0].Geometries, sc.Bodies[1].Geometries)
	}
	if len(r.Frames) != 21 || len(r.Steps) != 20 || r.Frames[20].T != r.Steps[19][0] {
		t.Fatalf("%d frames, %d steps", len(r.Frames), len(r.Steps))
	}
	weight := 1000 * 4 * math.Pi / 3 * math.Pow(0.05, 3) * 9.81
	last := r.Frames[20]
	if len(last.Contacts) != 1 {
		t.Fatalf("last frame has %d contacts, want 1", len(last.Contacts))
	}
	c := last.Contacts[0]
	if c.BodyA != "ground" || c.BodyB != "ball" || c.Normal[2] != 1 {
		t.Errorf("contact %+v", c)
	}
	if math.Abs(c.Force[2]-c.Impulse[2]/0.001) > 1e-9*weight || math.Abs(c.Force[2]-weight) > 1e-3*weight {
		t.Errorf("force %v, impulse %v: want fz = γn/dt = m g = %v", c.Force, c.Impulse, weight)
	}
	if z := last.Poses[1].P[2]; math.Abs(z-0.05) > 1e-5 {
		t.Errorf("ball at z = %v", z)
	}
}

// TestReadRunErrors corrupts the files and checks that the errors name the
// file, line, column and value.
func TestReadRunErrors(t *testing.T) {
	cases := []struct {
		file, old, new, want string
	}{
		{"trajectory.csv", "\n0,ball,", "\n0,bal,", `trajectory.csv:2: column body: "bal" is not a body of scene.json`},
		{"trajectory.csv", "\n0,ball,0,", "\n0,ball,x,", `trajectory.csv:2: column px: value "x" is not a number`},
		{"contacts.csv", "\n0.001,ground", "\n0.0015,ground", `contacts.csv:2: column t: 0.0015 is not a time of trajectory.csv`},
		{"steps.csv", "t,iterations", "time,iterations", `steps.csv: header [time`},
		{"scene.json", `"scene"`, `"scene":`, `scene.json: invalid character`},
	}
	for _, c := range cases {
		dir := writeDrop(t)
		path := filepath.Join(dir, c.file)
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(data), c.old) {
			t.Fatalf("%s lacks %q", c.file, c.old)
		}
		if err := os.WriteFile(path, []byte(strings.Replace(string(data), c.old, c.new, 1)), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := record.ReadRun(dir); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want %q", c.file, err, c.want)
		}
	}
	if _, err := record.ReadRun(t.TempDir()); err == nil || !strings.Contains(err.Error(), "scene.json") {
		t.Errorf("empty dir: %v", err)
	}
}
