package sweep

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/stiction-sim/stiction/record"
)

// ResultsLog is the file in a sweep's output directory where every result
// is appended (one JSON line, synced) before it is acknowledged; a sweep
// started again reads it to skip the jobs already done.
const ResultsLog = "results.jsonl"

// Options configure Run.
type Options struct {
	Out          string // output directory: the results log and tables
	LocalWorkers int    // workers in this process (0: only other processes work)
	Worker       WorkerOptions
	// Progress, if set, receives a progress line about four times a
	// second (with \r, for a terminal) and a last one with a newline.
	Progress io.Writer
}

// Report says what a sweep did.
type Report struct {
	Jobs       int           // jobs in the sweep
	Skipped    int           // done in an earlier session, not run again
	Done       int           // results gathered in this session
	Failed     int           // results (any session) whose status is not ok
	Duplicates int           // results received twice and ignored
	Elapsed    time.Duration // this session's wall time
}

// collector gathers results.
type collector struct {
	plan    *Plan
	log     *os.File
	results map[int]Result
	report  Report
	mu      sync.Mutex
}

// Run runs the sweep of plan on q until every job has a result, or ctx is
// cancelled. Results already in Out's results log are kept and their jobs
// not run again. The tables are written at the end, and also when ctx is
// cancelled (with the results so far). The returned error is ctx's cause
// if it was cancelled first.
func Run(ctx context.Context, plan *Plan, q *Queue, o Options) (Report, error) {
	start := time.Now()
	c, err := openCollector(plan, o.Out)
	if err != nil {
		return Report{}, err
	}
	defer c.log.Close()
	if err := consumers(ctx, plan, q); err != nil {
		return c.report, err
	}
	// Results stored by workers of an earlier session but not yet in the
	// log: gather them before deciding what to run.
	if err := c.drain(ctx, q); err != nil {
		return c.report, err
	}
	c.report.Jobs, c.report.Skipped, c.report.Done = len(plan.Jobs), len(c.results), 0
	if err := publish(ctx, plan, q, c.done()); err != nil {
		return c.report, err
	}
	defer q.forget(plan.ID)
	wctx, stopWorkers := context.WithCancel(ctx)
	var wg sync.WaitGroup
	for range o.LocalWorkers {
		wg.Go(func() { Work(wctx, q, o.Worker) })
	}
	defer func() { stopWorkers(); wg.Wait() }()
	lost, err := q.watchLost(plan, c)
	if err != nil {
		return c.report, err
	}
	defer lost.Unsubscribe()
	err = c.collect(ctx, q, o.Progress, start)
	stopWorkers()
	wg.Wait()
	c.mu.Lock()
	defer c.mu.Unlock()
	c.report.Elapsed = time.Since(start)
	rs := make([]Result, 0, len(c.results))
	for _, r := range c.results {
		rs = append(rs, r)
	}
	return c.report, errors.Join(err, plan.WriteTables(o.Out, rs))
}

// openCollector reads the results log of out (checking that it belongs to
// the same sweep) and opens it for appending.
func openCollector(plan *Plan, out string) (*collector, error) {
	if err := os.MkdirAll(out, 0o755); err != nil {
		return nil, fmt.Errorf("sweep: %w", err)
	}
	c := &collector{plan: plan, results: map[int]Result{}}
	path := filepath.Join(out, ResultsLog)
	if f, err := os.Open(path); err == nil {
		sc := bufio.NewScanner(f)
		sc.Buffer(nil, 16<<20)
		for line := 1; sc.Scan(); line++ {
			var r Result
			if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
				break // a line cut short by a crash: the result was not acked and comes again
			}
			if r.Sweep != plan.ID {
				f.Close()
				return nil, fmt.Errorf("sweep: %s holds results of sweep %s, not of this one (%s): the spec changed; use another --out", path, r.Sweep, plan.ID)
			}
			c.add(r)
		}
		f.Close()
	}
	log, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return nil, fmt.Errorf("sweep: %w", err)
	}
	c.log = log
	return c, nil
}

// add records r unless its job already has a result; it reports whether
// r was new.
func (c *collector) add(r Result) bool {
	if _, ok := c.results[r.Index]; ok || r.Index < 0 || r.Index >= len(c.plan.Jobs) {
		c.report.Duplicates++
		return false
	}
	c.results[r.Index] = r
	if r.Status != record.StatusOK {
		c.report.Failed++
	}
	return true
}

