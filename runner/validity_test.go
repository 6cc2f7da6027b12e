package runner

import (
	"context"
	"math"
	"os"
	"strconv"
	"testing"

	"github.com/stiction-sim/stiction/model/embedded"
	"github.com/stiction-sim/stiction/record"
	"github.com/stiction-sim/stiction/scene"
	"github.com/stiction-sim/stiction/sim"
)

// validRun is a run that must end with status ok.
type validRun struct {
	name string
	src  Source
}

// validRuns are every embedded scene and every embedded robot model (with
// its default options, as "stiction models" loads it), each at its own δt, for duration seconds (0: the scene's own).
func validRuns(duration float64) []validRun {
	var sets []string
	if duration > 0 {
		sets = []string{"duration=" + strconv.FormatFloat(duration, 'g', -1, 64)}
	}
	var runs []validRun
	for _, name := range scene.Names() {
		runs = append(runs, validRun{name, Source{Scene: name, Sets: sets}})
	}
	for _, m := range embedded.Models() {
		runs = append(runs, validRun{m.URI, Source{Scene: m.URI, Sets: sets}})
	}
	return runs
}

// worst is the largest ratio of each validity quantity to its limit over
// a run: penetration over the smaller geometry's size, and the rise of a
// passive system's energy over record.EnergyMargin times its scale.
type worst struct{ penetration, energy float64 }

// measure returns OnStep, which updates w after every step.
func measure(b *scene.Built, e0, scale float64, w *worst) func(*sim.Simulator, sim.StepStats) {
	passive := record.Passive(&b.Config)
	return func(s *sim.Simulator, st sim.StepStats) {
		for _, p := range s.Contacts() {
			size := math.Min(record.GeometrySize(b.Model.Geometries[p.GeomA].Shape), record.GeometrySize(b.Model.Geometries[p.GeomB].Shape))
			w.penetration = math.Max(w.penetration, -p.Phi/size)
		}
		if passive {
			w.energy = math.Max(w.energy, (st.KineticEnergy+st.PotentialEnergy-e0)/(record.EnergyMargin*scale))
		}
	}
}

// TestEmbeddedRunsValid: every embedded scene and every embedded robot
// model runs at its own δt with status ok, neither invalid
// (record.Validity) nor diverged: for 1 s, or for the scene's whole
// duration with STICTION_LONG=1 (about 20 s; .ci/run). It logs how close each run came to the
// validity limits.
func TestEmbeddedRunsValid(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	duration := 1.0
	if os.Getenv("STICTION_LONG") == "1" {
		duration = 0
	}
	for _, r := range validRuns(duration) {
		b, err := r.src.Build()
		if err != nil {
			t.Errorf("%s: %v", r.name, err)
			continue
		}
		st0 := b.Model.NewState()
		st0.CopyFrom(b.State)
		s, err := sim.New(b.Model, st0, b.Config)
		if err != nil {
			t.Fatal(err)
		}
		pe0 := s.PotentialEnergy()
		e0 := b.Model.KineticEnergy(b.State) + pe0
		scale := math.Max(math.Max(b.Model.KineticEnergy(b.State)+math.Abs(pe0), weight(b)), 1)
		var w worst
		sum, err := Simulate(context.Background(), b, Options{EnergyGrowth: record.DefaultEnergyGrowth, OnStep: measure(b, e0, scale, &w)})
		t.Logf("%-90s %5d steps: penetration/size %.3g, energy rise/margin %.3g", r.name, sum.Steps, w.penetration, w.energy)
		if err != nil || sum.Status != record.StatusOK {
			t.Errorf("%s: status %s at step %d: %v", r.name, sum.Status, sum.StatusStep, err)
		}
	}
}

// weight is Σ m‖g‖ over the moving bodies of b, in N.
func weight(b *scene.Built) float64 {
	w := 0.0
	for _, body := range b.Model.Bodies {
		if body.Tree >= 0 {
			w += body.Inertia.Mass * b.Model.Gravity.Norm()
		}
	}
	return w
}

// settledClutter returns the clutter scene's simulator after 300 steps
// (the columns collapsed, 120-odd contacts) and its validity check.
func settledClutter(tb testing.TB) (*sim.Simulator, *record.Validity) {
	b, err := Source{Scene: "clutter"}.Build()
	if err != nil {
		tb.Fatal(err)
	}
	s, err := sim.New(b.Model, b.State, b.Config)
	if err != nil {
		tb.Fatal(err)
	}
	v := record.NewValidity(b.Model, &b.Config, b.State, s.PotentialEnergy(), true)
	for range 300 {
		if _, err := s.Step(); err != nil {
			tb.Fatal(err)
		}
	}
	return s, v
}

// TestValidityNoAlloc: the validity check of a valid step allocates
// nothing.
func TestValidityNoAlloc(t *testing.T) {
	s, v := settledClutter(t)
	st, err := s.Step()
	if err != nil {
		t.Fatal(err)
	}
	if n := testing.AllocsPerRun(100, func() {
		if err := v.Check(st, s.State, s.Contacts()); err != nil {
			t.Fatal(err)
		}
	}); n != 0 {
		t.Errorf("%v allocations per check", n)
	}
}

// BenchmarkValidity times one validity check of the settled clutter (to
// compare with BenchmarkClutterStep's step).
func BenchmarkValidity(b *testing.B) {
	s, v := settledClutter(b)
	st, err := s.Step()
	if err != nil {
		b.Fatal(err)
	}
	b.Logf("%d contacts, %d bodies, %d geometries", len(s.Contacts()), len(s.Model.Bodies), len(s.Model.Geometries))
	for b.Loop() {
		_ = v.Check(st, s.State, s.Contacts())
	}
}
