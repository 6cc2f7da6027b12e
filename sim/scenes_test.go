package sim_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stiction-sim/stiction/scene"
	"github.com/stiction-sim/stiction/sim"
)

// Scene builders for the everyday-contact tests (issue 12): cubes on a
// floor, stacks, pushes. Every scene has one material "m" with k = 1e12
// N/m, τd = δt and the given μ (the SAP paper's clutter parameters), a
// ground half-space named "ground", and cubes of side a = 10 cm and 1 kg.

const cubeSide, cubeMass = 0.1, 1.0

func ptr[T any](v T) *T { return &v }

// floorScene returns a scene with the ground and no other body.
func floorScene(name string, dt, duration, mu float64, approx string) *scene.Scene {
	return &scene.Scene{
		Name: name, DT: dt, Duration: duration,
		Contact:   scene.ContactParams{Approximation: approx},
		Materials: map[string]scene.Material{"m": {Stiffness: ptr(1e12), Dissipation: ptr(dt), Friction: ptr(mu)}},
		Bodies: []scene.Body{{Name: "ground", Fixed: true, Shape: &scene.Shape{Type: "halfspace"}, Material: "m",
			Pose: scene.Pose{Position: &scene.Vec{0, 0, 0}}}},
	}
}

// addCube adds a cube at position p with yaw (degrees) and linear velocity v.
func addCube(s *scene.Scene, name string, p scene.Vec, rpyDeg scene.Vec, v scene.Vec) {
	s.Bodies = append(s.Bodies, scene.Body{
		Name: name, Shape: &scene.Shape{Type: "box", Size: &scene.Vec{cubeSide, cubeSide, cubeSide}}, Material: "m",
		Mass: ptr(cubeMass), Pose: scene.Pose{Position: &p, RPYDeg: &rpyDeg},
		Velocity: &scene.Velocity{Linear: &v},
	})
}

// stackScene is n cubes stacked on the ground, each displaced laterally by
// up to maxOffset (m) and yawed by up to maxYawDeg, from a seeded random
// generator, and placed exactly touching (φ = 0) the one below.
func stackScene(n int, seed uint64, maxOffset, maxYawDeg, dt, duration float64, approx string) *scene.Scene {
	s := floorScene(fmt.Sprintf("stack-%d-seed%d", n, seed), dt, duration, 0.5, approx)
	rng := rand.New(rand.NewPCG(seed, 12))
	for i := range n {
		ox, oy := maxOffset*(2*rng.Float64()-1), maxOffset*(2*rng.Float64()-1)
		yaw := maxYawDeg * (2*rng.Float64() - 1)
		if i == 0 {
			ox, oy = 0, 0
		}
		addCube(s, fmt.Sprintf("c%d", i), scene.Vec{ox, oy, cubeSide/2 + float64(i)*cubeSide}, scene.Vec{0, 0, yaw}, scene.Vec{})
	}
	return s
}

// slideScene is one cube resting on the ground, yawed by yawDeg, sliding at
// speed v0 in direction dirDeg (from +x, in the ground plane).
func slideScene(v0, dirDeg, yawDeg, mu, dt, duration float64, approx string) *scene.Scene {
	s := floorScene("slide", dt, duration, mu, approx)
	d := dirDeg * math.Pi / 180
	addCube(s, "cube", scene.Vec{0, 0, cubeSide / 2}, scene.Vec{0, 0, yawDeg}, scene.Vec{v0 * math.Cos(d), v0 * math.Sin(d), 0})
	return s
}

// pushScene is one cube at rest pushed by a constant horizontal force f
// (N) in direction dirDeg through its centre (half its height).
func pushScene(f, dirDeg, yawDeg, mu, dt, duration float64, approx string) *scene.Scene {
	s := floorScene("push", dt, duration, mu, approx)
	addCube(s, "cube", scene.Vec{0, 0, cubeSide / 2}, scene.Vec{0, 0, yawDeg}, scene.Vec{})
	d := dirDeg * math.Pi / 180
	s.Forces = append(s.Forces, scene.Force{Type: "wrench", Body: "cube", Point: &scene.Vec{},
		Force: &scene.Vec{f * math.Cos(d), f * math.Sin(d), 0}})
	return s
}

// build applies defaults to s, validates it, and returns its simulator.
func build(t testing.TB, s *scene.Scene) (*sim.Simulator, *scene.Built) {
	t.Helper()
	s.ApplyDefaults()
	if err := s.Validate(s.Name); err != nil {
		t.Fatal(err)
	}
	return newSim(t, s)
}
