package viewer

import (
	"sync"
)

// clientBuffer is the number of messages other than frames that a page may
// lag behind; a slower page misses the oldest.
const clientBuffer = 64

// client is one connected page. Frames are coalesced: a page that cannot
// keep up gets the latest frame, never a stale one, and always the last
// (so that it sees a pause).
type client struct {
	control bool // may send commands (the token was given, or none is needed)

	mu       sync.Mutex
	msgs     [][]byte // other messages, in order
	frame    []byte   // the latest frame not yet sent, or nil
	answer   bool     // frame shows the effect of a command
	dropped  int      // messages dropped because the page lagged
	acking   bool     // the page acknowledges frames (flow control)
	inflight int      // frames sent and not yet acknowledged
	wake     chan struct{}
}

// maxInflight is the number of frames sent to an acknowledging page before
// it acknowledges one: a page that draws slowly gets fewer, newer frames
// instead of a backlog in the socket's buffers. A frame that answers a
// command may be one more: it is sent at once rather than after the page's
// next acknowledgement (a round trip through a page that may be busy
// drawing), and the backlog stays bounded.
const maxInflight = 2

// ack notes a frame acknowledged by the page.
func (c *client) ack() {
	c.mu.Lock()
	c.acking = true
	c.inflight = max(0, c.inflight-1)
	c.mu.Unlock()
	c.notify()
}

func newClient(control bool) *client {
	return &client{control: control, wake: make(chan struct{}, 1)}
}

// send queues message msg for the page without blocking. With restart
// (a hello or a reset), it discards the pending frame, which belongs to the
// model or history before it.
func (c *client) send(msg []byte, restart bool) {
	c.mu.Lock()
	if len(c.msgs) >= clientBuffer {
		c.msgs = c.msgs[1:]
		c.dropped++
	}
	c.msgs = append(c.msgs, msg)
	if restart {
		c.frame = nil
	}
	c.mu.Unlock()
	c.notify()
}

// sendFrame makes frame msg the next frame for the page; answer says that
// it shows the effect of a command (next).
func (c *client) sendFrame(msg []byte, answer bool) {
	c.mu.Lock()
	if c.frame != nil {
		c.dropped++
	}
	c.frame = msg
	c.answer = c.answer || answer // a later frame shows the command's effect too
	c.mu.Unlock()
	c.notify()
}

func (c *client) notify() {
	select {
	case c.wake <- struct{}{}:
	default:
	}
}

// next returns the next message to write (queued messages first, then the
// frame unless the page has maxInflight frames to acknowledge, or one more
// for a frame that answers a command), or nil.
func (c *client) next() []byte {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.msgs) > 0 {
		m := c.msgs[0]
		c.msgs = c.msgs[1:]
		return m
	}
	limit := maxInflight
	if c.answer {
		limit++
	}
	if c.frame == nil || (c.acking && c.inflight >= limit) {
		return nil
	}
	f := c.frame
	c.frame, c.answer = nil, false
	c.inflight++
	return f
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

// broadcast queues msg for every page; restart as for client.send.
func (h *hub) broadcast(msg []byte, restart bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for c := range h.clients {
		c.send(msg, restart)
	}
}

// broadcastFrame makes frame msg every page's next frame; answer says
// that it shows the effect of a command (client.next).
func (h *hub) broadcastFrame(msg []byte, answer bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for c := range h.clients {
		c.sendFrame(msg, answer)
	}
}

// broadcastEach queues for every page the message msg makes for it;
// restart as for client.send.
func (h *hub) broadcastEach(msg func(c *client) []byte, restart bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for c := range h.clients {
		c.send(msg(c), restart)
	}
}
