package main

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	cdplog "github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"github.com/stiction-sim/stiction/record"
	"github.com/stiction-sim/stiction/viewer"
)

// recordClutter records a 1 s clutter run (100 steps) and returns its
// directory.
func recordClutter(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	if code, _, errs := runCLI("run", "clutter", "--duration", "1", "--out", dir, "--quiet"); code != 0 {
		t.Fatalf("stiction run clutter: exit %d: %s", code, errs)
	}
	return dir
}

// serveRun serves the viewer for run directory dir on a free loopback port
// and returns its URL.
func serveRun(t *testing.T, dir string) (string, *record.Run) {
	t.Helper()
	run, err := record.ReadRun(dir)
	if err != nil {
		t.Fatal(err)
	}
	return serveFeed(t, viewer.FeedFromRun(run)), run
}

// serveFeed serves feed f on a free loopback port and returns its URL.
func serveFeed(t *testing.T, f *viewer.Feed) string {
	t.Helper()
	ln, err := viewer.Listen("", 0)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- viewer.Serve(ctx, ln, f) }()
	t.Cleanup(func() { cancel(); <-done })
	return viewer.URL(ln)
}

// chromiumPath returns the browser to test with: $STICTION_CHROMIUM, or
// Debian's /usr/bin/chromium.
func chromiumPath() string {
	for _, p := range []string{os.Getenv("STICTION_CHROMIUM"), "/usr/bin/chromium", "/usr/bin/chromium-browser"} {
		if p != "" {
			if _, err := os.Stat(p); err == nil {
				return p
			}
		}
	}
	return ""
}

// browser starts headless Chromium with a fresh profile and collects the
// page's console errors, uncaught exceptions and failed loads.
func browser(t *testing.T) (context.Context, func() []string) {
	t.Helper()
	path := chromiumPath()
	if path == "" {
		t.Skip("no browser: install Debian's chromium package (apt-get install -y chromium) or set STICTION_CHROMIUM to a Chrome/Chromium binary")
	}
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(path), chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU, chromedp.NoFirstRun,
		chromedp.Flag("disable-background-networking", true), chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true), chromedp.UserDataDir(t.TempDir()), chromedp.WindowSize(1280, 760),
		// WebGL in software, since --disable-gpu leaves no GPU.
		chromedp.Flag("use-angle", "swiftshader"), chromedp.Flag("enable-unsafe-swiftshader", true),
	}
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancelCtx := chromedp.NewContext(actx)
	ctx, cancelTimeout := context.WithTimeout(ctx, 60*time.Second)
	t.Cleanup(func() { cancelTimeout(); cancelCtx(); cancelAlloc() })
	var mu sync.Mutex
	var errs []string
	err := chromedp.Listen(ctx, func(ev any) {
		mu.Lock()
		defer mu.Unlock()
		switch ev := ev.(type) {
		case *runtime.EventConsoleAPICalled:
			if ev.Type == runtime.ConsoleAPICalledTypeError {
				errs = append(errs, fmt.Sprintf("console.error: %s", consoleArgs(ev.Args)))
			}
		case *runtime.EventExceptionThrown:
			d := ev.ExceptionDetails
			desc := d.Text
			if d.Exception != nil {
				desc += " " + d.Exception.Description
			}
			errs = append(errs, fmt.Sprintf("exception at %s:%d: %s", d.URL, d.LineNumber+1, desc))
		case *cdplog.EventEntryAdded:
			if ev.Entry.Level == cdplog.EntryLevelError {
				errs = append(errs, fmt.Sprintf("log: %s %s", ev.Entry.Text, ev.Entry.URL))
			}
		}
	})
	if err != nil {
		t.Fatalf("starting %s: %v", path, err)
	}
	return ctx, func() []string { mu.Lock(); defer mu.Unlock(); return append([]string(nil), errs...) }
}

func consoleArgs(args []*runtime.RemoteObject) string {
	var parts []string
	for _, a := range args {
		if a.Value != nil {
			parts = append(parts, string(a.Value))
		} else {
			parts = append(parts, a.Description)
		}
	}
	return strings.Join(parts, " ")
}

// scrubJS moves the timeline slider like a user would and returns the
// body poses.
const scrubJS = `(() => { const el = document.getElementById('timeline'); el.value = %d;
  el.dispatchEvent(new Event('input', {bubbles: true})); return window.stiction.poses(); })()`

