package sim_test

import (
	"fmt"
	"math"
	"slices"
	"testing"

	"github.com/stiction-sim/stiction/contact"
	"github.com/stiction-sim/stiction/forces"
	"github.com/stiction-sim/stiction/internal/peers"
	"github.com/stiction-sim/stiction/runner"
	"github.com/stiction-sim/stiction/scene"
	"github.com/stiction-sim/stiction/sim"
	"github.com/stiction-sim/stiction/solver/island"
)

// sleepDrop is four touching spheres stacked on the ground and a fifth
// thrown up at 4 m/s from 1 m above them: the stack settles and sleeps
// (50 quiet steps of 5 ms) long before the ball comes down on its axis, at
// about t = 0.94 s. (With the ball 1 cm off the axis, the impact is
// chaotic: moving a sphere by 1e-14 m before it changes the positions
// after it by 5e-4 m, without sleeping.)
const sleepDrop = `
name: sleep-drop
dt: 0.005
duration: 1.5
materials:
  default: {stiffness: 1e11, dissipation: 0.01, friction: 1}
bodies:
  - {name: ground, fixed: true, shape: {type: halfspace}, material: default}
  - {name: s0, shape: {type: sphere, radius: 0.05}, material: default, density: 1000, pose: {position: [0, 0, 0.05]}}
  - {name: s1, shape: {type: sphere, radius: 0.05}, material: default, density: 1000, pose: {position: [0, 0, 0.15]}}
  - {name: s2, shape: {type: sphere, radius: 0.05}, material: default, density: 1000, pose: {position: [0, 0, 0.25]}}
  - {name: s3, shape: {type: sphere, radius: 0.05}, material: default, density: 1000, pose: {position: [0, 0, 0.35]}}
  - name: ball
    shape: {type: sphere, radius: 0.05}
    material: default
    density: 1000
    pose: {position: [0, 0, 1.0]}
    velocity: {linear: [0, 0, 4]}
`

