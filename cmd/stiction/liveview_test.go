package main

import (
	"bytes"
	"context"
	"fmt"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"

	"github.com/stiction-sim/stiction/multibody"
	"github.com/stiction-sim/stiction/viewer"
)

// boxScene is a 10 cm, 1 kg box resting on the ground.
const boxScene = `name: box
description: a 10 cm box of 1 kg on the ground
dt: 0.002
duration: 10
materials:
  default: {stiffness: 1e8, dissipation: 0.01, friction: 0.8}
bodies:
  - name: ground
    fixed: true
    shape: {type: halfspace}
    material: default
  - name: box
    shape: {type: box, size: [0.1, 0.1, 0.1]}
    material: default
    mass: 1
    pose: {position: [0, 0, 0.05]}
sensors:
  - {name: box_position, type: framepos, body: box}
`

// liveSession starts an interactive session of model name served on a free
// loopback port, and returns the session and the page URL.
func liveSession(t *testing.T, name string, opt viewer.SessionOptions) (*viewer.Session, string) {
	t.Helper()
	var o runOptions
	s, err := viewer.NewSession(sessionLoader(o), name, opt)
	if err != nil {
		t.Fatal(err)
	}
	ln, err := viewer.Listen("", 0)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go s.Run(ctx)
	go func() { done <- viewer.ServeHandler(ctx, ln, viewer.LiveHandler(s, "")) }()
	t.Cleanup(func() { cancel(); <-done })
	return s, viewer.URL(ln)
}

// openLive opens url in the tab of ctx and waits for the hello and a frame.
func openLive(t *testing.T, ctx context.Context, errs func() []string, url string) page {
	p := page{t: t, ctx: ctx, errs: errs}
	p.must(chromedp.Do(ctx, chromedp.Func(enableLogs), chromedp.Navigate(url+shotQuery())))
	p.poll(`window.stiction && window.stiction.ready && window.stiction.live && window.stiction.live.frames() > 0`)
	return p
}

// shotQuery returns the page query of the browser tests: full quality
// (antialiasing, the device's pixel ratio) when they make the pictures of
// the docs, else the page's choice (reduced with software WebGL).
func shotQuery() string {
	if os.Getenv("STICTION_SCREENSHOT_DIR") != "" || os.Getenv("STICTION_SCREENSHOT") != "" {
		return "?quality=high"
	}
	return ""
}

// pollFor waits up to d for the page expression js to be true and says
// whether it became so.
func (p page) pollFor(js string, d time.Duration) bool {
	p.t.Helper()
	_, err := chromedp.Run(p.ctx, chromedp.Poll[bool](js, chromedp.WithPollingTimeout(d)))
	return err == nil
}

// poll waits until the page expression js is true.
func (p page) poll(js string) {
	p.t.Helper()
	_, err := chromedp.Run(p.ctx, chromedp.Poll[bool](js, chromedp.WithPollingTimeout(20*time.Second)))
	if err != nil {
		p.t.Fatalf("waiting for %s: %v (console: %v)", js, err, p.errs())
	}
}

func (p page) float(js string) float64 {
	p.t.Helper()
	x, err := chromedp.Run(p.ctx, chromedp.Evaluate[float64](js))
	p.must(err)
	return x
}

func (p page) str(js string) string {
	p.t.Helper()
	x, err := chromedp.Run(p.ctx, chromedp.Evaluate[string](js))
	p.must(err)
	return x
}

// click clicks the button sel (an element click event, as a mouse click
// on it sends).
func (p page) click(sel string) {
	p.t.Helper()
	p.run(fmt.Sprintf(`document.querySelector(%q).click()`, sel))
}

// sessionState returns the session's time, steps and state.
func sessionState(t *testing.T, s *viewer.Session) (float64, int, multibody.State) {
	t.Helper()
	var tm float64
	var n int
	var st multibody.State
	if err := s.Inspect(context.Background(), func(v *viewer.Snapshot) { tm, n, st = v.T(), v.Steps(), v.State() }); err != nil {
		t.Fatal(err)
	}
	return tm, n, st
}

