package viewer

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/stiction-sim/stiction/constraint"
	"github.com/stiction-sim/stiction/record"
)

func testFeed() *Feed {
	sc := record.SceneJSON{Scene: "t", DT: 0.01, RecordEvery: 1, Bodies: []record.BodyJSON{
		{Name: "ground", Fixed: true, Pose: record.PoseJSON{Quaternion: [4]float64{1, 0, 0, 0}}, Geometries: []record.GeometryJSON{{Shape: "halfspace"}}},
		{Name: "ball", Pose: record.PoseJSON{Position: [3]float64{0, 0, 1}, Quaternion: [4]float64{1, 0, 0, 0}}, Geometries: []record.GeometryJSON{{Shape: "sphere", Radius: 0.1}}},
	}}
	return NewFeed(sc)
}

func frame(t float64) FrameJSON {
	return FrameJSON{T: t, Poses: [][7]float32{{0, 0, 0, 1, 0, 0, 0}, {0, 0, float32(1 - t), 1, 0, 0, 0}}, Contacts: [][9]float32{}}
}

func get(t *testing.T, h http.Handler, target string) *httptest.ResponseRecorder {
	t.Helper()
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("GET", target, nil))
	return rec
}

// TestServesEmbeddedFiles checks the page, the vendored three.js files and
// their licence, and /api/run.
func TestServesEmbeddedFiles(t *testing.T) {
	h := Handler(testFeed())
	for path, want := range map[string]string{
		"/":                                   "<title>Stiction viewer</title>",
		"/app.js":                             "import * as THREE from 'three'",
		"/vendor/three/build/three.module.js": "three.core.js",
		"/vendor/three/build/three.core.js":   "const REVISION = '187'",
		"/vendor/three/examples/jsm/controls/OrbitControls.js": "class OrbitControls",
		"/vendor/three/LICENSE":                                "MIT License",
		"/api/run":                                             `"scene":{"scene":"t"`,
	} {
		rec := get(t, h, path)
		if rec.Code != 200 || !strings.Contains(rec.Body.String(), want) {
			t.Errorf("GET %s: status %d, body lacks %q", path, rec.Code, want)
		}
	}
}

// TestTraversalIs404 sends paths that try to leave the served folder, raw
// and percent-encoded, to the handler and over a real connection.
func TestTraversalIs404(t *testing.T) {
	paths := []string{
		"/../go.mod", "/vendor/../../go.mod", "/%2e%2e%2fgo.mod", "/%2E%2E/go.mod", "/..%2fgo.mod",
		"/vendor/three/..%2f..%2f..%2fserver.go", "/%2e%2e/%2e%2e/etc/passwd", "/..%5cgo.mod", "/vendor%2f..%2f..%2fdoc.go",
		"/.%2e/go.mod", "/static/../doc.go", "/api/../server.go",
	}
	h := Handler(testFeed())
	for _, p := range paths {
		if rec := get(t, h, p); rec.Code != http.StatusNotFound {
			t.Errorf("handler: GET %s: status %d, want 404", p, rec.Code)
		}
	}
	srv := httptest.NewServer(h)
	defer srv.Close()
	for _, p := range paths {
		if code := rawGet(t, srv.Listener.Addr().String(), p); code != "404" {
			t.Errorf("TCP: GET %s: status %s, want 404", p, code)
		}
	}
}

// rawGet sends a request line exactly as given (no client-side cleaning)
// and returns the status code.
func rawGet(t *testing.T, addr, path string) string {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	fmt.Fprintf(c, "GET %s HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", path)
	line, err := bufio.NewReader(c).ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	f := strings.Fields(line)
	if len(f) < 2 {
		t.Fatalf("bad status line %q", line)
	}
	return f[1]
}

func TestDefaultAddressIsLoopback(t *testing.T) {
	if DefaultAddr != "127.0.0.1" {
		t.Errorf("DefaultAddr %q", DefaultAddr)
	}
	ln, err := Listen("", 0)
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	if ip := ln.Addr().(*net.TCPAddr).IP; !ip.IsLoopback() {
		t.Errorf("Listen(\"\", 0) listens on %v, want loopback", ip)
	}
	if !strings.HasPrefix(URL(ln), "http://127.0.0.1:") {
		t.Errorf("URL %s", URL(ln))
	}
	if _, err := Listen("", 70000); err == nil || !strings.Contains(err.Error(), "port 70000") {
		t.Errorf("port 70000: error %v", err)
	}
}

