package mjref

import (
	"math"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/stiction-sim/stiction/internal/cputime"
	"github.com/stiction-sim/stiction/multibody"
	"github.com/stiction-sim/stiction/scene"
	"github.com/stiction-sim/stiction/sim"
)

// speedHorizon is the simulated time of one run in the speed comparison:
// the model's own δt, zero control, from the initial state.
const speedHorizon = 10.0

// speedModels are the models of the speed comparison against MuJoCo: the
// dm_control suite and Gymnasium's assets of the parity table.
func speedModels() []string {
	var fs []string
	for _, c := range parityModels {
		if strings.HasPrefix(c.file, "dm_control/") || strings.HasPrefix(c.file, "gymnasium/") {
			fs = append(fs, c.file)
		}
	}
	return fs
}

var (
	mjTimesMu sync.Mutex
	mjTimes   = map[string]*Timing{}
)

// mujocoTime returns MuJoCo's timing of file (speedHorizon of simulated
// time, the fastest of 3 runs), measured once per process.
func mujocoTime(b *testing.B, exe, path string, dt float64) *Timing {
	mjTimesMu.Lock()
	defer mjTimesMu.Unlock()
	if t, ok := mjTimes[path]; ok {
		return t
	}
	n := int(math.Round(speedHorizon / dt))
	t, err := Time(exe, path, Options{Steps: n, Repeats: 3})
	if err != nil {
		b.Fatal(err)
	}
	mjTimes[path] = t
	return t
}

// BenchmarkStepVsMuJoCo times Stiction's step on each dm_control and
// Gymnasium model (the model's own δt, zero control, restarted from the
// initial state every 10 simulated seconds; ns/op is one step) and MuJoCo
// 2.2.2's mj_step on the same file through the C tool's timing mode, one
// thread each. It reports mj-ns/step and x-mujoco, Stiction's wall time
// per simulated second divided by MuJoCo's (the time steps may differ),
// and the same for the process CPU time (cpu-ns/op, mj-cpu-ns/step,
// x-mujoco-cpu), which waiting for a core on a shared machine does not
// inflate, and for the CPU time of the one thread that steps
// (thread-ns/op, x-mujoco-thread), which the Go runtime's other threads
// (the garbage collector's background workers, the scheduler's spinning
// threads) do not inflate either; MuJoCo's tool is single-threaded, so
// its process time is its thread's:
//
//	go test ./internal/mjref -run XXX -bench StepVsMuJoCo -benchtime 2000x -count 6
func BenchmarkStepVsMuJoCo(b *testing.B) {
	stepVsMuJoCo(b, func(s *sim.Simulator) error { _, err := s.Step(); return err })
}

// BenchmarkAdvanceVsMuJoCo is BenchmarkStepVsMuJoCo with sim.Simulator.Advance,
// which takes the same steps to the bit without gathering their statistics
// (the energies): what MuJoCo's mj_step does with its default flags
// (mjENBL_ENERGY off).
func BenchmarkAdvanceVsMuJoCo(b *testing.B) {
	stepVsMuJoCo(b, (*sim.Simulator).Advance)
}

// BenchmarkAdvanceAgainstStep times sim.Simulator.Advance against Step on
// each model in one process: two simulators from the same initial state
// take the same steps (to the bit), in chunks of 200 that alternate between
// them (b.N chunks each), and it reports the medians of the chunks' CPU
// time per step (step-cpu-ns, advance-cpu-ns) and their ratio, which a
// loaded machine shifts less than it shifts two processes' times:
//
//	go test ./internal/mjref -run XXX -bench 'AdvanceAgainstStep/suite/^walker$' -benchtime 40x
func BenchmarkAdvanceAgainstStep(b *testing.B) {
	const chunk = 200
	for _, f := range speedModels() {
		b.Run(strings.TrimSuffix(filepath.Base(filepath.Dir(f))+"/"+filepath.Base(f), ".xml"), func(b *testing.B) {
			bt, _, err := stiction(filepath.Join("testdata", f))
			if err != nil {
				b.Skipf("%s does not load: %v", f, err)
			}
			step := [2]*sim.Simulator{freshSim(b, bt), freshSim(b, bt)}
			take := [2]func(*sim.Simulator) error{
				func(s *sim.Simulator) error { _, err := s.Step(); return err },
				(*sim.Simulator).Advance,
			}
			var per [2][]float64
			for i := range b.N {
				for k := range 2 {
					j := (i + k) % 2 // which goes first alternates
					c0 := cputime.Process()
					for range chunk {
						if err := take[j](step[j]); err != nil {
							b.Fatal(err)
						}
					}
					per[j] = append(per[j], (cputime.Process()-c0).Seconds()/chunk)
				}
			}
			med := func(x []float64) float64 { slices.Sort(x); return x[len(x)/2] }
			st, adv := med(per[0]), med(per[1])
			b.ReportMetric(st*1e9, "step-cpu-ns")
			b.ReportMetric(adv*1e9, "advance-cpu-ns")
			b.ReportMetric(adv/st, "advance/step")
		})
	}
}

