package sim_test

import (
	"math"
	"testing"

	"github.com/stiction-sim/stiction/constraint"
	"github.com/stiction-sim/stiction/multibody"
	"github.com/stiction-sim/stiction/sim"
	"github.com/stiction-sim/stiction/solver"
	_ "github.com/stiction-sim/stiction/solver/all"
	"github.com/stiction-sim/stiction/solver/island"
	"github.com/stiction-sim/stiction/solver/sap"
	"github.com/stiction-sim/stiction/spatial"
)

// Four flywheels on vertical revolute joints, each its own tree, tied by
// a constraint on the fixed tendon L = Σ c_k q_k, a torque τ on the first.
var (
	wheelI    = []float64{0.2, 0.5, 0.3, 0.8}
	wheelC    = []float64{1, -0.5, 0.7, 2}
	wheelTau  = 3.0
	wheelStep = 1e-3
)

// wheelAccel returns the closed-form accelerations of the wheels while
// the tendon is held (c · q̈ = 0): q̈ = M⁻¹(τ e_0 + cᵀλ) with
// λ = −c_0 τ/I_0 / Σ c_k²/I_k.
func wheelAccel() []float64 {
	w := 0.0
	for k, c := range wheelC {
		w += c * c / wheelI[k]
	}
	lam := -wheelC[0] * wheelTau / wheelI[0] / w
	a := make([]float64, len(wheelI))
	for k, c := range wheelC {
		a[k] = c * lam / wheelI[k]
	}
	a[0] += wheelTau / wheelI[0]
	return a
}

// wheels builds the four flywheels, and with prescribed a fifth wheel
// turned at 0.2 rad/s (a prescribed motion, so that sim eliminates its
// velocity) whose coordinate enters the tendon with coefficient 0.4. The
// tendon is held by a coupler (L = 0) or by an upper limit (L ≤ 0.02,
// reached as τ drives L up).
func wheels(t *testing.T, limit, prescribed bool) (*multibody.Model, *constraint.Set) {
	m := &multibody.Model{Gravity: spatial.Vec3{0, 0, -g}}
	var terms []constraint.TendonTerm
	for k, i := range append(append([]float64(nil), wheelI...), 0.4) {
		if k == len(wheelI) && !prescribed {
			break
		}
		in := spatial.SpatialInertia{Mass: 1, Icom: spatial.Diag3(spatial.Vec3{i, i, i})}
		b := mustAdd(t, m, "w", in, revolute(-1, at(float64(k), 0, 1), spatial.Vec3{0, 0, 1}))
		c := 0.4
		if k < len(wheelC) {
			c = wheelC[k]
		}
		terms = append(terms, constraint.TendonTerm{Body: b, Coef: c})
	}
	set := &constraint.Set{Actuators: []constraint.Actuator{{Name: "motor", Type: constraint.Motor, Body: 0, Target: constraint.Constant(wheelTau)}}}
	if limit {
		set.TendonLimits = []constraint.TendonLimit{{Name: "t", Terms: terms, Lower: math.Inf(-1), Upper: 0.02}}
	} else {
		set.Couplers = []constraint.Coupler{{Name: "t", Terms: terms}}
	}
	if prescribed {
		set.Prescribed = []constraint.Prescribed{{Name: "drive", Body: len(wheelI), DOFs: []int{0},
			Motion: []constraint.Signal{constraint.Func(func(t float64) (float64, float64) { return 0.2 * t, 0.2 })}}}
	}
	return m, set
}

// TestTendonOverFourTrees: a coupler and a tendon limit over four trees
// (one constraint block with four J blocks), with and without a fifth,
// prescribed tree in the tendon (sim's elimination), under SAP (dense and
// sparse Newton systems, and split into islands), PGS, the interior-point
// reference and Drumwright's solver: once the tendon is held the wheels
// accelerate as the closed form says, to 1e-6 relative (the near-rigid
// regularization's order, as TestCouplerGears; measured: 2.1e-13, PGS
// 3.7e-8), and a warmed-up step allocates nothing.
func TestTendonOverFourTrees(t *testing.T) {
	sapWith := func(l sap.Linear) solver.Solver {
		p := sap.DefaultParams()
		p.Linear = l
		return sap.New(p)
	}
	byName := func(name string) solver.Solver {
		p := solver.DefaultParams()
		p.DT = wheelStep
		s, err := solver.New(name, p)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	solvers := []struct {
		name string
		make func() solver.Solver
	}{
		{"sap dense", func() solver.Solver { return sapWith(sap.DenseLinear) }},
		{"sap sparse", func() solver.Solver { return sapWith(sap.SparseLinear) }},
		{"sap islands", func() solver.Solver {
			return island.New(func() solver.Solver { return sap.New(sap.DefaultParams()) }, 2)
		}},
		{"pgs", func() solver.Solver { return byName("pgs") }},
		{"ipm", func() solver.Solver { return byName("ipm") }},
		{"drumwright", func() solver.Solver { return byName("drumwright") }},
	}
	want := wheelAccel()
	for _, sv := range solvers {
		for _, limit := range []bool{false, true} {
			for _, presc := range []bool{false, true} {
				m, set := wheels(t, limit, presc)
				sm := newConstrained(t, m, m.NewState(), set, wheelStep, sim.SymplecticEuler, func(c *sim.Config) { c.Solver = sv.make() })
				const n = 1000
				v1 := make([]float64, len(wheelI))
				for i := range n {
					if _, err := sm.Step(); err != nil {
						t.Fatalf("%s: step %d: %v", sv.name, i, err)
					}
					if i == n/2 {
						copy(v1, sm.State.V)
					}
				}
				worst := 0.0
				for k, a := range want {
					got := (sm.State.V[k] - v1[k]) / (float64(n/2-1) * wheelStep)
					worst = math.Max(worst, math.Abs(got-a)/math.Abs(a))
				}
				allocs := testing.AllocsPerRun(10, func() {
					if _, err := sm.Step(); err != nil {
						t.Fatal(err)
					}
				})
				r := report(t, sm, "t")
				t.Logf("%s, limit %v, prescribed %v: accelerations %.2g relative from the closed form; tendon error %.3g; %v allocations per warmed-up step",
					sv.name, limit, presc, worst, r.Violation, allocs)
				if allocs != 0 {
					t.Errorf("%s, limit %v, prescribed %v: %v allocations per warmed-up step", sv.name, limit, presc, allocs)
				}
				if !(worst <= 1e-6) {
					t.Errorf("%s, limit %v, prescribed %v: accelerations %.3g relative from the closed form %v", sv.name, limit, presc, worst, want)
				}
			}
		}
	}
}
