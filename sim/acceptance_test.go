package sim_test

import (
	"bytes"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stiction-sim/stiction/record"
	"github.com/stiction-sim/stiction/solver"
	"github.com/stiction-sim/stiction/spatial"
)

const g = 9.81

// TestRestingSphere: a sphere resting on the ground with k = 1e12 (near-rigid
// regime) penetrates β² g δt²/(4π²) (SAP §V-B) within 10%, its normal
// impulse is m g δt to 1e-6, and e_m ≤ εr, at δt = 1 ms and 10 ms.
func TestRestingSphere(t *testing.T) {
	for _, dt := range []float64{1e-3, 1e-2} {
		t.Run(fmt.Sprintf("dt=%g", dt), func(t *testing.T) {
			s, b := load(t, "drop", fmt.Sprintf("dt=%g", dt))
			stats := runSteps(t, s, int(0.5/dt))
			last := stats[len(stats)-1]
			if last.Status != solver.Converged || last.MomentumError > 1e-6 {
				t.Fatalf("last step: status %v, e_m %g", last.Status, last.MomentumError)
			}
			pairs, gamma := s.Contacts(), s.Impulses()
			if len(pairs) != 1 {
				t.Fatalf("%d contacts, want 1", len(pairs))
			}
			want := g * dt * dt / (4 * math.Pi * math.Pi) // β = 1
			pen := -pairs[0].Phi
			t.Logf("δt = %g: penetration %.4g m, closed form %.4g m (ratio %.4f)", dt, pen, want, pen/want)
			if math.Abs(pen-want) > 0.1*want {
				t.Errorf("penetration %g, want %g ± 10%%", pen, want)
			}
			m := b.Model.Bodies[b.Model.BodyByName("ball")].Inertia.Mass
			if rel := math.Abs(gamma[2]-m*g*dt) / (m * g * dt); rel > 1e-6 {
				t.Errorf("normal impulse %.12g, want m g δt = %.12g (rel. error %g)", gamma[2], m*g*dt, rel)
			}
		})
	}
}

// TestIncline: a box on a 15° incline slides ½ g (sin15° − μ cos15°) t² in
// 1 s within 2% for μ = 0, 0.125, 0.25, and sticks (moves < 0.1 mm) for
// μ = 0.375 > tan 15°.
func TestIncline(t *testing.T) {
	th := 15 * math.Pi / 180
	for _, mu := range []float64{0, 0.125, 0.25, 0.375} {
		t.Run(fmt.Sprintf("mu=%g", mu), func(t *testing.T) {
			s, _ := load(t, "incline", fmt.Sprintf("materials.default.friction=%g", mu))
			x0 := position(t, s, "box")
			stats := runSteps(t, s, 100)
			for i, st := range stats {
				if st.Status != solver.Converged {
					t.Fatalf("step %d: %v", i+1, st.Status)
				}
			}
			d := position(t, s, "box").Sub(x0).Norm()
			a := g * (math.Sin(th) - mu*math.Cos(th))
			if a < 0 {
				t.Logf("μ = %g: moved %.3g m (sticks)", mu, d)
				if d > 1e-4 {
					t.Errorf("moved %g m, want < 1e-4 m", d)
				}
				return
			}
			want := 0.5 * a
			t.Logf("μ = %g: slid %.6f m, closed form %.6f m (rel. error %.3g)", mu, d, want, (d-want)/want)
			if math.Abs(d-want) > 0.02*want {
				t.Errorf("slid %g m, want %g ± 2%%", d, want)
			}
		})
	}
}

// TestStack: ten spheres stacked on the ground stand for 5 s with their
// centres within 1 mm of the vertical through the bottom one.
func TestStack(t *testing.T) {
	s, b := load(t, "stack")
	stats := runSteps(t, s, b.Steps)
	if b.Steps*int(math.Round(b.Config.DT*1e6)) != 5e6 {
		t.Fatalf("stack scene runs %d steps of %g s, want 5 s", b.Steps, b.Config.DT)
	}
	for i, st := range stats {
		if st.Status != solver.Converged {
			t.Fatalf("step %d: %v", i+1, st.Status)
		}
	}
	worst := 0.0
	for i, body := range b.Model.Bodies {
		if body.Tree < 0 {
			continue
		}
		p := s.Model.BodyPose(s.State, i).P
		worst = math.Max(worst, math.Hypot(p[0], p[1]))
	}
	top := position(t, s, "sphere9")
	t.Logf("max horizontal offset %.3g m; top sphere at z = %.6f", worst, top[2])
	if worst > 1e-3 {
		t.Errorf("a centre is %g m off the vertical", worst)
	}
	if top[2] < 0.9 {
		t.Errorf("top sphere at z = %g: the stack fell", top[2])
	}
}

