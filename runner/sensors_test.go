package runner

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/stiction-sim/stiction/record"
)

const pendulumSensors = `<mujoco model="pendulum">
  <option timestep="0.01"/>
  <worldbody>
    <body name="arm" pos="0 0 1">
      <joint name="hinge" type="hinge" axis="0 1 0"/>
      <geom type="capsule" fromto="0 0 0 0.5 0 0" size="0.05" mass="1" contype="0" conaffinity="0"/>
      <site name="tip" pos="0.5 0 0"/>
    </body>
  </worldbody>
  <actuator><motor name="m" joint="hinge"/></actuator>
  <sensor>
    <jointpos name="q" joint="hinge"/>
    <jointvel name="v" joint="hinge"/>
    <framepos name="p" objtype="site" objname="tip"/>
    <accelerometer name="acc" site="tip"/>
    <actuatorfrc name="f" actuator="m"/>
  </sensor>
</mujoco>`

// TestSensorsCSV: a run of an MJCF pendulum writes sensors.csv with one
// column per sensor value and one row per recorded step; its last row's
// joint position and velocity are the final state's, and the tip's
// position is at the arm's length from the pivot.
func TestSensorsCSV(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "pendulum.xml")
	if err := os.WriteFile(path, []byte(pendulumSensors), 0o644); err != nil {
		t.Fatal(err)
	}
	src, err := NewSource(path, []string{"duration=0.5", "record_every=5"}, 0)
	if err != nil {
		t.Fatal(err)
	}
	b, err := src.Build()
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "run")
	if _, err := Simulate(context.Background(), b, Options{Out: out}); err != nil {
		t.Fatal(err)
	}
	got, err := record.ReadSensors(out)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"q", "v", "p[0]", "p[1]", "p[2]", "acc[0]", "acc[1]", "acc[2]", "f"}
	if len(got.Names) != len(want) {
		t.Fatalf("columns %v, want %v", got.Names, want)
	}
	for i := range want {
		if got.Names[i] != want[i] {
			t.Fatalf("columns %v, want %v", got.Names, want)
		}
	}
	if len(got.T) != 10 || math.Abs(got.T[9]-0.5) > 1e-12 {
		t.Fatalf("%d rows ending at t = %v, want 10 ending at 0.5", len(got.T), got.T)
	}
	last := got.Values[9]
	if last[0] != b.State.Q[0] || last[1] != b.State.V[0] {
		t.Errorf("last row q, v = %v, %v; final state %v, %v", last[0], last[1], b.State.Q[0], b.State.V[0])
	}
	r := math.Hypot(last[2], last[4]-1)
	if math.Abs(r-0.5) > 1e-12 || last[3] != 0 {
		t.Errorf("tip at %v: %g from the pivot, want 0.5 in the xz plane", last[2:5], r)
	}
	if last[8] != 0 {
		t.Errorf("actuatorfrc = %g with zero control", last[8])
	}
}

// TestSensorsResume: a run resumed from a checkpoint, in its own directory
// and copied into another (CopyRun), writes a sensors.csv byte-identical
// to the uninterrupted run's.
func TestSensorsResume(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "pendulum.xml")
	if err := os.WriteFile(path, []byte(pendulumSensors), 0o644); err != nil {
		t.Fatal(err)
	}
	src, err := NewSource(path, []string{"duration=0.5", "record_every=3"}, 0)
	if err != nil {
		t.Fatal(err)
	}
	b, err := src.Build()
	if err != nil {
		t.Fatal(err)
	}
	full := filepath.Join(dir, "full")
	if _, err := Simulate(context.Background(), b, Options{Out: full, CheckpointEvery: 20, Source: &src}); err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile(filepath.Join(full, record.SensorsFile))
	if err != nil {
		t.Fatal(err)
	}
	c, err := ReadCheckpoint(CheckpointPath(full, 20))
	if err != nil {
		t.Fatal(err)
	}
	copied := filepath.Join(dir, "copied")
	if err := CopyRun(full, copied, c.Offsets); err != nil {
		t.Fatal(err)
	}
	for _, out := range []string{full, copied} {
		b, err := c.Source.Build()
		if err != nil {
			t.Fatal(err)
		}
		if _, err := Resume(context.Background(), b, c, Options{Out: out, Source: &c.Source}); err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(filepath.Join(out, record.SensorsFile))
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != string(want) {
			t.Errorf("%s: resumed sensors.csv (%d bytes) differs from the uninterrupted run's (%d bytes)", out, len(got), len(want))
		}
	}
}
