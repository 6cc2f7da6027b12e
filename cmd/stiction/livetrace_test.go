package main

import (
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/tracing"
	"github.com/chromedp/chromedp"

	"github.com/stiction-sim/stiction/viewer"
)

// traceEvent is one event of Chromium's trace (the JSON trace event
// format: ph "X" a complete event of dur µs from ts µs, "M" metadata such
// as a thread's name, "R"/"I"/"n" the page's performance.mark).
type traceEvent struct {
	Name string          `json:"name"`
	Ph   string          `json:"ph"`
	Ts   float64         `json:"ts"`
	Dur  float64         `json:"dur"`
	Pid  int64           `json:"pid"`
	Tid  int64           `json:"tid"`
	Args json.RawMessage `json:"args"`
}

// traceCategories are the trace categories of the slider's path: the
// page's thread (tasks, layout, paint, commit, WebGL read-back), the
// compositors and the page's marks.
var traceCategories = []string{"toplevel", "blink", "cc", "gpu", "viz", "devtools.timeline", "blink.user_timing"}

// TestLiveLatencyTrace moves the grasp scene's arm1 slider 7 times while
// Chromium traces, and logs per move where the time from the slider to
// the first frame showing it went: to the answer's arrival, drawing it,
// the wait for the browser's next frame, the read-back of the WebGL frame
// (the software compositor's: it waits for the GPU's frame), the wait for
// the compositor's draw, that draw, and the animation frame that sees the
// GPU's fence. Reported, not asserted (the machine's load sets the
// numbers); it fails if the trace lacks the page's marks or the stages.
// It runs with STICTION_LONG=1 only.
func TestLiveLatencyTrace(t *testing.T) {
	if os.Getenv("STICTION_LONG") != "1" {
		t.Skip("set STICTION_LONG=1")
	}
	ctx, consoleErrors := browser(t)
	_, url := liveSession(t, "grasp", viewer.SessionOptions{Rate: 1, Paused: true, Models: modelList("grasp")})
	p := openLive(t, ctx, consoleErrors, url)
	checkLatency(t, p, "arm1", 3) // warm-up: shaders, caches
	events := traceOf(t, p, func() { checkLatency(t, p, "arm1", 7) })
	rows, err := latencySplit(events)
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 7 {
		t.Fatalf("%d slider moves traced, want 7", len(rows))
	}
	cols := []string{"arrived", "drawn", "to main frame", "read-back", "to compositor", "compositor", "to shown", "shown", "on screen", "layout+paint"}
	var b strings.Builder
	for i, name := range cols {
		v := make([]float64, len(rows))
		for k, r := range rows {
			v[k] = r[i]
		}
		slices.Sort(v)
		fmt.Fprintf(&b, "%s %.1f (%.1f–%.1f); ", name, v[len(v)/2], v[0], v[len(v)-1])
	}
	t.Logf("grasp arm1, 7 moves, ms, median (min–max): %s%s", b.String(), loadAverage())
}

// traceOf runs f while Chromium traces, and returns the trace's events.
func traceOf(t *testing.T, p page, f func()) []traceEvent {
	t.Helper()
	var mu sync.Mutex
	var events []traceEvent
	done := make(chan struct{})
	p.must(chromedp.Listen(p.ctx, func(ev any) {
		switch e := ev.(type) {
		case *tracing.EventDataCollected:
			mu.Lock()
			defer mu.Unlock()
			for _, v := range e.Value {
				b, err := v.MarshalJSON()
				var te traceEvent
				if err == nil && json.Unmarshal(b, &te) == nil {
					events = append(events, te)
				}
			}
		case *tracing.EventTracingComplete:
			close(done)
		}
	}))
	_, err := chromedp.Call(p.ctx, tracing.Start, tracing.StartParams{TraceConfig: &tracing.TraceConfig{IncludedCategories: traceCategories}})
	p.must(err)
	f()
	_, err = chromedp.Call(p.ctx, tracing.End, cdp.Empty{})
	p.must(err)
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		t.Fatal("the trace did not complete in 30 s")
	}
	mu.Lock()
	defer mu.Unlock()
	return events
}

