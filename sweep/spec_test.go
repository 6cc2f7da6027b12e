package sweep_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/stiction-sim/stiction/sweep"
)

// TestBadSpecs: each bad spec gets an error naming the file, the line
// where there is one, the field and the value.
func TestBadSpecs(t *testing.T) {
	const grid = "grid: {dt: [0.01]}\n"
	for _, c := range []struct {
		name, spec string
		want       []string
	}{
		{"empty", "", []string{"spec.yaml: empty spec file"}},
		{"not yaml", "scene: [drop\n", []string{"spec.yaml: not YAML"}},
		{"not a mapping", "- drop\n", []string{"top level must be a mapping"}},
		{"unknown field", "scene: drop\n" + grid + "gird: {}\n", []string{"spec.yaml:3: gird: unknown field"}},
		{"no scene", grid, []string{"scene: missing"}},
		{"unknown scene", "scene: nosuch\n" + grid, []string{"scene: ", `unknown scene "nosuch"`}},
		{"no grid or random", "scene: drop\n", []string{"needs a grid or random samples"}},
		{"grid not a mapping", "scene: drop\ngrid: [dt]\n", []string{"spec.yaml:2: grid: want a mapping"}},
		{"grid values not a list", "scene: drop\ngrid: {dt: 0.01}\n", []string{"spec.yaml:2: grid.dt: want a non-empty list"}},
		{"grid empty list", "scene: drop\ngrid:\n  dt: []\n", []string{"spec.yaml:3: grid.dt: want a non-empty list"}},
		{"bad path", "scene: drop\ngrid: {bodies.nosuch.mass: [1]}\n", []string{"grid.bodies.nosuch.mass", "value"}},
		{"bad value", "scene: drop\ngrid: {dt: [0.01, -1]}\n", []string{"grid.dt: value -1", "dt=-1"}},
		{"unphysical value", "scene: drop\ngrid: {bodies.ball.density: [1000, 1e-40]}\n", []string{"grid.bodies.ball.density: value 1e-40"}},
		{"random no seed", "scene: drop\nrandom: {samples: 3, params: {dt: {uniform: [0.001, 0.01]}}}\n", []string{"random.seed: missing"}},
		{"random zero samples", "scene: drop\nrandom: {seed: 1, samples: 0, params: {dt: {uniform: [0.001, 0.01]}}}\n", []string{"random.samples", `"0": want an integer ≥ 1`}},
		{"unknown distribution", "scene: drop\nrandom: {seed: 1, samples: 2, params: {dt: {gauss: [0, 1]}}}\n", []string{"random.params.dt.gauss: unknown distribution"}},
		{"reversed bounds", "scene: drop\nrandom: {seed: 1, samples: 2, params: {dt: {uniform: [0.01, 0.001]}}}\n", []string{"random.params.dt.uniform: low 0.01 must be below high 0.001"}},
		{"loguniform at zero", "scene: drop\nrandom: {seed: 1, samples: 2, params: {dt: {loguniform: [0, 0.01]}}}\n", []string{"must be positive for a log-uniform"}},
		{"normal std", "scene: drop\nrandom: {seed: 1, samples: 2, params: {dt: {normal: [0.01, -1]}}}\n", []string{"standard deviation -1 must be positive"}},
		{"one bound", "scene: drop\nrandom: {seed: 1, samples: 2, params: {dt: {uniform: [0.01]}}}\n", []string{"want two numbers, got 1"}},
		{"non-number bound", "scene: drop\nrandom: {seed: 1, samples: 2, params: {dt: {uniform: [a, 0.01]}}}\n", []string{`"a": want a finite number`}},
		{"empty choice", "scene: drop\nrandom: {seed: 1, samples: 2, params: {scheme: {choice: []}}}\n", []string{"random.params.scheme.choice: want a non-empty list"}},
		{"swept twice", "scene: drop\ngrid: {dt: [0.01]}\nrandom: {seed: 1, samples: 2, params: {dt: {uniform: [0.001, 0.01]}}}\n", []string{"dt: swept twice"}},
		{"repeats", "scene: drop\n" + grid + "repeats: 0\n", []string{"spec.yaml:3: repeats", "want an integer ≥ 1"}},
		{"outputs", "scene: drop\n" + grid + "outputs: [speed]\n", []string{`outputs: "speed" is not a statistic`}},
		{"ack wait", "scene: drop\n" + grid + "ack_wait: 10ms\n", []string{`ack_wait: "10ms": want a duration of at least 1s`}},
		{"max deliveries", "scene: drop\n" + grid + "max_deliveries: 0\n", []string{"max_deliveries"}},
		{"too many jobs", "scene: drop\nrepeats: 1000\nrandom: {seed: 1, samples: 10000, params: {dt: {uniform: [0.001, 0.01]}}}\n", []string{"10000000 jobs, more than the limit"}},
		{"bad set", "scene: drop\nsets: [dt]\n" + grid, []string{`sets: "dt" is not path=value`}},
		{"twice", "scene: drop\nscene: drop\n" + grid, []string{"spec.yaml:2: scene: given twice"}},
	} {
		s, err := sweep.Parse("spec.yaml", []byte(c.spec))
		if err == nil {
			_, err = s.Expand()
		}
		if err == nil {
			t.Errorf("%s: accepted", c.name)
			continue
		}
		var se *sweep.SpecError
		if !errors.As(err, &se) {
			t.Errorf("%s: %T is not a *SpecError: %v", c.name, err, err)
		}
		for _, w := range c.want {
			if !strings.Contains(err.Error(), w) || !strings.Contains(err.Error(), "spec.yaml") {
				t.Errorf("%s: error %q lacks %q", c.name, err, w)
			}
		}
	}
}

// TestRandomReproducible: a spec's random samples depend only on its seed.
func TestRandomReproducible(t *testing.T) {
	spec := "scene: drop\nrandom: {seed: 3, samples: 5, params: {bodies.ball.density: {loguniform: [100, 10000]}, scheme: {choice: [midpoint, implicit-euler]}, record_every: {integer: [1, 4]}}}\n"
	a, b := plan(t, spec), plan(t, spec)
	if a.ID != b.ID || len(a.Jobs) != 5 {
		t.Fatalf("ids %s %s, %d jobs", a.ID, b.ID, len(a.Jobs))
	}
	for i := range a.Jobs {
		if strings.Join(a.Jobs[i].Params, " ") != strings.Join(b.Jobs[i].Params, " ") {
			t.Errorf("job %d: %v vs %v", i, a.Jobs[i].Params, b.Jobs[i].Params)
		}
	}
	c := plan(t, strings.Replace(spec, "seed: 3", "seed: 4", 1))
	if c.ID == a.ID || strings.Join(c.Jobs[0].Params, " ") == strings.Join(a.Jobs[0].Params, " ") {
		t.Errorf("another seed gives the same jobs: %v", c.Jobs[0].Params)
	}
}
