package main

import (
	"context"
	"encoding/json"
	"io"
	"math"
	"net/http"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stiction-sim/stiction/viewer"
)

// lockedBuffer is a stderr that a test reads while the command writes.
type lockedBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// TestViewLiveCommand runs "stiction view drop --live" on every interface:
// it prints a URL with a token; /api/live grants control with the token
// only; Ctrl-C (the interrupt context) ends it with status 0. Bad flags
// exit 2 with a message.
func TestViewLiveCommand(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	old := interrupts
	defer func() { interrupts = old }()
	interrupts = func() (context.Context, context.CancelFunc) { return ctx, cancel }
	var stderr lockedBuffer
	done := make(chan int, 1)
	go func() {
		done <- run([]string{"view", "drop", "--live", "--port", "0", "--addr", "0.0.0.0"}, io.Discard, &stderr)
	}()
	re := regexp.MustCompile(`at (http://\S+/)\?token=([0-9a-f]{32}) `)
	var m []string
	for end := time.Now().Add(20 * time.Second); m == nil && time.Now().Before(end); time.Sleep(20 * time.Millisecond) {
		m = re.FindStringSubmatch(stderr.String())
	}
	if m == nil {
		cancel()
		t.Fatalf("no URL with a token in:\n%s", stderr.String())
	}
	for q, want := range map[string]bool{"": false, "?token=" + m[2]: true, "?token=" + strings.Repeat("0", 32): false} {
		resp, err := http.Get(m[1] + "api/live" + q)
		if err != nil {
			t.Fatal(err)
		}
		var info struct{ Live, Control bool }
		err = json.NewDecoder(resp.Body).Decode(&info)
		resp.Body.Close()
		if err != nil || !info.Live || info.Control != want {
			t.Errorf("api/live%s: %+v, %v; want live, control %v", q, info, err, want)
		}
	}
	cancel()
	select {
	case code := <-done:
		if code != 0 {
			t.Errorf("exit %d after Ctrl-C: %s", code, stderr.String())
		}
	case <-time.After(20 * time.Second):
		t.Fatal("view --live did not stop after Ctrl-C")
	}
	for _, args := range [][]string{
		{"view", "drop", "--live", "--rate", "-1"},
		{"view", "no-such-scene", "--live"},
		{"run", "drop", "--live"},
		{"run", "drop", "--view", "--live", "--out", t.TempDir()},
	} {
		if code, _, errs := runCLI(args...); code != 2 || errs == "" {
			t.Errorf("%v: exit %d, stderr %q; want 2 and a message", args, code, errs)
		}
	}
}

// TestSessionKeyframeReset: the menagerie iiwa's keyframe "home" is listed,
// and reset to it sets q to its qpos (0, π/4, 0, −π/2, 0, 0, 0); an unknown
// keyframe is refused.
func TestSessionKeyframeReset(t *testing.T) {
	const name = "embedded://mujoco_menagerie/kuka_iiwa_14/iiwa14.xml"
	s, err := viewer.NewSession(sessionLoader(runOptions{}), name, viewer.SessionOptions{Paused: true})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go s.Run(ctx)
	if err := s.Do(ctx, viewer.Command{Type: "reset", Keyframe: "nope"}); err == nil || !strings.Contains(err.Error(), "home") {
		t.Errorf("unknown keyframe: %v, want an error listing home", err)
	}
	if err := s.Do(ctx, viewer.Command{Type: "reset", Keyframe: "home"}); err != nil {
		t.Fatal(err)
	}
	want := []float64{0, 0.785398, 0, -1.5708, 0, 0, 0}
	if err := s.Inspect(ctx, func(v *viewer.Snapshot) {
		q := v.State().Q
		if len(q) != len(want) {
			t.Fatalf("q %v, want 7 coordinates", q)
		}
		for i := range want {
			if math.Abs(q[i]-want[i]) > 1e-12 {
				t.Errorf("q[%d] = %v after reset to home, want %v", i, q[i], want[i])
			}
		}
	}); err != nil {
		t.Fatal(err)
	}
}
