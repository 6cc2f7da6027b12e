package viewer

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"net/http"
	"time"

	"github.com/coder/websocket"
)

// NewToken returns a random 128-bit token, hex encoded, for control over a
// non-loopback address.
func NewToken() string {
	var b [16]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// NeedsToken reports whether a session listening on ln must require a
// token for control: when it does not listen on loopback only.
func NeedsToken(ln net.Listener) bool {
	a, ok := ln.Addr().(*net.TCPAddr)
	return !ok || !a.IP.IsLoopback()
}

// LiveHandler returns the HTTP handler of session s: the page and its
// assets under /, GET /api/live (whether a live session is served and
// whether the given token grants control) and the WebSocket GET
// /api/ws?token=T. With a non-empty token, only pages that give it may send
// commands; the others watch. The WebSocket refuses cross-origin pages.
func LiveHandler(s *Session, token string) http.Handler {
	sub, err := fs.Sub(static, "static")
	if err != nil { // cannot happen: the folder is embedded
		sub = static
	}
	mux := http.NewServeMux()
	mux.Handle("GET /", noCache(http.FileServerFS(sub)))
	mux.HandleFunc("GET /api/live", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(map[string]bool{"live": true, "control": granted(r, token), "token": token != ""})
	})
	mux.HandleFunc("GET /api/ws", func(w http.ResponseWriter, r *http.Request) { s.serveWS(w, r, granted(r, token)) })
	return guard(mux)
}

// granted reports whether request r may control the session.
func granted(r *http.Request, token string) bool {
	if token == "" {
		return true
	}
	got := r.URL.Query().Get("token")
	return subtle.ConstantTimeCompare([]byte(got), []byte(token)) == 1
}

// serveWS connects one page: it sends the hello and the current frame,
// forwards the session's messages and passes the page's commands on.
func (s *Session) serveWS(w http.ResponseWriter, r *http.Request, control bool) {
	conn, err := websocket.Accept(w, r, nil)
	if err != nil {
		return // Accept has answered
	}
	defer conn.CloseNow()
	conn.SetReadLimit(MaxMessage)
	ctx, cancel := context.WithCancel(r.Context())
	defer cancel()
	c := newClient(control)
	s.watchers.Store(int32(s.hub.add(c)))
	defer func() { s.watchers.Store(int32(s.hub.remove(c))) }()
	if err := s.exec(ctx, func() { s.greet(c) }); err != nil {
		return
	}
	go s.readCommands(ctx, cancel, conn, c)
	go func() {
		select {
		case <-s.done: // the session ended: close the page's connection
			cancel()
		case <-ctx.Done():
		}
	}()
	for {
		select {
		case <-c.wake:
			for msg := c.next(); msg != nil; msg = c.next() {
				wctx, wcancel := context.WithTimeout(ctx, 5*time.Second)
				err := conn.Write(wctx, websocket.MessageText, msg)
				wcancel()
				if err != nil {
					return
				}
			}
		case <-ctx.Done():
			conn.Close(websocket.StatusNormalClosure, "")
			return
		}
	}
}

// greet sends the hello and the current frame to page c (Run goroutine).
func (s *Session) greet(c *client) {
	h := s.hello()
	h.Control = c.control
	c.send(mustJSON(h), true)
	c.sendFrame(s.frameMessage(), false)
}

// readCommands decodes the page's messages and passes them to the Run
// goroutine; a bad message gets an error reply, a closed page ends ctx.
func (s *Session) readCommands(ctx context.Context, cancel context.CancelFunc, conn *websocket.Conn, c *client) {
	defer cancel()
	for {
		typ, data, err := conn.Read(ctx)
		if err != nil {
			return
		}
		if typ != websocket.MessageText {
			c.send(errorMessage("", errors.New("want a JSON text message")), false)
			continue
		}
		cmd, err := DecodeCommand(data)
		if err == nil && cmd.Type == "ack" {
			c.ack()
			continue
		}
		if err == nil && !c.control && cmd.Type != "ping" {
			err = errors.New("control needs the token printed at start (open the URL with ?token=…)")
		}
		if err != nil {
			c.send(errorMessage(cmd.Type, err), false)
			continue
		}
		select {
		case s.cmds <- request{cmd: cmd, from: c}:
		case <-ctx.Done():
			return
		}
	}
}

// exec runs f on the Run goroutine and waits for it.
func (s *Session) exec(ctx context.Context, f func()) error {
	done := make(chan struct{})
	select {
	case s.cmds <- request{fn: func() { f(); close(done) }}:
	case <-ctx.Done():
		return ctx.Err()
	case <-s.done:
		return errStopped
	}
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	case <-s.done:
		return errStopped
	}
}

// Inspect runs f with the simulator on the Run goroutine (for tests and
// tools: f must not keep s).
func (s *Session) Inspect(ctx context.Context, f func(s *Snapshot)) error {
	return s.exec(ctx, func() { f(&Snapshot{s}) })
}

// ServeHandler serves h on ln until ctx is done, then shuts down.
func ServeHandler(ctx context.Context, ln net.Listener, h http.Handler) error {
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return fmt.Errorf("viewer: %w", err)
	case <-ctx.Done():
		sctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		if err := srv.Shutdown(sctx); err != nil {
			srv.Close() // streams still open after the grace period
		}
		return nil
	}
}
