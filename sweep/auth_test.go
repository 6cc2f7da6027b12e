package sweep_test

import (
	"context"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/nats-io/nkeys"

	"github.com/stiction-sim/stiction/sweep"
)

// spec20 is spec200 with 2 random samples: 20 jobs.
var spec20 = strings.Replace(spec200, "samples: 20", "samples: 2", 1)

// serveOpen starts an embedded server listening on every interface (so it
// requires credentials) and returns it with the loopback URL clients use.
func serveOpen(t *testing.T, dir string) (*sweep.Queue, string) {
	t.Helper()
	q, err := sweep.Serve(sweep.ServerOptions{Store: filepath.Join(dir, "nats"), Listen: "0.0.0.0:0"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(q.Close)
	u, err := url.Parse(q.URL)
	if err != nil {
		t.Fatal(err)
	}
	if q.WorkerNkey == "" {
		t.Fatal("a server on 0.0.0.0 gave no worker key")
	}
	return q, "nats://127.0.0.1:" + u.Port()
}

// TestAuthOffLoopback: a server listening on 0.0.0.0 refuses a client
// without credentials, with a wrong nkey or with a token; a worker with the
// key it printed completes the sweep, each row identical to the job run
// alone, and the key is in no result file.
func TestAuthOffLoopback(t *testing.T) {
	dir := t.TempDir()
	q, u := serveOpen(t, dir)
	other, err := nkeys.CreateUser()
	if err != nil {
		t.Fatal(err)
	}
	otherSeed, _ := other.Seed()
	for name, c := range map[string]sweep.Credentials{
		"none": {}, "wrong nkey": {Nkey: string(otherSeed)}, "token": {Token: "guess"},
	} {
		if w, err := sweep.Join(u, c); err == nil {
			w.Close()
			t.Errorf("%s: joined", name)
		} else if !strings.Contains(strings.ToLower(err.Error()), "authorization") {
			t.Errorf("%s: %v", name, err)
		}
	}
	w, err := sweep.Join(u, sweep.Credentials{Nkey: q.WorkerNkey})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	p := plan(t, spec20)
	ctx, stop := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	wg.Go(func() { sweep.Work(ctx, w, sweep.WorkerOptions{Name: "remote"}) })
	rep, err := sweep.Run(context.Background(), p, q, sweep.Options{Out: dir})
	stop()
	wg.Wait()
	if err != nil || rep.Done != len(p.Jobs) || rep.Failed != 0 {
		t.Fatalf("report %+v: %v", rep, err)
	}
	got, want := tableRows(t, dir, p.Columns()), aloneRows(t, p)
	if !slices.EqualFunc(got, want, slices.Equal) {
		t.Fatalf("rows differ from the jobs run alone:\n got %v\nwant %v", got, want)
	}
	for _, name := range []string{sweep.ResultsLog, sweep.TableCSV, sweep.TableParquet} {
		data, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(data), q.WorkerNkey) || !strings.Contains(string(data), "remote") && name == sweep.ResultsLog {
			t.Errorf("%s: holds the key, or no result of the remote worker", name)
		}
	}
}

// TestLoopbackNeedsNoKey: a loopback server takes clients without
// credentials, as before.
func TestLoopbackNeedsNoKey(t *testing.T) {
	q := embedded(t, t.TempDir())
	if q.WorkerNkey != "" {
		t.Error("a loopback server made a key")
	}
	w, err := sweep.Join(q.URL, sweep.Credentials{})
	if err != nil {
		t.Fatal(err)
	}
	w.Close()
}
