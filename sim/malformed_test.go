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