// TestLiveSessionInBrowser drives an interactive session of a box on the
// ground from Chromium: pause stops simulated time, step advances it by
// exactly δt, a ctrl-drag lifts the box, the frames stay scrubbable while
// paused, reset restores the initial state
// bit for bit, toggles change what is drawn (and show the sensor values),
// a bad message gets an error,
// and a second tab agrees with the first.
func TestLiveSessionInBrowser(t *testing.T) {
	ctx, consoleErrors := browser(t)
	file := filepath.Join(t.TempDir(), "box.yaml")
	if err := os.WriteFile(file, []byte(boxScene), 0o644); err != nil {
		t.Fatal(err)
	}
	s, url := liveSession(t, file, viewer.SessionOptions{Rate: 1})
	_, _, initial := sessionState(t, s)
	p := openLive(t, ctx, consoleErrors, url)
	p.poll(`window.stiction.live.last().frame.t > 0.05`)

	// Pause stops simulated time.
	p.click(`#live-pause`)
	p.poll(`window.stiction.live.last().paused`)
	t1, _, _ := sessionState(t, s)
	p.must(chromedp.Do(ctx, chromedp.Sleep(300*time.Millisecond)))
	t2, n2, _ := sessionState(t, s)
	if t1 != t2 || p.float(`window.stiction.live.last().frame.t`) != t2 {
		t.Errorf("paused: simulated time went from %v to %v (page shows %v)", t1, t2, p.float(`window.stiction.live.last().frame.t`))
	}

	// Step advances it by exactly δt.
	p.click(`#live-step`)
	p.poll(fmt.Sprintf(`window.stiction.live.last().step === %d`, n2+1))
	t3, _, _ := sessionState(t, s)
	if want := initial.T + float64(n2+1)*0.002; t3 != want || p.float(`window.stiction.live.last().frame.t`) != t3 {
		t.Errorf("step: t = %v (page %v), want t0 + (n+1) δt = %v", t3, p.float(`window.stiction.live.last().frame.t`), want)
	}

	checkToggles(t, p)
	checkDragLifts(t, p, s)

	// Paused, the part received stays scrubbable: the timeline goes back to
	// the frames where the box was in the air. Every frame is visited: the
	// drag may hold the box above 0.15 m for only a few of them.
	zmax := p.float(`(() => { let z = 0; const n = window.stiction.frameCount();
	  for (let i = 0; i < n; i++) { window.stiction.setFrame(i); z = Math.max(z, window.stiction.poses()[1][2]); }
	  window.stiction.setFrame(n - 1); return z; })()`)
	if zmax < 0.15 {
		t.Errorf("scrubbing the paused session's frames: highest box z %v, want the lift (> 0.15 m)", zmax)
	}

	// Reset restores the initial state bit for bit.
	p.click(`#live-reset`)
	p.poll(`window.stiction.live.last().step === 0`)
	_, n, st := sessionState(t, s)
	if n != 0 || st.T != initial.T || !slices.Equal(st.Q, initial.Q) || !slices.Equal(st.V, initial.V) {
		t.Errorf("reset: step %d, state differs from the initial one:\nq %v\nwant %v\nv %v", n, st.Q, initial.Q, st.V)
	}

	// A bad message gets an error, and the page keeps working.
	p.run(`window.stiction.live.raw('{"type":"fly"}')`)
	p.poll(`window.stiction.live.errors().length > 0`)
	if msg := p.str(`window.stiction.live.errors()[0].message`); !strings.Contains(msg, "unknown type") {
		t.Errorf("bad message: error %q", msg)
	}

	// A second tab sees the same session: after a step sent from it, both
	// show the same step, time and poses.
	tab2, cancel := chromedp.NewContext(ctx)
	defer cancel()
	q := openLive(t, tab2, consoleErrors, url)
	q.click(`#live-step`)
	for _, pg := range []page{p, q} {
		pg.poll(`window.stiction.live.last().step === 1`)
	}
	a, b := p.str(`JSON.stringify(window.stiction.live.last().frame)`), q.str(`JSON.stringify(window.stiction.live.last().frame)`)
	if a != b {
		t.Errorf("the two tabs disagree:\n%s\n%s", a, b)
	}
	if errs := consoleErrors(); len(errs) > 0 {
		t.Errorf("console errors:\n%s", strings.Join(errs, "\n"))
	}
}

