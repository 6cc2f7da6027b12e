package scene_test

import (
	"testing"

	"github.com/stiction-sim/stiction/contact"
	"github.com/stiction-sim/stiction/scene"
	"github.com/stiction-sim/stiction/solver"
	"github.com/stiction-sim/stiction/solver/stack"
)

// TestEngineDefaults: a scene that leaves the contact and solver sections
// out gets the engine's defaults that the Go API uses: the contact model
// of contact.EngineParams and the refinement of stack.DefaultLag around
// SAP with solver.DefaultParams' tolerances, in the island solver with
// stack.DefaultWorkers.
func TestEngineDefaults(t *testing.T) {
	sc, err := scene.Parse("defaults.yaml", []byte(`name: defaults
dt: 0.01
duration: 0.01
materials:
  default: {stiffness: 1.0e12, dissipation: 0.01, friction: 1}
bodies:
  - name: ball
    shape: {type: sphere, radius: 0.1}
    material: default
    mass: 1
`), nil)
	if err != nil {
		t.Fatal(err)
	}
	b, err := scene.Build(sc)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := b.Config.Contact, contact.EngineParams(); got != want {
		t.Errorf("scene contact defaults %+v, engine's %+v", got, want)
	}
	sp := solver.DefaultParams()
	if b.Stack.Lag != stack.DefaultLag() || b.Stack.RelTolerance != sp.Tolerance || b.Stack.AbsTolerance != sp.AbsTolerance || b.Stack.Workers != stack.DefaultWorkers {
		t.Errorf("scene solver stack %+v, engine's lag %+v, tolerances %g, %g and %d island workers", b.Stack, stack.DefaultLag(), sp.AbsTolerance, sp.Tolerance, stack.DefaultWorkers)
	}
}
