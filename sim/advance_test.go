package sim_test

import (
	"math"
	"reflect"
	"testing"

	"github.com/stiction-sim/stiction/sim"
)

// advanceScenes are scenes for TestAdvanceMatchesStep: contacts with
// persistent anchors (clutter), an articulated chain on the ground under
// MuJoCo's Euler (joint damping, contact) and under RK4 (the double
// pendulum's four stages), force elements (spring-cylinder), and an arm
// with joint limits and an actuator (constraint reports).
var advanceScenes = []struct {
	scene string
	steps int
	sets  []string
}{
	{"clutter", 150, nil},
	{"chain", 300, []string{"scheme=mujoco-euler"}},
	{"double-pendulum", 100, []string{"scheme=rk4"}},
	{"spring-cylinder", 100, nil},
	{"arm", 200, []string{"actuators.shoulder.target={constant: 0.6}"}},
}

// TestAdvanceMatchesStep: Advance leaves the state Step leaves, to the bit,
// step after step, and Stats after an Advance returns Step's statistics
// (the energies included; the stage timers are off), whether it is read
// after every step, every third, or never, and ConstraintReports Step's
// reports.
func TestAdvanceMatchesStep(t *testing.T) {
	reports := 0
	for _, c := range advanceScenes {
		ref, _ := load(t, c.scene, c.sets...)
		adv, _ := load(t, c.scene, c.sets...)
		if st := adv.Stats(); st != (sim.StepStats{}) {
			t.Fatalf("%s: Stats before the first step = %+v, want zero", c.scene, st)
		}
		for i := range c.steps {
			want, err := ref.Step()
			if err != nil {
				t.Fatalf("%s: Step %d: %v", c.scene, i+1, err)
			}
			if err := adv.Advance(); err != nil {
				t.Fatalf("%s: Advance %d: %v", c.scene, i+1, err)
			}
			if !sameState(ref, adv) {
				t.Fatalf("%s: step %d: the state after Advance differs from Step's", c.scene, i+1)
			}
			if i%3 != 0 {
				continue
			}
			if i%2 == 0 { // the reports first: they gather the statistics too
				got, want := adv.ConstraintReports(), ref.ConstraintReports()
				reports += len(want)
				if !reflect.DeepEqual(got, want) {
					t.Fatalf("%s: step %d: ConstraintReports after Advance\n%+v\nwant Step's\n%+v", c.scene, i+1, got, want)
				}
			}
			if got := adv.Stats(); got != want {
				t.Fatalf("%s: step %d: Stats after Advance\n%+v\nwant Step's\n%+v", c.scene, i+1, got, want)
			}
			if again := adv.Stats(); again != want {
				t.Fatalf("%s: step %d: a second Stats differs: %+v", c.scene, i+1, again)
			}
		}
	}
	if reports == 0 {
		t.Fatal("no scene has constraint reports to compare")
	}
}

// sameState reports whether a and b hold the same bits of t, q, v and the
// activations.
func sameState(a, b *sim.Simulator) bool {
	same := func(x, y []float64) bool {
		if len(x) != len(y) {
			return false
		}
		for i := range x {
			if math.Float64bits(x[i]) != math.Float64bits(y[i]) {
				return false
			}
		}
		return true
	}
	sa, sb := a.State, b.State
	return math.Float64bits(sa.T) == math.Float64bits(sb.T) && same(sa.Q, sb.Q) && same(sa.V, sb.V) && same(sa.Act, sb.Act)
}

// TestStatsAfterRestore: Restore forgets the last step's statistics.
func TestStatsAfterRestore(t *testing.T) {
	s, _ := load(t, "clutter")
	c := s.Checkpoint()
	runSteps(t, s, 5)
	if s.Stats().Step != 5 {
		t.Fatalf("Stats().Step = %d after 5 steps", s.Stats().Step)
	}
	if err := s.Restore(c); err != nil {
		t.Fatal(err)
	}
	if st := s.Stats(); st != (sim.StepStats{}) {
		t.Fatalf("Stats after Restore = %+v, want zero", st)
	}
}

// TestAdvanceAllocatesNothing: a warmed-up Advance, and the Stats read
// after it, allocate nothing.
func TestAdvanceAllocatesNothing(t *testing.T) {
	for _, c := range advanceScenes {
		s, _ := load(t, c.scene, c.sets...)
		runSteps(t, s, c.steps)
		allocs := testing.AllocsPerRun(50, func() {
			if err := s.Advance(); err != nil {
				t.Fatal(err)
			}
			_ = s.Stats()
		})
		if allocs != 0 {
			t.Errorf("%s %v: %v allocations per Advance and Stats, want 0", c.scene, c.sets, allocs)
		}
	}
}
