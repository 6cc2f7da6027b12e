package viewer

import "testing"

// TestAnswerFrameSkipsFlowControl: a page that acknowledges frames and has
// maxInflight of them unacknowledged gets no ordinary frame, but gets a
// frame that answers a command at once, and only one such more.
func TestAnswerFrameSkipsFlowControl(t *testing.T) {
	c := newClient(true)
	c.ack() // the page acknowledges frames
	for i := range maxInflight {
		c.sendFrame([]byte{byte('0' + i)}, false)
		if m := c.next(); m == nil {
			t.Fatalf("frame %d of %d held", i+1, maxInflight)
		}
	}
	c.sendFrame([]byte("tick"), false)
	if m := c.next(); m != nil {
		t.Fatalf("ordinary frame %q sent with %d unacknowledged", m, maxInflight)
	}
	c.sendFrame([]byte("answer"), true)
	if m := c.next(); string(m) != "answer" {
		t.Fatalf("with %d frames unacknowledged, the answer to a command: got %q, want it sent at once", maxInflight, m)
	}
	c.sendFrame([]byte("answer 2"), true)
	if m := c.next(); m != nil {
		t.Fatalf("a second answer %q sent with %d frames unacknowledged: the backlog must stay bounded", m, maxInflight+1)
	}
	c.ack()
	if m := c.next(); string(m) != "answer 2" {
		t.Fatalf("after an acknowledgement: got %q, want the held answer", m)
	}
	c.sendFrame([]byte("tick 2"), false)
	c.ack()
	if m := c.next(); m != nil {
		t.Fatalf("ordinary frame %q sent with %d unacknowledged", m, maxInflight)
	}
	c.ack()
	if m := c.next(); string(m) != "tick 2" {
		t.Fatalf("after the acknowledgements: got %q, want the held frame", m)
	}
}
