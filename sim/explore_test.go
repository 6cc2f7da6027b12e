package sim_test

import (
	"encoding/gob"
	"fmt"
	"math"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/stiction-sim/stiction/multibody"
	"github.com/stiction-sim/stiction/scene"
	"github.com/stiction-sim/stiction/sim"
	"github.com/stiction-sim/stiction/solver"
	"github.com/stiction-sim/stiction/solver/sap"
	"github.com/stiction-sim/stiction/spatial"
)

func TestExploreSlide(t *testing.T) {
	if os.Getenv("STICTION_EXPLORE") == "" {
		t.Skip()
	}
	for _, approx := range []string{"sap", "lagged", "similar"} {
		for _, dt := range []float64{0.01, 0.001} {
			for _, c := range [][2]float64{{0, 0}, {45, 30}, {100, 17}} {
				s, _ := build(t, slideScene(2, c[0], c[1], 0.5, dt, 0.6, approx))
				b := s.Model.BodyByName("cube")
				z0 := s.Model.BodyPose(s.State, b).P[2]
				maxRise, maxDev := 0.0, 0.0
				d := c[0] * math.Pi / 180
				steps := int(0.6 / dt)
				var stop float64
				for i := 0; i < steps; i++ {
					st, err := s.Step()
					if err != nil {
						t.Fatal(err)
					}
					_ = st
					x := s.Model.BodyPose(s.State, b)
					maxRise = math.Max(maxRise, x.P[2]-z0)
					_, v := s.Model.BodyVelocity(s.State, b)
					if sp := math.Hypot(v[0], v[1]); sp > 0.05 {
						ang := math.Atan2(v[1], v[0]) - d
						maxDev = math.Max(maxDev, math.Abs(math.Remainder(ang, 2*math.Pi))*180/math.Pi)
					}
					stop = math.Hypot(x.P[0], x.P[1])
				}
				want := 4 / (2 * 0.5 * 9.81)
				t.Logf("%-7s dt=%g dir=%3.0f yaw=%2.0f rise %.3g mm  stop %.5f (want %.5f, err %.2f%%)  dev %.3g°",
					approx, dt, c[0], c[1], maxRise*1e3, stop, want, 100*(stop-want)/want, maxDev)
			}
		}
	}
}

// stackReport runs a stack and returns top drift, max tilt (deg), final max speed.
func stackReport(t *testing.T, n int, seed uint64, dt float64, approx string, dur float64, sets ...func(*scene.Scene)) (drift, tilt, speed float64, cmin, cmax int) {
	sc := stackScene(n, seed, 0.002, 1, dt, dur, approx)
	for _, f := range sets {
		f(sc)
	}
	s, _ := build(t, sc)
	top := s.Model.BodyByName(fmt.Sprintf("c%d", n-1))
	p0 := s.Model.BodyPose(s.State, top).P
	cmin = 1 << 30
	for i := 0; i < int(math.Round(dur/dt)); i++ {
		st, err := s.Step()
		if err != nil {
			t.Fatal(err)
		}
		if i > 10 {
			cmin, cmax = min(cmin, st.Contacts), max(cmax, st.Contacts)
		}
	}
	p1 := s.Model.BodyPose(s.State, top).P
	drift = math.Hypot(p1[0]-p0[0], p1[1]-p0[1])
	for b := 1; b < len(s.Model.Bodies); b++ {
		x := s.Model.BodyPose(s.State, b)
		z := x.R.Rotate(spatial.Vec3{0, 0, 1})
		tilt = math.Max(tilt, math.Acos(math.Max(-1, math.Min(1, z[2])))*180/math.Pi)
		w, v := s.Model.BodyVelocity(s.State, b)
		speed = math.Max(speed, v.Norm()+w.Norm()*0.087)
	}
	return
}

func TestExploreStack(t *testing.T) {
	if os.Getenv("STICTION_EXPLORE") == "" {
		t.Skip()
	}
	n := 10
	if v := os.Getenv("N"); v != "" {
		fmt.Sscan(v, &n)
	}
	approxs := strings.Fields(os.Getenv("APPROXS"))
	if len(approxs) == 0 {
		approxs = []string{"lagged"}
	}
	for _, approx := range approxs {
		for _, dt := range []float64{0.01, 0.001} {
			for _, seed := range []uint64{1, 2, 3} {
				d, tl, sp, cmin, cmax := stackReport(t, n, seed, dt, approx, 5)
				t.Logf("%-7s dt=%g seed %d: drift %.3g mm tilt %.3g° speed %.3g mm/s contacts %d–%d", approx, dt, seed, d*1e3, tl, sp*1e3, cmin, cmax)
			}
		}
	}
}

