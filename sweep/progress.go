package sweep

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"
)

// bar draws the sweep's progress: jobs done, failed and in flight, and the
// estimated time left from this session's rate.
type bar struct {
	w            io.Writer
	total, skip  int
	start, drawn time.Time
}

func newBar(w io.Writer, total, skipped int, start time.Time) *bar {
	return &bar{w: w, total: total, skip: skipped, start: start}
}

// update redraws the bar at most four times a second.
func (b *bar) update(ctx context.Context, q *Queue, c *collector) {
	if b.w == nil || time.Since(b.drawn) < 250*time.Millisecond {
		return
	}
	b.drawn = time.Now()
	inFlight := 0
	if cons, err := q.js.Consumer(ctx, jobsStream, workersConsumer(c.plan.ID)); err == nil {
		if info, err := cons.Info(ctx); err == nil {
			inFlight = info.NumAckPending
		}
	}
	fmt.Fprintf(b.w, "\r%s", b.line(c, inFlight))
}

// line formats the bar.
func (b *bar) line(c *collector, inFlight int) string {
	c.mu.Lock()
	n, failed := len(c.results), c.report.Failed
	c.mu.Unlock()
	const width = 30
	k := width * n / max(b.total, 1)
	eta := "?"
	if ran := n - b.skip; ran > 0 {
		left := time.Duration(float64(time.Since(b.start)) / float64(ran) * float64(b.total-n))
		eta = left.Round(time.Second).String()
	}
	return fmt.Sprintf("[%s%s] %d/%d jobs  %d failed  %d in flight  ETA %s   ", strings.Repeat("#", k), strings.Repeat(".", width-k), n, b.total, failed, inFlight, eta)
}

// finish draws the last line.
func (b *bar) finish(c *collector) {
	if b.w != nil {
		fmt.Fprintf(b.w, "\r%s\n", b.line(c, 0))
	}
}