// dropSim builds sleepDrop with the overrides sets and extra force
// elements.
func dropSim(t testing.TB, workers int, extra []forces.Element, sets ...string) *sim.Simulator {
	t.Helper()
	sc, err := scene.Parse("sleep-drop.yaml", []byte(sleepDrop), sets)
	if err != nil {
		t.Fatal(err)
	}
	b, err := scene.Build(sc)
	if err != nil {
		t.Fatal(err)
	}
	if workers > 0 {
		if err := runner.WrapIslands(b, workers); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(b.Config.Solver.(*island.Solver).Close)
	}
	b.Config.Forces = append(b.Config.Forces, extra...)
	s, err := sim.New(b.Model, b.State, b.Config)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// maxDiff returns max |a_i − b_i|.
func maxDiff(a, b []float64) float64 {
	d := 0.0
	for i := range a {
		d = max(d, math.Abs(a[i]-b[i]))
	}
	return d
}

// TestSleepSettledStack: the 100-sphere peer stack settles and sleeps
// whole (one island of 100 bodies, no contact left to detect or solve);
// every step reports e_m ≤ εr, the sleeping steps that of the solve in
// which the island fell asleep; its final positions lie within
// Speed · Steps · δt (the distance a body may travel while it counts its
// quiet steps) of the run without sleeping: measured 8e-15 m.
func TestSleepSettledStack(t *testing.T) {
	run := func(sets []string) (*sim.Simulator, sim.StepStats, float64) {
		sc, err := peers.Load("stack-100-spheres", sets)
		if err != nil {
			t.Fatal(err)
		}
		s, b := newSim(t, sc)
		var last sim.StepStats
		em := 0.0
		for range b.Steps {
			st, err := s.Step()
			if err != nil {
				t.Fatal(err)
			}
			if st.MomentumError > b.Stack.RelTolerance {
				t.Errorf("%v: step %d: e_m %g > εr %g", sets, st.Step, st.MomentumError, b.Stack.RelTolerance)
			}
			if st.SleepingBodies > 0 && em == 0 {
				em = st.MomentumError
			}
			last = st
		}
		return s, last, em
	}
	awake, stAwake, _ := run(nil)
	asleep, st, em := run([]string{"contact.sleep=true"})
	if stAwake.SleepingBodies != 0 || st.SleepingBodies != 100 || st.SleepingIslands != 1 || st.Contacts != 0 {
		t.Fatalf("sleeping bodies %d (off) and %d in %d islands with %d contacts (on), want 0 and 100 in 1 with 0",
			stAwake.SleepingBodies, st.SleepingBodies, st.SleepingIslands, st.Contacts)
	}
	if st.MomentumError != em || em == 0 {
		t.Errorf("sleeping island's e_m %g, want that of the step it fell asleep, %g", st.MomentumError, em)
	}
	bound := contact.DefaultSleepSpeed * contact.DefaultSleepSteps * asleep.Config().DT
	d := maxDiff(asleep.State.Q, awake.State.Q)
	t.Logf("final positions differ by %.3g (bound %.3g); max |v| %g", d, bound, slices.Max(asleep.State.V))
	if d > bound {
		t.Errorf("final positions differ by %g from the run without sleeping, more than %g", d, bound)
	}
	for _, v := range asleep.State.V {
		if v != 0 {
			t.Fatalf("a sleeping body has v = %g", v)
		}
	}
}

// TestSleepWakesOnContact: the ball comes down on the sleeping stack,
// which wakes, and the five bodies then move as without sleeping: their
// positions stay within 1e-6 m of the run without sleeping over the whole
// run (measured 2.2e-11 m, 3.4e-14 m before the wake, while the impact
// moves the stack by 0.77 mm).
func TestSleepWakesOnContact(t *testing.T) {
	on, off := dropSim(t, 0, nil, "contact.sleep=true"), dropSim(t, 0, nil)
	slept, woke, worst := false, false, 0.0
	q0 := slices.Clone(off.State.Q)
	moved, before := 0.0, 0.0
	for range 300 {
		st := runSteps(t, on, 1)[0]
		runSteps(t, off, 1)
		worst = max(worst, maxDiff(on.State.Q, off.State.Q))
		if !woke {
			before = worst
		}
		moved = max(moved, maxDiff(off.State.Q[:28], q0[:28]))
		switch {
		case st.SleepingBodies == 4 && st.SleepingIslands == 1:
			slept = true
		case slept && st.SleepingBodies == 0:
			woke = true
		}
	}
	t.Logf("slept %v, woke %v; positions within %.3g m of the run without sleeping (%.3g before the wake); the stack moved %.3g", slept, woke, worst, before, moved)
	if !slept || !woke {
		t.Fatalf("the stack slept %v and woke %v, want both", slept, woke)
	}
	if worst > 1e-6 {
		t.Errorf("positions differ by %g m from the run without sleeping, want ≤ 1e-6", worst)
	}
}

// push is a force element: a generalized force f on velocity dof from
// time t on.
type push struct {
	dof  int
	f, t float64
}

func (p push) Apply(c *forces.Context, out *forces.Output) {
	if c.T >= p.t {
		out.F[p.dof] += p.f
	}
}

func (push) PotentialEnergy(*forces.Context) float64 { return 0 }

// TestSleepWakesOnForce: a downward force of 20 N that starts at t = 0.6 s
// on the top sphere of the sleeping stack wakes it at the step that starts then, and
// the stack moves as without sleeping (within 1e-6 m, measured 3.4e-14 m;
// the force presses the top sphere down by more than 1e-7 m).
func TestSleepWakesOnForce(t *testing.T) {
	top := push{dof: 3*6 + 5, f: -20, t: 0.6} // down on s3 (tree 3, free body: ω then v): the stack is pressed, the ball not yet down
	on, off := dropSim(t, 0, []forces.Element{top}, "contact.sleep=true", "duration=0.8"), dropSim(t, 0, []forces.Element{top})
	asleepAt, wokeAt, worst := -1.0, -1.0, 0.0
	var z0 float64
	for range 140 {
		if on.State.T == 0.6 {
			z0 = on.State.Q[3*7+6] // s3's z (free body: quaternion then position)
		}
		t0 := on.State.T
		st := runSteps(t, on, 1)[0]
		runSteps(t, off, 1)
		worst = max(worst, maxDiff(on.State.Q, off.State.Q))
		if st.SleepingBodies == 4 && asleepAt < 0 {
			asleepAt = st.T
		}
		if asleepAt >= 0 && wokeAt < 0 && st.SleepingBodies == 0 {
			wokeAt = t0
		}
	}
	t.Logf("asleep at t = %.3f, woken by the step from t = %.3f; positions within %.3g m", asleepAt, wokeAt, worst)
	if asleepAt < 0 || asleepAt > 0.6 || math.Abs(wokeAt-0.6) > 1e-9 {
		t.Fatalf("asleep at %v, woken at %v: want asleep before 0.6 s and woken by the step from 0.6 s", asleepAt, wokeAt)
	}
	if worst > 1e-6 {
		t.Errorf("positions differ by %g m from the run without sleeping, want ≤ 1e-6", worst)
	}
	if dz := z0 - on.State.Q[3*7+6]; !(dz > 1e-7) {
		t.Errorf("the pushed sphere went down by %g m, want > 1e-7", dz)
	}
}

// TestSleepDeterministic: with sleeping, the drop is bit-identical on the
// island solver with 1 and 2 workers, and with a checkpoint taken while
// the stack sleeps and restored into a new simulator.
func TestSleepDeterministic(t *testing.T) {
	var runs [][]uint64
	for _, w := range []int{1, 2} {
		runs = append(runs, trajectoryBits(t, dropSim(t, w, nil, "contact.sleep=true"), 300, nil))
	}
	if !slices.Equal(runs[0], runs[1]) {
		t.Error("1 and 2 workers differ")
	}
	s := dropSim(t, 0, nil, "contact.sleep=true")
	runSteps(t, s, 120)
	if b, _ := s.Sleeping(); b != 4 {
		t.Fatalf("%d bodies asleep at the checkpoint, want 4", b)
	}
	c := s.Checkpoint()
	want := trajectoryBits(t, s, 180, nil)
	r := dropSim(t, 0, nil, "contact.sleep=true")
	if err := r.Restore(c); err != nil {
		t.Fatal(err)
	}
	if got := trajectoryBits(t, r, 180, nil); !slices.Equal(got, want) {
		t.Error("the run restored from a checkpoint differs")
	}
}

// TestSleepOptions: Wake and WakeBody wake sleeping islands; sleeping with
// a MuJoCo scheme and bad thresholds are refused, naming the field.
func TestSleepOptions(t *testing.T) {
	s := dropSim(t, 0, nil, "contact.sleep=true")
	runSteps(t, s, 120)
	if !s.WakeBody(2) || s.WakeBody(2) {
		t.Error("WakeBody: want true for a sleeping body, then false")
	}
	runSteps(t, s, 60)
	if b, _ := s.Sleeping(); b != 4 {
		t.Fatalf("%d asleep, want the stack asleep again", b)
	}
	s.Wake()
	if b, i := s.Sleeping(); b != 0 || i != 0 {
		t.Errorf("after Wake: %d bodies in %d islands asleep", b, i)
	}
	for _, sets := range [][]string{{"contact.sleep=true", "scheme=mujoco-euler"}, {"contact.sleep_steps=0"}, {"contact.sleep_speed=-1"}} {
		_, err := scene.Parse("sleep-drop.yaml", []byte(sleepDrop), sets)
		if err == nil {
			t.Errorf("%v: no error", sets)
			continue
		}
		t.Log(err)
	}
	_, b := load(t, "stack")
	cfg := b.Config
	cfg.Contact.Sleep = contact.Sleep{Speed: 0.01, Steps: 10}
	cfg.Scheme = sim.Scheme{Method: sim.RungeKutta4}
	if _, err := sim.New(b.Model, b.State, cfg); err == nil {
		t.Error("sleeping with rk4: no error")
	}
}

// ExampleSimulator_Sleeping shows the counts of the step statistics.
func ExampleSimulator_Sleeping() {
	sc, _ := scene.Parse("sleep-drop.yaml", []byte(sleepDrop), []string{"contact.sleep=true"})
	b, _ := scene.Build(sc)
	s, _ := sim.New(b.Model, b.State, b.Config)
	for range 120 {
		_, _ = s.Step()
	}
	fmt.Println(s.Sleeping())
	// Output: 4 1
}

// TestSleepSlowSliderStaysAwake: a box sliding down a 20° slope with 0.1%
// too little friction (μ = tan θ/1.001) accelerates at
// a = g(sin θ − μ cos θ) ≈ 3.4 mm/s², so its speed stays below the 1 cm/s
// threshold for the first 3 s, far more than 50 steps of 10 ms: with a
// velocity test alone it fell asleep at step 50 and stayed there. Its
// contacts slide (friction on its bound), so it never sleeps and keeps
// the closed-form acceleration within 2% (measured between 2 s and 10 s).
// The same box on a 15° slope with μ = 0.375 sticks and falls asleep.
func TestSleepSlowSliderStaysAwake(t *testing.T) {
	const g, dt = 9.81, 0.01
	th := 20 * math.Pi / 180
	mu := math.Tan(th) / 1.001
	sc := slopeScene(20, mu, dt, 10, "", "")
	sc.Contact.Sleep = ptr(true)
	s, _ := build(t, sc)
	box := s.Model.BodyByName("box")
	speed := func() float64 { _, v := s.Model.BodyVelocity(s.State, box); return v.Norm() }
	var va, ta float64
	for i := range int(math.Round(10 / dt)) {
		st, err := s.Step()
		if err != nil {
			t.Fatal(err)
		}
		if st.SleepingBodies != 0 {
			t.Fatalf("step %d (speed %.3g m/s): the sliding box fell asleep", st.Step, speed())
		}
		if i+1 == int(math.Round(2/dt)) {
			va, ta = speed(), s.State.T
		}
	}
	a, want := (speed()-va)/(s.State.T-ta), g*(math.Sin(th)-mu*math.Cos(th))
	t.Logf("acceleration %.5g m/s², closed form %.5g", a, want)
	if math.Abs(a-want) > 0.02*want {
		t.Errorf("acceleration %g, want %g ± 2%%", a, want)
	}

	hold := slopeScene(15, 0.375, dt, 2, "", "")
	hold.Contact.Sleep = ptr(true)
	s, _ = build(t, hold)
	sts := runSteps(t, s, 200)
	if n := sts[len(sts)-1].SleepingBodies; n != 1 {
		t.Errorf("the box held on the 15° slope: %d sleeping bodies after 2 s, want 1", n)
	}
}

// TestSleepSkipsSameBits: a sleeping tree's CRBA (its M kept from the
// last step, at the same coordinates to the bit) and its free-motion solve
// (whose v* is then set to 0) are skipped without changing a bit: the
// 100-sphere stack (asleep from 1.2 s) and the 10 perturbed cubes with
// sleeping on, every step's q, v and e_m equal with and without the skips,
// and the skips did happen.
func TestSleepSkipsSameBits(t *testing.T) {
	for _, name := range []string{"stack-100-spheres", "boxes-10-perturbed"} {
		t.Run(name, func(t *testing.T) {
			run := func(skips bool) ([][]float64, int) {
				defer sim.SetSleepSkips(skips)()
				sc, err := peers.Load(name, []string{"contact.sleep=true"})
				if err != nil {
					t.Fatal(err)
				}
				s, _ := newSim(t, sc)
				var out [][]float64
				for range 300 {
					st, err := s.Step()
					if err != nil {
						t.Fatal(err)
					}
					out = append(out, append(append([]float64{st.MomentumError, float64(st.SleepingBodies)}, s.State.Q...), s.State.V...))
				}
				return out, s.KeptMassBlocks()
			}
			with, kept := run(true)
			without, none := run(false)
			if kept == 0 || none != 0 {
				t.Fatalf("%d blocks of M kept with the skips, %d without; want > 0 and 0", kept, none)
			}
			for i := range with {
				if !slices.Equal(with[i], without[i]) {
					t.Fatalf("step %d differs with the skips (e_m, sleeping bodies, q, v: %v vs %v)", i+1, with[i][:2], without[i][:2])
				}
			}
			t.Logf("%d blocks of M kept; %d sleeping bodies at the end", kept, int(with[len(with)-1][1]))
		})
	}
}