// latencySplit returns per slider move (the page's marks stiction:slider,
// :arrived, :drawn and :shown) the times in ms: slider to arrival, to
// drawn, drawn to the page's next main frame, that frame's WebGL
// read-back, its end to the compositor's next draw, that draw, its end to
// shown (negative when the page saw the GPU's fence before the compositor
// finished), slider to shown, slider to the end of the compositor's draw
// (the picture on the headless screen), and the page thread's layout and
// paint between drawn and shown.
func latencySplit(events []traceEvent) ([][]float64, error) {
	threads := map[[2]int64]string{}
	for _, e := range events {
		if e.Ph == "M" && e.Name == "thread_name" {
			var a struct{ Name string }
			if json.Unmarshal(e.Args, &a) == nil {
				threads[[2]int64{e.Pid, e.Tid}] = a.Name
			}
		}
	}
	thread := func(e traceEvent) string { return threads[[2]int64{e.Pid, e.Tid}] }
	marks := map[string][]float64{}
	var frames, readbacks, draws, layouts []traceEvent
	for _, e := range events {
		switch {
		case strings.HasPrefix(e.Name, "stiction:") && strings.Contains("RIni", e.Ph):
			marks[e.Name] = append(marks[e.Name], e.Ts)
		case e.Ph != "X":
		case e.Name == "ProxyMain::BeginMainFrame" && thread(e) == "CrRendererMain":
			frames = append(frames, e)
		case e.Name == "GLES2::ReadPixels" && thread(e) == "CrRendererMain":
			readbacks = append(readbacks, e)
		case e.Name == "Display::DrawAndSwap":
			draws = append(draws, e)
		case (e.Name == "Layout" || e.Name == "Paint") && thread(e) == "CrRendererMain":
			layouts = append(layouts, e)
		}
	}
	for _, l := range [][]traceEvent{frames, readbacks, draws} {
		slices.SortFunc(l, func(a, b traceEvent) int { return int(a.Ts - b.Ts) })
	}
	for _, m := range []string{"slider", "arrived", "drawn", "shown"} {
		slices.Sort(marks["stiction:"+m])
	}
	after := func(l []traceEvent, ts float64) (traceEvent, bool) {
		for _, e := range l {
			if e.Ts >= ts {
				return e, true
			}
		}
		return traceEvent{}, false
	}
	next := func(name string, ts float64) (float64, bool) {
		for _, x := range marks["stiction:"+name] {
			if x >= ts {
				return x, true
			}
		}
		return 0, false
	}
	var rows [][]float64
	for _, s := range marks["stiction:slider"] {
		a, ok1 := next("arrived", s)
		d, ok2 := next("drawn", a)
		sh, ok3 := next("shown", d)
		f, ok4 := after(frames, d)
		r, ok5 := after(readbacks, f.Ts)
		c, ok6 := after(draws, r.Ts+r.Dur)
		if !(ok1 && ok2 && ok3 && ok4 && ok5 && ok6) {
			return nil, fmt.Errorf("slider move at %.0f µs: the trace lacks a mark or a stage (arrived %v, drawn %v, shown %v, main frame %v, read-back %v, compositor draw %v); %d events",
				s, ok1, ok2, ok3, ok4, ok5, ok6, len(events))
		}
		var lp float64
		for _, e := range layouts {
			if e.Ts >= d && e.Ts < sh {
				lp += e.Dur
			}
		}
		ms := func(x float64) float64 { return x / 1e3 }
		rows = append(rows, []float64{ms(a - s), ms(d - s), ms(f.Ts - d), ms(r.Dur), ms(c.Ts - r.Ts - r.Dur), ms(c.Dur), ms(sh - c.Ts - c.Dur), ms(sh - s), ms(c.Ts + c.Dur - s), ms(lp)})
	}
	return rows, nil
}
