package sweep_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/stiction-sim/stiction/runner"
	"github.com/stiction-sim/stiction/sweep"
)

// bigServer starts a NATS server with JetStream on loopback that takes
// messages of up to 128 MiB, as a cluster's own server might, and returns
// its URL.
func bigServer(t *testing.T) string {
	t.Helper()
	srv, err := server.NewServer(&server.Options{
		Host: "127.0.0.1", Port: server.RANDOM_PORT, JetStream: true, StoreDir: t.TempDir(),
		NoSigs: true, NoLog: true, MaxPayload: 128 << 20, MaxPending: 256 << 20,
	})
	if err != nil {
		t.Fatal(err)
	}
	go srv.Start()
	if !srv.ReadyForConnections(10 * time.Second) {
		t.Fatal("the NATS server did not start")
	}
	t.Cleanup(func() { srv.Shutdown(); srv.WaitForShutdown() })
	return srv.ClientURL()
}

// hostile is a message published straight to a sweep's queue and what the
// worker must make of it: a result whose message holds every string of
// want (a job that fails), or a refusal holding them (not a job).
type hostile struct {
	name    string
	data    []byte
	index   int // the result's index, -1 for a refusal
	want    []string
	without []string // strings the result must not hold
}

// jobJSON returns the JSON of a job of sweep id.
func jobJSON(t *testing.T, j sweep.Job) []byte {
	t.Helper()
	data, err := json.Marshal(j)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// TestHostileJobs publishes hostile messages straight to the jobs stream
// of a running sweep, on a server that takes 128 MiB messages: a scene
// including a file outside its bundle, one naming /etc/passwd as a mesh,
// a bundled URDF naming file:///etc/passwd as a mesh,
// a 100 MB message (the stream refuses it) and a 20 MB one (the worker
// does), invalid YAML, a job of another sweep, a sweep ID that
// climbs out of the run directory, not JSON, and a bundled file whose hash
// is wrong. Each fails alone, with an error naming the field and not the
// file's content; the worker stays alive and runs a good job published
// after them, and the sweep's own jobs complete, each row identical to the
// job run alone.
func TestHostileJobs(t *testing.T) {
	dir := t.TempDir()
	url := bigServer(t)
	p := plan(t, spec20)
	q, err := sweep.Connect(url, sweep.Credentials{})
	if err != nil {
		t.Fatal(err)
	}
	defer q.Close()

	secret := filepath.Join(dir, "secret.yaml")
	os.WriteFile(secret, []byte("name: SECRET-7f3a\nbodies:\n  - {name: SECRET-body, shape: {type: sphere, radius: 1}, density: 1}\n"), 0o600)
	scene := func(body string) []byte {
		return []byte("name: evil\ndt: 0.001\nduration: 0.002\nmaterials:\n  default: {stiffness: 1e12, dissipation: 0, friction: 1}\n" + body)
	}
	src := func(data []byte) runner.Source { return runner.Source{Scene: "/evil/scene.yaml", Data: data} }
	good := p.Jobs[0]
	good.Index = 2000
	other := good
	other.Sweep, other.Index = "other-0123456789ab", 1004
	climb := good
	climb.Sweep, climb.Index = "../../etc", 1005
	badHash := good
	badHash.Index, badHash.Bundle = 1006, []sweep.File{{Path: "/m/cube.obj", SHA256: strings.Repeat("0", 64), Data: []byte("v 0 0 0\n")}}
	urdf := []byte(`<robot name="r"><link name="base"><inertial><mass value="1"/><inertia ixx="0.1" iyy="0.1" izz="0.1" ixy="0" ixz="0" iyz="0"/></inertial>` +
		`<collision><geometry><mesh filename="file:///etc/passwd"/></geometry></collision></link></robot>`)
	sum := sha256.Sum256(urdf)
	robot := sweep.Job{Sweep: p.ID, Index: 1007, Source: src(scene("include:\n  - {file: robot.urdf}\nbodies:\n  - {name: b, shape: {type: sphere, radius: 0.1}, material: default, density: 1}\n")),
		Bundle: []sweep.File{{Path: "/evil/robot.urdf", SHA256: hex.EncodeToString(sum[:]), Data: urdf}}}
	big := func(n int) []byte {
		b := bytes.Repeat([]byte("x"), n)
		copy(b, fmt.Sprintf(`{"Sweep":%q,"Index":1002,"Params":["`, p.ID))
		return b
	}

	cases := []hostile{
		{name: "include outside the bundle", index: 1000,
			data: jobJSON(t, sweep.Job{Sweep: p.ID, Index: 1000, Source: src(scene("include:\n  - {file: " + secret + "}\nbodies:\n  - {name: b, shape: {type: sphere, radius: 0.1}, material: default, density: 1}\n"))}),
			want: []string{"include[0].file", secret, "not among the files the job carries"}, without: []string{"SECRET-7f3a", "SECRET-body"}},
		{name: "/etc/passwd as a mesh", index: 1001,
			data: jobJSON(t, sweep.Job{Sweep: p.ID, Index: 1001, Source: src(scene("bodies:\n  - {name: b, shape: {type: mesh, file: /etc/passwd}, material: default, density: 1}\n"))}),
			want: []string{"bodies[0].shape.file", "/etc/passwd", "not among the files the job carries"}, without: []string{"root:"}},
		{name: "20 MB", index: -1, data: big(20 << 20), want: []string{"20971520 bytes, more than the limit"}},
		{name: "a bundled URDF naming file:///etc/passwd as a mesh", index: 1007, data: jobJSON(t, robot),
			want: []string{"include[0].file", "filename", "/etc/passwd", "not among the files the job carries"}, without: []string{"root:"}},
		{name: "invalid YAML", index: 1003,
			data: jobJSON(t, sweep.Job{Sweep: p.ID, Index: 1003, Source: src([]byte("bodies: [ {name: a\n"))}),
			want: []string{"/evil/scene.yaml"}},
		{name: "another sweep", index: -1, data: jobJSON(t, other), want: []string{"Sweep: a job of sweep other-0123456789ab on the queue of sweep " + p.ID}},
		{name: "sweep ID out of the run directory", index: -1, data: jobJSON(t, climb), want: []string{"Sweep: want 1 to 64 letters"}},
		{name: "not JSON", index: -1, data: []byte("{{{"), want: []string{"not a job: JSON"}},
		{name: "wrong hash", index: -1, data: jobJSON(t, badHash), want: []string{"Bundle[0].SHA256: does not match"}},
	}

	var mu sync.Mutex
	var refusals []string
	results := map[int]sweep.Result{}
	w, err := sweep.Join(url, sweep.Credentials{})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	wctx, stopWorker := context.WithCancel(context.Background())
	defer stopWorker()
	var wg sync.WaitGroup
	var workErr error
	wg.Go(func() {
		workErr = sweep.Work(wctx, w, sweep.WorkerOptions{
			OnJobRefused: func(id string, err error) { mu.Lock(); refusals = append(refusals, err.Error()); mu.Unlock() },
			OnJobDone:    func(r sweep.Result) { mu.Lock(); results[r.Index] = r; mu.Unlock() },
		})
	})

	rep, err := sweep.Run(context.Background(), p, q, sweep.Options{Out: dir})
	if err != nil || rep.Done != len(p.Jobs) || rep.Failed != 0 {
		t.Fatalf("report %+v: %v", rep, err)
	}
	got, want := tableRows(t, dir, p.Columns()), aloneRows(t, p)
	if !slices.EqualFunc(got, want, slices.Equal) {
		t.Fatalf("rows differ from the jobs run alone")
	}

	// The sweep's jobs are done; list it again so that the worker takes
	// the hostile messages, published now, and then the good job.
	nc, err := nats.Connect(url)
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	js, _ := jetstream.New(nc)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	for _, h := range cases {
		if _, err := js.Publish(ctx, "stiction.jobs."+p.ID, h.data); err != nil {
			t.Fatalf("%s: publish: %v", h.name, err)
		}
	}
	// 100 MB: no JetStream file store takes it (at most 32 MiB a
	// message), whatever the server's maximum payload.
	if _, err := js.Publish(ctx, "stiction.jobs."+p.ID, big(100<<20)); err == nil || !strings.Contains(err.Error(), "message too large") {
		t.Errorf("100 MB: %v", err)
	}
	if _, err := js.Publish(ctx, "stiction.jobs."+p.ID, jobJSON(t, good)); err != nil {
		t.Fatal(err)
	}
	kv, err := js.KeyValue(ctx, "stiction_sweeps")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := kv.Put(ctx, p.ID, []byte("again")); err != nil {
		t.Fatal(err)
	}
	// Wait for the good job and for every hostile message's outcome: the
	// worker may finish the good job before it has refused a large message
	// it received earlier (a loaded machine reads 20 MB slowly).
	wantRefusals := 0
	for _, h := range cases {
		if h.index < 0 {
			wantRefusals++
		}
	}
	settled := func() bool {
		mu.Lock()
		defer mu.Unlock()
		if _, done := results[2000]; !done || len(refusals) < wantRefusals {
			return false
		}
		for _, h := range cases {
			if _, ok := results[h.index]; h.index >= 0 && !ok {
				return false
			}
		}
		return true
	}
	for !settled() {
		if ctx.Err() != nil {
			mu.Lock()
			_, done := results[2000]
			mu.Unlock()
			if !done {
				t.Fatalf("the good job after the hostile ones did not run; refusals %v", refusals)
			}
			break // the checks below say which outcome is missing
		}
		time.Sleep(20 * time.Millisecond)
	}
	mu.Lock()
	defer mu.Unlock()
	if r := results[2000]; r.Status != "ok" {
		t.Errorf("the good job: %s %s", r.Status, r.Message)
	}
	nref := 0
	for _, h := range cases {
		text := ""
		if h.index < 0 {
			for _, r := range refusals {
				if strings.Contains(r, h.want[0]) {
					text = r
				}
			}
			nref++
		} else if r, ok := results[h.index]; ok && r.Status == "error" {
			text = r.Message
		}
		if text == "" {
			t.Errorf("%s: no error result or refusal; refusals %v", h.name, refusals)
			continue
		}
		for _, s := range h.want {
			if !strings.Contains(text, s) {
				t.Errorf("%s: %q does not say %q", h.name, text, s)
			}
		}
		for _, s := range h.without {
			if strings.Contains(text, s) {
				t.Errorf("%s: %q holds the file's content %q", h.name, text, s)
			}
		}
	}
	if len(refusals) != nref {
		t.Errorf("%d refusals, want %d: %v", len(refusals), nref, refusals)
	}
	stopWorker()
	wg.Wait()
	if workErr != nil {
		t.Errorf("the worker stopped with %v", workErr)
	}
	t.Logf("invalid YAML: %s", results[1003].Message)
	t.Logf("URDF: %s", results[1007].Message)
}
