package sim_test

import (
	"strings"
	"time"

	"github.com/stiction-sim/stiction/internal/cputime"
	"github.com/stiction-sim/stiction/multibody"
	"math"
	"path/filepath"
	"testing"

	mjload "github.com/stiction-sim/stiction/model/load"
	"github.com/stiction-sim/stiction/scene"
	"github.com/stiction-sim/stiction/sim"
)

// sparseRun steps the MJCF file path n steps with MuJoCo's Newton or CG
// port (the file's solver) taking the sparse path from sparseNV
// velocities, and returns the positions and velocities after each step.
func sparseRun(t *testing.T, path string, sparseNV, n int) (qs, vs [][]float64, nv int) {
	t.Helper()
	return sparseRunWith(t, path, sparseNV, n, nil)
}

// sparseRunWith is sparseRun with setup (when not nil) called on the
// simulator before its first step.
func sparseRunWith(t *testing.T, path string, sparseNV, n int, setup func(*sim.Simulator)) (qs, vs [][]float64, nv int) {
	t.Helper()
	defer sim.SetSparseNV(sparseNV)()
	s, _, err := mjload.Scene(path, nil, mjload.Options{})
	if err != nil {
		t.Fatal(err)
	}
	b, err := scene.Build(s)
	if err != nil {
		t.Fatal(err)
	}
	if !b.Config.Contact.Newton && b.Config.Contact.PGSIterations == 0 {
		b.Config.Contact.Newton = true
		b.Config.Contact.PGSIterations, b.Config.Contact.PGSTolerance = 100, 1e-8
	}
	if !b.Config.Contact.Newton {
		t.Fatalf("%s: not solved by the port", path)
	}
	sm, err := sim.New(b.Model, b.State, b.Config)
	if err != nil {
		t.Fatal(err)
	}
	if setup != nil {
		setup(sm)
	}
	for k := range n {
		st, err := sm.Step()
		if err != nil {
			t.Fatalf("%s: step %d: %v", path, k+1, err)
		}
		_ = st
		qs = append(qs, append([]float64(nil), sm.State.Q...))
		vs = append(vs, append([]float64(nil), sm.State.V...))
	}
	return qs, vs, b.Model.NV
}

// TestSparseNewtonMatchesDense runs models with contacts (pyramidal and
// elliptic cones, limits, Newton and CG) through the port's dense and
// sparse paths: the two solve the same problems and differ only in the
// order of their sums (the sparse Cholesky factor Lᵀ L against the dense
// L Lᵀ, the sparse products' running sums), so they must agree to
// round-off over a short horizon, and the sparse path must not be the
// dense one (the factors differ in their last bits).
func TestSparseNewtonMatchesDense(t *testing.T) {
	cases := []struct {
		file  string
		steps int
	}{
		{"dm_control/suite/humanoid.xml", 120},
		{"dm_control/suite/stacker.xml", 40},
		{"menagerie/unitree_a1/scene.xml", 40},
		{"mujoco/model/composite/cloth.xml", 20},
	}
	differs := 0
	for _, c := range cases {
		path := filepath.Join("..", "internal", "mjref", "testdata", c.file)
		qd, vd, nv := sparseRun(t, path, math.MaxInt, c.steps)
		qsp, vsp, _ := sparseRun(t, path, 0, c.steps)
		worst, wv, differ := 0.0, 0.0, false
		for k := range qd {
			for i := range qd[k] {
				worst = math.Max(worst, math.Abs(qd[k][i]-qsp[k][i]))
				differ = differ || qd[k][i] != qsp[k][i]
			}
			for i := range vd[k] {
				wv = math.Max(wv, math.Abs(vd[k][i]-vsp[k][i]))
			}
		}
		t.Logf("%s (nv %d): dense vs sparse over %d steps: max |Δq| %.3g, |Δv| %.3g", c.file, nv, c.steps, worst, wv)
		if !(worst <= 1e-9) || !(wv <= 1e-6) {
			t.Errorf("%s: the sparse path parts from the dense one: |Δq| %.3g, |Δv| %.3g", c.file, worst, wv)
		}
		if differ {
			differs++
		}
	}
	if differs == 0 {
		t.Error("the sparse path gave the dense path's bits on every model: not taken?")
	}
}

