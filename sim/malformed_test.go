package sim_test

import (
	"strings"
	"testing"

	"github.com/stiction-sim/stiction/scene"
	"github.com/stiction-sim/stiction/sim"
	"github.com/stiction-sim/stiction/solver"
)

// zeroR is a contact solver that sets R of the problem's first row to 0
// before handing it to the real one: a malformed problem, as
// dm_control's reacher produced before its null rows were handled.
type zeroR struct{ solver.Solver }

func (z zeroR) Solve(p *solver.Problem, v0 []float64, res *solver.Result) error {
	if len(p.R) > 0 {
		p.R[0] = 0
	}
	return z.Solver.Solve(p, v0, res)
}

// TestMalformedContactNamed: SAP's validation error on a contact row
// ("R[0] = 0 must be positive and finite") reaches the caller naming the
// contact's two bodies and geometries.
func TestMalformedContactNamed(t *testing.T) {
	sc, err := scene.Load("drop", []string{"dt=0.001"})
	if err != nil {
		t.Fatal(err)
	}
	b, err := scene.Build(sc)
	if err != nil {
		t.Fatal(err)
	}
	cfg := b.Config
	cfg.Solver = zeroR{cfg.Solver}
	s, err := sim.New(b.Model, b.State, cfg)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 2000; i++ {
		if _, err = s.Step(); err != nil {
			break
		}
	}
	t.Logf("error: %v", err)
	if err == nil || !strings.Contains(err.Error(), `body "ball"`) || !strings.Contains(err.Error(), "R[0] = 0") || !strings.Contains(err.Error(), "geometry") {
		t.Errorf("error %v: want the contact's bodies and geometries and R[0] = 0", err)
	}
}

// TestWeldedThroughMasslessFrame: a palm welded to a massless frame welded
// to a hinged arm link overlaps the link (the Allegro hand's palm on the
// iiwa's link 7 through the massless hand_root, docs/MODELS.md's include
// example, which stopped at step 1 with "R[0] = 0"). Bodies of one rigid
// group never make a contact: the arm swings under gravity for 1 s.
func TestWeldedThroughMasslessFrame(t *testing.T) {
	doc := `dt: 0.001
duration: 1
materials: {steel: {stiffness: 1.0e6, dissipation: 0.01, friction: 0.5}}
bodies:
  - name: link
    shape: {type: box, size: [0.1, 0.1, 0.3]}
    material: steel
    density: 1000
    joint: {type: revolute, parent: world, parent_frame: {position: [0, 0, 1]}, child_frame: {position: [0, 0, 0.15]}, axis: [0, 1, 0], q0: [0.5]}
  - name: frame
    joint: {type: weld, parent: link, parent_frame: {position: [0, 0, -0.15]}}
  - name: palm
    shape: {type: box, size: [0.12, 0.12, 0.05]}
    material: steel
    density: 1000
    joint: {type: weld, parent: frame, parent_frame: {position: [0, 0, 0.01]}}
`
	sc, err := scene.Parse("welded.yaml", []byte(doc), nil)
	if err != nil {
		t.Fatal(err)
	}
	s, b := newSim(t, sc)
	qi := b.Model.Bodies[b.Model.BodyByName("link")].QOff
	lo := 0.5
	for range 1000 {
		step(t, s)
		if n := len(s.Contacts()); n != 0 {
			t.Fatalf("%d contacts between bodies of one rigid group", n)
		}
		lo = min(lo, s.State.Q[qi])
	}
	t.Logf("swung from 0.5 rad down to %.4f rad", lo)
	if lo > -0.4 {
		t.Errorf("the arm did not swing: lowest θ %g", lo)
	}
}