func TestExploreTwo(t *testing.T) {
	if os.Getenv("STICTION_EXPLORE") == "" {
		t.Skip()
	}
	n := 2
	if v := os.Getenv("N"); v != "" {
		fmt.Sscan(v, &n)
	}
	dt := 0.001
	if v := os.Getenv("DT"); v != "" {
		fmt.Sscan(v, &dt)
	}
	sc := stackScene(n, 1, 0.002, 1, dt, 1, os.Getenv("APPROX"))
	s, _ := build(t, sc)
	every := 1
	if v := os.Getenv("EVERY"); v != "" {
		fmt.Sscan(v, &every)
	}
	for i := 0; i < 60*every; i++ {
		st, err := s.Step()
		if err != nil {
			t.Fatal(err)
		}
		if i%every != 0 {
			continue
		}
		x := s.Model.BodyPose(s.State, n)
		w, v := s.Model.BodyVelocity(s.State, n)
		line := fmt.Sprintf("step %3d: contacts %2d it %d KE %.3g top %.5f %.5f %.6f w %.3g v %.3g |", i, st.Contacts, st.Iterations, st.KineticEnergy, x.P[0], x.P[1], x.P[2], w.Norm(), v.Norm())
		if os.Getenv("PHI") != "" {
			for _, c := range s.Contacts() {
				if c.BodyA == n-1 || c.BodyB == n-1 {
					line += fmt.Sprintf(" %.2g", c.Phi*1e3)
				}
			}
		}
		t.Log(line)
	}
}

func TestExploreIncline(t *testing.T) {
	if os.Getenv("STICTION_EXPLORE") == "" {
		t.Skip()
	}
	s, _ := load(t, "incline", "materials.default.friction=0.25")
	for i := 0; i < 12; i++ {
		st, err := s.Step()
		if err != nil {
			t.Fatal(err)
		}
		g := s.Impulses()
		line := fmt.Sprintf("step %d it %d: ", i, st.Iterations)
		sum, sumt := 0.0, 0.0
		for k, pr := range s.Contacts() {
			vc := s.ContactVelocities()
			line += fmt.Sprintf("[f%d a%d φ%.2g γn %.3g γt %.3g n0 %.3g vt %.2g] ", pr.Feature, pr.Age, pr.Phi*1e6, g[3*k+2]*1e3, math.Hypot(g[3*k], g[3*k+1])*1e3, pr.PrevImpulse[2]*1e3, math.Hypot(vc[3*k], vc[3*k+1]))
			sum += g[3*k+2]
			sumt += math.Hypot(g[3*k], g[3*k+1])
		}
		w, v := s.Model.BodyVelocity(s.State, 1)
		t.Logf("%s Σγn %.4g (mg cos δt %.4g) Σγt %.4g w %.3g v %.3g", line, sum*1e3, 9.81*math.Cos(15*math.Pi/180)*0.01*1e3, sumt*1e3, w, v)
	}
}

func TestExploreInclineLag(t *testing.T) {
	if os.Getenv("STICTION_EXPLORE") == "" {
		t.Skip()
	}
	th := 15 * math.Pi / 180
	for _, lag := range []int{0, 1, 2, 4} {
		for _, mu := range []float64{0.125, 0.25} {
			s, _ := load(t, "incline", fmt.Sprintf("materials.default.friction=%g", mu), fmt.Sprintf("contact.lag_iterations=%d", lag))
			x0 := position(t, s, "box")
			its := 0
			for _, st := range runSteps(t, s, 100) {
				its += st.Iterations
			}
			d := position(t, s, "box").Sub(x0).Norm()
			want := 0.5 * 9.81 * (math.Sin(th) - mu*math.Cos(th))
			t.Logf("lag %d μ %g: rel err %.4f, iterations %d", lag, mu, (d-want)/want, its)
		}
	}
}

