package sim_test

import (
	"bytes"
	"fmt"
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/stiction-sim/stiction/scene"
	"github.com/stiction-sim/stiction/sim"
)

// trajectoryBits appends the exact bits of t, q and v after every one of n
// steps.
func trajectoryBits(t *testing.T, s *sim.Simulator, n int, out []uint64) []uint64 {
	t.Helper()
	for range n {
		if _, err := s.Step(); err != nil {
			t.Fatal(err)
		}
		out = append(out, math.Float64bits(s.State.T))
		for _, x := range s.State.Q {
			out = append(out, math.Float64bits(x))
		}
		for _, x := range s.State.V {
			out = append(out, math.Float64bits(x))
		}
	}
	return out
}

// TestCheckpointResumeBitIdentical runs 2 s straight, and 1 s, a checkpoint
// written and read back into a fresh simulator, then 1 s more: the
// trajectories must agree bit for bit (with the midpoint rule, and with
// MuJoCo's Euler on the damped chain in contact).
func TestCheckpointResumeBitIdentical(t *testing.T) {
	for _, c := range []struct{ name, scheme string }{{"clutter", "midpoint"}, {"chain", "midpoint"}, {"spring-cylinder", "midpoint"}, {"chain", "mujoco-euler"}} {
		name := c.name
		t.Run(name+"/"+c.scheme, func(t *testing.T) {
			sets := []string{"scheme=" + c.scheme, "duration=2"}
			straight, b := load(t, name, sets...)
			half := int(math.Round(1 / b.Config.DT))
			want := trajectoryBits(t, straight, 2*half, nil)

			first, _ := load(t, name, sets...)
			got := trajectoryBits(t, first, half, nil)
			var buf bytes.Buffer
			if err := sim.WriteCheckpoint(&buf, first.Checkpoint()); err != nil {
				t.Fatal(err)
			}
			c, err := sim.ReadCheckpoint(&buf)
			if err != nil {
				t.Fatal(err)
			}
			second, _ := load(t, name, sets...) // a fresh simulator at t = 0
			if err := second.Restore(c); err != nil {
				t.Fatal(err)
			}
			got = trajectoryBits(t, second, half, got)
			if len(got) != len(want) {
				t.Fatalf("%d words, want %d", len(got), len(want))
			}
			for i := range want {
				if got[i] != want[i] {
					t.Fatalf("word %d differs: %x vs %x (%v vs %v)", i, got[i], want[i], math.Float64frombits(got[i]), math.Float64frombits(want[i]))
				}
			}
			if second.Steps() != 2*half {
				t.Errorf("Steps() = %d, want %d", second.Steps(), 2*half)
			}
		})
	}
}

// TestCheckpointRoundTrip checks that every field survives encoding: a
// field added to Checkpoint but not encoded fails here.
func TestCheckpointRoundTrip(t *testing.T) {
	sc, err := scene.Load("incline", []string{"scheme=midpoint", "materials.default.friction=0.375",
		"materials.default.rolling_friction=0.001", "materials.default.spin_friction=0.001"}) // rolling and spin anchors too
	if err != nil {
		t.Fatal(err)
	}
	b, err := scene.Build(sc)
	if err != nil {
		t.Fatal(err)
	}
	b.State.T = 0.25 // a non-zero t0
	s, err := sim.New(b.Model, b.State, b.Config)
	if err != nil {
		t.Fatal(err)
	}
	runSteps(t, s, 7) // the box sticks: its contacts are remembered and anchored
	c := s.Checkpoint()
	c.Act = []float64{0.25, 0.5}                       // the incline has no muscle: activations stand in (TestMuscleCheckpoint resumes a muscle)
	c.QAccWarm = []float64{0.125, -0.25, 0.5, 1, 2, 4} // the incline has no PGS: a warm start stands in (internal/mjref TestPGSCheckpoint resumes one)
	// Sleeping is off here: a state stands in (TestSleepDeterministic resumes one).
	c.Sleep = &sim.SleepMemo{Quiet: []int32{3}, Asleep: []bool{true}, Island: []int32{0}, EM: []float64{1e-7}}
	// Give every field a non-zero value so that a dropped field shows, the
	// contact records' fields included.
	nonZero := func(what string, rv reflect.Value) {
		for i := range rv.NumField() {
			if what == "ContactMemo" && rv.Type().Field(i).Name == "GeomA" {
				continue // the incline is geometry 0
			}
			if rv.Field(i).IsZero() {
				t.Errorf("%s field %s is zero after 7 steps: the round trip cannot check it", what, rv.Type().Field(i).Name)
			}
		}
	}
	nonZero("Checkpoint", reflect.ValueOf(c).Elem())
	anchored := false
	for _, m := range c.Contacts {
		if m.Anchored {
			nonZero("ContactMemo", reflect.ValueOf(m))
			anchored = true
			break
		}
	}
	if !anchored {
		t.Errorf("no anchored contact among %d after 7 steps: the anchors' round trip is not checked", len(c.Contacts))
	}
	var buf bytes.Buffer
	if err := sim.WriteCheckpoint(&buf, c); err != nil {
		t.Fatal(err)
	}
	got, err := sim.ReadCheckpoint(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, c) {
		t.Fatalf("round trip changed the checkpoint:\n got %+v\nwant %+v", got, c)
	}
	// The snapshot owns its memory.
	runSteps(t, s, 1)
	if reflect.DeepEqual(c.Q, s.State.Q) {
		t.Error("checkpoint q follows the simulator")
	}
}

