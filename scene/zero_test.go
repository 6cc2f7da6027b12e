package scene_test

import (
	"fmt"
	"testing"

	"github.com/stiction-sim/stiction/scene"
	"github.com/stiction-sim/stiction/sim"
)

func ptr[T any](v T) *T { return &v }

// zeroScenes are scenes built in Go from zero values and partly filled
// ones, without ApplyDefaults.
func zeroScenes() map[string]*scene.Scene {
	mat := map[string]scene.Material{"default": {Stiffness: ptr(1e6), Dissipation: ptr(0.1), Friction: ptr(0.5)}}
	minimal := func() *scene.Scene {
		return &scene.Scene{Name: "ball", DT: 0.01, Duration: 0.05, Materials: mat,
			Bodies: []scene.Body{{Name: "ball", Shape: &scene.Shape{Type: "sphere", Radius: ptr(0.1)}, Density: ptr(1000.0), Material: "default"}}}
	}
	out := map[string]*scene.Scene{"zero Scene": {}}
	out["name, dt, duration only"] = &scene.Scene{Name: "x", DT: 0.01, Duration: 1}
	s := minimal()
	out["minimal, no defaults"] = s
	s = minimal()
	s.Bodies = append(s.Bodies, scene.Body{})
	out["with a zero Body"] = s
	s = minimal()
	s.Bodies[0].Joint = &scene.Joint{}
	out["with a zero Joint"] = s
	s = minimal()
	s.Bodies[0].Shape = &scene.Shape{}
	out["with a zero Shape"] = s
	s = minimal()
	s.Materials = map[string]scene.Material{"default": {}}
	out["with a zero Material"] = s
	s = minimal()
	s.Actuators = []scene.Actuator{{}}
	out["with a zero Actuator"] = s
	s = minimal()
	s.Constraints = []scene.Constraint{{}}
	out["with a zero Constraint"] = s
	s = minimal()
	s.Forces = []scene.Force{{}}
	out["with a zero Force"] = s
	s = minimal()
	s.Tendons = []scene.Tendon{{}}
	out["with a zero Tendon"] = s
	s = minimal()
	s.Sensors = []scene.Sensor{{}}
	out["with a zero Sensor"] = s
	s = minimal()
	s.Keyframes = []scene.Keyframe{{}}
	out["with a zero Keyframe"] = s
	s = minimal()
	s.Bodies[0].Collisions = []scene.Collision{{}}
	out["with a zero Collision"] = s
	s = minimal()
	s.Bodies[0].Visuals = []scene.Visual{{}}
	out["with a zero Visual"] = s
	return out
}

// TestZeroValueScenes: scenes built in Go from zero values and partly
// filled ones, without ApplyDefaults, never panic in Validate, Build (and
// BuildModel, BuildConfig for valid ones), sim.New or Step: each gives an
// error (Build returns Validate's), or runs; Build leaves the caller's
// scene without defaults. (Before, Build panicked on every one of them.)
func TestZeroValueScenes(t *testing.T) {
	for name, s := range zeroScenes() {
		var verr, berr, serr error
		func() {
			defer func() {
				if r := recover(); r != nil {
					t.Errorf("%s: panic: %v", name, r)
				}
			}()
			verr = s.Validate("")
			if verr == nil { // BuildModel and BuildConfig take valid scenes
				m, st, err := scene.BuildModel(s)
				if err == nil {
					_, _, err = scene.BuildConfig(s, m, st)
				}
				if err != nil {
					t.Logf("%s: BuildModel, BuildConfig: %v", name, err)
				}
			}
			b, err := scene.Build(s)
			berr = err
			if err != nil {
				return
			}
			sm, err := sim.New(b.Model, b.State, b.Config)
			if serr = err; err != nil {
				return
			}
			for range b.Steps {
				if _, serr = sm.Step(); serr != nil {
					return
				}
			}
		}()
		t.Logf("%s: Validate: %v; Build: %v; run: %v", name, short(verr), short(berr), short(serr))
		switch {
		case verr != nil && berr == nil:
			t.Errorf("%s: Validate fails (%v), Build does not", name, verr)
		case name == "minimal, no defaults" && (berr != nil || serr != nil):
			t.Errorf("%s: a valid scene without defaults: Build %v, run %v", name, berr, serr)
		case s.Gravity != nil || s.Solver.Tolerance != nil:
			t.Errorf("%s: Build changed the caller's scene (defaults applied to it)", name)
		}
	}
}

// TestZeroValueSimulator: sim.New with a zero model, state or
// configuration returns an error instead of panicking.
func TestZeroValueSimulator(t *testing.T) {
	b, err := scene.Build(zeroScenes()["minimal, no defaults"])
	if err != nil {
		t.Fatal(err)
	}
	for name, f := range map[string]func() error{
		"zero Config": func() error { _, err := sim.New(b.Model, b.State, sim.Config{}); return err },
		"nil State":   func() error { _, err := sim.New(b.Model, nil, b.Config); return err },
		"nil Model":   func() error { _, err := sim.New(nil, b.State, b.Config); return err },
	} {
		func() {
			defer func() {
				if r := recover(); r != nil {
					t.Errorf("%s: panic: %v", name, r)
				}
			}()
			if err := f(); err == nil {
				t.Errorf("%s: no error", name)
			} else {
				t.Logf("%s: %v", name, err)
			}
		}()
	}
}

func short(err error) string {
	if err == nil {
		return "ok"
	}
	s := fmt.Sprint(err)
	if len(s) > 120 {
		s = s[:120] + "…"
	}
	return s
}
