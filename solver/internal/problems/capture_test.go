package problems_test

import (
	"fmt"
	"os"
	"slices"
	"testing"

	"github.com/stiction-sim/stiction/scene"
	"github.com/stiction-sim/stiction/sim"
	"github.com/stiction-sim/stiction/solver"
	"github.com/stiction-sim/stiction/solver/internal/problems"
)

// capture is a solver that records the problems of chosen solves.
type capture struct {
	inner solver.Solver
	k     int
	at    []int
	got   map[int]*problems.Captured
}

func (c *capture) Solve(p *solver.Problem, v0 []float64, res *solver.Result) error {
	c.k++
	if slices.Contains(c.at, c.k) {
		c.got[c.k] = &problems.Captured{P: p.Clone(), V0: slices.Clone(v0)}
	}
	return c.inner.Solve(p, v0, res)
}

// CaptureSteps are the clutter steps of testdata/clutter_step_N.gob.
var CaptureSteps = []int{20, 35, 60}

// TestCaptureClutter writes testdata/clutter_step_N.gob: the contact
// problems of steps CaptureSteps of the clutter scene with SAP's contact
// model (contact.approximation=sap, so that every solver can take them).
// It runs only with STICTION_CAPTURE=1.
func TestCaptureClutter(t *testing.T) {
	if os.Getenv("STICTION_CAPTURE") != "1" {
		t.Skip("set STICTION_CAPTURE=1 to capture")
	}
	sc, err := scene.Load("clutter", []string{"contact.approximation=sap", "duration=1"})
	if err != nil {
		t.Fatal(err)
	}
	b, err := scene.Build(sc)
	if err != nil {
		t.Fatal(err)
	}
	c := &capture{inner: b.Config.Solver, at: CaptureSteps, got: map[int]*problems.Captured{}}
	b.Config.Solver = c
	s, err := sim.New(b.Model, b.State, b.Config)
	if err != nil {
		t.Fatal(err)
	}
	for range slices.Max(CaptureSteps) {
		if _, err := s.Step(); err != nil {
			t.Fatal(err)
		}
	}
	for _, k := range CaptureSteps {
		g := c.got[k]
		t.Logf("step %d: NV %d, %d constraints", k, g.P.NV, len(g.P.Constraints))
		if err := problems.Save(fmt.Sprintf("testdata/clutter_step_%d.gob", k), g); err != nil {
			t.Fatal(err)
		}
	}
}
