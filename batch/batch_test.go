package batch_test

import (
	"fmt"
	"math"
	"reflect"
	"testing"

	"github.com/stiction-sim/stiction/batch"
	"github.com/stiction-sim/stiction/internal/cputime"
	"github.com/stiction-sim/stiction/model/load"
	"github.com/stiction-sim/stiction/scene"
	"github.com/stiction-sim/stiction/sim"
)

const antXML = "../internal/mjref/testdata/gymnasium/ant.xml"

func loadScene(t testing.TB, path string) *scene.Scene {
	t.Helper()
	sc, _, err := load.Scene(path, nil, load.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return sc
}

// perturb gives copy i its own initial velocities and controls, so that
// the copies' trajectories differ.
func perturb(b *batch.Batch) {
	for i := 0; i < b.Len(); i++ {
		c := b.Copy(i)
		for k := range c.Qvel() {
			c.Qvel()[k] = 0.1 * math.Sin(float64(7*i+k))
		}
	}
}

// setCtrl writes step-dependent controls into every copy.
func setCtrl(b *batch.Batch, step int) {
	for i := 0; i < b.Len(); i++ {
		for k := range b.Copy(i).Ctrl() {
			b.Copy(i).Ctrl()[k] = 0.8 * math.Sin(0.05*float64(step)+float64(i)+0.7*float64(k))
		}
	}
}

// TestBatchMatchesSerial: 6 ant copies with different initial velocities
// and controls, 40 steps, on 1, 2, 3 and 6 workers, give bit-identical
// positions and velocities to each copy stepped alone (no batch).
func TestBatchMatchesSerial(t *testing.T) {
	sc := loadScene(t, antXML)
	const n, steps = 6, 40
	ref := make([][]float64, n)
	{
		b, err := batch.FromScene(sc, n, 1)
		if err != nil {
			t.Fatal(err)
		}
		b.Close()
		perturb(b)
		for s := 0; s < steps; s++ {
			setCtrl(b, s)
			for i := 0; i < n; i++ {
				if err := b.Copy(i).Step(); err != nil {
					t.Fatal(err)
				}
			}
		}
		for i := 0; i < n; i++ {
			ref[i] = append(append([]float64(nil), b.Copy(i).Qpos()...), b.Copy(i).Qvel()...)
		}
	}
	moved := false
	for _, w := range []int{1, 2, 3, 6} {
		b, err := batch.FromScene(sc, n, w)
		if err != nil {
			t.Fatal(err)
		}
		perturb(b)
		for s := 0; s < steps; s++ {
			setCtrl(b, s)
			if err := b.Step(); err != nil {
				t.Fatal(err)
			}
		}
		b.Close()
		for i := 0; i < n; i++ {
			got := append(append([]float64(nil), b.Copy(i).Qpos()...), b.Copy(i).Qvel()...)
			for k := range got {
				if math.Float64bits(got[k]) != math.Float64bits(ref[i][k]) {
					t.Fatalf("%d workers: copy %d, coordinate %d: %v, serial %v", w, i, k, got[k], ref[i][k])
				}
			}
			if i > 0 && got[0] != ref[0][0] {
				moved = true
			}
		}
	}
	if !moved {
		t.Fatal("all copies ended in the same state: the test does not tell copies apart")
	}
}

// TestBatchStepAllocs: a warmed-up batch step of 4 ant copies on 2
// workers allocates nothing. Warmed up means landed: the first steps
// after the ant touches the floor grow the contact buffers.
func TestBatchStepAllocs(t *testing.T) {
	b, err := batch.FromScene(loadScene(t, antXML), 4, 2)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	setCtrl(b, 1)
	for range 200 {
		if err := b.Step(); err != nil {
			t.Fatal(err)
		}
	}
	if a := testing.AllocsPerRun(50, func() {
		if err := b.Step(); err != nil {
			t.Fatal(err)
		}
	}); a != 0 {
		t.Fatalf("%v allocations per batch step, want 0", a)
	}
}

// TestCopyReset: after Reset, a copy repeats its trajectory bit for bit,
// and its Ctrl is back to the initial controls.
func TestCopyReset(t *testing.T) {
	b, err := batch.FromScene(loadScene(t, antXML), 1, 1)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	c := b.Copy(0)
	run := func() []float64 {
		for s := 0; s < 30; s++ {
			setCtrl(b, s)
			if err := b.Step(); err != nil {
				t.Fatal(err)
			}
		}
		return append([]float64(nil), c.Qpos()...)
	}
	first := run()
	if err := c.Reset(); err != nil {
		t.Fatal(err)
	}
	for k, u := range c.Ctrl() {
		if u != 0 {
			t.Fatalf("ctrl[%d] = %v after reset, want the ant's target 0", k, u)
		}
	}
	if c.Sim().State.T != 0 || c.Stats().Step != 0 {
		t.Fatalf("after reset t = %v, last step %d", c.Sim().State.T, c.Stats().Step)
	}
	second := run()
	for k := range first {
		if math.Float64bits(first[k]) != math.Float64bits(second[k]) {
			t.Fatalf("q[%d] = %v after reset, %v before", k, second[k], first[k])
		}
	}
}

// TestCtrlAliases: Qpos, Qvel and Ctrl are the engine's memory, and a
// control that is not finite is refused without stepping.
func TestCtrlAliases(t *testing.T) {
	b, err := batch.FromScene(loadScene(t, antXML), 2, 2)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	c := b.Copy(1)
	if &c.Qpos()[0] != &c.Sim().State.Q[0] || &c.Qvel()[0] != &c.Sim().State.V[0] {
		t.Fatal("Qpos/Qvel are not the simulator's state")
	}
	c.Ctrl()[2] = math.NaN()
	q0 := append([]float64(nil), c.Qpos()...)
	err = b.Step()
	var se *batch.StepError
	if err == nil || !asStepError(err, &se) || se.Copy != 1 {
		t.Fatalf("NaN control: error %v, want a StepError of copy 1", err)
	}
	for k := range q0 {
		if c.Qpos()[k] != q0[k] {
			t.Fatal("a refused step changed the state")
		}
	}
}

func asStepError(err error, se **batch.StepError) bool {
	e, ok := err.(*batch.StepError)
	*se = e
	return ok
}

// TestNewRefuses: bad sizes and worker counts are errors.
func TestNewRefuses(t *testing.T) {
	sc := loadScene(t, antXML)
	if _, err := batch.FromScene(sc, 0, 1); err == nil {
		t.Error("0 copies accepted")
	}
	if _, err := batch.FromScene(sc, 1, -1); err == nil {
		t.Error("-1 workers accepted")
	}
	if _, err := batch.New([]*batch.Copy{nil}, 1); err == nil {
		t.Error("nil copy accepted")
	}
}

// BenchmarkAnt: environment steps per second of N Gymnasium ant copies
// on W workers, with fixed controls, after 100 steps in which the ants
// land; and the process's CPU time per environment step, which a shared
// machine disturbs less than wall time (equal CPU time per step on 1 and
// 2 workers says the workers add no work of their own).
func BenchmarkAnt(b *testing.B) {
	sc := loadScene(b, antXML)
	for _, n := range []int{1, 8, 64} {
		for _, w := range []int{1, 2} {
			if w > n {
				continue
			}
			b.Run(fmt.Sprintf("N=%d/workers=%d", n, w), func(b *testing.B) {
				bt, err := batch.FromScene(sc, n, w)
				if err != nil {
					b.Fatal(err)
				}
				defer bt.Close()
				setCtrl(bt, 0)
				for range 100 {
					if err := bt.Step(); err != nil {
						b.Fatal(err)
					}
				}
				b.ResetTimer()
				cpu0 := cputime.Process()
				for b.Loop() {
					if err := bt.Step(); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(n*b.N)/b.Elapsed().Seconds(), "envsteps/s")
				b.ReportMetric(float64((cputime.Process()-cpu0).Microseconds())/float64(n*b.N), "cpu-µs/envstep")
			})
		}
	}
}

// BenchmarkCopyStepPendulum: one step of the embedded 1-DOF pendulum
// through Copy.Step, the Go loop that python/bench.py compares the
// Python binding's data.step() with.
func BenchmarkCopyStepPendulum(b *testing.B) {
	bt, err := batch.FromScene(loadScene(b, "pendulum"), 1, 1)
	if err != nil {
		b.Fatal(err)
	}
	defer bt.Close()
	c := bt.Copy(0)
	for b.Loop() {
		if err := c.Step(); err != nil {
			b.Fatal(err)
		}
	}
}

// TestCopyMatchesSimStep: a copy stepped by Copy.Step (sim.Simulator.Advance,
// statistics gathered when read) ends every step with the state and the
// statistics, to the bit, of the same scene stepped by sim.Simulator.Step
// with the same controls; the statistics are read every third step only,
// so that steps whose statistics are never gathered are covered too.
func TestCopyMatchesSimStep(t *testing.T) {
	sc := loadScene(t, antXML)
	b, err := batch.FromScene(sc, 1, 1)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	c := b.Copy(0)
	built, err := scene.Build(sc)
	if err != nil {
		t.Fatal(err)
	}
	ref, err := sim.New(built.Model, built.State, built.Config)
	if err != nil {
		t.Fatal(err)
	}
	if c.Stepped() || c.Stats().Step != 0 {
		t.Fatal("a new copy reports a step")
	}
	contacts := 0
	for step := 0; step < 60; step++ {
		for k := range c.Ctrl() {
			c.Ctrl()[k] = 0.8 * math.Sin(0.05*float64(step)+0.7*float64(k))
			if err := ref.SetControl(k, c.Ctrl()[k], 0); err != nil {
				t.Fatal(err)
			}
		}
		want, err := ref.Step()
		if err != nil {
			t.Fatal(err)
		}
		if err := c.Step(); err != nil {
			t.Fatal(err)
		}
		for k, q := range ref.State.Q {
			if math.Float64bits(c.Qpos()[k]) != math.Float64bits(q) {
				t.Fatalf("step %d: q[%d] = %v, sim.Step %v", step+1, k, c.Qpos()[k], q)
			}
		}
		for k, v := range ref.State.V {
			if math.Float64bits(c.Qvel()[k]) != math.Float64bits(v) {
				t.Fatalf("step %d: v[%d] = %v, sim.Step %v", step+1, k, c.Qvel()[k], v)
			}
		}
		if step%3 != 0 {
			continue
		}
		got := c.Stats()
		got.Times, want.Times = sim.StepStats{}.Times, sim.StepStats{}.Times
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("step %d: Copy.Stats %+v, sim.Step %+v", step+1, got, want)
		}
		contacts = max(contacts, got.Contacts)
	}
	if contacts == 0 {
		t.Fatal("no contact in 60 steps: the test does not cover contact steps")
	}
	if err := c.Reset(); err != nil {
		t.Fatal(err)
	}
	if c.Stepped() || c.Stats() != (sim.StepStats{}) {
		t.Fatalf("after Reset: stepped %v, stats %+v", c.Stepped(), c.Stats())
	}
}
