package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stiction-sim/stiction/sweep"
)

// helperEnv makes the test binary act as the stiction command, with the
// arguments after "--" (see TestMain), so that a test can start a second
// process.
const helperEnv = "STICTION_TEST_AS_COMMAND"

func TestMain(m *testing.M) {
	if os.Getenv(helperEnv) == "1" {
		args := os.Args
		for i, a := range args {
			if a == "--" {
				args = args[i+1:]
				break
			}
		}
		os.Exit(run(args, os.Stdout, os.Stderr))
	}
	os.Exit(m.Run())
}

// freePort returns a TCP port that was free on the loopback interface.
func freePort(t *testing.T) int {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}

// TestSweepTwoProcesses runs "stiction sweep" here with no local workers
// and "stiction worker --nats nats://127.0.0.1:PORT" in another process:
// the worker runs every job and the table is complete.
func TestSweepTwoProcesses(t *testing.T) {
	dir := t.TempDir()
	spec := filepath.Join(dir, "two.yaml")
	os.WriteFile(spec, []byte("name: two\nscene: drop\nsets: [duration=0.01]\ngrid:\n  materials.default.friction: [0.1, 0.2, 0.3, 0.4, 0.5]\n  bodies.ball.density: [500, 1000]\n"), 0o644)
	port := freePort(t)
	url := fmt.Sprintf("nats://127.0.0.1:%d", port)

	worker := exec.Command(os.Args[0], "-test.run=^$", "--", "worker", "--nats", url, "--out", dir)
	worker.Env = append(os.Environ(), helperEnv+"=1")
	stderr, _ := worker.StderrPipe()
	done := make(chan result, 1)
	go func() {
		code, out, errs := runCLI("sweep", spec, "--out", filepath.Join(dir, "out"), "--listen", fmt.Sprintf("127.0.0.1:%d", port), "--local-workers", "0", "--quiet")
		done <- result{code, out, errs}
	}()
	waitListening(t, port)
	if err := worker.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { worker.Process.Kill(); worker.Wait() }()
	lines := make(chan string, 100)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	var r result
	select {
	case r = <-done:
	case <-time.After(60 * time.Second):
		t.Fatal("the sweep did not finish in 60 s")
	}
	if r.code != 0 || !strings.Contains(r.out, "10 jobs, 10 run now") {
		t.Fatalf("sweep: exit %d\n%s\n%s", r.code, r.out, r.err)
	}
	tab, err := sweep.ReadTable(filepath.Join(dir, "out"))
	if err != nil || len(tab.Rows) != 10 {
		t.Fatalf("table: %v", err)
	}
	// Every result came from the other process.
	f, err := os.Open(filepath.Join(dir, "out", sweep.ResultsLog))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	pid := ":" + strconv.Itoa(worker.Process.Pid)
	for sc.Scan() {
		var res sweep.Result
		if err := json.Unmarshal(sc.Bytes(), &res); err != nil {
			t.Fatal(err)
		}
		if !strings.HasSuffix(res.Worker, pid) || res.Status != "ok" {
			t.Errorf("job %d: worker %q (want pid %s), status %s", res.Index, res.Worker, pid, res.Status)
		}
	}
	worker.Process.Signal(os.Interrupt)
	n := 0
	for l := range lines {
		if strings.HasPrefix(l, "job ") {
			n++
		}
	}
	if n != 10 {
		t.Errorf("the worker printed %d job lines", n)
	}
}

// waitListening waits until something listens on the loopback port.
func waitListening(t *testing.T, port int) {
	t.Helper()
	for range 200 {
		c, err := net.Dial("tcp", fmt.Sprintf("127.0.0.1:%d", port))
		if err == nil {
			c.Close()
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("nothing listens on port %d", port)
}

// TestPlotSweep plots a statistic of a sweep table against a parameter.
func TestPlotSweep(t *testing.T) {
	dir := t.TempDir()
	spec := filepath.Join(dir, "p.yaml")
	os.WriteFile(spec, []byte("scene: drop\nsets: [duration=0.005]\ngrid: {bodies.ball.density: [500, 1000, 2000]}\n"), 0o644)
	out := filepath.Join(dir, "out")
	if code, _, errs := runCLI("sweep", spec, "--out", out, "--local-workers", "1", "--quiet"); code != 0 {
		t.Fatal(errs)
	}
	png := filepath.Join(dir, "p.png")
	if code, _, errs := runCLI("plot", out, "--x", "bodies.ball.density", "--y", "penetration_max,iterations_mean", "--out", png); code != 0 {
		t.Fatal(errs)
	}
	if st, err := os.Stat(png); err != nil || st.Size() < 1000 {
		t.Errorf("plot: %v", err)
	}
	if code, _, errs := runCLI("plot", out, "--x", "mass", "--out", png); code != 2 || !strings.Contains(errs, `no column "mass"`) {
		t.Errorf("bad --x: exit %d, %q", code, errs)
	}
}