// TestLiveEvents streams a feed that grows while a client reads it: the
// client gets every frame and step row once, in order, then "done".
func TestLiveEvents(t *testing.T) {
	f := testFeed()
	f.AddFrame(frame(0))
	ln, err := Listen("", 0)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- Serve(ctx, ln, f) }()
	defer func() { cancel(); <-served }()
	resp, err := http.Get(URL(ln) + "api/events?frames=1")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if ct := resp.Header.Get("Content-Type"); ct != "text/event-stream" {
		t.Errorf("content type %q", ct)
	}
	go func() {
		for i := 1; i <= 20; i++ {
			f.AddStep([]float64{float64(i) / 100, 3, 0, 1e-8, 0, 1, 0, 1, 2, 0, 0})
			f.AddFrame(frame(float64(i) / 100))
			time.Sleep(time.Millisecond)
		}
		f.Finish()
	}()
	times, steps := readEvents(t, resp.Body)
	if len(times) != 20 || times[0] != 0.01 || times[19] != 0.2 || steps != 20 {
		t.Errorf("got %d frames (%v), %d steps; want 20 frames 0.01…0.2 and 20 steps", len(times), times, steps)
	}
}

// readEvents reads the stream up to "done" and returns the frame times and
// the number of step rows.
func readEvents(t *testing.T, r io.Reader) ([]float64, int) {
	t.Helper()
	var times []float64
	steps := 0
	sc := bufio.NewScanner(r)
	sc.Buffer(nil, 1<<24)
	event := ""
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "event: "):
			event = line[7:]
			if event == "done" {
				return times, steps
			}
		case strings.HasPrefix(line, "data: ") && event == "frames":
			var fr []FrameJSON
			if err := json.Unmarshal([]byte(line[6:]), &fr); err != nil {
				t.Fatal(err)
			}
			for _, x := range fr {
				times = append(times, x.T)
			}
		case strings.HasPrefix(line, "data: ") && event == "steps":
			var rows [][]*float64
			if err := json.Unmarshal([]byte(line[6:]), &rows); err != nil {
				t.Fatal(err)
			}
			steps += len(rows)
		}
	}
	t.Fatalf("stream ended without done: %v", sc.Err())
	return nil, 0
}

func TestBadEventsQuery(t *testing.T) {
	if rec := get(t, Handler(testFeed()), "/api/events?frames=-1"); rec.Code != 400 || !strings.Contains(rec.Body.String(), "frames") {
		t.Errorf("status %d body %q", rec.Code, rec.Body.String())
	}
}

func TestNumEncodesNonFiniteAsNull(t *testing.T) {
	f := testFeed()
	f.AddStep([]float64{0.01, 1, 0, 1e-8, 0, 0, 0, 0, 0, 0, 0}) // status (NaN) is dropped
	nan := 0.0
	f.AddStep([]float64{0.02, 1, 0, nan / nan, 0, 0, 0, 0, 0, 0, 0})
	data, err := f.snapshotJSON()
	if err != nil {
		t.Fatal(err)
	}
	var run struct {
		Steps struct {
			Columns []string
			Rows    [][]*float64
		}
	}
	if err := json.Unmarshal(data, &run); err != nil {
		t.Fatal(err)
	}
	if len(run.Steps.Columns) != 10 || run.Steps.Columns[9] != "max_slip" || run.Steps.Rows[1][3] != nil || *run.Steps.Rows[0][3] != 1e-8 {
		t.Errorf("columns %v rows %v", run.Steps.Columns, run.Steps.Rows)
	}
}

// TestFrameConstraints: acting constraints reach the viewer's frames (from
// a live simulator's reports and from a run read back), inactive ones are
// left out.
func TestFrameConstraints(t *testing.T) {
	reports := []constraint.Report{
		{Name: "limit", Type: constraint.TypeLimit, State: constraint.Inactive, Rows: 1},
		{Name: "servo", Type: constraint.TypeActuator, State: constraint.Saturated, Rows: 1, Impulse: [6]float64{0.02}},
		{Name: "loop", Type: constraint.TypeBall, State: constraint.Active, Rows: 3, Impulse: [6]float64{0.003, 0, 0.004}},
	}
	var fr FrameJSON
	AddConstraints(&fr, reports, 0.001)
	if len(fr.Constraints) != 2 || fr.Constraints[0].Name != "servo" || fr.Constraints[0].State != "saturated" ||
		math.Abs(float64(fr.Constraints[0].Force)-20) > 1e-12 || math.Abs(float64(fr.Constraints[1].Force)-5) > 1e-12 {
		t.Errorf("frame constraints %+v", fr.Constraints)
	}
	rec := FrameFromRecord(record.Frame{Constraints: []record.ConstraintRow{{Name: "a", Type: "limit", State: "inactive"}, {Name: "b", Type: "friction", State: "active", Force: 1.5}}})
	if len(rec.Constraints) != 1 || rec.Constraints[0].Name != "b" || rec.Constraints[0].Force != 1.5 {
		t.Errorf("frame from record %+v", rec.Constraints)
	}
}
