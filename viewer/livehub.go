package viewer

import (
	"sync"
	"sync/atomic"
)

// clientBuffer is the number of messages a page may lag behind; a slower
// page misses messages (the next frame carries the whole state again).
const clientBuffer = 64

// client is one connected page.
type client struct {
	out     chan []byte
	control bool         // may send commands (the token was given, or none is needed)
	dropped atomic.Int64 // messages dropped because the page lagged
}

func newClient(control bool) *client {
	return &client{out: make(chan []byte, clientBuffer), control: control}
}

// send queues msg for the page without blocking; it drops msg when the
// page lags clientBuffer messages behind.
func (c *client) send(msg []byte) {
	select {
	case c.out <- msg:
	default:
		c.dropped.Add(1)
	}
}

// hub is the set of connected pages.
type hub struct {
	mu      sync.Mutex
	clients map[*client]struct{}
}

func newHub() *hub { return &hub{clients: map[*client]struct{}{}} }

func (h *hub) add(c *client) int {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.clients[c] = struct{}{}
	return len(h.clients)
}

func (h *hub) remove(c *client) int {
	h.mu.Lock()
	defer h.mu.Unlock()
	delete(h.clients, c)
	return len(h.clients)
}

// broadcast queues msg for every page.
func (h *hub) broadcast(msg []byte) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for c := range h.clients {
		c.send(msg)
	}
}
