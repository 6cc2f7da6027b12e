package sweep

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strconv"
	"time"

	"github.com/nats-io/nats.go/jetstream"
)

// WorkerOptions configure Work.
type WorkerOptions struct {
	// Out is the directory under which jobs that keep their runs write
	// runs/<sweep>/<job>; "" keeps none.
	Out string
	// Name identifies the worker in results (default host:pid).
	Name string
	// OnJobStart, if set, is called when a job starts (tests, logs).
	OnJobStart func(j Job, delivery int)
	// OnJobDone, if set, is called after a job's result is stored and the
	// job acknowledged.
	OnJobDone func(r Result)
	// Poll is how long one fetch waits for a job (default 500 ms).
	Poll time.Duration
}

// Work takes jobs of every running sweep from q and runs them until ctx is
// done. A job is acknowledged only once its result is stored in the
// results stream (publish acknowledged by JetStream, with the job's ID as
// message ID so that a job run twice is stored once); while it runs, the
// worker tells the server every third of the ack wait that it is still at
// work. When ctx is cancelled mid-job, the job is handed back (Nak) for
// another worker; a worker that dies mid-job loses nothing either: the
// server delivers the job again once its ack wait has passed.
func Work(ctx context.Context, q *Queue, o WorkerOptions) error {
	if o.Name == "" {
		host, _ := os.Hostname()
		o.Name = host + ":" + strconv.Itoa(os.Getpid())
	}
	if o.Poll == 0 {
		o.Poll = 500 * time.Millisecond
	}
	consumers := map[string]jetstream.Consumer{}
	var (
		ids     []string
		listed  time.Time
		didWork = false
	)
	for ctx.Err() == nil {
		// Listing the sweeps costs a consumer on the bucket: do it when
		// idle, or every few seconds while busy.
		if !didWork || time.Since(listed) > 2*time.Second {
			var err error
			if ids, err = q.sweeps(ctx); err != nil {
				if ctx.Err() != nil {
					break
				}
				return fmt.Errorf("sweep: worker: list sweeps: %w", err)
			}
			listed = time.Now()
		}
		if len(ids) == 0 {
			sleep(ctx, o.Poll)
			continue
		}
		didWork = false
		for _, id := range ids {
			c, ok := consumers[id]
			if !ok {
				var err error
				if c, err = q.js.Consumer(ctx, jobsStream, workersConsumer(id)); err != nil {
					continue // the sweep is being set up or just ended
				}
				consumers[id] = c
			}
			n, err := work(ctx, q, c, o)
			if err != nil && ctx.Err() == nil {
				delete(consumers, id)
			}
			didWork = didWork || n > 0
		}
	}
	return nil
}

// work fetches one job from c and runs it, waiting up to o.Poll; it
// returns the number of jobs it ran.
func work(ctx context.Context, q *Queue, c jetstream.Consumer, o WorkerOptions) (int, error) {
	batch, err := c.Fetch(1, jetstream.FetchMaxWait(o.Poll))
	if err != nil {
		return 0, err
	}
	n := 0
	for msg := range batch.Messages() {
		n++
		if err := runMessage(ctx, q, c, msg, o); err != nil {
			return n, err
		}
	}
	return n, batch.Error()
}

// runMessage runs the job in msg and stores its result.
func runMessage(ctx context.Context, q *Queue, c jetstream.Consumer, msg jetstream.Msg, o WorkerOptions) error {
	var j Job
	if err := json.Unmarshal(msg.Data(), &j); err != nil {
		return msg.TermWithReason("not a job: " + err.Error())
	}
	delivery := 1
	if md, err := msg.Metadata(); err == nil {
		delivery = int(md.NumDelivered)
	}
	if o.OnJobStart != nil {
		o.OnJobStart(j, delivery)
	}
	stop := heartbeat(msg, c.CachedInfo().Config.AckWait)
	r, err := RunJob(ctx, j, o.Out)
	stop()
	if err != nil { // cancelled: hand the job back at once
		msg.Nak()
		return nil
	}
	r.Worker, r.Delivery = o.Name, delivery
	data, err := json.Marshal(r)
	if err != nil {
		return errors.Join(err, msg.Nak())
	}
	pctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 30*time.Second)
	defer cancel()
	if _, err := q.js.Publish(pctx, resultsSubject(j.Sweep), data, jetstream.WithMsgID(resultID(j))); err != nil {
		msg.Nak()
		return fmt.Errorf("sweep: worker: store the result of job %d: %w", j.Index, err)
	}
	if err := msg.DoubleAck(pctx); err != nil {
		return fmt.Errorf("sweep: worker: ack job %d: %w", j.Index, err)
	}
	if o.OnJobDone != nil {
		o.OnJobDone(r)
	}
	return nil
}

// resultID is the message ID of a job's result.
func resultID(j Job) string { return j.Sweep + "." + strconv.Itoa(j.Index) }

// heartbeat tells the server every third of the ack wait that msg is
// still being worked on, until the returned function is called.
func heartbeat(msg jetstream.Msg, ackWait time.Duration) func() {
	if ackWait <= 0 {
		ackWait = 30 * time.Second
	}
	done := make(chan struct{})
	go func() {
		t := time.NewTicker(ackWait / 3)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				msg.InProgress()
			}
		}
	}()
	return func() { close(done) }
}

// sleep waits for d or until ctx is done.
func sleep(ctx context.Context, d time.Duration) {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
	case <-t.C:
	}
}
