package sim_test

import (
	"math"
	"path/filepath"
	"reflect"
	"slices"
	"testing"

	"github.com/stiction-sim/stiction/constraint"
	"github.com/stiction-sim/stiction/internal/cputime"
	mjcfload "github.com/stiction-sim/stiction/model/load"
	"github.com/stiction-sim/stiction/sim"
)

// TestLazyRowsMatchStep: the constraint rows of a direct step of
// mujoco-euler and rk4 (explicit actuators, limits within their bounds),
// which Advance leaves until they are read, give what Step's give, to the
// bit: JointForces, Impulses, ContactVelocities, ConstraintReports and
// Stats, read in turn after a different number of steps, also after
// PotentialEnergy (which moves the kinematics to the new state) and after
// SetControl (which changes the controls the rows were made with). The
// deferral must have happened (RowsWaiting), or the test proves nothing.
func TestLazyRowsMatchStep(t *testing.T) {
	acts := func(c *sim.Config) {
		c.Constraints = &constraint.Set{
			Limits: []constraint.Limit{{Name: "stop", Body: 0, Lower: -3, Upper: 3}, {Name: "knee", Body: 1, Lower: -3, Upper: 3}},
			Actuators: []constraint.Actuator{
				{Name: "motor", Type: constraint.Motor, Body: 0, Gear: 2, Target: constraint.Constant(0.3)},
				{Name: "general", Type: constraint.General, Body: 1, Gain: 1, Bias: [3]float64{0.1, -2, -0.5}, Explicit: true},
				{Name: "servo", Type: constraint.Position, Body: 0, Kp: 0.5, Kd: 0.1, Target: constraint.Constant(0.2), Explicit: true},
			},
		}
	}
	for _, sc := range []sim.Scheme{sim.MuJoCoEuler, sim.RK4} {
		ref, adv := doublePendulum(t, sc, mjH, acts), doublePendulum(t, sc, mjH, acts)
		waited := 0
		jr, or := make([]float64, 2), make([]float64, 2)
		ja, oa := make([]float64, 2), make([]float64, 2)
		for i := range 120 {
			want, err := ref.Step()
			if err != nil {
				t.Fatal(err)
			}
			if err := adv.Advance(); err != nil {
				t.Fatal(err)
			}
			if sim.RowsWaiting(adv) {
				waited++
			}
			switch i % 5 {
			case 0:
				ref.JointForces(jr, or)
				adv.JointForces(ja, oa)
				if !sameBits(ja, jr) || !sameBits(oa, or) {
					t.Fatalf("%s step %d: JointForces after Advance %v %v, after Step %v %v", sc.Name, i+1, ja, oa, jr, or)
				}
			case 1:
				if !sameBits(adv.Impulses(), ref.Impulses()) || !sameBits(adv.ContactVelocities(), ref.ContactVelocities()) {
					t.Fatalf("%s step %d: Impulses %v, want %v", sc.Name, i+1, adv.Impulses(), ref.Impulses())
				}
			case 2:
				if pa, pr := adv.PotentialEnergy(), ref.PotentialEnergy(); pa != pr {
					t.Fatalf("%s step %d: potential energy %v, want %v", sc.Name, i+1, pa, pr)
				}
				ref.JointForces(jr, or)
				adv.JointForces(ja, oa)
				if !sameBits(ja, jr) || !sameBits(oa, or) {
					t.Fatalf("%s step %d: JointForces after PotentialEnergy %v %v, want %v %v", sc.Name, i+1, ja, oa, jr, or)
				}
			case 3:
				u := 0.1 * float64(i%7)
				for _, s := range []*sim.Simulator{ref, adv} {
					if err := s.SetControl(0, u, 0); err != nil {
						t.Fatal(err)
					}
				}
				if got, want := adv.ConstraintReports(), ref.ConstraintReports(); !reflect.DeepEqual(got, want) {
					t.Fatalf("%s step %d: reports after SetControl\n%+v\nwant\n%+v", sc.Name, i+1, got, want)
				}
			case 4:
				if got := adv.Stats(); got != want {
					t.Fatalf("%s step %d: Stats %+v, want %+v", sc.Name, i+1, got, want)
				}
			}
			if !sameState(ref, adv) {
				t.Fatalf("%s step %d: states differ", sc.Name, i+1)
			}
		}
		if waited < 100 {
			t.Errorf("%s: the rows waited in %d of 120 steps, want nearly all (direct steps)", sc.Name, waited)
		}
	}
}

