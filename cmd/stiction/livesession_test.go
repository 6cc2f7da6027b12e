package main

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"
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