// TestCheckpointRejects checks the errors for mismatched or corrupt
// checkpoints, and that a failed Restore leaves the simulator unchanged.
func TestCheckpointRejects(t *testing.T) {
	s, _ := load(t, "chain", "scheme=midpoint")
	runSteps(t, s, 3)
	good := s.Checkpoint()
	other, _ := load(t, "clutter")
	dt, _ := load(t, "chain", "scheme=midpoint", "dt=0.001")
	scheme, _ := load(t, "chain")
	for _, tc := range []struct {
		name string
		sim  *sim.Simulator
		edit func(c *sim.Checkpoint)
		want string
	}{
		{"model", other, nil, "model needs"},
		{"dt", dt, nil, "time step"},
		{"scheme", scheme, nil, "scheme"},
		{"version", s, func(c *sim.Checkpoint) { c.Version = 99 }, "version 99"},
		{"length", s, func(c *sim.Checkpoint) { c.Q = c.Q[1:] }, "declares"},
		{"nan", s, func(c *sim.Checkpoint) { c.V[2] = math.NaN() }, "v[2] = NaN"},
		{"step", s, func(c *sim.Checkpoint) { c.Step = -1 }, "negative"},
	} {
		c := *good
		c.Q, c.V = append([]float64(nil), good.Q...), append([]float64(nil), good.V...)
		if tc.edit != nil {
			tc.edit(&c)
		}
		before := tc.sim.Checkpoint()
		err := tc.sim.Restore(&c)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one containing %q", tc.name, err, tc.want)
		}
		if !reflect.DeepEqual(before, tc.sim.Checkpoint()) {
			t.Errorf("%s: failed Restore changed the simulator", tc.name)
		}
	}
	for _, data := range [][]byte{nil, []byte("not a checkpoint")} {
		if _, err := sim.ReadCheckpoint(bytes.NewReader(data)); err == nil {
			t.Errorf("ReadCheckpoint(%q) succeeded", data)
		}
	}
}

// Example_checkpoint stops a run after 50 steps, saves it, and continues
// it in another simulator built from the same scene.
func Example_checkpoint() {
	build := func() *sim.Simulator {
		sc, err := scene.Load("pendulum", nil)
		if err != nil {
			panic(err)
		}
		b, err := scene.Build(sc)
		if err != nil {
			panic(err)
		}
		s, err := sim.New(b.Model, b.State, b.Config)
		if err != nil {
			panic(err)
		}
		return s
	}
	a := build()
	for range 50 {
		if _, err := a.Step(); err != nil {
			panic(err)
		}
	}
	var file bytes.Buffer // an *os.File in practice
	if err := sim.WriteCheckpoint(&file, a.Checkpoint()); err != nil {
		panic(err)
	}

	c, err := sim.ReadCheckpoint(&file)
	if err != nil {
		panic(err)
	}
	b := build()
	if err := b.Restore(c); err != nil {
		panic(err)
	}
	a.Step()
	b.Step()
	fmt.Println(b.Steps(), b.State.T == a.State.T, reflect.DeepEqual(a.State.Q, b.State.Q))
	// Output: 51 true true
}