// checkToggles turns each overlay on and checks what the page draws: the
// objects counted and the pixels of the canvas.
func checkToggles(t *testing.T, p page) {
	t.Helper()
	pixels := `window.stiction.live.pixels()`
	before := p.str(pixels)
	for _, c := range []struct{ id, field string }{{"show-coms", "coms"}, {"show-inertia", "inertia"}} {
		off := p.float(fmt.Sprintf(`window.stiction.live.drawn().%s`, c.field))
		p.run(fmt.Sprintf(`window.stiction.live.toggle('%s', true)`, c.id))
		on := p.float(fmt.Sprintf(`window.stiction.live.drawn().%s`, c.field))
		if off != 0 || on < 1 {
			t.Errorf("toggle %s: %v drawn before, %v after", c.id, off, on)
		}
	}
	// The equivalent-inertia box of a uniform 10 cm box is the box itself.
	sides, err := chromedp.Run(p.ctx, chromedp.Evaluate[[]float64](`window.stiction.live.inertiaBoxes()[0].sides`))
	p.must(err)
	for _, a := range sides {
		if math.Abs(a-0.1) > 1e-9 {
			t.Errorf("inertia box of the 10 cm box: sides %v, want 0.1 m", sides)
			break
		}
	}
	if after := p.str(pixels); after == before {
		t.Error("turning on the centres of mass and inertia boxes left the picture unchanged")
	}
	for _, id := range []string{"show-coms", "show-inertia"} {
		p.run(fmt.Sprintf(`window.stiction.live.toggle('%s', false)`, id))
	}
	if again := p.str(pixels); again != before {
		t.Error("turning the overlays off again did not restore the picture")
	}
	if txt := p.str(`window.stiction.live.sensorText()`); txt != "" {
		t.Errorf("sensor panel shown before its toggle: %q", txt)
	}
	p.run(`window.stiction.live.toggle('show-sensors', true)`)
	p.poll(`window.stiction.live.sensorText().startsWith('box_position: ')`)
	shown := p.float(`window.stiction.live.drawn().contacts`)
	p.run(`window.stiction.live.toggle('show-points', false)`)
	if hidden := p.float(`window.stiction.live.drawn().contacts`); shown < 1 || hidden != 0 {
		t.Errorf("contact points: %v drawn, %v after the toggle off", shown, hidden)
	}
	p.run(`window.stiction.live.toggle('show-points', true)`)
}

// checkDragLifts ctrl-drags the box 30 cm up with the mouse while the
// session runs: the box leaves the floor; released, it falls back.
func checkDragLifts(t *testing.T, p page, s *viewer.Session) {
	t.Helper()
	xy := func(js string) (float64, float64) {
		v, err := chromedp.Run(p.ctx, chromedp.Evaluate[[]float64](js))
		p.must(err)
		return v[0], v[1]
	}
	x0, y0 := xy(`window.stiction.live.screenPoint([0, -0.05, 0.05])`) // the middle of the box's front face
	x1, y1 := xy(`window.stiction.live.screenPoint([0, -0.05, 0.35])`)
	ctrl := chromedp.ButtonModifiers(chromedp.ModifierCtrl)
	p.click(`#live-pause`) // resume
	p.poll(`!window.stiction.live.last().paused`)
	p.must(chromedp.Do(p.ctx, chromedp.MouseEvent(input.DispatchMouseEventTypeMousePressed, x0, y0, chromedp.ButtonLeft, ctrl, chromedp.ClickCount(1))))
	for k := 1; k <= 10; k++ {
		f := float64(k) / 10
		p.must(chromedp.Do(p.ctx, chromedp.MouseEvent(input.DispatchMouseEventTypeMouseMoved, x0+f*(x1-x0), y0+f*(y1-y0), chromedp.ButtonLeft, ctrl)))
	}
	p.poll(`window.stiction.live.last().perturb !== null && window.stiction.live.last().frame.poses[1][2] > 0.15`)
	if !p.bool(`window.stiction.live.drawn().arrow`) {
		t.Error("the perturbation arrow is not drawn during the drag")
	}
	p.must(chromedp.Do(p.ctx, chromedp.MouseEvent(input.DispatchMouseEventTypeMouseReleased, x1, y1, chromedp.ButtonLeft, ctrl, chromedp.ClickCount(1))))
	p.poll(`window.stiction.live.last().perturb === null && window.stiction.live.last().frame.poses[1][2] < 0.051`)
	_, _, st := sessionState(t, s)
	if z := st.Q[6]; math.Abs(z-0.05) > 1e-3 {
		t.Errorf("released box at z = %v, want back on the floor (0.05)", z)
	}
	p.click(`#live-pause`)
	p.poll(`window.stiction.live.last().paused`)
}

func (p page) bool(js string) bool {
	p.t.Helper()
	x, err := chromedp.Run(p.ctx, chromedp.Evaluate[bool](js))
	p.must(err)
	return x
}

// run evaluates js in the page, ignoring its value.
func (p page) run(js string) {
	p.t.Helper()
	_, err := chromedp.Run(p.ctx, chromedp.Evaluate[any](js))
	p.must(err)
}

