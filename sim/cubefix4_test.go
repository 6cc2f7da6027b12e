package sim_test

import (
	"math"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/stiction-sim/stiction/contact"
	mjcfload "github.com/stiction-sim/stiction/model/load"
	"github.com/stiction-sim/stiction/scene"
	"github.com/stiction-sim/stiction/sim"
)

// cubefix4Sim builds the MJCF model at path (under internal/mjref's
// testdata) with its velocities set to a spread of non-zero values, so
// that the bodies move.
func cubefix4Sim(t *testing.T, path string) (*sim.Simulator, int) {
	t.Helper()
	sc, _, err := mjcfload.Scene(filepath.Join("..", "internal", "mjref", "testdata", path), nil, mjcfload.Options{})
	if err != nil {
		t.Fatal(err)
	}
	b, err := scene.Build(sc)
	if err != nil {
		t.Fatal(err)
	}
	for i := range b.State.V {
		b.State.V[i] = 0.7 * math.Sin(float64(3*i+1))
	}
	s, err := sim.New(b.Model, b.State, b.Config)
	if err != nil {
		t.Fatal(err)
	}
	acts := 0
	if c := b.Config.Constraints; c != nil {
		acts = len(c.Actuators)
	}
	return s, acts
}

// TestCubefix4IdleStepsMatch: on models whose geometries cannot touch one
// another (dm_control's reacher, <flag contact="disable"/>; Gymnasium's
// reacher, every contype 0; and the others found so: pendulum, cartpole,
// acrobot, swimmer, lqr), the steps that skip
// the contact stages (idle) give the states, statistics, contacts and
// checkpoints of the steps that run them, to the bit, under changing
// controls; also after a Restore of a checkpoint that holds a remembered
// contact, which the first step after it must not skip (it forgets the
// contact, as a step that runs the memory does) and the next may. A model
// that can collide (dm_control's finger) is never idle.
func TestCubefix4IdleStepsMatch(t *testing.T) {
	never := map[string]bool{"dm_control/suite/reacher.xml": true, "gymnasium/reacher.xml": true}
	for _, path := range []string{"dm_control/suite/reacher.xml", "gymnasium/reacher.xml", "dm_control/suite/pendulum.xml",
		"dm_control/suite/cartpole.xml", "dm_control/suite/acrobot.xml", "dm_control/suite/swimmer.xml", "dm_control/suite/lqr.xml", "dm_control/suite/finger.xml"} {
		idle, acts := cubefix4Sim(t, path)
		restore := sim.SetIdleSteps(false)
		full, _ := cubefix4Sim(t, path)
		restore()
		noContact, _ := sim.IdleState(idle)
		if off, _ := sim.IdleState(full); off {
			t.Fatalf("%s: idle steps turned off, yet the model is marked", path)
		}
		if never[path] && !noContact {
			t.Fatalf("%s: its geometries cannot touch, but the model is not marked", path)
		}
		if path == "dm_control/suite/finger.xml" && noContact {
			t.Fatalf("%s: a model that collides is marked as one that cannot", path)
		}
		t.Logf("%s: no contact possible: %v", path, noContact)
		var mid *sim.Checkpoint
		for i := range 300 {
			if i == 150 {
				mid = idle.Checkpoint()
				mid.Contacts = []contact.Memo{{GeomA: 0, GeomB: 1, Age: 3, Impulse: [3]float64{0.1, 0.2, 1}, PhiEnd: -1e-4}}
				for _, s := range []*sim.Simulator{idle, full} {
					if err := s.Restore(mid); err != nil {
						t.Fatal(err)
					}
				}
			}
			for k := range acts {
				u := 0.3 * math.Sin(0.05*float64(i)+float64(k))
				for _, s := range []*sim.Simulator{idle, full} {
					if err := s.SetControl(k, u, 0); err != nil {
						t.Fatal(err)
					}
				}
			}
			got, err := idle.Step()
			if err != nil {
				t.Fatal(err)
			}
			want, err := full.Step()
			if err != nil {
				t.Fatal(err)
			}
			if !sameState(idle, full) || !reflect.DeepEqual(got, want) || len(idle.Contacts()) != len(full.Contacts()) {
				t.Fatalf("%s step %d: the idle step's state or statistics differ\n%+v\nwant\n%+v", path, i+1, got, want)
			}
			if a, b := idle.Checkpoint(), full.Checkpoint(); !reflect.DeepEqual(a, b) {
				t.Fatalf("%s step %d: checkpoints differ: contacts %v, want %v", path, i+1, a.Contacts, b.Contacts)
			}
			_, wasIdle := sim.IdleState(idle)
			if wantIdle := noContact && i != 150; wasIdle != wantIdle {
				t.Fatalf("%s step %d: idle %v, want %v", path, i+1, wasIdle, wantIdle)
			}
		}
		if mid == nil || (noContact && len(mid.Contacts) != 1) {
			t.Fatal("the restore did not happen")
		}
	}
}
