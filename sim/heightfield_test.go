package sim_test

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/stiction-sim/stiction/scene"
)

// groundScene is a box and a sphere dropped on a ground given by %s.
const groundScene = `
name: ground
dt: 0.001
duration: 0.5
materials:
  default: {stiffness: 1e6, dissipation: 0.1, friction: 0.8}
bodies:
  - name: ground
    fixed: true
    shape: %s
    material: default
    pose: {position: [0.1, -0.05, 0.02], rpy_deg: [%v, 0, 0]}
  - name: box
    shape: {type: box, size: [0.3, 0.2, 0.1]}
    material: default
    density: 500
    pose: {position: [0.12, 0.21, %v], rpy_deg: [%v, 0, 3]}
  - name: ball
    shape: {type: sphere, radius: 0.07}
    material: default
    density: 800
    pose: {position: [-0.4, %v, %v], rpy_deg: [%v, 0, 0]}
`

// A box and a sphere settle on a flat height field exactly as on a
// half-space: after 0.5 s their positions agree to rounding.
func TestHeightFieldFlatMatchesHalfSpace(t *testing.T) {
	field := "{type: heightfield, size: [2.4, 2, 0.3], rows: 13, cols: 17, base: 0.05}"
	var pos [2][2][3]float64
	for i, shape := range []string{"{type: halfspace}", field} {
		sc, err := scene.Parse("g.yaml", []byte(fmt.Sprintf(groundScene, shape, 0, 0.09, 0, -0.3, 0.1, 0)), nil)
		if err != nil {
			t.Fatal(err)
		}
		s, _ := newSim(t, sc)
		runSteps(t, s, 500)
		for j, name := range []string{"box", "ball"} {
			pos[i][j] = position(t, s, name)
		}
	}
	for j, name := range []string{"box", "ball"} {
		for k := range 3 {
			if d := math.Abs(pos[0][j][k] - pos[1][j][k]); d > 1e-9 {
				t.Errorf("%s: position %v on the half-space, %v on the height field", name, pos[0][j], pos[1][j])
				break
			}
		}
	}
	t.Logf("box rests at z = %.9f (half-space) and %.9f (height field)", pos[0][0][2], pos[1][0][2])
}

// On a field tilted by 10° a sphere rolls down the slope without
// slipping (friction 0.8): the contact normal is the slope's, so its centre
// stays one radius (less the penetration) from the plane and it travels
// (5/14)·g·sin 10°·t² along the line of steepest descent.
func TestHeightFieldSlopeRoll(t *testing.T) {
	field := "{type: heightfield, size: [2.4, 2, 0.3], rows: 7, cols: 9, base: 0.05, heights: [" + strings.TrimSuffix(strings.Repeat("0.5, ", 63), ", ") + "]}"
	// Ball centre on the tilted plane z' = 0.15 (local), one radius above.
	const deg = 10.0
	c, s := math.Cos(deg*math.Pi/180), math.Sin(deg*math.Pi/180)
	// Local point (−0.4, −0.3, 0.15 + 0.07) rotated about x by deg, then
	// shifted by the ground's position.
	ly, lz := -0.3, 0.15+0.07
	wy, wz := c*ly-s*lz-0.05, s*ly+c*lz+0.02
	sc, err := scene.Parse("g.yaml", []byte(fmt.Sprintf(groundScene, field, deg, 0.5, deg, wy, wz, deg)), nil)
	if err != nil {
		t.Fatal(err)
	}
	sim, _ := newSim(t, sc)
	p0 := position(t, sim, "ball")
	runSteps(t, sim, 500)
	p1 := position(t, sim, "ball")
	// Distance of the centre from the plane, along its normal.
	n := [3]float64{0, -s, c}
	o := [3]float64{0.1, -0.05 - s*0.15, 0.02 + c*0.15}
	d := (p1[0]-o[0])*n[0] + (p1[1]-o[1])*n[1] + (p1[2]-o[2])*n[2]
	if pen := 0.07 - d; pen < 0 || pen > 1e-3 {
		t.Errorf("ball centre %v from the tilted plane, want 0.07 less a small penetration", d)
	}
	down := [3]float64{0, -c, -s} // steepest descent
	dp := p1.Sub(p0)
	along := dp[0]*down[0] + dp[1]*down[1] + dp[2]*down[2]
	want := 5.0 / 14 * 9.81 * s * 0.25
	if math.Abs(along-want) > 0.02*want || math.Abs(dp[0]) > 1e-6 {
		t.Errorf("ball moved %v: %v along the slope, want %v (rolling), and 0 across", dp, along, want)
	}
	t.Logf("ball %.4g m from the plane after 0.5 s, rolled %.4g m down the slope (rolling without slip: %.4g)", d, along, want)
}

// A warmed-up step with height-field contacts allocates nothing.
func TestHeightFieldStepAllocatesNothing(t *testing.T) {
	field := "{type: heightfield, size: [2.4, 2, 0.3], rows: 7, cols: 9, base: 0.05, heights: [" + strings.TrimSuffix(strings.Repeat("0.5, 0.2, 0.9, ", 21), ", ") + "]}"
	sc, err := scene.Parse("g.yaml", []byte(fmt.Sprintf(groundScene, field, 5, 0.45, 20, -0.3, 0.4, 0)), nil)
	if err != nil {
		t.Fatal(err)
	}
	s, _ := newSim(t, sc)
	runSteps(t, s, 300)
	if a := testing.AllocsPerRun(50, func() {
		if _, err := s.Step(); err != nil {
			t.Fatal(err)
		}
	}); a != 0 {
		t.Errorf("%v allocations per step", a)
	}
}