// TestLiveRobotInBrowser drives the grasp scene (the iiwa with the Allegro
// hand) from Chromium: the arm1 slider moves the iiwa's first joint to its
// target within the PD's settling time; slider-to-frame latencies are
// measured (reported, not asserted); a ctrl-drag on the hand pulls it
// toward the mouse. With STICTION_SCREENSHOT_DIR set, the picture
// of the drag is written there (docs/viewer-live-iiwa.png is made so).
func TestLiveRobotInBrowser(t *testing.T) {
	ctx, consoleErrors := browser(t)
	_, url := liveSession(t, "grasp", viewer.SessionOptions{Rate: 1, Paused: true, Models: modelList("grasp")})
	p := openLive(t, ctx, consoleErrors, url)
	checkSimplify(t, p)
	checkSliderSettles(t, p)
	checkLatency(t, p, "arm1", 5)
	saveShot(t, "viewer-live-iiwa.png", perturbHand(t, p))
	p.run(`document.getElementById('live-model').value = 'arm'`)
	p.click(`#live-open`)
	p.poll(`window.stiction.live.hello().model === 'arm' && window.stiction.live.last() !== null`)
	checkLatency(t, p, "base", 5)
	if errs := consoleErrors(); len(errs) > 0 {
		t.Errorf("console errors:\n%s", strings.Join(errs, "\n"))
	}
}

// TestLiveClutterInBrowser opens the clutter scene from the page's model
// list, runs it in real time past 0.3 s, pauses it, steps it to t = 0.5 s and checks that the contact points and forces are drawn (the
// screenshot of docs/VIEWER.md). It runs with STICTION_SCREENSHOT_DIR or
// STICTION_LONG=1 only, to keep the default tests short.
func TestLiveClutterInBrowser(t *testing.T) {
	if os.Getenv("STICTION_SCREENSHOT_DIR") == "" && os.Getenv("STICTION_LONG") != "1" {
		t.Skip("set STICTION_SCREENSHOT_DIR or STICTION_LONG=1")
	}
	ctx, consoleErrors := browser(t)
	s, url := liveSession(t, "drop", viewer.SessionOptions{Rate: 1, Models: modelList("drop")})
	p := openLive(t, ctx, consoleErrors, url)
	p.run(`document.getElementById('live-model').value = 'clutter'`)
	p.click(`#live-open`)
	p.poll(`window.stiction.live.hello().model === 'clutter' && window.stiction.live.last() !== null`)
	// Run in real time past 0.3 s, pause (from Go: a loaded page may take
	// a while to), and step to 0.5 s exactly.
	for tm, _, _ := sessionState(t, s); tm < 0.3; tm, _, _ = sessionState(t, s) {
		time.Sleep(5 * time.Millisecond)
	}
	if err := s.Do(context.Background(), viewer.Command{Type: "pause"}); err != nil {
		t.Fatal(err)
	}
	tp, _, _ := sessionState(t, s)
	dt := p.float(`window.stiction.live.hello().scene.dt`)
	n := int(math.Round((0.5 - tp) / dt))
	if n < 1 {
		t.Fatalf("clutter paused at t = %v s, past 0.5 s (δt %v)", tp, dt)
	}
	if err := s.Do(context.Background(), viewer.Command{Type: "step", Count: n}); err != nil {
		t.Fatal(err)
	}
	p.poll(`window.stiction.live.last().paused && Math.abs(window.stiction.live.last().frame.t - 0.5) < 1e-9`)
	p.poll(`window.stiction.live.drawnStep() === window.stiction.live.last().step`)
	p.run(`window.stiction.live.toggle('show-forces', true)`)
	if n, f := p.float(`window.stiction.live.drawn().contacts`), p.float(`window.stiction.live.drawn().forces`); n < 10 || f != n {
		t.Errorf("paused clutter: %v contact points and %v force arrows drawn, want the pile's, one arrow per point", n, f)
	}
	saveShot(t, "viewer-live-clutter.png", screenshot(t, p))
	if errs := consoleErrors(); len(errs) > 0 {
		t.Errorf("console errors:\n%s", strings.Join(errs, "\n"))
	}
}

