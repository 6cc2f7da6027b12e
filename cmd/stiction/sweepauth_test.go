package main

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stiction-sim/stiction/sweep"
)

// sweepLive runs "stiction sweep" args in this process and returns the
// lines it writes to stderr as they come, and its exit code and stdout at
// the end.
func sweepLive(args ...string) (<-chan string, <-chan result) {
	pr, pw := io.Pipe()
	done := make(chan result, 1)
	go func() {
		var out bytes.Buffer
		code := run(append([]string{"sweep"}, args...), &out, pw)
		pw.Close()
		done <- result{code: code, out: out.String()}
	}()
	lines := make(chan string, 100)
	go func() {
		sc := bufio.NewScanner(pr)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	return lines, done
}

type result struct {
	code     int
	out, err string
}

// TestSweepKeyOffLoopback runs "stiction sweep --listen 0.0.0.0:PORT" with
// no local workers: a worker process without the key is refused, and one
// started with the command the sweep printed (its host name replaced by
// 127.0.0.1) runs every job; the key is in no result file.
func TestSweepKeyOffLoopback(t *testing.T) {
	dir := t.TempDir()
	spec := filepath.Join(dir, "two.yaml")
	os.WriteFile(spec, []byte("name: two\nscene: drop\nsets: [duration=0.01]\ngrid:\n  materials.default.friction: [0.1, 0.2, 0.3]\n  bodies.ball.density: [500, 1000]\n"), 0o644)
	port := freePort(t)
	out := filepath.Join(dir, "out")
	lines, done := sweepLive(spec, "--out", out, "--listen", fmt.Sprintf("0.0.0.0:%d", port), "--local-workers", "0", "--quiet")
	var command string
	for l := range lines {
		if _, c, ok := strings.Cut(l, "more workers can join with: "); ok {
			command = c
			break
		}
	}
	go func() {
		for range lines {
		}
	}()
	args := strings.Fields(strings.TrimSuffix(command, " (copy that file to the workers' machines; it is a secret)"))
	if len(args) < 6 || args[0] != "stiction" || args[1] != "worker" || args[2] != "--nats" || args[4] != "--nkey-file" {
		t.Fatalf("printed worker command %q", command)
	}
	u, err := url.Parse(args[3])
	if err != nil || u.Port() != fmt.Sprint(port) {
		t.Fatalf("worker URL %q: %v", args[3], err)
	}
	args[3] = "nats://127.0.0.1:" + u.Port()

	// Without the key: refused at once.
	stranger := exec.Command(os.Args[0], "-test.run=^$", "--", "worker", "--nats", args[3], "--out", dir)
	stranger.Env = append(os.Environ(), helperEnv+"=1")
	msg, err := stranger.CombinedOutput()
	if err == nil || !strings.Contains(strings.ToLower(string(msg)), "authorization") {
		t.Errorf("a worker without the key: %v\n%s", err, msg)
	}

	worker := exec.Command(os.Args[0], append([]string{"-test.run=^$", "--"}, append(args[1:], "--out", dir)...)...)
	worker.Env = append(os.Environ(), helperEnv+"=1")
	var werr bytes.Buffer
	worker.Stderr = &werr
	if err := worker.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { worker.Process.Kill(); worker.Wait() }()
	var r result
	select {
	case r = <-done:
	case <-time.After(60 * time.Second):
		t.Fatalf("the sweep did not finish in 60 s; worker:\n%s", werr.String())
	}
	if r.code != 0 || !strings.Contains(r.out, "6 jobs, 6 run now") {
		t.Fatalf("sweep: exit %d\n%s\nworker:\n%s", r.code, r.out, werr.String())
	}
	key, err := sweep.ReadSecret(args[5])
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{sweep.ResultsLog, sweep.TableCSV, sweep.TableParquet} {
		data, err := os.ReadFile(filepath.Join(out, name))
		if err != nil || bytes.Contains(data, []byte(key)) {
			t.Errorf("%s: %v, or it holds the key", name, err)
		}
	}
	if st, err := os.Stat(args[5]); err != nil || st.Mode().Perm() != 0o600 {
		t.Errorf("key file: %v", err)
	}
}
