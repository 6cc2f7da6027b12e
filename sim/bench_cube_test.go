package sim_test

import (
	"slices"
	"strings"

	"testing"

	"github.com/stiction-sim/stiction/internal/cputime"
	"github.com/stiction-sim/stiction/scene"
	"github.com/stiction-sim/stiction/sim"
)

// cubeSlideYAML is the peer comparison's cube-slide scene (the shared
// benchmark folder's cube-slide.yaml): one 10 cm cube, yawed 30°, sliding
// at 2 m/s at 45° between x and y on a half-space, μ = 0.5, δt = 10 ms.
const cubeSlideYAML = `name: cube-slide
gravity: [0, 0, -9.81]
dt: 0.01
duration: 1.0
materials:
  default: {stiffness: 1000000000000.0, dissipation: 0.01, friction: 0.5}
bodies:
  - name: half0
    fixed: true
    shape: {type: halfspace}
    material: default
    pose: {position: [0, 0, 0], quaternion: [1.0, 0, 0, 0]}
  - name: b0
    shape: {type: box, size: [0.1, 0.1, 0.1]}
    material: default
    mass: 1.0
    pose: {position: [0, 0, 0.05], quaternion: [0.965925826, 0, 0, 0.258819045]}
    velocity: {linear: [1.41421356, 1.41421356, 0], angular: [0, 0, 0]}
`

// BenchmarkStepCubeSlide times one step of the cube-slide peer scene with
// the default settings, restarting the 1 s run (100 steps) from its
// initial checkpoint (Simulator.Restore) when it ends: the fixed cost of a
// step with one contact manifold, each step as in `stiction run`. cpu-ns/op
// is the process CPU time per step (getrusage), which waiting for a core
// does not inflate. allocs/op counts the restarts' allocations too.
func BenchmarkStepCubeSlide(b *testing.B) {
	sc, err := scene.Parse("cube-slide.yaml", []byte(cubeSlideYAML), nil)
	if err != nil {
		b.Fatal(err)
	}
	s, _ := newSim(b, sc)
	start := s.Checkpoint()
	b.ReportAllocs()
	b.ResetTimer()
	cpu := -cputime.Process()
	for i := range b.N {
		if i > 0 && i%100 == 0 {
			if err := s.Restore(start); err != nil {
				b.Fatal(err)
			}
		}
		if _, err := s.Step(); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	cpu += cputime.Process()
	b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N), "cpu-ns/op")
}

// BenchmarkStepCubeSlideStages is BenchmarkStepCubeSlide with the
// per-stage timers on (Config.Profile): it reports the median over the
// steps of each stage's wall time (ns, named by the stage), medians being
// what a shared machine's descheduling shifts least. The stages' medians
// need not add up to the median step.
func BenchmarkStepCubeSlideStages(b *testing.B) {
	sc, err := scene.Parse("cube-slide.yaml", []byte(cubeSlideYAML), nil)
	if err != nil {
		b.Fatal(err)
	}
	bl, err := scene.Build(sc)
	if err != nil {
		b.Fatal(err)
	}
	bl.Config.Profile = true
	s, err := sim.New(bl.Model, bl.State, bl.Config)
	if err != nil {
		b.Fatal(err)
	}
	start := s.Checkpoint()
	var per [sim.NumStages + 1][]float64
	for k := range per {
		per[k] = make([]float64, 0, b.N)
	}
	b.ResetTimer()
	for i := range b.N {
		if i > 0 && i%100 == 0 {
			if err := s.Restore(start); err != nil {
				b.Fatal(err)
			}
		}
		st, err := s.Step()
		if err != nil {
			b.Fatal(err)
		}
		for k := range sim.NumStages {
			per[k] = append(per[k], float64(st.Times.Stage[k]))
		}
		per[sim.NumStages] = append(per[sim.NumStages], float64(st.Times.Step))
	}
	b.StopTimer()
	for k := range per {
		slices.Sort(per[k])
		name := "step"
		if k < int(sim.NumStages) {
			name = strings.ReplaceAll(sim.Stage(k).String(), " ", "-")
		}
		b.ReportMetric(per[k][len(per[k])/2], name+"-ns")
	}
}