// checkSliderSettles moves the arm1 slider (PD, kp 4000 N·m/rad, kd 400
// N·m·s/rad) 0.3 rad from the joint's position, steps the paused session
// through the settling time, and checks that the joint is within 2 % of the
// step from its target. The PD about the vertical axis has no gravity load;
// for kd² > 4 kp I it is overdamped, its slow pole s₁ ≥ kp/kd, so that it
// settles to 2 % within 4/s₁ ≤ 4 kd/kp = 0.4 s.
func checkSliderSettles(t *testing.T, p page) {
	t.Helper()
	act := int(p.float(`window.stiction.live.hello().actuators.findIndex((a) => a.name === 'arm1')`))
	joint := int(p.float(fmt.Sprintf(`window.stiction.live.hello().actuators[%d].joint`, act)))
	if act < 0 || joint < 0 {
		t.Fatalf("no arm1 actuator on a joint (actuator %d, joint %d)", act, joint)
	}
	qAt := fmt.Sprintf(`(() => { const h = window.stiction.live.hello(); let k = 0; for (let i = 0; i < %d; i++) k += h.joints[i].nq; return window.stiction.live.last().q[k]; })()`, joint)
	q0 := p.float(qAt)
	target := p.float(fmt.Sprintf(`window.stiction.live.setSlider(%d, %v)`, act, q0+0.3))
	dt := 0.002
	steps := int(math.Round(4 * 400.0 / 4000 / dt))
	p.run(fmt.Sprintf(`window.stiction.live.send({type: 'step', count: %d})`, steps))
	p.poll(fmt.Sprintf(`window.stiction.live.last().step === %d`, steps))
	q := p.float(qAt)
	t.Logf("arm1: from %.4f rad, slider at %.4f rad, joint at %.4f rad after %d steps (%.2f s)", q0, target, q, steps, float64(steps)*dt)
	if math.Abs(q-target) > 0.02*math.Abs(target-q0) {
		t.Errorf("arm1 joint at %.4f rad after the settling time, want within 2%% of the step from %.4f", q, target)
	}
}

// checkLatency runs the session in real time and moves actuator act's
// slider n times, 150 ms apart; the page measures each time from the
// slider's input event to the first frame whose applied actuator input is
// the new value: its arrival, the end of its drawing's script (render
// issued) and the GPU's end of that frame (WebGL 2 fence), when the picture
// shows it. The medians are logged with where the time went (reported, not
// asserted).
func checkLatency(t *testing.T, p page, act string, n int) {
	t.Helper()
	if p.bool(`window.stiction.live.last().paused`) {
		p.click(`#live-pause`)
		p.poll(`!window.stiction.live.last().paused`)
	}
	i := int(p.float(fmt.Sprintf(`window.stiction.live.hello().actuators.findIndex((a) => a.name === %q)`, act)))
	if i < 0 {
		t.Fatalf("no actuator %s", act)
	}
	p.run(`window.stiction.resetTiming(); window.stiction.live.resetLatency()`)
	for k := range n {
		p.float(fmt.Sprintf(`window.stiction.live.setSlider(%d, %v)`, i, 0.2+0.02*float64(k)))
		p.poll(fmt.Sprintf(`window.stiction.live.shown().length === %d`, k+1))
		p.must(chromedp.Do(p.ctx, chromedp.Sleep(150*time.Millisecond)))
	}
	med := func(js string) (float64, float64) {
		v, err := chromedp.Run(p.ctx, chromedp.Evaluate[[]float64](js))
		p.must(err)
		slices.Sort(v)
		return v[len(v)/2], v[len(v)-1]
	}
	a, amax := med(`window.stiction.live.arrival()`)
	d, dmax := med(`window.stiction.live.latency()`)
	s, smax := med(`window.stiction.live.shown()`)
	tm, err := chromedp.Run(p.ctx, chromedp.Evaluate[map[string]map[string]float64](`window.stiction.timing()`))
	p.must(err)
	ri, err := chromedp.Run(p.ctx, chromedp.Evaluate[map[string]any](`window.stiction.renderInfo()`))
	p.must(err)
	g := func(k string) float64 { return tm[k]["median"] }
	t.Logf("%s slider to the first frame showing it, %d moves (median, max): arrives %.0f, %.0f ms; drawn %.0f, %.0f ms; shown %.0f, %.0f ms. "+
		"Medians: slider to frame built %.1f ms, built to arrival %.1f ms, script per draw %.1f ms, GPU per frame %.1f ms (%v triangles at %vx%v, quality %v); %s",
		act, n, a, amax, d, dmax, s, smax, g("slider to built"), g("built to arrival"), g("draw"), g("gpu"),
		ri["triangles"], ri["width"], ri["height"], ri["quality"], loadAverage())
}

// loadAverage returns the machine's load averages (Linux), to qualify timings.
func loadAverage() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "load average unknown"
	}
	f := strings.Fields(string(b))
	return "load average " + strings.Join(f[:min(3, len(f))], " ")
}