func TestExploreCopies(t *testing.T) {
	if os.Getenv("STICTION_EXPLORE") == "" {
		t.Skip()
	}
	sets := strings.Fields(os.Getenv("SETS"))
	mk := islands(sap.AutoLinear, 1)
	one, _ := withSolver(t, loadScene(t, "clutter-nowalls", sets...), mk)
	sc, err := scene.LoadClutterCopies(2, sets)
	if err != nil {
		t.Fatal(err)
	}
	two, _ := withSolver(t, sc, mk)
	for step := 0; step < 150; step++ {
		runSteps(t, one, 1)
		runSteps(t, two, 1)
		worst := 0.0
		for i := range one.Model.Bodies {
			n := one.Model.Bodies[i].Name
			if one.Model.Bodies[i].Tree < 0 {
				continue
			}
			p := position(t, one, n)
			q := position(t, two, "k1_"+n)
			q[0] -= scene.ClutterCopySpacing
			worst = math.Max(worst, p.Sub(q).Norm())
		}
		if worst > 1e-9 {
			t.Logf("step %d: worst %.3g", step, worst)
			return
		}
	}
}

func TestExplorePush(t *testing.T) {
	if os.Getenv("STICTION_EXPLORE") == "" {
		t.Skip()
	}
	const mu, g = 0.5, 9.81
	for _, dt := range []float64{0.01, 0.001} {
		for _, f := range []float64{0.95, 1.05, 1.5} {
			for _, c := range [][2]float64{{0, 0}, {70, 25}} {
				T := 1.0
				s, _ := build(t, pushScene(f*mu*cubeMass*g, c[0], c[1], mu, dt, T, os.Getenv("APPROX")))
				b := s.Model.BodyByName("cube")
				p0 := s.Model.BodyPose(s.State, b).P
				tilt := 0.0
				n := int(math.Round(T / dt))
				var va spatial.Vec3
				for i := 0; i < n; i++ {
					runSteps(t, s, 1)
					if i == n/2 {
						_, va = s.Model.BodyVelocity(s.State, b)
					}
					z := s.Model.BodyPose(s.State, b).R.Rotate(spatial.Vec3{0, 0, 1})
					tilt = math.Max(tilt, math.Acos(math.Min(1, z[2]))*180/math.Pi)
				}
				_, vb := s.Model.BodyVelocity(s.State, b)
				acc := (vb.Norm() - va.Norm()) / (T - float64(n/2+1)*dt)
				want := f*mu*g - mu*g
				p1 := s.Model.BodyPose(s.State, b).P
				t.Logf("dt %g F %.2f μmg dir %.0f yaw %.0f: drift %.3g mm, acc %.4g (want %.4g), tilt %.3g°", dt, f, c[0], c[1], p1.Sub(p0).Norm()*1e3, acc, math.Max(want, 0), tilt)
			}
		}
	}
}

func TestExplorePenetration(t *testing.T) {
	if os.Getenv("STICTION_EXPLORE") == "" {
		t.Skip()
	}
	name := os.Getenv("SCENE")
	if name == "" {
		name = "clutter"
	}
	s, b := load(t, name, strings.Fields(os.Getenv("SETS"))...)
	worst := 0.0
	for i := 0; i < b.Steps; i++ {
		st := runSteps(t, s, 1)[0]
		for k, pr := range s.Contacts() {
			if -pr.Phi > worst {
				worst = -pr.Phi
				vc := s.ContactVelocities()
				t.Logf("t=%.2f: φ %.4g %s–%s age %d feat %d vn(after) %.3g γn %.3g it %d", st.T, pr.Phi, s.Model.Bodies[pr.BodyA].Name, s.Model.Bodies[pr.BodyB].Name, pr.Age, pr.Feature, vc[3*k+2], s.Impulses()[3*k+2], st.Iterations)
			}
		}
	}
}

func TestExplorePair(t *testing.T) {
	if os.Getenv("STICTION_EXPLORE") == "" {
		t.Skip()
	}
	s, _ := load(t, "clutter", strings.Fields(os.Getenv("SETS"))...)
	a, b := s.Model.BodyByName(os.Getenv("A")), s.Model.BodyByName(os.Getenv("B"))
	var t0, t1 float64
	fmt.Sscan(os.Getenv("T0"), &t0)
	fmt.Sscan(os.Getenv("T1"), &t1)
	for s.State.T < t1 {
		st := runSteps(t, s, 1)[0]
		if st.T < t0 {
			continue
		}
		for k, pr := range s.Contacts() {
			if (pr.BodyA == a && pr.BodyB == b) || (pr.BodyA == b && pr.BodyB == a) {
				vc, g := s.ContactVelocities(), s.Impulses()
				t.Logf("t=%.2f φ0 %.3g n %.2f age %d vn %.3g vt %.3g γ (%.3g %.3g %.3g) it %d", st.T, pr.Phi*1e3, pr.Normal, pr.Age, vc[3*k+2], math.Hypot(vc[3*k], vc[3*k+1]), g[3*k], g[3*k+1], g[3*k+2], st.Iterations)
			}
		}
		wa, va := s.Model.BodyVelocity(s.State, a)
		wb, vb := s.Model.BodyVelocity(s.State, b)
		t.Logf("   A v %.3g w %.3g | B v %.3g w %.3g", va, wa, vb, wb)
	}
}