// TestClutter: SAP §VI-C with walls, 40 bodies, δt = 10 ms, 10 s.
func TestClutter(t *testing.T) {
	if testing.Short() {
		t.Skip("clutter runs 1000 steps")
	}
	s, b := load(t, "clutter")
	stats := runSteps(t, s, b.Steps)
	tol := 1e-6
	var iterLast2 []int
	peak := 0.0
	for i, st := range stats {
		if st.Status != solver.Converged || st.MomentumError > tol {
			t.Errorf("step %d: status %v, e_m %g", i+1, st.Status, st.MomentumError)
		}
		peak = max(peak, st.MaxPenetration)
		if st.T > b.Duration-2+1e-9 {
			iterLast2 = append(iterLast2, st.Iterations)
		}
	}
	mean, hist := 0.0, map[int]int{}
	for _, it := range iterLast2 {
		mean += float64(it)
		hist[it]++
	}
	mean /= float64(len(iterLast2))
	last := stats[len(stats)-1]
	maxSpeed, maxOther, rolling := 0.0, 0.0, 0
	for _, bs := range record.FinalStates(b.Model, s.State) {
		p, v, w := bs.Position, spatial.Vec3(bs.LinearVelocity), spatial.Vec3(bs.AngularVelocity)
		if math.Abs(p[0]) > 0.4 || math.Abs(p[1]) > 0.4 || p[2] < -0.01 {
			t.Errorf("body %s left the container: %v", bs.Body, p)
		}
		speed := v.Norm()
		maxSpeed = math.Max(maxSpeed, speed)
		if speed < 1e-3 {
			continue
		}
		// Point contact has no rolling resistance (as in Drake): a sphere
		// rolling on the floor keeps its energy. Anything faster than 1 mm/s
		// must be such a sphere, in pure rolling: on the floor, no vertical
		// motion, and contact-point slip v + ω × (0, 0, −r) below 1 mm/s.
		r := 0.05
		slip := v.Add(w.Cross(spatial.Vec3{0, 0, -r}))
		if !strings.Contains(bs.Body, "sphere") || math.Abs(p[2]-r) > 1e-4 || math.Abs(v[2]) > 1e-4 || slip.Norm() > 1e-3 {
			maxOther = math.Max(maxOther, speed)
			t.Errorf("body %s moves at %g m/s and is not a sphere rolling on the floor (z %g, slip %g)", bs.Body, speed, p[2], slip.Norm())
			continue
		}
		rolling++
	}
	t.Logf("final: max speed %.3g m/s (%d spheres rolling freely on the floor; all other bodies < 1 mm/s), max penetration %.3g m, contacts %d; mean iterations over last 2 s %.2f, histogram %v",
		maxSpeed, rolling, last.MaxPenetration, last.Contacts, mean, hist)
	// The peak over the run is the subject of TestClutterPeakPenetration.
	t.Logf("peak penetration over the run %.3g m", peak)
	if last.MaxPenetration >= 1e-3 {
		t.Errorf("final max penetration %g m, want < 1 mm", last.MaxPenetration)
	}
	if mean > 5 {
		t.Errorf("mean SAP iterations over the last 2 s = %.2f, want ≤ 5", mean)
	}
}

// TestDeterminism: two clutter runs write byte-identical trajectory files.
func TestDeterminism(t *testing.T) {
	var files [2][]byte
	for k := range files {
		s, b := load(t, "clutter", "duration=2")
		dir := t.TempDir()
		w, err := record.Create(dir)
		if err != nil {
			t.Fatal(err)
		}
		w.Trajectory(b.Model, s.State)
		var acc record.Accumulator
		for range b.Steps {
			st, err := s.Step()
			if err != nil {
				t.Fatal(err)
			}
			acc.Add(st)
			w.Step(st)
			w.Trajectory(b.Model, s.State)
		}
		if err := w.Close(acc.Summary(b.Name, b.Config.DT, 0, b.Model, s.State)); err != nil {
			t.Fatal(err)
		}
		if files[k], err = os.ReadFile(filepath.Join(dir, "trajectory.csv")); err != nil {
			t.Fatal(err)
		}
	}
	if len(files[0]) < 1000 || !bytes.Equal(files[0], files[1]) {
		t.Fatalf("trajectory files differ or are empty (%d and %d bytes)", len(files[0]), len(files[1]))
	}
}

// TestClutterPeakPenetration: objects arrive at ~5 m/s (31 mm of
// penetration with the paper's contact model, which finds contacts only
// within 1 mm). With speculative contacts, and substeps while boxes spin
// at 10–30 rad/s in contact (contact.substep_tolerance), the peak over the
// impacts (the first 1.5 s) stays below 2 mm at δt = 1, 5 and 10 ms
// (measured 0.22, 0.76 and 0.39 mm; without substeps 0.22, 3.1 and
// 1.3 mm). TestClutterPerturbedPeaks checks 25 perturbed runs.
func TestClutterPeakPenetration(t *testing.T) {
	if testing.Short() {
		t.Skip("clutter impacts at three time steps")
	}
	for _, c := range []struct{ dt, limit float64 }{{0.001, 2e-3}, {0.005, 2e-3}, {0.01, 2e-3}} {
		s, _ := load(t, "clutter", "dt="+ftoa(c.dt), "duration=1.5")
		peak := 0.0
		for _, st := range runSteps(t, s, int(math.Round(1.5/c.dt))) {
			peak = max(peak, st.MaxPenetration)
		}
		t.Logf("δt %g: peak penetration %.3g mm", c.dt, peak*1e3)
		if peak >= c.limit {
			t.Errorf("δt %g: peak penetration %g m, want < %g", c.dt, peak, c.limit)
		}
	}
}