func (c *collector) done() map[int]bool {
	d := make(map[int]bool, len(c.results))
	for i := range c.results {
		d[i] = true
	}
	return d
}

// store appends r to the log, if it is new; the caller syncs the log
// before it acknowledges the result.
func (c *collector) store(r Result) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.add(r) {
		return nil
	}
	c.report.Done++
	data, err := json.Marshal(r)
	if err != nil {
		return err
	}
	if _, err := c.log.Write(append(data, '\n')); err != nil {
		return fmt.Errorf("sweep: %s: %w", ResultsLog, err)
	}
	return nil
}

// consumers creates the sweep's consumers: the workers' on the jobs (after
// removing the jobs and deliveries left by an earlier session) and the
// collector's on the results (kept across sessions).
func consumers(ctx context.Context, plan *Plan, q *Queue) error {
	s, err := q.js.Stream(ctx, jobsStream)
	if err != nil {
		return fmt.Errorf("sweep: %w", err)
	}
	q.js.DeleteConsumer(ctx, jobsStream, workersConsumer(plan.ID)) // redeliveries of an earlier session
	if err := s.Purge(ctx, jetstream.WithPurgeSubject(jobsSubject(plan.ID))); err != nil {
		return fmt.Errorf("sweep: purge old jobs: %w", err)
	}
	spec := plan.Spec
	if _, err := q.js.CreateOrUpdateConsumer(ctx, jobsStream, jetstream.ConsumerConfig{
		Durable: workersConsumer(plan.ID), FilterSubject: jobsSubject(plan.ID),
		AckPolicy: jetstream.AckExplicitPolicy, AckWait: spec.AckWait, MaxDeliver: spec.MaxDeliveries,
		MaxAckPending: -1,
	}); err != nil {
		return fmt.Errorf("sweep: create the workers' consumer: %w", err)
	}
	if _, err := q.js.CreateOrUpdateConsumer(ctx, resultsStream, jetstream.ConsumerConfig{
		Durable: collectorConsumer(plan.ID), FilterSubject: resultsSubject(plan.ID),
		AckPolicy: jetstream.AckExplicitPolicy, AckWait: 30 * time.Second, MaxAckPending: -1,
	}); err != nil {
		return fmt.Errorf("sweep: create the results consumer: %w", err)
	}
	return nil
}

// publish puts the jobs not done on the queue and marks the sweep running.
func publish(ctx context.Context, plan *Plan, q *Queue, done map[int]bool) error {
	for _, j := range plan.Jobs {
		if done[j.Index] {
			continue
		}
		data, err := json.Marshal(j)
		if err != nil {
			return err
		}
		if _, err := q.js.PublishAsync(jobsSubject(plan.ID), data); err != nil {
			return fmt.Errorf("sweep: publish job %d: %w", j.Index, err)
		}
	}
	select {
	case <-q.js.PublishAsyncComplete():
	case <-ctx.Done():
		return context.Cause(ctx)
	}
	kv, err := q.js.KeyValue(ctx, sweepsBucket)
	if err == nil {
		_, err = kv.Put(ctx, plan.ID, []byte(plan.Name))
	}
	if err != nil {
		return fmt.Errorf("sweep: register the sweep: %w", err)
	}
	return nil
}

// forget marks the sweep as no longer running.
func (q *Queue) forget(id string) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if kv, err := q.js.KeyValue(ctx, sweepsBucket); err == nil {
		kv.Delete(ctx, id)
	}
}

// collect stores results until every job has one or ctx is done.
func (c *collector) collect(ctx context.Context, q *Queue, progress io.Writer, start time.Time) error {
	cons, err := q.js.Consumer(ctx, resultsStream, collectorConsumer(c.plan.ID))
	if err != nil {
		return fmt.Errorf("sweep: %w", err)
	}
	bar := newBar(progress, len(c.plan.Jobs), c.report.Skipped, start)
	defer bar.finish(c)
	for {
		c.mu.Lock()
		n := len(c.results)
		c.mu.Unlock()
		if n == len(c.plan.Jobs) {
			return nil
		}
		if ctx.Err() != nil {
			return context.Cause(ctx)
		}
		if _, err := c.take(ctx, cons); err != nil {
			return err
		}
		bar.update(ctx, q, c)
	}
}