// stepVsMuJoCo runs BenchmarkStepVsMuJoCo's timings with step taking each
// step.
func stepVsMuJoCo(b *testing.B, step func(*sim.Simulator) error) {
	exe := tool(b)
	for _, f := range speedModels() {
		b.Run(strings.TrimSuffix(filepath.Base(filepath.Dir(f))+"/"+filepath.Base(f), ".xml"), func(b *testing.B) {
			path := filepath.Join("testdata", f)
			bt, _, err := stiction(path)
			if err != nil {
				b.Skipf("%s does not load: %v", f, err)
			}
			mj := mujocoTime(b, exe, path, mjTimestep(b, exe, path))
			horizon := int(math.Round(speedHorizon / bt.Config.DT))
			s := freshSim(b, bt)
			// The loader's and each restart's garbage is collected before
			// the clocks run, and the steps run on one locked thread whose
			// own CPU time is read too (cputime.Thread).
			restart := func() { s = freshSim(b, bt); runtime.GC() }
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			runtime.GC()
			b.ReportAllocs()
			b.ResetTimer()
			cpu, thread := -cputime.Process(), -cputime.Thread()
			for i := range b.N {
				if i > 0 && i%horizon == 0 {
					// The CPU clocks stop before StopTimer and restart after
					// StartTimer, which read the memory statistics (stopping
					// the world) outside the wall clock's window.
					cpu, thread = cpu+cputime.Process(), thread+cputime.Thread()
					b.StopTimer()
					restart()
					b.StartTimer()
					cpu, thread = cpu-cputime.Process(), thread-cputime.Thread()
				}
				if err := step(s); err != nil {
					b.Fatalf("%s: step %d: %v", f, i%horizon+1, err)
				}
			}
			cpu, thread = cpu+cputime.Process(), thread+cputime.Thread()
			b.StopTimer()
			perStep, cpuStep := b.Elapsed().Seconds()/float64(b.N), cpu.Seconds()/float64(b.N)
			threadStep := thread.Seconds() / float64(b.N)
			b.ReportMetric(mj.PerStep()*1e9, "mj-ns/step")
			b.ReportMetric((perStep/bt.Config.DT)/(mj.PerStep()/mj.Timestep), "x-mujoco")
			b.ReportMetric(cpuStep*1e9, "cpu-ns/op")
			b.ReportMetric(mj.CPUPerStep()*1e9, "mj-cpu-ns/step")
			b.ReportMetric((cpuStep/bt.Config.DT)/(mj.CPUPerStep()/mj.Timestep), "x-mujoco-cpu")
			b.ReportMetric(threadStep*1e9, "thread-ns/op")
			b.ReportMetric((threadStep/bt.Config.DT)/(mj.CPUPerStep()/mj.Timestep), "x-mujoco-thread")
		})
	}
}

// mjTimestep returns MuJoCo's time step of the model file.
func mjTimestep(b *testing.B, exe, path string) float64 {
	r, err := Exec(exe, path, Options{Steps: 0})
	if err != nil {
		b.Fatal(err)
	}
	return r.Timestep
}

// TestTimingMode: the C tool's timing mode reports the steps asked for,
// the model's δt and a non-negative time, and refuses a bad repeat count.
func TestTimingMode(t *testing.T) {
	exe := tool(t)
	path := filepath.Join("testdata", "dm_control/suite/pendulum.xml")
	tm, err := Time(exe, path, Options{Steps: 50, Repeats: 2})
	if err != nil {
		t.Fatal(err)
	}
	if tm.Steps != 50 || tm.Repeats != 2 || tm.Timestep != 0.02 || tm.Seconds < 0 || tm.CPUSeconds < 0 {
		t.Errorf("timing %+v", *tm)
	}
	if _, err := Exec(exe, path, Options{Steps: 5, Repeats: 0}); err != nil {
		t.Errorf("the normal mode after the timing mode's options: %v", err)
	}
	if _, err := Time(exe, path, Options{Steps: 5}); err == nil {
		t.Error("Time with no repeats: no error")
	}
}

// freshSim makes a simulator of bt from a copy of its initial state
// (sim.New advances the state it is given, and bt serves many runs).
func freshSim(b testing.TB, bt *scene.Built) *sim.Simulator {
	st := &multibody.State{Q: slices.Clone(bt.State.Q), V: slices.Clone(bt.State.V), T: bt.State.T}
	s, err := sim.New(bt.Model, st, bt.Config)
	if err != nil {
		b.Fatal(err)
	}
	return s
}
