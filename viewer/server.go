package viewer

import (
	"context"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"net/http"
	"strconv"
	"strings"
)

//go:embed static
var static embed.FS

// DefaultAddr is the address the viewer listens on unless told otherwise:
// the loopback interface only.
const DefaultAddr = "127.0.0.1"

// DefaultPort is the default TCP port of the viewer.
const DefaultPort = 8765

// Handler returns the HTTP handler of the viewer for feed f: the page and
// its embedded assets under /, the run at /api/run, the live stream at
// /api/events, and {"live":false} at /api/live (no interactive session). Requests whose path tries to leave the served folder (.., or
// encoded dots, slashes or backslashes) get 404.
func Handler(f *Feed) http.Handler {
	sub, err := fs.Sub(static, "static")
	if err != nil { // cannot happen: the folder is embedded
		sub = static
	}
	mux := http.NewServeMux()
	mux.Handle("GET /", noCache(http.FileServerFS(sub)))
	mux.HandleFunc("GET /api/run", func(w http.ResponseWriter, r *http.Request) { serveRun(w, f) })
	mux.HandleFunc("GET /api/events", func(w http.ResponseWriter, r *http.Request) { serveEvents(w, r, f) })
	mux.HandleFunc("GET /api/live", func(w http.ResponseWriter, r *http.Request) { // no interactive session here
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{"live":false}` + "\n"))
	})
	return guard(mux)
}

// guard answers 404 to any request whose path, raw or decoded, holds a
// parent-directory segment or an encoded dot, slash or backslash.
func guard(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if unsafePath(r.RequestURI) || unsafePath(r.URL.RawPath) || strings.Contains(r.URL.Path, "..") || strings.Contains(r.URL.Path, "\\") {
			http.NotFound(w, r)
			return
		}
		next.ServeHTTP(w, r)
	})
}

func unsafePath(p string) bool {
	if i := strings.IndexByte(p, '?'); i >= 0 {
		p = p[:i]
	}
	p = strings.ToLower(p)
	for _, bad := range []string{"..", "%2e", "%2f", "%5c", "\\"} {
		if strings.Contains(p, bad) {
			return true
		}
	}
	return false
}

func noCache(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "no-cache")
		next.ServeHTTP(w, r)
	})
}

func serveRun(w http.ResponseWriter, f *Feed) {
	data, err := f.snapshotJSON()
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Write(data)
}

// serveEvents streams, as server-sent events, the frames and step rows
// added after the counts given by the query (frames, steps), then "done".
func serveEvents(w http.ResponseWriter, r *http.Request, f *Feed) {
	nf, err1 := queryInt(r, "frames")
	ns, err2 := queryInt(r, "steps")
	if err := errors.Join(err1, err2); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	fl, ok := w.(http.Flusher)
	if !ok {
		http.Error(w, "streaming unsupported", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	for {
		frames, steps, done, changed := f.since(nf, ns)
		nf, ns = nf+len(frames), ns+len(steps)
		if err := sendEvents(w, frames, steps, done); err != nil {
			return
		}
		fl.Flush()
		if done {
			return
		}
		select {
		case <-changed:
		case <-r.Context().Done():
			return
		}
	}
}

func sendEvents(w http.ResponseWriter, frames []FrameJSON, steps [][]Num, done bool) error {
	var err error
	if len(steps) > 0 {
		err = sendEvent(w, "steps", steps)
	}
	if len(frames) > 0 && err == nil {
		err = sendEvent(w, "frames", frames)
	}
	if done && err == nil {
		_, err = fmt.Fprint(w, "event: done\ndata: {}\n\n")
	}
	return err
}

func sendEvent(w http.ResponseWriter, name string, v any) error {
	data, err := json.Marshal(v)
	if err == nil {
		_, err = fmt.Fprintf(w, "event: %s\ndata: %s\n\n", name, data)
	}
	return err
}

func queryInt(r *http.Request, name string) (int, error) {
	s := r.URL.Query().Get(name)
	if s == "" {
		return 0, nil
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 0 {
		return 0, fmt.Errorf("query %s: %q is not a count", name, s)
	}
	return n, nil
}

// Listen opens a TCP listener on addr:port; an empty addr means
// DefaultAddr (loopback). Port 0 picks a free port.
func Listen(addr string, port int) (net.Listener, error) {
	if addr == "" {
		addr = DefaultAddr
	}
	if port < 0 || port > 65535 {
		return nil, fmt.Errorf("viewer: port %d out of range 0–65535", port)
	}
	ln, err := net.Listen("tcp", net.JoinHostPort(addr, strconv.Itoa(port)))
	if err != nil {
		return nil, fmt.Errorf("viewer: %w", err)
	}
	return ln, nil
}

// URL returns the address of the page served on ln.
func URL(ln net.Listener) string {
	a := ln.Addr().(*net.TCPAddr)
	host := a.IP.String()
	if a.IP.IsUnspecified() {
		host = "127.0.0.1"
	}
	return "http://" + net.JoinHostPort(host, strconv.Itoa(a.Port)) + "/"
}

// Serve serves f on ln until ctx is done, then shuts down.
func Serve(ctx context.Context, ln net.Listener, f *Feed) error {
	return ServeHandler(ctx, ln, Handler(f))
}
