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
	out := map[string]*scene.Scene{"zero Scene": {}, "name, dt, duration only": {Name: "x", DT: 0.01, Duration: 1}, "minimal, no defaults": minimal()}
	for name, edit := range map[string]func(s *scene.Scene){
		"with a zero Body":       func(s *scene.Scene) { s.Bodies = append(s.Bodies, scene.Body{}) },
		"with a zero Joint":      func(s *scene.Scene) { s.Bodies[0].Joint = &scene.Joint{} },
		"with a zero Shape":      func(s *scene.Scene) { s.Bodies[0].Shape = &scene.Shape{} },
		"with a zero Material":   func(s *scene.Scene) { s.Materials = map[string]scene.Material{"default": {}} },
		"with a zero Actuator":   func(s *scene.Scene) { s.Actuators = []scene.Actuator{{}} },
		"with a zero Constraint": func(s *scene.Scene) { s.Constraints = []scene.Constraint{{}} },
		"with a zero Force":      func(s *scene.Scene) { s.Forces = []scene.Force{{}} },
		"with a zero Tendon":     func(s *scene.Scene) { s.Tendons = []scene.Tendon{{}} },
		"with a zero Sensor":     func(s *scene.Scene) { s.Sensors = []scene.Sensor{{}} },
		"with a zero Keyframe":   func(s *scene.Scene) { s.Keyframes = []scene.Keyframe{{}} },
		"with a zero Collision":  func(s *scene.Scene) { s.Bodies[0].Collisions = []scene.Collision{{}} },
		"with a zero Visual":     func(s *scene.Scene) { s.Bodies[0].Visuals = []scene.Visual{{}} },
	} {
		s := minimal()
		edit(s)
		out[name] = s
	}
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
