package sim_test

import (
	"testing"

	"github.com/stiction-sim/stiction/scene"
	"github.com/stiction-sim/stiction/sim"
)

// valleyYAML drops a sphere, a box, a capsule and a cylinder into a valley
// of two half-spaces tilted by ±30° about y, beside a third, steep wall
// that nothing reaches: tilted planes have unbounded boxes, which overlap
// every other box in the broad phase.
const valleyYAML = `name: valley
dt: 0.01
duration: 3
materials:
  default: {stiffness: 1e12, dissipation: 0.01, friction: 0.5}
bodies:
  - {name: left, fixed: true, shape: {type: halfspace}, material: default, pose: {axis_angle: {axis: [0, 1, 0], angle_deg: 30}}}
  - {name: right, fixed: true, shape: {type: halfspace}, material: default, pose: {axis_angle: {axis: [0, 1, 0], angle_deg: -30}}}
  - {name: far, fixed: true, shape: {type: halfspace}, material: default, pose: {position: [4, 0, 0], axis_angle: {axis: [0, 1, 0], angle_deg: -80}}}
  - {name: ball, shape: {type: sphere, radius: 0.05}, material: default, density: 1000, pose: {position: [0.4, 0, 0.5]}}
  - {name: cube, shape: {type: box, size: [0.1, 0.1, 0.1]}, material: default, density: 1000, pose: {position: [-0.5, 0.2, 0.8], axis_angle: {axis: [1, 1, 0], angle_deg: 20}}}
  - {name: rod, shape: {type: capsule, radius: 0.03, length: 0.2}, material: default, density: 1000, pose: {position: [0.1, -0.2, 1.2], axis_angle: {axis: [1, 0, 0], angle_deg: 70}}}
  - {name: can, shape: {type: cylinder, radius: 0.04, length: 0.1}, material: default, density: 1000, pose: {position: [-0.1, 0.3, 1.5], axis_angle: {axis: [0, 1, 1], angle_deg: 40}}}
`

// TestPlaneCullSameTrajectory: the narrow phase's culling of half-space
// pairs whose other geometry lies beyond the slack (beyondHalfSpace)
// leaves the valley's trajectory the same to the bit as without it, while
// it culls most of the plane pairs (the far wall's at every step, the
// valley's until each body lands).
func TestPlaneCullSameTrajectory(t *testing.T) {
	run := func(cull bool) (*sim.Simulator, [][]float64) {
		defer sim.SetPlaneCulling(cull)()
		sc, err := scene.Parse("valley.yaml", []byte(valleyYAML), nil)
		if err != nil {
			t.Fatal(err)
		}
		s, _ := newSim(t, sc)
		var traj [][]float64
		for range 300 {
			if _, err := s.Step(); err != nil {
				t.Fatal(err)
			}
			traj = append(traj, append(append([]float64(nil), s.State.Q...), s.State.V...))
		}
		return s, traj
	}
	on, got := run(true)
	off, want := run(false)
	for k := range want {
		if !sameBits(got[k], want[k]) {
			t.Fatalf("step %d: state with culling %v, without %v", k, got[k], want[k])
		}
	}
	if n := sim.PlaneCulled(off); n != 0 {
		t.Errorf("culling off culled %d pairs", n)
	}
	// 4 bodies × 3 planes × 300 steps = 3600 plane pairs at most; the far
	// wall's 1200 alone are all beyond.
	n := sim.PlaneCulled(on)
	t.Logf("culled %d plane pairs in 300 steps", n)
	if n < 1200 {
		t.Errorf("culled %d plane pairs, want at least the far wall's 1200", n)
	}
	if c := on.Stats().Contacts; c == 0 {
		t.Errorf("no contacts at the end: the bodies never landed")
	}
}

// TestPlaneCullBroadPhase: the filtered broad phase culls the valley's
// half-space pairs itself (planeCull) instead of handing them to the
// narrow phase, whose own test (beyondHalfSpace) the tree's path keeps
// (SlowPaths): both paths cull the same pairs, as many at every step, and
// take the same steps to the bit.
func TestPlaneCullBroadPhase(t *testing.T) {
	sc, err := scene.Parse("valley.yaml", []byte(valleyYAML), nil)
	if err != nil {
		t.Fatal(err)
	}
	fast, _ := newSim(t, sc)
	slow, _ := newSim(t, sc)
	sim.SlowPaths(slow)
	for k := range 300 {
		for _, s := range []*sim.Simulator{fast, slow} {
			if _, err := s.Step(); err != nil {
				t.Fatal(err)
			}
		}
		if !sameState(fast, slow) {
			t.Fatalf("step %d: the filtered and tree paths' states differ", k)
		}
		if a, b := sim.PlaneCulled(fast), sim.PlaneCulled(slow); a != b {
			t.Fatalf("step %d: the filtered broad phase culled %d pairs, the narrow phase after the tree %d", k, a, b)
		}
	}
	if n := sim.PlaneCulled(fast); n < 1200 {
		t.Errorf("culled %d plane pairs, want at least the far wall's 1200", n)
	}
}