// BenchmarkSparsePort times a step of MuJoCo's models of at least 60
// velocities with the converged solve (SAP, the MJCF default there before
// the sparse path: "sap") and with the port of MuJoCo's Newton and CG on
// its sparse path ("port"), from the initial state, restarted every 200
// steps; it reports the process CPU time per step (cpu-µs/op).
func BenchmarkSparsePort(b *testing.B) {
	for _, file := range []string{"mujoco/model/composite/particle.xml", "mujoco/model/composite/cloth.xml", "mujoco/model/hammock/hammock.xml", "dm_control/suite/humanoid_CMU.xml", "mujoco/model/humanoid/22_humanoids.xml"} {
		for _, port := range []bool{false, true} {
			name := "sap"
			if port {
				name = "port"
			}
			b.Run(strings.TrimSuffix(filepath.Base(file), ".xml")+"/"+name, func(b *testing.B) {
				benchSparsePort(b, filepath.Join("..", "internal", "mjref", "testdata", file), port)
			})
		}
	}
}

// benchSparsePort is one run of BenchmarkSparsePort.
func benchSparsePort(b *testing.B, path string, port bool) {
	s, _, err := mjload.Scene(path, nil, mjload.Options{})
	if err != nil {
		b.Fatal(err)
	}
	bl, err := scene.Build(s)
	if err != nil {
		b.Fatal(err)
	}
	if port != bl.Config.Contact.Newton {
		if port {
			bl.Config.Contact.Newton = true
			bl.Config.Contact.PGSIterations, bl.Config.Contact.PGSTolerance = 100, 1e-8
		} else {
			bl.Config.Contact.Newton, bl.Config.Contact.CG, bl.Config.Contact.PGSIterations, bl.Config.Contact.PGSTolerance = false, false, 0, 0
		}
	}
	var sm *sim.Simulator
	var cpu time.Duration
	b.ResetTimer()
	for i := range b.N {
		if i%200 == 0 {
			b.StopTimer()
			var st multibody.State
			st.CopyFrom(bl.State)
			if sm, err = sim.New(bl.Model, &st, bl.Config); err != nil {
				b.Fatal(err)
			}
			b.StartTimer()
		}
		c0 := cputime.Process()
		if _, err := sm.Step(); err != nil {
			b.Fatal(err)
		}
		cpu += cputime.Process() - c0
	}
	b.ReportMetric(float64(cpu.Microseconds())/float64(b.N), "cpu-µs/op")
}

// TestSparsePortAllocs: a warmed-up step of the port on MuJoCo's sparse
// path (dm_control's humanoid_CMU, nv 62, in contact with the floor from
// step 53) allocates nothing.
func TestSparsePortAllocs(t *testing.T) {
	s, _, err := mjload.Scene(filepath.Join("..", "internal", "mjref", "testdata", "dm_control/suite/humanoid_CMU.xml"), nil, mjload.Options{})
	if err != nil {
		t.Fatal(err)
	}
	b, err := scene.Build(s)
	if err != nil {
		t.Fatal(err)
	}
	if !b.Config.Contact.Newton || !sim.MuJoCoSparse(b.Model.NV) {
		t.Fatalf("humanoid_CMU: port %v, sparse %v", b.Config.Contact.Newton, sim.MuJoCoSparse(b.Model.NV))
	}
	sm, err := sim.New(b.Model, b.State, b.Config)
	if err != nil {
		t.Fatal(err)
	}
	for range 150 {
		if _, err := sm.Step(); err != nil {
			t.Fatal(err)
		}
	}
	if st := sm.Stats(); st.Contacts == 0 {
		t.Fatal("no contact after 150 steps")
	}
	allocs := testing.AllocsPerRun(20, func() {
		if _, err := sm.Step(); err != nil {
			t.Fatal(err)
		}
	})
	if allocs != 0 {
		t.Errorf("%g allocations per warmed-up step", allocs)
	}
}