// perturbHand ctrl-drags the Allegro hand's palm 20 cm sideways while the
// session runs, checks that the palm follows and the arrow is drawn, and
// returns a screenshot taken during the drag.
func perturbHand(t *testing.T, p page) []byte {
	t.Helper()
	palm := int(p.float(`window.stiction.live.hello().bodies.findIndex((b) => b.name === 'hand_hand_root')`))
	if palm < 0 {
		palm = int(p.float(`window.stiction.live.hello().bodies.findIndex((b) => b.name.startsWith('hand_'))`))
	}
	pos := func() []float64 {
		v, err := chromedp.Run(p.ctx, chromedp.Evaluate[[]float64](fmt.Sprintf(`window.stiction.live.last().frame.poses[%d].slice(0, 3)`, palm)))
		p.must(err)
		return v
	}
	// Let the arm settle: after the slider moves before (4 kd/kp = 0.4 s)
	// and from its initial state, whose slower joints take longer (a loaded
	// machine runs fewer simulated seconds before this point). The palm's
	// drift in 0.3 s without the pull is the control of the check below;
	// wait (at most 10 simulated seconds) until it is under 0.2 mm.
	p0 := pos()
	var drift float64
	for try := 0; ; try++ {
		ta := p.float(`window.stiction.live.last().frame.t`)
		p.poll(fmt.Sprintf(`window.stiction.live.last().frame.t > %v`, ta+0.3))
		pa := pos()
		drift = math.Hypot(pa[0]-p0[0], math.Hypot(pa[1]-p0[1], pa[2]-p0[2]))
		p0 = pa
		if drift < 2e-4 {
			break
		}
		if try == 33 {
			t.Fatalf("the palm still drifts %.2f mm in 0.3 s at t = %.2f s", drift*1e3, ta+0.3)
		}
	}
	// The palm's origin may not be on its surface: grab the nearest pixel
	// (within 40 px) that shows the palm, preferring one whose neighbours
	// 5 px away show it too (a frame drawn before the press may move the
	// hand a little), else another body of the hand.
	hit, err := chromedp.Run(p.ctx, chromedp.Evaluate[[]float64](fmt.Sprintf(`(() => {
	  const L = window.stiction.live, h = L.hello(), c = L.screenPoint([%v, %v, %v]), palm = %d;
	  let edge = null, other = [0, 0, -1];
	  for (let r = 0; r <= 40; r += 2) for (let a = 0; a < 16; a++) {
	    const x = c[0] + r * Math.cos(a * Math.PI / 8), y = c[1] + r * Math.sin(a * Math.PI / 8), b = L.pickAt(x, y);
	    if (b === palm) {
	      if ([[5, 0], [-5, 0], [0, 5], [0, -5]].every(([dx, dy]) => L.pickAt(x + dx, y + dy) === palm)) return [x, y, b];
	      if (!edge) edge = [x, y, b];
	    }
	    if (b >= 0 && other[2] < 0 && h.bodies[b].name.startsWith('hand_')) other = [x, y, b];
	  }
	  return edge || other; })()`, p0[0], p0[1], p0[2], palm)))
	p.must(err)
	if hit[2] < 0 {
		t.Fatalf("no pixel of the hand within 40 px of the palm's origin %v", p0)
	}
	t.Logf("grabbing %s", p.str(fmt.Sprintf(`window.stiction.live.hello().bodies[%d].name`, int(hit[2]))))
	c0, err := chromedp.Run(p.ctx, chromedp.Evaluate[[]float64](fmt.Sprintf(`window.stiction.live.screenPoint([%v, %v, %v])`, p0[0], p0[1], p0[2])))
	p.must(err)
	x0, y0 := hit[0], hit[1]
	x1, y1 := x0+160, y0-60
	ctrl := chromedp.ButtonModifiers(chromedp.ModifierCtrl)
	// The press picks what the page draws at that moment; a frame drawn
	// between the search above and the press may have moved the hand off
	// the pixel. Then the press starts no drag: release and search again
	// (at most three times), saying why each try failed.
	for try := 1; ; try++ {
		p.must(chromedp.Do(p.ctx, chromedp.MouseEvent(input.DispatchMouseEventTypeMousePressed, x0, y0, chromedp.ButtonLeft, ctrl, chromedp.ClickCount(1))))
		for k := 1; k <= 10; k++ {
			f := float64(k) / 10
			p.must(chromedp.Do(p.ctx, chromedp.MouseEvent(input.DispatchMouseEventTypeMouseMoved, x0+f*(x1-x0), y0+f*(y1-y0), chromedp.ButtonLeft, ctrl)))
		}
		if p.pollFor(`window.stiction.live.last().perturb !== null`, 10*time.Second) {
			break
		}
		why := p.str(fmt.Sprintf(`JSON.stringify({dragging: window.stiction.live.dragging(), pickNow: window.stiction.live.pickAt(%v, %v), errors: window.stiction.live.errors()})`, x0, y0))
		p.must(chromedp.Do(p.ctx, chromedp.MouseEvent(input.DispatchMouseEventTypeMouseReleased, x1, y1, chromedp.ButtonLeft, ctrl, chromedp.ClickCount(1))))
		if try == 3 {
			t.Fatalf("a ctrl-drag from (%.0f, %.0f) started no perturbation in 3 tries; last: %s", x0, y0, why)
		}
		t.Logf("try %d: a ctrl-drag from (%.0f, %.0f) started no perturbation in 10 s (%s); searching the hand again", try, x0, y0, why)
		again, err := chromedp.Run(p.ctx, chromedp.Evaluate[[]float64](fmt.Sprintf(`window.stiction.live.screenPoint(window.stiction.live.last().frame.poses[%d].slice(0, 3))`, palm)))
		p.must(err)
		x0, y0 = x0+again[0]-c0[0], y0+again[1]-c0[1]
		c0 = again
		x1, y1 = x0+160, y0-60
	}
	// The grabbed point (body-fixed) is pulled toward the mouse's target:
	// from rest, its velocity is Λ⁻¹ f with the point's inverse inertia Λ⁻¹
	// positive semi-definite, so its gap to the target shrinks until the
	// arm's PD holds it (within tenths of a second). The palm's origin need
	// not move toward the target (the hand turns).
	gap := func() (float64, []float64) {
		v, err := chromedp.Run(p.ctx, chromedp.Evaluate[[]float64](`(() => { const q = window.stiction.live.last().perturb; return q.point.concat(q.target); })()`))
		p.must(err)
		return math.Hypot(v[0]-v[3], math.Hypot(v[1]-v[4], v[2]-v[5])), v[3:]
	}
	// The gap when the press grabbed the point (before any pull), to the
	// target of the last mouse move; the clock starts once that target has
	// reached the session.
	start, err := chromedp.Run(p.ctx, chromedp.Evaluate[[]float64](`window.stiction.live.dragStart()`))
	p.must(err)
	t0 := p.float(`window.stiction.live.last().frame.t`)
	p.poll(fmt.Sprintf(`window.stiction.live.last().frame.t > %v`, t0+0.05))
	_, target0 := gap()
	g0 := math.Hypot(start[0]-target0[0], math.Hypot(start[1]-target0[1], start[2]-target0[2]))
	t0 = p.float(`window.stiction.live.last().frame.t`)
	p.poll(fmt.Sprintf(`window.stiction.live.last().frame.t > %v`, t0+0.3))
	g1, target1 := gap()
	moved := pos()
	var d float64
	for k := range 3 {
		d += (moved[k] - p0[k]) * (moved[k] - p0[k])
	}
	t.Logf("grabbed point's gap to the target %.2f mm at the press, %.2f mm 0.35 s or more later (the palm drifted %.4f mm in 0.3 s before the press); palm origin moved %.2f mm (from (%.0f, %.0f) px; %s)", g0*1e3, g1*1e3, drift*1e3, math.Sqrt(d)*1e3, x0, y0, p.str(`JSON.stringify(window.stiction.live.last().perturb)`))
	if math.Hypot(target1[0]-target0[0], math.Hypot(target1[1]-target0[1], target1[2]-target0[2])) > 1e-9 {
		t.Errorf("the target moved while the mouse stood still: %v -> %v", target0, target1)
	}
	// The window from the press is under 0.6 s: the drift alone could move
	// the point by at most about twice its 0.3-s value.
	if g0-g1 < 1e-3+2*drift {
		t.Errorf("the grabbed point's gap to the mouse's target went %.4f -> %.4f m from the press, want it to shrink by more than 1 mm plus twice the palm's drift in 0.3 s without the pull (%.2g m)", g0, g1, drift)
	}
	if !p.bool(`window.stiction.live.drawn().arrow`) {
		t.Error("no perturbation arrow while dragging the hand")
	}
	shot := screenshot(t, p)
	p.must(chromedp.Do(p.ctx, chromedp.MouseEvent(input.DispatchMouseEventTypeMouseReleased, x1, y1, chromedp.ButtonLeft, ctrl, chromedp.ClickCount(1))))
	p.poll(`window.stiction.live.last().perturb === null`)
	return shot
}

