package sim_test

import (
	"math"
	"testing"
	"time"

	"github.com/stiction-sim/stiction/scene"
	"github.com/stiction-sim/stiction/sim"
)

// profiled builds an embedded scene, with the settings sets, and the
// stage timers on or off.
func profiled(t testing.TB, name string, on bool, sets ...string) *sim.Simulator {
	t.Helper()
	sc, err := scene.Load(name, sets)
	if err != nil {
		t.Fatal(err)
	}
	b, err := scene.Build(sc)
	if err != nil {
		t.Fatal(err)
	}
	b.Config.Profile = on
	s, err := sim.New(b.Model, b.State, b.Config)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestStageTimes: with Config.Profile, every stage time of every step is
// non-negative, they sum to StepTimes.Step, which is at most the wall time
// around Simulator.Step; the refiner's re-solves are counted and their time
// is part of the solve stage's; the trajectory is bit-identical to the one
// without timers, which report zero times.
func TestStageTimes(t *testing.T) {
	on, off := profiled(t, "clutter", true), profiled(t, "clutter", false)
	resolves := 0
	for k := range 300 {
		t0 := time.Now()
		st, err := on.Step()
		wall := time.Since(t0)
		if err != nil {
			t.Fatal(err)
		}
		stOff, err := off.Step()
		if err != nil {
			t.Fatal(err)
		}
		var sum time.Duration
		for s, d := range st.Times.Stage {
			if d < 0 {
				t.Fatalf("step %d: %v took %v", k+1, sim.Stage(s), d)
			}
			sum += d
		}
		if sum != st.Times.Step || st.Times.Step > wall {
			t.Fatalf("step %d: stages sum to %v, Step %v, wall time %v", k+1, sum, st.Times.Step, wall)
		}
		if st.ResolveTime < 0 || st.ResolveTime > st.Times.Stage[sim.StageSolve] || (st.Resolves > 0) != (st.ResolveTime > 0) {
			t.Fatalf("step %d: %d re-solves in %v, solve stage %v", k+1, st.Resolves, st.ResolveTime, st.Times.Stage[sim.StageSolve])
		}
		resolves += st.Resolves
		if stOff.Times != (sim.StepTimes{}) || stOff.ResolveTime != 0 {
			t.Fatalf("step %d: timers off but times %+v, re-solves %v", k+1, stOff.Times, stOff.ResolveTime)
		}
		if stOff.Resolves != st.Resolves || stOff.Iterations != st.Iterations {
			t.Fatalf("step %d: %d re-solves and %d iterations with timers, %d and %d without", k+1, st.Resolves, st.Iterations, stOff.Resolves, stOff.Iterations)
		}
	}
	if resolves == 0 {
		t.Error("no re-solve in 300 steps of clutter: the refiner's timer was not exercised")
	}
	for i, x := range on.State.Q {
		if x != off.State.Q[i] {
			t.Fatalf("q[%d] = %v with timers, %v without", i, x, off.State.Q[i])
		}
	}
}

// TestRK4StageTimes: an rk4 step that detects and solves its contacts at
// each of its four stages (the stack scene under scheme rk4), whose stages
// lap the stage timers they run (kinematics, collision, assembly, solve),
// has non-negative stage times that sum to StepTimes.Step at every step,
// and the same trajectory, to the bit, as with the timers off.
func TestRK4StageTimes(t *testing.T) {
	on, off := profiled(t, "stack", true, "scheme=rk4"), profiled(t, "stack", false, "scheme=rk4")
	for k := range 100 {
		st, err := on.Step()
		if err != nil {
			t.Fatal(err)
		}
		stOff, err := off.Step()
		if err != nil {
			t.Fatal(err)
		}
		if st.RK4Fallback || st.Contacts == 0 {
			t.Fatalf("step %d: fallback %v, %d contacts: not an rk4 step in contact", k+1, st.RK4Fallback, st.Contacts)
		}
		var sum time.Duration
		for s, d := range st.Times.Stage {
			if d < 0 {
				t.Fatalf("step %d: %v took %v", k+1, sim.Stage(s), d)
			}
			sum += d
		}
		if sum != st.Times.Step || stOff.Times != (sim.StepTimes{}) {
			t.Fatalf("step %d: stages sum to %v, Step %v; timers off: %+v", k+1, sum, st.Times.Step, stOff.Times)
		}
	}
	for i, x := range on.State.Q {
		if math.Float64bits(x) != math.Float64bits(off.State.Q[i]) {
			t.Fatalf("q[%d] = %v with timers, %v without", i, x, off.State.Q[i])
		}
	}
}

// TestProfiledStepAllocatesNothing: a warmed-up step with the stage timers
// on allocates nothing.
func TestProfiledStepAllocatesNothing(t *testing.T) {
	s := profiled(t, "clutter", true)
	runSteps(t, s, 300)
	allocs := testing.AllocsPerRun(50, func() {
		if _, err := s.Step(); err != nil {
			t.Fatal(err)
		}
	})
	if allocs != 0 {
		t.Errorf("%v allocations per profiled step, want 0", allocs)
	}
}
