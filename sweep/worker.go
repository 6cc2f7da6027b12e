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
	// OnJobRefused, if set, is called when a message on the queue of
	// sweep is not a job this worker runs (malformed, too large, for
	// another sweep; see DecodeJob) or its result is too large. The
	// message is terminated (not delivered again) and the worker goes on.
	OnJobRefused func(sweep string, err error)
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
			n, err := work(ctx, q, c, id, o)
			if err != nil && ctx.Err() == nil {
				delete(consumers, id)
			}
			didWork = didWork || n > 0
		}
	}
	return nil
}

// work fetches one job of sweep id from c and runs it, waiting up to
// o.Poll; it returns the number of jobs it ran.
func work(ctx context.Context, q *Queue, c jetstream.Consumer, id string, o WorkerOptions) (int, error) {
	batch, err := c.Fetch(1, jetstream.FetchMaxWait(o.Poll))
	if err != nil {
		return 0, err
	}
	n := 0
	for msg := range batch.Messages() {
		n++
		if err := runMessage(ctx, q, c, id, msg, o); err != nil {
			return n, err
		}
	}
	return n, batch.Error()
}

// runMessage runs the job in msg, taken from the queue of sweep id, and
// stores its result.
func runMessage(ctx context.Context, q *Queue, c jetstream.Consumer, id string, msg jetstream.Msg, o WorkerOptions) error {
	j, err := DecodeJob(msg.Data())
	if err == nil && j.Sweep != id {
		err = &JobError{Field: "Sweep", Msg: fmt.Sprintf("a job of sweep %s on the queue of sweep %s", j.Sweep, id)}
	}
	if err != nil {
		return refuse(msg, id, err, o)
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
	if len(data) > MaxResultBytes {
		return refuse(msg, id, fmt.Errorf("sweep: the result of job %d is %d bytes, more than the limit of %d", j.Index, len(data), MaxResultBytes), o)
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

// refuse terminates msg, a message of sweep id that is not a job to run,
// with err as the reason, and tells o.OnJobRefused.
func refuse(msg jetstream.Msg, id string, err error, o WorkerOptions) error {
	if o.OnJobRefused != nil {
		o.OnJobRefused(id, err)
	}
	msg.TermWithReason(cut(err.Error(), 256))
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
