//go:build linux

package mjref

import (
	"math"
	"path/filepath"
	"runtime"
	"syscall"
	"testing"
	"time"
	"unsafe"

	"github.com/stiction-sim/stiction/internal/cputime"
	"github.com/stiction-sim/stiction/sim"
)

// fixedcostTimingModels are small models of the speed comparison whose
// CPU ratio against MuJoCo was above their instruction ratio
// (BENCHMARKS.md, issue 23).
var fixedcostTimingModels = []string{
	"dm_control/suite/pendulum.xml", "dm_control/suite/point_mass.xml",
	"dm_control/suite/cartpole.xml", "dm_control/suite/acrobot.xml",
	"dm_control/suite/lqr.xml", "dm_control/suite/reacher.xml",
}

// BenchmarkFixedcostTimingVsMuJoCo checks how BenchmarkAdvanceVsMuJoCo
// times its two sides by timing each side several ways in one round, the
// order of the engines alternating between rounds (one op is one round):
//
//   - best of 3: the C tool's timing mode, MuJoCo's figure in
//     AdvanceVsMuJoCo: the fastest of 3 runs of the 10 s horizon, each
//     from the initial state; for Stiction, 3 runs of Simulator.Advance
//     on one simulator, each after Restore of the initial checkpoint.
//   - one run: a single run of the horizon, MuJoCo's tool with one repeat
//     (a freshly reset mjData), Stiction's on a simulator just made by
//     sim.New, as AdvanceVsMuJoCo times it (the mean over its steps).
//
// Stiction's runs are timed by the process CPU time (getrusage, as
// AdvanceVsMuJoCo does: every thread of the Go runtime) and by the CPU
// time of the OS thread that steps (CLOCK_THREAD_CPUTIME_ID, the
// goroutine locked to it), which is what the single-threaded C tool's
// process CPU time (CLOCK_PROCESS_CPUTIME_ID) measures. It reports the
// medians over rounds of the times per step, of other-threads-frac
// (1 − thread ÷ getrusage over Stiction's runs) and
// other-threads-clock-frac (the same against CLOCK_PROCESS_CPUTIME_ID),
// and of the ratios Stiction ÷ MuJoCo: x-best3 and x-one
// (each side timed alike, process CPU), x-thread-best3 (Stiction's
// thread) and x-as-bench (Stiction's one run over MuJoCo's best of 3, as
// AdvanceVsMuJoCo pairs them):
//
//	go test ./internal/mjref -run XXX -bench 'FixedcostTimingVsMuJoCo' -benchtime 10x
func BenchmarkFixedcostTimingVsMuJoCo(b *testing.B) {
	exe := tool(b)
	for _, f := range fixedcostTimingModels {
		b.Run(filepath.Base(f), func(b *testing.B) {
			fixedcostTiming(b, exe, f)
		})
	}
}

// fixedcostTiming is one model's BenchmarkFixedcostTimingVsMuJoCo.
func fixedcostTiming(b *testing.B, exe, f string) {
	path := filepath.Join("testdata", f)
	bt, _, err := stiction(path)
	if err != nil {
		b.Skipf("%s does not load: %v", f, err)
	}
	n := int(math.Round(speedHorizon / bt.Config.DT))
	mk := func() *sim.Simulator { return freshSim(b, bt) }
	s := mk()
	start := s.Checkpoint()
	var others, othersClock []float64
	// run takes n steps of s and returns the process and the thread CPU
	// time per step.
	run := func(s *sim.Simulator) (proc, thread float64) {
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		c0, p0, t0 := cputime.Process(), fixedcostCPUClock(clockProcessCPUTimeID), fixedcostCPUClock(clockThreadCPUTimeID)
		for k := range n {
			if err := s.Advance(); err != nil {
				b.Fatalf("%s: step %d: %v", f, k+1, err)
			}
		}
		t := fixedcostCPUClock(clockThreadCPUTimeID) - t0
		pc := fixedcostCPUClock(clockProcessCPUTimeID) - p0
		c := cputime.Process() - c0
		others = append(others, 1-t.Seconds()/c.Seconds())
		othersClock = append(othersClock, 1-t.Seconds()/pc.Seconds())
		return c.Seconds() / float64(n), t.Seconds() / float64(n)
	}
	best3 := func() (proc, thread float64) {
		proc, thread = math.Inf(1), math.Inf(1)
		for range 3 {
			if err := s.Restore(start); err != nil {
				b.Fatal(err)
			}
			p, t := run(s)
			proc, thread = min(proc, p), min(thread, t)
		}
		return proc, thread
	}
	mj := func(reps int) float64 {
		tm, err := Time(exe, path, Options{Steps: n, Repeats: reps})
		if err != nil {
			b.Fatal(err)
		}
		return tm.CPUPerStep()
	}
	var st3, th3, st1, mj3, mj1, x3, xt, x1, xb []float64
	for i := range b.N {
		var a3, t3, a1, m3, m1 float64
		if i%2 == 0 {
			m3, m1 = mj(3), mj(1)
			a3, t3 = best3()
			a1, _ = run(mk())
		} else {
			a3, t3 = best3()
			a1, _ = run(mk())
			m3, m1 = mj(3), mj(1)
		}
		st3, th3, st1, mj3, mj1 = append(st3, a3), append(th3, t3), append(st1, a1), append(mj3, m3), append(mj1, m1)
		x3, xt, x1, xb = append(x3, a3/m3), append(xt, t3/m3), append(x1, a1/m1), append(xb, a1/m3)
	}
	ns := float64(time.Second)
	for _, m := range []struct {
		x     []float64
		scale float64
		unit  string
	}{
		{st3, ns, "best3-cpu-ns"}, {th3, ns, "best3-thread-ns"}, {mj3, ns, "mj-best3-cpu-ns"},
		{st1, ns, "one-cpu-ns"}, {mj1, ns, "mj-one-cpu-ns"},
		{others, 1, "other-threads-frac"}, {othersClock, 1, "other-threads-clock-frac"},
		{x3, 1, "x-best3"}, {xt, 1, "x-thread-best3"}, {x1, 1, "x-one"}, {xb, 1, "x-as-bench"},
	} {
		b.ReportMetric(peerMedian(m.x)*m.scale, m.unit)
	}
}

// The CPU-time clocks of clock_gettime (Linux's clockid_t values).
const (
	clockProcessCPUTimeID = 2 // the process's threads, the C tool's clock
	clockThreadCPUTimeID  = 3 // the calling thread's
)

// fixedcostCPUClock returns the CPU-time clock id's reading
// (clock_gettime; syscall has no wrapper).
func fixedcostCPUClock(id uintptr) time.Duration {
	var ts syscall.Timespec
	syscall.Syscall(syscall.SYS_CLOCK_GETTIME, id, uintptr(unsafe.Pointer(&ts)), 0)
	return time.Duration(ts.Nano())
}
