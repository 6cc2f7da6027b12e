package sweep_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/nats-io/nkeys"

	"github.com/stiction-sim/stiction/sweep"
)

// TestWorkerCannotPurge: with the workers' key, purging or deleting the
// jobs or results stream, deleting a job or the workers' consumer,
// publishing a job and reading the results are all refused; the sweep's jobs are still there
// afterwards and a worker then completes the sweep.
func TestWorkerCannotPurge(t *testing.T) {
	dir := t.TempDir()
	q, u := serveOpen(t, dir)
	p := plan(t, spec20)

	kp, err := nkeys.FromSeed([]byte(q.WorkerNkey))
	if err != nil {
		t.Fatal(err)
	}
	pub, _ := kp.PublicKey()
	violations := make(chan error, 100)
	nc, err := nats.Connect(u, nats.Nkey(pub, kp.Sign), nats.ErrorHandler(func(_ *nats.Conn, _ *nats.Subscription, err error) {
		if errors.Is(err, nats.ErrPermissionViolation) {
			violations <- err
		}
	}))
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	js, err := jetstream.New(nc)
	if err != nil {
		t.Fatal(err)
	}

	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	started := make(chan struct{})
	var runErr error
	var rep sweep.Report
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		rep, runErr = sweep.Run(ctx, p, q, sweep.Options{Out: dir})
	}()
	// Wait until the jobs are published (the sweep is registered).
	go func() {
		for ctx.Err() == nil {
			if kv, err := js.KeyValue(ctx, "stiction_sweeps"); err == nil {
				if _, err := kv.Get(ctx, p.ID); err == nil {
					close(started)
					return
				}
			}
			time.Sleep(20 * time.Millisecond)
		}
	}()
	select {
	case <-started:
	case <-time.After(20 * time.Second):
		t.Fatal("the sweep was not registered")
	}

	// Every forbidden request, at once: each must fail, and the server
	// must report a permissions violation for its subject.
	c, cancel := context.WithTimeout(ctx, time.Second)
	defer cancel()
	req := func(subj, body string) func() error {
		return func() error { _, err := nc.RequestWithContext(c, subj, []byte(body)); return err }
	}
	forbidden := map[string]func() error{
		"$JS.API.CONSUMER.DELETE.STICTION_JOBS.w-" + p.ID: func() error { return js.DeleteConsumer(c, "STICTION_JOBS", "w-"+p.ID) },
		"$JS.API.CONSUMER.CREATE.STICTION_RESULTS":        req("$JS.API.CONSUMER.CREATE.STICTION_RESULTS", `{"stream_name":"STICTION_RESULTS","config":{"ack_policy":"none"}}`),
		"stiction.jobs." + p.ID:                           req("stiction.jobs."+p.ID, `{}`),
	}
	for _, name := range []string{"STICTION_JOBS", "STICTION_RESULTS"} {
		forbidden["$JS.API.STREAM.DELETE."+name] = func() error { return js.DeleteStream(c, name) }
		forbidden["$JS.API.STREAM.PURGE."+name] = req("$JS.API.STREAM.PURGE."+name, "")
		forbidden["$JS.API.STREAM.MSG.DELETE."+name] = req("$JS.API.STREAM.MSG.DELETE."+name, `{"seq":1}`)
	}
	errs := make(chan error, len(forbidden))
	for _, f := range forbidden {
		go func() { errs <- f() }()
	}
	for subj := range forbidden {
		if err := <-errs; err == nil {
			t.Errorf("a forbidden request succeeded (one of %v)", subj)
		}
	}
	if _, err := nc.SubscribeSync("stiction.results.>"); err != nil {
		t.Fatal(err)
	}
	nc.Flush()
	want := map[string]bool{`Subscription to "stiction.results.>"`: true}
	for subj := range forbidden {
		want[`Publish to "`+subj+`"`] = true
	}
	deadline := time.After(5 * time.Second)
	for len(want) > 0 {
		select {
		case err := <-violations:
			for w := range want {
				if strings.Contains(err.Error(), w) {
					delete(want, w)
				}
			}
		case <-deadline:
			t.Fatalf("no permissions violation for %v", want)
		}
	}

	// The jobs are all still queued: a worker with the key runs them all.
	w, err := sweep.Join(u, sweep.Credentials{Nkey: q.WorkerNkey})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	go sweep.Work(ctx, w, sweep.WorkerOptions{})
	select {
	case <-finished:
	case <-time.After(60 * time.Second):
		t.Fatal("the sweep did not finish")
	}
	if runErr != nil || rep.Done != len(p.Jobs) || rep.Failed != 0 {
		t.Fatalf("report %+v: %v", rep, runErr)
	}
}