func TestExploreStack100(t *testing.T) {
	if os.Getenv("STICTION_EXPLORE") == "" {
		t.Skip()
	}
	dt := 0.001
	if v := os.Getenv("DT"); v != "" {
		fmt.Sscan(v, &dt)
	}
	start := time.Now()
	d, tl, sp, cmin, cmax := stackReport(t, 100, 1, dt, "lagged", 5)
	t.Logf("100 cubes dt=%g: drift %.3g mm tilt %.3g° speed %.3g mm/s contacts %d–%d (%v)", dt, d*1e3, tl, sp*1e3, cmin, cmax, time.Since(start))
}

func TestExploreSlopeSlides(t *testing.T) {
	if os.Getenv("STICTION_EXPLORE") == "" {
		t.Skip()
	}
	th := 20 * math.Pi / 180
	mu := 0.95 * math.Tan(th)
	want := 9.81 * (math.Sin(th) - mu*math.Cos(th))
	for _, anchors := range []bool{true, false} {
		for _, approx := range []string{"sap", "similar", "lagged"} {
			sc := slopeScene(20, mu, 0.01, 2, approx, "")
			sc.Materials["m"] = withAnchors(sc.Materials["m"], anchors)
			s, _ := build(t, sc)
			box := s.Model.BodyByName("box")
			for i := 0; i < 200; i++ {
				runSteps(t, s, 1)
				if i%20 == 0 {
					_, v := s.Model.BodyVelocity(s.State, box)
					t.Logf("anchors %v %s t=%.2f v=%.4f (free %.4f)", anchors, approx, s.State.T, v.Norm(), want*s.State.T)
				}
			}
		}
	}
}

func TestExploreOrbit(t *testing.T) {
	if os.Getenv("STICTION_EXPLORE") == "" {
		t.Skip()
	}
	s, _ := load(t, "clutter", "materials.default.rolling_friction=0.001", "duration=100")
	b := s.Model.BodyByName("c3_sphere5")
	runSteps(t, s, 7000)
	for i := 0; i < 6; i++ {
		runSteps(t, s, 1)
		w, v := s.Model.BodyVelocity(s.State, b)
		t.Logf("t=%.2f v %.3g w %.3g", s.State.T, v, w)
		g, vc := s.Impulses(), s.ContactVelocities()
		for k, pr := range s.Contacts() {
			if pr.BodyA == b || pr.BodyB == b {
				t.Logf("   %s–%s φ %.3g n %.2f age %d anch %v γ (%.3g %.3g %.3g) vc (%.3g %.3g %.3g)", s.Model.Bodies[pr.BodyA].Name, s.Model.Bodies[pr.BodyB].Name, pr.Phi*1e3, pr.Normal, pr.Age, pr.Anchored, g[3*k], g[3*k+1], g[3*k+2], vc[3*k], vc[3*k+1], vc[3*k+2])
			}
		}
	}
}

// captureAt is a solver wrapper that keeps a copy of the problem and warm
// start of solve number n.
type captureAt struct {
	inner solver.Solver
	n, k  int
	p     *solver.Problem
	v0    []float64
}

func (c *captureAt) Solve(p *solver.Problem, v0 []float64, res *solver.Result) error {
	c.k++
	if c.k == c.n {
		c.p, c.v0 = p.Clone(), append([]float64(nil), v0...)
	}
	return c.inner.Solve(p, v0, res)
}

func TestExploreCaptureStall(t *testing.T) {
	if os.Getenv("STICTION_EXPLORE") == "" {
		t.Skip()
	}
	sets := append([]string{"duration=836"}, paperContact...)
	sets = append(sets[:len(sets)-2], "materials.default.anchors=false")
	s0, b := load(t, "clutter", sets...)
	_ = s0
	ref := b.Config.Solver.(*solver.LaggedRefiner)
	c := &captureAt{inner: ref.Inner, n: 83523}
	b.Config.Solver = c
	s, err := sim.New(b.Model, b.State, b.Config)
	if err != nil {
		t.Fatal(err)
	}
	runSteps(t, s, 83523)
	f, err := os.Create("../solver/sap/testdata/clutter_stall.gob")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := gob.NewEncoder(f).Encode(struct {
		P  *solver.Problem
		V0 []float64
	}{c.p, c.v0}); err != nil {
		t.Fatal(err)
	}
}

