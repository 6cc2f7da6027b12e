package sweep_test

import (
	"context"
	"encoding/csv"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stiction-sim/stiction/sweep"
)

// spec200 is a sweep of 200 tiny jobs: a ball dropped from 10 heights
// (grid) with 20 random initial sideways speeds and frictions, 20 steps
// each.
const spec200 = `name: drop200
scene: drop
sets: [duration=0.02]
grid:
  bodies.ball.pose.position: ["[0, 0, 0.05]", "[0, 0, 0.06]", "[0, 0, 0.07]", "[0, 0, 0.08]", "[0, 0, 0.09]",
                              "[0, 0, 0.1]", "[0, 0, 0.11]", "[0, 0, 0.12]", "[0, 0, 0.13]", "[0, 0, 0.14]"]
random:
  seed: 7
  samples: 20
  params:
    materials.default.friction: {uniform: [0.1, 1]}
    bodies.ball.density: {loguniform: [500, 5000]}
ack_wait: 2s
`

func plan(t *testing.T, text string) *sweep.Plan {
	t.Helper()
	s, err := sweep.Parse("spec.yaml", []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	p, err := s.Expand()
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func embedded(t *testing.T, dir string) *sweep.Queue {
	t.Helper()
	q, err := sweep.StartEmbedded(filepath.Join(dir, "nats"), "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(q.Close)
	return q
}

// aloneRows runs every job of p in this process, without the queue, and
// returns the table rows without their wall time.
func aloneRows(t *testing.T, p *sweep.Plan) [][]string {
	t.Helper()
	var rows [][]string
	for _, j := range p.Jobs {
		r, err := sweep.RunJob(context.Background(), j, "")
		if err != nil {
			t.Fatal(err)
		}
		row := p.Row(&r)
		rows = append(rows, row[:len(row)-1])
	}
	return rows
}

// tableRows reads results.csv without the header and the wall times.
func tableRows(t *testing.T, dir string, cols []string) [][]string {
	t.Helper()
	f, err := os.Open(filepath.Join(dir, sweep.TableCSV))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(rows[0], cols) || cols[len(cols)-1] != "wall_time_s" {
		t.Fatalf("header %v, want %v", rows[0], cols)
	}
	out := rows[1:]
	for i := range out {
		out[i] = out[i][:len(out[i])-1]
	}
	return out
}

// TestSweep200 runs 200 jobs on the embedded server with 2 local workers:
// the table has 200 rows, each identical (but for the wall time) to the
// row of the job run alone, and the Parquet table is written too.
func TestSweep200(t *testing.T) {
	p := plan(t, spec200)
	if len(p.Jobs) != 200 {
		t.Fatalf("%d jobs", len(p.Jobs))
	}
	dir := t.TempDir()
	q := embedded(t, dir)
	rep, err := sweep.Run(context.Background(), p, q, sweep.Options{Out: dir, LocalWorkers: 2})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Done != 200 || rep.Failed != 0 || rep.Duplicates != 0 {
		t.Errorf("report %+v", rep)
	}
	t.Logf("200 tiny jobs in %v: %.0f jobs/s", rep.Elapsed, 200/rep.Elapsed.Seconds())
	got, want := tableRows(t, dir, p.Columns()), aloneRows(t, p)
	if len(got) != 200 {
		t.Fatalf("%d rows", len(got))
	}
	for i := range want {
		if !slices.Equal(got[i], want[i]) {
			t.Fatalf("row %d:\n got %v\nwant %v", i, got[i], want[i])
		}
	}
	if st, err := os.Stat(filepath.Join(dir, sweep.TableParquet)); err != nil || st.Size() == 0 {
		t.Errorf("parquet table: %v", err)
	}
}

// TestWorkerKilledMidJob: one of two workers dies in the middle of a job
// (its connection closed without a word, as when its process is killed).
// The job is delivered again after the ack wait; no job is lost or
// duplicated.
func TestWorkerKilledMidJob(t *testing.T) {
	p := plan(t, strings.Replace(spec200, "samples: 20", "samples: 3", 1)) // 30 jobs
	dir := t.TempDir()
	q := embedded(t, dir)
	victim, err := sweep.Join(q.URL, sweep.Credentials{})
	if err != nil {
		t.Fatal(err)
	}
	vctx, kill := context.WithCancel(context.Background())
	defer kill()
	victimDied := make(chan struct{})
	var killedJob atomic.Int64
	killedJob.Store(-1)
	var starts sync.Map // job → deliveries seen
	var wg sync.WaitGroup
	wg.Go(func() {
		sweep.Work(vctx, victim, sweep.WorkerOptions{Name: "victim", Poll: 20 * time.Millisecond, OnJobStart: func(j sweep.Job, d int) {
			if killedJob.CompareAndSwap(-1, int64(j.Index)) {
				victim.Close() // dies holding the job
				kill()
				close(victimDied)
			}
		}})
	})
	rep, err := sweep.Run(context.Background(), p, q, sweep.Options{Out: dir, LocalWorkers: 1, Worker: sweep.WorkerOptions{
		OnJobStart: func(j sweep.Job, d int) {
			select { // let the victim take a job first
			case <-victimDied:
			case <-time.After(10 * time.Second):
			}
			starts.Store(j.Index, d)
		}}})
	wg.Wait()
	if err != nil {
		t.Fatal(err)
	}
	k := int(killedJob.Load())
	if k < 0 {
		t.Fatal("the victim never got a job")
	}
	if d, ok := starts.Load(k); !ok || d.(int) < 2 {
		t.Errorf("killed job %d: redelivery %v", k, d)
	}
	rows := tableRows(t, dir, p.Columns())
	if len(rows) != len(p.Jobs) || rep.Duplicates != 0 {
		t.Fatalf("%d rows for %d jobs, %d duplicates", len(rows), len(p.Jobs), rep.Duplicates)
	}
	for i, r := range rows {
		if r[0] != itoa(i) || r[len(p.Paths)+2] != "ok" {
			t.Errorf("row %d: %v", i, r)
		}
	}
}

// TestRestartSkipsDone interrupts a sweep after some results, starts it
// again on a new server (same store), and checks that the jobs done in the
// first session are not run again and the table is complete.
func TestRestartSkipsDone(t *testing.T) {
	p := plan(t, strings.Replace(spec200, "samples: 20", "samples: 4", 1)) // 40 jobs
	dir := t.TempDir()
	q, err := sweep.StartEmbedded(filepath.Join(dir, "nats"), "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	var mu sync.Mutex
	done := map[string]bool{} // jobs whose result was stored and acked
	_, err = sweep.Run(ctx, p, q, sweep.Options{Out: dir, LocalWorkers: 1, Worker: sweep.WorkerOptions{
		OnJobDone: func(r sweep.Result) {
			mu.Lock()
			defer mu.Unlock()
			if done[itoa(r.Index)] = true; len(done) == 10 {
				cancel()
			}
		}}})
	q.Close()
	if err == nil {
		t.Fatal("interrupted sweep returned no error")
	}
	mu.Lock()
	ndone := len(done)
	mu.Unlock()
	if ndone < 10 || ndone >= 40 {
		t.Fatalf("%d jobs done in the first session", ndone)
	}
	if rows := tableRows(t, dir, p.Columns()); len(rows) > ndone {
		t.Fatalf("the table of the interrupted session has %d rows for %d jobs done", len(rows), ndone)
	}
	q2 := embedded(t, dir)
	var rerun []string
	rep, err := sweep.Run(context.Background(), p, q2, sweep.Options{Out: dir, LocalWorkers: 2, Worker: sweep.WorkerOptions{
		OnJobStart: func(j sweep.Job, _ int) {
			mu.Lock()
			defer mu.Unlock()
			if done[itoa(j.Index)] {
				rerun = append(rerun, itoa(j.Index))
			}
		}}})
	if err != nil {
		t.Fatal(err)
	}
	if len(rerun) > 0 {
		t.Errorf("jobs done in the first session ran again: %v", rerun)
	}
	if rep.Skipped < ndone || rep.Done+rep.Skipped != 40 {
		t.Errorf("report %+v, %d done before", rep, len(done))
	}
	if rows := tableRows(t, dir, p.Columns()); len(rows) != 40 {
		t.Errorf("%d rows", len(rows))
	}
}

func itoa(i int) string { return strconv.Itoa(i) }
