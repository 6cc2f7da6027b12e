package sim_test

import (
	"math"
	"testing"

	"github.com/stiction-sim/stiction/internal/cputime"
	"github.com/stiction-sim/stiction/scene"
	"github.com/stiction-sim/stiction/sim"
	"github.com/stiction-sim/stiction/solver"
)

// spinScene is a cube (or a sphere of the same mass and radius half its
// side) resting on the floor with friction mu, spinning about the vertical
// at w rad/s.
func spinScene(shape string, mu, w, dt, duration float64, tol *float64) (*sim.Simulator, *scene.Built, error) {
	s := floorScene("spin", dt, duration, mu, "")
	p, v, om := scene.Vec{0, 0, cubeSide / 2}, scene.Vec{}, scene.Vec{0, 0, w}
	b := scene.Body{Name: "body", Material: "m", Mass: ptr(cubeMass), Pose: scene.Pose{Position: &p},
		Velocity: &scene.Velocity{Linear: &v, Angular: &om}}
	b.Shape = &scene.Shape{Type: "box", Size: &scene.Vec{cubeSide, cubeSide, cubeSide}}
	if shape == "sphere" {
		b.Shape = &scene.Shape{Type: "sphere", Radius: ptr(cubeSide / 2)}
	}
	s.Bodies = append(s.Bodies, b)
	s.Contact.SubstepTolerance = tol
	bt, err := scene.Build(s)
	if err != nil {
		return nil, nil, err
	}
	sm, err := sim.New(bt.Model, bt.State, bt.Config)
	return sm, bt, err
}

// TestSubstepsFromRotation: a cube spinning at 20 rad/s on the floor at
// δt = 10 ms leaves its linearized path by ½δt²ρω² = 1.73 mm (ρ = half its
// diagonal), so with the default tolerance of 0.1 mm the step takes
// ⌈√17.3⌉ = 5 substeps and ends at exactly δt; a sphere spinning as fast
// (its surface does not move) and the cube with substep_tolerance = 0 take
// one. The cube's spin then decays at the closed-form rate of its four
// corner contacts, μ m g (a/√2)/I with I = m a²/6, to 1%: the substeps'
// impulses bound friction per substep, not per step.
func TestSubstepsFromRotation(t *testing.T) {
	const mu, w0, dt, g = 0.05, 20.0, 0.01, 9.81
	for _, c := range []struct {
		shape string
		tol   *float64
		want  int
	}{{"box", nil, 5}, {"sphere", nil, 1}, {"box", ptr(0.0), 1}} {
		s, _, err := spinScene(c.shape, mu, w0, dt, 1, c.tol)
		if err != nil {
			t.Fatal(err)
		}
		st := runSteps(t, s, 1)[0]
		if st.Substeps != c.want || st.T != dt || st.Status != solver.Converged {
			t.Errorf("%s %v: %d substeps, t = %v, %v; want %d, %v, converged", c.shape, c.tol, st.Substeps, st.T, st.Status, c.want, dt)
		}
	}
	s, _, err := spinScene("box", mu, w0, dt, 1, nil)
	if err != nil {
		t.Fatal(err)
	}
	const T = 0.5
	subs := 0
	for _, st := range runSteps(t, s, int(math.Round(T/dt))) {
		subs += st.Substeps
	}
	w, _ := s.Model.BodyVelocity(s.State, s.Model.BodyByName("body"))
	alpha := mu * g * (cubeSide / math.Sqrt2) / (cubeSide * cubeSide / 6)
	want := w0 - alpha*T
	t.Logf("spin after %g s: %.5f rad/s, closed form %.5f (rel. %.2g); %d substeps in %d steps", T, w[2], want, (w[2]-want)/want, subs, int(math.Round(T/dt)))
	if math.Abs(w[2]-want) > 0.01*want {
		t.Errorf("spin %g rad/s after %g s, want %g ± 1%%", w[2], T, want)
	}
}

// TestSubstepsAllocateNothing: a warmed-up substepped step allocates
// nothing.
func TestSubstepsAllocateNothing(t *testing.T) {
	s, _, err := spinScene("box", 0.05, 20, 0.01, 1, nil)
	if err != nil {
		t.Fatal(err)
	}
	runSteps(t, s, 5)
	k := 0
	allocs := testing.AllocsPerRun(20, func() {
		st, err := s.Step()
		if err != nil {
			t.Fatal(err)
		}
		k = st.Substeps
	})
	if k < 2 || allocs != 0 {
		t.Errorf("%v allocations per step of %d substeps, want 0 with ≥ 2", allocs, k)
	}
}

// BenchmarkSettledClutterSubsteps times 100 steps of the settled clutter
// pile (from a checkpoint at t = 8 s) with and without substeps
// (contact.substep_tolerance = 0): settled bodies take none, so the
// difference is the test over the step's contacts. Compare with benchstat,
// running the two alternately (-bench 'Substeps/tol=0$', then 'tol=1e-4$').
func BenchmarkSettledClutterSubsteps(b *testing.B) {
	s0, _ := load(b, "clutter")
	runSteps(b, s0, 800)
	cp := s0.Checkpoint()
	for _, tol := range []string{"0", "1e-4"} {
		b.Run("tol="+tol, func(b *testing.B) {
			s, _ := load(b, "clutter", "contact.substep_tolerance="+tol)
			subs, c0 := 0, cputime.Process()
			for b.Loop() {
				if err := s.Restore(cp); err != nil {
					b.Fatal(err)
				}
				for _, st := range runSteps(b, s, 100) {
					subs += st.Substeps
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(100*b.N)/1e3, "µs/step")
			b.ReportMetric(float64((cputime.Process()-c0).Nanoseconds())/float64(100*b.N)/1e3, "cpu-µs/step")
			b.ReportMetric(float64(subs)/float64(100*b.N), "substeps/step")
		})
	}
}