func TestExploreThreshold(t *testing.T) {
	if os.Getenv("STICTION_EXPLORE") == "" {
		t.Skip()
	}
	for _, r := range []float64{0.9999, 0.99999, 1.001, 1.01} {
		for _, dt := range []float64{0.001, 0.01} {
			T := 60.0
			if r < 1 {
				T = 600
			}
			mu := math.Tan(20*math.Pi/180) / r
			s, _ := build(t, slopeScene(20, mu, dt, T, "", ""))
			d := slide(t, s, int(math.Round(T/dt)), 20)
			t.Logf("r=%g dt=%g slid %.3g mm in %g s", r, dt, d*1e3, T)
		}
	}
}

type traceStall struct {
	t     *testing.T
	inner solver.Solver
	done  bool
}

func (c *traceStall) Solve(p *solver.Problem, v0 []float64, res *solver.Result) error {
	pc, vc := p.Clone(), append([]float64(nil), v0...)
	err := c.inner.Solve(p, v0, res)
	if res.Stats.Status != solver.Converged && !c.done {
		c.done = true
		prm := sap.DefaultParams()
		if os.Getenv("RELTOL") != "" {
			prm.RelTolerance = 1e-8
			prm.CostRelTolerance = 0
			prm.CostAbsTolerance = 0
		}
		tr := &sap.Trace{}
		prm.Trace = tr
		var r2 solver.Result
		sap.New(prm).Solve(pc, vc, &r2)
		c.t.Logf("status %v; %d constraints", r2.Stats.Status, len(pc.Constraints))
		if f := os.Getenv("CAPTURE"); f != "" {
			out, _ := os.Create(f)
			gob.NewEncoder(out).Encode(struct {
				P  *solver.Problem
				V0 []float64
			}{pc, vc})
			out.Close()
		}
		for k, e := range tr.Entries {
			c.t.Logf("%d cost %.17g grad %.3g tol %.3g alpha %.3g ls %d d0 %.3g da %.3g coll %v", k, e.Cost, e.GradNorm, e.Tolerance, e.Alpha, e.LineSearchIterations, e.DCost0, e.DCostAlpha, e.BracketCollapsed)
		}
		for i, con := range pc.Constraints {
			if con.Kind == solver.ContactLagged {
				c.t.Logf("c%d par %v", i, pc.Par(i))
			}
		}
	}
	return err
}

func TestExploreArmStall(t *testing.T) {
	if os.Getenv("STICTION_EXPLORE") == "" {
		t.Skip()
	}
	_, b := load(t, "arm", "actuators.shoulder.target={constant: 0.6}", "duration=2")
	sm0, _ := load(t, "arm", "actuators.shoulder.target={constant: 0.6}", "duration=2")
	kin := multibody.NewWorkspace(sm0.Model)
	kin.Update(sm0.State.Q, nil)
	tg := make([]float64, sm0.Model.NV)
	kin.GravityForces(tg)
	_, b = load(t, "arm", "actuators.shoulder.target={constant: 0.6}", "duration=2", "actuators.shoulder.effort="+ftoa(0.5*math.Abs(tg[1])))
	ref := b.Config.Solver.(*solver.LaggedRefiner)
	ref.Inner = &traceStall{t: t, inner: ref.Inner}
	s, err := sim.New(b.Model, b.State, b.Config)
	if err != nil {
		t.Fatal(err)
	}
	for range b.Steps {
		s.Step()
	}
}

func TestExploreRollStall(t *testing.T) {
	if os.Getenv("STICTION_EXPLORE") == "" {
		t.Skip()
	}
	_, b := load(t, "clutter", "materials.default.rolling_friction=0.001", "duration=31")
	ref := b.Config.Solver.(*solver.LaggedRefiner)
	ref.Inner = &traceStall{t: t, inner: ref.Inner}
	s, err := sim.New(b.Model, b.State, b.Config)
	if err != nil {
		t.Fatal(err)
	}
	for range b.Steps {
		s.Step()
	}
}