// TestViewerInBrowser records a clutter run, serves it, and drives the page
// in headless Chromium: no console errors, one scene object per body,
// scrubbing moves the bodies, play advances the frames, and the screenshot
// is not blank.
func TestViewerInBrowser(t *testing.T) {
	ctx, consoleErrors := browser(t)
	url, run := serveRun(t, recordClutter(t))
	p := page{t: t, ctx: ctx, errs: consoleErrors}
	p.must(chromedp.Do(ctx, chromedp.Func(enableLogs), chromedp.Navigate(url+shotQuery())))
	_, err := chromedp.Run(ctx, chromedp.Poll[bool](`window.stiction && (window.stiction.ready || window.stiction.error !== null)`, chromedp.WithPollingTimeout(30*time.Second)))
	p.must(err)
	if msg, err := chromedp.Run(ctx, chromedp.Evaluate[string](`String(window.stiction.error || '')`)); err != nil || msg != "" {
		t.Fatalf("page failed to load: %q %v (console: %v)", msg, err, consoleErrors())
	}
	bodies, meshes, frames := p.eval(`window.stiction.bodyCount()`), p.eval(`window.stiction.meshCount()`), p.eval(`window.stiction.frameCount()`)
	before, after := p.scrub(0), p.scrub(len(run.Frames)-1)
	p.scrub(0)
	// Play advances the frames: polled, not timed, so that a loaded
	// machine only makes it slower (at 1× it takes 50 ms of page time).
	p.must(chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`#play`))))
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](`window.stiction.frame() >= 5`, chromedp.WithPollingTimeout(20*time.Second))); err != nil {
		t.Errorf("after pressing play: frame %d, want ≥ 5 (10 ms frames): %v", p.eval(`window.stiction.frame()`), err)
	}
	if p.eval(`window.stiction.playing() ? 1 : 0`) != 1 {
		t.Errorf("the page does not say it is playing after play was pressed")
	}
	p.must(chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`#play`))))
	p.scrub(len(run.Frames) / 2) // the screenshot shows t = 0.5 s, mid-fall
	p.must(chromedp.Do(ctx, chromedp.Sleep(100*time.Millisecond)))
	shot, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	p.must(err)
	if errs := consoleErrors(); len(errs) > 0 {
		t.Errorf("console errors:\n%s", strings.Join(errs, "\n"))
	}
	checkCounts(t, run, bodies, meshes, frames)
	checkScrub(t, run, before, after)
	checkScreenshot(t, shot)
}

// enableLogs turns on the Log and Runtime domains, whose events carry
// console errors and failed loads.
func enableLogs(ctx context.Context, _ *chromedp.Target) error {
	if _, err := chromedp.Call(ctx, cdplog.Enable, cdp.Empty{}); err != nil {
		return err
	}
	_, err := chromedp.Call(ctx, runtime.Enable, cdp.Empty{})
	return err
}

// page drives the viewer page in the browser.
type page struct {
	t    *testing.T
	ctx  context.Context
	errs func() []string
}

func (p page) must(err error) {
	p.t.Helper()
	if err != nil {
		p.t.Fatalf("browser: %v (console: %v)", err, p.errs())
	}
}

func (p page) eval(js string) int {
	p.t.Helper()
	n, err := chromedp.Run(p.ctx, chromedp.Evaluate[int](js))
	p.must(err)
	return n
}

// scrub moves the timeline slider to frame i as a user would (an input
// event) and returns the body poses.
func (p page) scrub(i int) [][7]float64 {
	p.t.Helper()
	poses, err := chromedp.Run(p.ctx, chromedp.Evaluate[[][7]float64](fmt.Sprintf(scrubJS, i)))
	p.must(err)
	return poses
}

func checkCounts(t *testing.T, run *record.Run, bodies, meshes, frames int) {
	t.Helper()
	geoms := 0
	for _, b := range run.Scene.Bodies {
		geoms += len(b.Geometries)
	}
	if bodies != len(run.Scene.Bodies) || bodies != 45 {
		t.Errorf("page shows %d bodies, scene.json has %d (clutter: 45 = 40 objects, ground, 4 walls)", bodies, len(run.Scene.Bodies))
	}
	if meshes != geoms {
		t.Errorf("page draws %d shape meshes, scene.json has %d geometries", meshes, geoms)
	}
	if frames != len(run.Frames) || frames != 101 {
		t.Errorf("page has %d frames, trajectory.csv %d (want 101)", frames, len(run.Frames))
	}
}