// screenshot captures the page and checks that the scene was drawn.
func screenshot(t *testing.T, p page) []byte {
	t.Helper()
	shot, err := chromedp.Run(p.ctx, chromedp.CaptureScreenshot())
	p.must(err)
	img, err := png.Decode(bytes.NewReader(shot))
	if err != nil {
		t.Fatalf("screenshot: %v", err)
	}
	if n := distinctColours(img); n < 50 {
		t.Errorf("screenshot has only %d distinct colours: the scene was not drawn", n)
	}
	return shot
}

// saveShot writes a screenshot to $STICTION_SCREENSHOT_DIR, if set.
func saveShot(t *testing.T, name string, shot []byte) {
	dir := os.Getenv("STICTION_SCREENSHOT_DIR")
	if dir == "" {
		return
	}
	if err := os.WriteFile(filepath.Join(dir, name), shot, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("wrote %s", filepath.Join(dir, name))
}

// checkSimplify runs the page's vertex clustering (simplify.js) on a unit
// UV sphere of 25 280 triangles, outward. Clustered on a grid of 16 cells
// a side (h = 2/16 m), every merged vertex is the mean of points of the
// sphere in one cell that meets it: inside the sphere, and within the
// cell's diagonal √3 h of its surface. The triangles keep their
// orientation: the enclosed volume (Σ det(a, b, c)/6) is positive, and,
// between the radii 1 − √3 h and 1, between (1 − √3 h)³ and 1 times 4π/3.
// simplifyMesh keeps a mesh within its budget as it is, and brings one
// above it within.
func checkSimplify(t *testing.T, p page) {
	t.Helper()
	js := `(async () => {
	  const { clusterMesh, simplifyMesh } = await import('./simplify.js');
	  const N = 80, M = 160, pos = [], idx = [];
	  for (let i = 0; i <= N; i++) for (let j = 0; j < M; j++) {
	    const th = Math.PI * i / N, ph = 2 * Math.PI * j / M;
	    pos.push(Math.sin(th) * Math.cos(ph), Math.sin(th) * Math.sin(ph), Math.cos(th));
	  }
	  const v = (i, j) => i * M + (j % M);
	  for (let i = 0; i < N; i++) for (let j = 0; j < M; j++) {
	    if (i > 0) idx.push(v(i, j), v(i + 1, j), v(i, j + 1));
	    if (i < N - 1) idx.push(v(i, j + 1), v(i + 1, j), v(i + 1, j + 1));
	  }
	  const stats = (m) => {
	    let rmin = Infinity, rmax = 0, vol = 0;
	    for (let k = 0; k < m.positions.length; k += 3) {
	      const r = Math.hypot(m.positions[k], m.positions[k + 1], m.positions[k + 2]);
	      rmin = Math.min(rmin, r); rmax = Math.max(rmax, r);
	    }
	    const P = (k) => [m.positions[3 * k], m.positions[3 * k + 1], m.positions[3 * k + 2]];
	    for (let k = 0; k < m.indices.length; k += 3) {
	      const [a, b, c] = [P(m.indices[k]), P(m.indices[k + 1]), P(m.indices[k + 2])];
	      vol += (a[0] * (b[1] * c[2] - b[2] * c[1]) - a[1] * (b[0] * c[2] - b[2] * c[0]) + a[2] * (b[0] * c[1] - b[1] * c[0])) / 6;
	    }
	    return [m.indices.length / 3, rmin, rmax, vol];
	  };
	  const same = simplifyMesh(pos, idx, idx.length / 3);
	  const budget = simplifyMesh(pos, idx, 1000);
	  return [idx.length / 3, same.positions === pos && same.indices === idx ? 1 : 0, ...stats(clusterMesh(pos, idx, 16)), ...stats(budget), ...stats({ positions: pos, indices: idx })];
	})()`
	r, err := chromedp.Run(p.ctx, chromedp.Evaluate[[]float64](js, chromedp.EvalAwaitPromise))
	p.must(err)
	n, same, c, b, full := r[0], r[1], r[2:6], r[6:10], r[10:14]
	h := 2.0 / 16
	lo, ball := 1-math.Sqrt(3)*h, 4*math.Pi/3
	t.Logf("vertex clustering of a unit sphere of %v triangles: 16 cells a side %v triangles, radii %.4f…%.4f, volume %.4f; budget 1000: %v triangles, volume %.4f (the full mesh %.4f, the ball %.4f)",
		n, c[0], c[1], c[2], c[3], b[0], b[3], full[3], ball)
	if same != 1 {
		t.Error("simplifyMesh changed a mesh within its budget")
	}
	if c[0] < 100 || c[0] >= n || c[1] < lo || c[2] > 1+1e-6 || !(c[3] > lo*lo*lo*ball && c[3] <= ball) {
		t.Errorf("16 cells: %v triangles (want 100 to %v), radii %v…%v (want within [%.4f, 1]), volume %v (want within [%.4f, %.4f])",
			c[0], n, c[1], c[2], lo, c[3], lo*lo*lo*ball, ball)
	}
	if b[0] > 1000 || b[0] < 100 || !(b[3] > 0.5*ball && b[3] <= ball) {
		t.Errorf("budget 1000: %v triangles, volume %v (want 100 to 1000, volume near %.4f)", b[0], b[3], ball)
	}
}