// take stores the results waiting (or the first to come within 100 ms),
// syncs the log and acknowledges them; it returns how many it got.
func (c *collector) take(ctx context.Context, cons jetstream.Consumer) (int, error) {
	msgs, err := fetch(cons)
	if err != nil {
		if ctx.Err() != nil {
			return 0, context.Cause(ctx)
		}
		return 0, fmt.Errorf("sweep: fetch results: %w", err)
	}
	var got []jetstream.Msg
	for _, msg := range msgs {
		var r Result
		if len(msg.Data()) > MaxResultBytes || json.Unmarshal(msg.Data(), &r) != nil || !c.plan.owns(&r) {
			msg.Term() // not a result of one of this sweep's jobs
			continue
		}
		if err := c.store(r); err != nil {
			return 0, err // not acked: the result comes again
		}
		got = append(got, msg)
	}
	if len(got) > 0 {
		if err := c.log.Sync(); err != nil {
			return 0, fmt.Errorf("sweep: %s: %w", ResultsLog, err) // not acked: the results come again
		}
		for _, msg := range got {
			msg.Ack()
		}
	}
	return len(msgs), nil
}

// owns reports whether r is a result of one of the plan's jobs: its
// sweep, index, repeat and parameters.
func (p *Plan) owns(r *Result) bool {
	if r.Sweep != p.ID || r.Index < 0 || r.Index >= len(p.Jobs) {
		return false
	}
	j := &p.Jobs[r.Index]
	return r.Repeat == j.Repeat && slices.Equal(r.Params, j.Params)
}

// drain takes results until none is waiting.
func (c *collector) drain(ctx context.Context, q *Queue) error {
	cons, err := q.js.Consumer(ctx, resultsStream, collectorConsumer(c.plan.ID))
	if err != nil {
		return fmt.Errorf("sweep: %w", err)
	}
	for {
		n, err := c.take(ctx, cons)
		if err != nil || n == 0 {
			return err
		}
	}
}

// fetch returns the results waiting (up to 64) at once, or waits up to
// 100 ms for one.
func fetch(cons jetstream.Consumer) ([]jetstream.Msg, error) {
	var out []jetstream.Msg
	b, err := cons.FetchNoWait(64)
	if err != nil {
		return nil, err
	}
	for m := range b.Messages() {
		out = append(out, m)
	}
	if len(out) > 0 || b.Error() != nil {
		return out, b.Error()
	}
	if b, err = cons.Fetch(1, jetstream.FetchMaxWait(100*time.Millisecond)); err != nil {
		return nil, err
	}
	for m := range b.Messages() {
		out = append(out, m)
	}
	return out, b.Error()
}

// maxDeliveriesAdvisory is the subject where the server announces a
// message that reached its maximum deliveries.
func maxDeliveriesAdvisory(id string) string {
	return "$JS.EVENT.ADVISORY.CONSUMER.MAX_DELIVERIES." + jobsStream + "." + workersConsumer(id)
}

// watchLost publishes a lost result for every job that reaches its
// maximum number of deliveries, and removes the job from the queue.
func (q *Queue) watchLost(plan *Plan, c *collector) (*nats.Subscription, error) {
	return q.nc.Subscribe(maxDeliveriesAdvisory(plan.ID), func(m *nats.Msg) {
		var adv struct {
			StreamSeq  uint64 `json:"stream_seq"`
			Deliveries int    `json:"deliveries"`
		}
		if json.Unmarshal(m.Data, &adv) != nil {
			return
		}
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		s, err := q.js.Stream(ctx, jobsStream)
		if err != nil {
			return
		}
		raw, err := s.GetMsg(ctx, adv.StreamSeq)
		if err != nil {
			return
		}
		var j Job
		if json.Unmarshal(raw.Data, &j) != nil {
			return
		}
		data, _ := json.Marshal(lostResult(j, adv.Deliveries))
		if _, err := q.js.Publish(ctx, resultsSubject(plan.ID), data, jetstream.WithMsgID(resultID(j))); err == nil {
			s.DeleteMsg(ctx, adv.StreamSeq)
		}
	})
}