// checkScrub checks that moving the slider from the first to the last frame
// moved every free body, to the poses of trajectory.csv.
func checkScrub(t *testing.T, run *record.Run, before, after [][7]float64) {
	t.Helper()
	if len(before) != len(run.Scene.Bodies) || len(after) != len(before) {
		t.Fatalf("poses: %d and %d bodies, want %d", len(before), len(after), len(run.Scene.Bodies))
	}
	lastFrame := run.Frames[len(run.Frames)-1]
	moved := 0
	for b, body := range run.Scene.Bodies {
		if body.Fixed {
			continue
		}
		if math.Abs(before[b][2]-after[b][2]) > 0.01 {
			moved++
		}
		want := lastFrame.Poses[b].P
		for k := range 3 {
			if math.Abs(after[b][k]-want[k]) > 1e-6 {
				t.Errorf("body %s after scrubbing to the end: p%d = %v, trajectory.csv says %v", body.Name, k, after[b][k], want[k])
			}
		}
	}
	if moved < 30 {
		t.Errorf("scrubbing from t=0 to t=1 s moved only %d of 40 bodies by more than 1 cm in z", moved)
	}
}

// checkScreenshot decodes the PNG, saves it ($STICTION_SCREENSHOT, or the
// test's temporary folder) and checks that it is not one flat colour.
func checkScreenshot(t *testing.T, shot []byte) {
	t.Helper()
	img, err := png.Decode(bytes.NewReader(shot))
	if err != nil {
		t.Fatalf("screenshot: %v", err)
	}
	path := os.Getenv("STICTION_SCREENSHOT")
	if path == "" {
		path = filepath.Join(t.TempDir(), "viewer.png")
	}
	if err := os.WriteFile(path, shot, 0o644); err != nil {
		t.Fatal(err)
	}
	n := distinctColours(img)
	t.Logf("screenshot %v, %d distinct colours, saved to %s", img.Bounds().Size(), n, path)
	if n < 50 {
		t.Errorf("screenshot has only %d distinct colours: the scene was not drawn", n)
	}
}

func distinctColours(img image.Image) int {
	seen := map[[4]uint32]bool{}
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y += 2 {
		for x := b.Min.X; x < b.Max.X; x += 2 {
			r, g, bl, a := img.At(x, y).RGBA()
			seen[[4]uint32{r, g, bl, a}] = true
		}
	}
	return len(seen)
}

// TestLiveViewerInBrowser opens the page on a live feed holding only the
// first frame of a clutter run, then publishes the rest: the page follows
// the stream to the last frame and reports the end of the run.
func TestLiveViewerInBrowser(t *testing.T) {
	ctx, consoleErrors := browser(t)
	run, err := record.ReadRun(recordClutter(t))
	if err != nil {
		t.Fatal(err)
	}
	feed := viewer.NewFeed(run.Scene)
	feed.AddFrame(viewer.FrameFromRecord(run.Frames[0]))
	url := serveFeed(t, feed)
	p := page{t: t, ctx: ctx, errs: consoleErrors}
	p.must(chromedp.Do(ctx, chromedp.Func(enableLogs), chromedp.Navigate(url+shotQuery())))
	_, err = chromedp.Run(ctx, chromedp.Poll[bool](`window.stiction && window.stiction.ready`, chromedp.WithPollingTimeout(20*time.Second)))
	p.must(err)
	for i, fr := range run.Frames[1:] {
		feed.AddStep(run.Steps[i])
		feed.AddFrame(viewer.FrameFromRecord(fr))
	}
	feed.Finish()
	_, err = chromedp.Run(ctx, chromedp.Poll[bool](`document.getElementById('status').textContent === 'live run finished'`, chromedp.WithPollingTimeout(20*time.Second)))
	p.must(err)
	if n := p.eval(`window.stiction.frameCount()`); n != len(run.Frames) {
		t.Errorf("page has %d frames, want %d", n, len(run.Frames))
	}
	shown, err := chromedp.Run(ctx, chromedp.Evaluate[[][7]float64](`window.stiction.poses()`))
	p.must(err)
	last := run.Frames[len(run.Frames)-1]
	for b := range run.Scene.Bodies {
		if d := math.Abs(shown[b][2] - last.Poses[b].P[2]); d > 1e-6 {
			t.Errorf("body %s: shown z %v, last frame z %v", run.Scene.Bodies[b].Name, shown[b][2], last.Poses[b].P[2])
		}
	}
	if errs := consoleErrors(); len(errs) > 0 {
		t.Errorf("console errors:\n%s", strings.Join(errs, "\n"))
	}
}
