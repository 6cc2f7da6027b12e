package viewer

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
)

// wsClient is a test page.
type wsClient struct {
	t    *testing.T
	conn *websocket.Conn
}

func dialWS(t *testing.T, url string) *wsClient {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	conn, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(url, "http")+"/api/ws"+"", nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.CloseNow() })
	return &wsClient{t: t, conn: conn}
}

func (c *wsClient) send(msg string) {
	c.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := c.conn.Write(ctx, websocket.MessageText, []byte(msg)); err != nil {
		c.t.Fatal(err)
	}
}

// next returns the next message of type typ (skipping others).
func (c *wsClient) next(typ string) map[string]any {
	c.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	for {
		_, data, err := c.conn.Read(ctx)
		if err != nil {
			c.t.Fatalf("waiting for %s: %v", typ, err)
		}
		var m map[string]any
		if err := json.Unmarshal(data, &m); err != nil {
			c.t.Fatal(err)
		}
		if m["type"] == typ {
			return m
		}
	}
}

// nextFrame returns the next frame message that satisfies ok.
func (c *wsClient) nextFrame(ok func(m map[string]any) bool) map[string]any {
	c.t.Helper()
	for {
		if m := c.next("frame"); ok(m) {
			return m
		}
	}
}

// TestLiveTwoPagesAndErrors: two pages get the hello and the same paused
// frame after a step sent by one; a bad message gets an error reply and the
// connection stays usable; a closed page leaves the session running.
func TestLiveTwoPagesAndErrors(t *testing.T) {
	s := startSession(t, "drop", SessionOptions{Paused: true})
	srv := httptest.NewServer(LiveHandler(s, ""))
	defer srv.Close()
	a, b := dialWS(t, srv.URL), dialWS(t, srv.URL)
	for _, c := range []*wsClient{a, b} {
		if h := c.next("hello"); h["control"] != true || h["model"] != "drop" {
			t.Errorf("hello: control %v, model %v", h["control"], h["model"])
		}
	}
	a.send(`{"type":"step","count":3}`)
	fa := a.nextFrame(func(m map[string]any) bool { return m["step"].(float64) == 3 })
	fb := b.nextFrame(func(m map[string]any) bool { return m["step"].(float64) == 3 })
	ja, _ := json.Marshal(fa["frame"])
	jb, _ := json.Marshal(fb["frame"])
	if string(ja) != string(jb) {
		t.Errorf("the two pages disagree on step 3:\n%s\n%s", ja, jb)
	}
	b.send(`{"type":"step","count":"many"}`)
	if e := b.next("error"); !strings.Contains(e["message"].(string), "count") {
		t.Errorf("bad message: error %v", e)
	}
	b.send(`{"type":"ping","id":7}`)
	if p := b.next("pong"); p["id"].(float64) != 7 {
		t.Errorf("pong %v", p)
	}
	a.conn.Close(websocket.StatusNormalClosure, "")
	b.send(`{"type":"step"}`)
	b.nextFrame(func(m map[string]any) bool { return m["step"].(float64) == 4 })
	waitFor(t, s, func(v *Snapshot) bool { return v.Watchers() == 1 })
}

// TestLiveToken: with a token, a page without it watches but its commands
// are refused; with it, they are obeyed.
func TestLiveToken(t *testing.T) {
	s := startSession(t, "drop", SessionOptions{Paused: true})
	srv := httptest.NewServer(LiveHandler(s, "s3cret"))
	defer srv.Close()
	watcher := dialWS(t, srv.URL)
	if h := watcher.next("hello"); h["control"] != false {
		t.Errorf("hello without token: control %v", h["control"])
	}
	watcher.send(`{"type":"step"}`)
	if e := watcher.next("error"); !strings.Contains(e["message"].(string), "token") {
		t.Errorf("command without token: %v", e)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	conn, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(srv.URL, "http")+"/api/ws?token=s3cret", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.CloseNow()
	owner := &wsClient{t: t, conn: conn}
	if h := owner.next("hello"); h["control"] != true {
		t.Errorf("hello with token: control %v", h["control"])
	}
	owner.send(`{"type":"step"}`)
	owner.nextFrame(func(m map[string]any) bool { return m["step"].(float64) == 1 })
	inspect(t, s, func(v *Snapshot) {
		if v.Steps() != 1 {
			t.Errorf("%d steps, want 1 (the watcher's step refused)", v.Steps())
		}
	})
	// After a model change, each page's hello keeps its own control.
	owner.send(`{"type":"open","model":"drop"}`)
	if h := owner.next("hello"); h["control"] != true {
		t.Errorf("hello after open, with token: control %v", h["control"])
	}
	if h := watcher.next("hello"); h["control"] != false {
		t.Errorf("hello after open, without token: control %v", h["control"])
	}
}

// TestLiveControlLatency measures, without a browser, the time from a
// control message to the first frame whose applied actuator input is the
// new value, in a session running the arm in real time (reported, not
// asserted).
func TestLiveControlLatency(t *testing.T) {
	s := startSession(t, "arm", SessionOptions{Rate: 1})
	srv := httptest.NewServer(LiveHandler(s, ""))
	defer srv.Close()
	c := dialWS(t, srv.URL)
	c.next("hello")
	var lat []time.Duration
	for k := range 10 {
		u := 0.1 + 0.02*float64(k)
		start := time.Now()
		c.send(fmt.Sprintf(`{"type":"control","actuator":0,"value":[%v]}`, u))
		c.nextFrame(func(m map[string]any) bool {
			in, ok := m["input"].([]any)[0].(float64)
			return ok && in == u
		})
		lat = append(lat, time.Since(start))
	}
	slices.Sort(lat)
	t.Logf("control message to the first frame showing it: median %v, max %v (10 moves, arm in real time, 60 frames/s)", lat[len(lat)/2], lat[len(lat)-1])
}

// TestCommandFrameOutOfBand: a session running in real time answers a
// control and a perturbation with a frame that shows their effect (the
// applied input, the perturbation's force) without waiting for a tick: its
// frame interval is an hour, so that no tick comes during the test.
func TestCommandFrameOutOfBand(t *testing.T) {
	s := startSession(t, "arm", SessionOptions{Rate: 1, FrameInterval: time.Hour})
	srv := httptest.NewServer(LiveHandler(s, ""))
	defer srv.Close()
	c := dialWS(t, srv.URL)
	c.next("hello")
	if m := c.next("frame"); m["step"].(float64) != 0 {
		t.Fatalf("first frame at step %v, want 0 (no tick yet)", m["step"])
	}
	c.send(`{"type":"control","actuator":0,"value":[0.25]}`)
	m := c.next("frame")
	if in, _ := m["input"].([]any)[0].(float64); in != 0.25 || m["step"].(float64) != 1 || m["served"].(float64) != 1 {
		t.Errorf("frame after the control: step %v, input %v, served %v; want step 1 with input 0.25, 1 command served", m["step"], m["input"].([]any)[0], m["served"])
	}
	c.send(`{"type":"perturb","body":1,"point":[0,0,0],"target":[0,0,2]}`)
	m = c.next("frame")
	p, _ := m["perturb"].(map[string]any)
	if p == nil || m["step"].(float64) != 2 || m["served"].(float64) != 2 {
		t.Fatalf("frame after the perturbation: step %v, perturb %v, served %v; want step 2 with the perturbation, 2 commands served", m["step"], m["perturb"], m["served"])
	}
	if f := p["force"].([]any); f[0] == 0.0 && f[1] == 0.0 && f[2] == 0.0 {
		t.Errorf("perturbation force %v after its step, want the spring's pull", f)
	}
}