// sameBits reports whether a and b hold the same float64 bit patterns.
func sameBits(a, b []float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if math.Float64bits(a[i]) != math.Float64bits(b[i]) {
			return false
		}
	}
	return true
}

// TestFilteredBroadPhase: on the chain swinging into the ground (links
// that touch the ground and one another), the filtered broad
// phase (few collidable pairs: their boxes tested one by one) gives the
// pairs of the tree's candidates that Model.Collidable admits, in the same
// order, at every step; some steps have candidates, so the comparison is
// not between empty lists.
func TestFilteredBroadPhase(t *testing.T) {
	for _, name := range []string{"chain"} {
		s, _ := load(t, name)
		nonEmpty := 0
		for i := range 600 {
			direct, got, want := sim.FilteredCandidates(s)
			if !direct {
				t.Fatalf("%s: the filtered broad phase is not used", name)
			}
			if !reflect.DeepEqual(got, want) && (len(got) > 0 || len(want) > 0) {
				t.Fatalf("%s step %d: filtered candidates %v, the tree's collidable ones %v", name, i, got, want)
			}
			if len(want) > 0 {
				nonEmpty++
			}
			if _, err := s.Step(); err != nil {
				t.Fatal(err)
			}
		}
		t.Logf("%s: %d of 600 states with candidate pairs", name, nonEmpty)
		if nonEmpty == 0 {
			t.Errorf("%s: no state had a candidate pair", name)
		}
	}
}

// BenchmarkFastPaths times Advance with the filtered broad phase and the
// deferred rows of direct steps against the same simulator without them
// (SlowPaths), in one process: two simulators from the same initial state
// take the same steps, in chunks of 500 that alternate between them (b.N
// chunks each, the order swapped every round), and it reports the medians
// of the chunks' CPU time per step (fast-cpu-ns, slow-cpu-ns) and their
// ratio, which a loaded machine shifts less than it shifts two processes'
// times. It fails if the two states part by a bit:
//
//	go test ./sim -run XXX -bench FastPaths -benchtime 20x
func BenchmarkFastPaths(b *testing.B) {
	const chunk = 500
	for _, f := range []string{"pendulum", "cartpole", "acrobot", "reacher", "finger", "point_mass", "ball_in_cup", "swimmer"} {
		b.Run(f, func(b *testing.B) {
			path := filepath.Join("..", "internal", "mjref", "testdata", "dm_control", "suite", f+".xml")
			mk := func() *sim.Simulator {
				sc, _, err := mjcfload.Scene(path, nil, mjcfload.Options{})
				if err != nil {
					b.Skipf("%s: %v", f, err)
				}
				s, _ := newSim(b, sc)
				return s
			}
			sims := [2]*sim.Simulator{mk(), mk()}
			sim.SlowPaths(sims[1])
			var per [2][]float64
			for i := range b.N {
				for k := range 2 {
					j := (i + k) % 2
					c0 := cputime.Process()
					for range chunk {
						if err := sims[j].Advance(); err != nil {
							b.Fatal(err)
						}
					}
					per[j] = append(per[j], (cputime.Process()-c0).Seconds()/chunk)
				}
			}
			if !sameState(sims[0], sims[1]) {
				b.Fatalf("%s: the fast and slow paths' states differ after %d steps", f, b.N*chunk)
			}
			med := func(x []float64) float64 { slices.Sort(x); return x[len(x)/2] }
			fast, slow := med(per[0]), med(per[1])
			b.ReportMetric(fast*1e9, "fast-cpu-ns")
			b.ReportMetric(slow*1e9, "slow-cpu-ns")
			b.ReportMetric(fast/slow, "fast/slow")
		})
	}
}
