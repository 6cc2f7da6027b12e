package sweep_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/stiction-sim/stiction/sweep"
)

// benchSweep runs sweeps of tiny jobs (drop, one 1 ms step) with the given
// local workers and reports jobs/s and the queue overhead per job: the
// sweep's wall time per job times the workers, less the job's own stepping
// time (its build and run in RunJob are part of the overhead measured
// here, so it is an upper bound on what the queue costs).
func benchSweep(b *testing.B, workers, jobs int) {
	spec := fmt.Sprintf("name: tiny\nscene: drop\nsets: [duration=0.001]\nrandom: {seed: 1, samples: %d, params: {materials.default.friction: {uniform: [0.1, 1]}}}\n", jobs)
	s, err := sweep.Parse("tiny.yaml", []byte(spec))
	if err != nil {
		b.Fatal(err)
	}
	p, err := s.Expand()
	if err != nil {
		b.Fatal(err)
	}
	var elapsed time.Duration
	var stepping float64
	for b.Loop() {
		dir := b.TempDir()
		q, err := sweep.StartEmbedded(dir+"/nats", "127.0.0.1:0")
		if err != nil {
			b.Fatal(err)
		}
		var sum float64
		rep, err := sweep.Run(context.Background(), p, q, sweep.Options{Out: dir, LocalWorkers: workers,
			Worker: sweep.WorkerOptions{OnJobDone: func(r sweep.Result) { sum += r.WallS }}})
		q.Close()
		if err != nil || rep.Done != jobs {
			b.Fatalf("%v, %+v", err, rep)
		}
		elapsed += rep.Elapsed
		stepping += sum
	}
	n := float64(b.N * jobs)
	b.ReportMetric(n/elapsed.Seconds(), "jobs/s")
	b.ReportMetric((elapsed.Seconds()*float64(workers)-stepping)/n*1e3, "overhead-ms/job")
	b.ReportMetric(0, "ns/op")
}

func BenchmarkSweepTiny1Worker(b *testing.B)  { benchSweep(b, 1, 200) }
func BenchmarkSweepTiny2Workers(b *testing.B) { benchSweep(b, 2, 200) }

// BenchmarkRunJobTiny is one tiny job run alone, for comparison.
func BenchmarkRunJobTiny(b *testing.B) {
	p := planB(b, "name: one\nscene: drop\nsets: [duration=0.001]\ngrid: {dt: [0.001]}\n")
	for b.Loop() {
		if _, err := sweep.RunJob(context.Background(), p.Jobs[0], ""); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkRunJobClutter1s is a 1-second clutter run, the yardstick for
// the queue overhead.
func BenchmarkRunJobClutter1s(b *testing.B) {
	p := planB(b, "name: one\nscene: clutter\nsets: [duration=1]\ngrid: {dt: [0.01]}\n")
	for b.Loop() {
		if _, err := sweep.RunJob(context.Background(), p.Jobs[0], ""); err != nil {
			b.Fatal(err)
		}
	}
}

func planB(b *testing.B, spec string) *sweep.Plan {
	s, err := sweep.Parse("b.yaml", []byte(spec))
	if err != nil {
		b.Fatal(err)
	}
	p, err := s.Expand()
	if err != nil {
		b.Fatal(err)
	}
	return p
}
