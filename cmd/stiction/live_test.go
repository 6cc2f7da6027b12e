package main

import (
	"bufio"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/stiction-sim/stiction/viewer"
)

// TestRunViewStreamsLive runs "drop" for 20 steps with --view on a free
// port while a client follows /api/events: it gets the initial frame and
// one frame and one step row per step, then "done".
func TestRunViewStreamsLive(t *testing.T) {
	o := runOptions{duration: 0.02, quiet: true} // 20 steps of 1 ms
	o.viewFlags = viewFlags{view: true, addr: viewer.DefaultAddr, port: 0}
	b, err := load("drop", o)
	if err != nil {
		t.Fatal(err)
	}
	if o.live, err = startLive(o.viewFlags, b, io.Discard); err != nil {
		t.Fatal(err)
	}
	resp, err := http.Get(viewer.URL(o.live.ln) + "api/events")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if _, err := simulate(b, o, io.Discard); err != nil {
		t.Fatal(err)
	}
	waited := make(chan struct{})
	go func() { o.live.wait(io.Discard); close(waited) }()
	frames, steps := countEvents(t, resp.Body)
	if frames != b.Steps+1 || steps != b.Steps || b.Steps != 20 {
		t.Errorf("streamed %d frames and %d steps for %d steps", frames, steps, b.Steps)
	}
	o.live.cancel()
	<-waited
}

// countEvents reads server-sent events up to "done" and counts the frames
// and step rows.
func countEvents(t *testing.T, r io.Reader) (frames, steps int) {
	t.Helper()
	sc := bufio.NewScanner(r)
	sc.Buffer(nil, 1<<24)
	event := ""
	for sc.Scan() {
		line := sc.Text()
		if name, ok := strings.CutPrefix(line, "event: "); ok {
			if event = name; event == "done" {
				return frames, steps
			}
			continue
		}
		data, ok := strings.CutPrefix(line, "data: ")
		if !ok {
			continue
		}
		var items []json.RawMessage
		if err := json.Unmarshal([]byte(data), &items); err != nil {
			t.Fatalf("event %s: %v", event, err)
		}
		if event == "frames" {
			frames += len(items)
		} else {
			steps += len(items)
		}
	}
	t.Fatalf("stream ended without done: %v", sc.Err())
	return
}
