package viewer

import (
	"fmt"
	"slices"

	"github.com/stiction-sim/stiction/constraint"
	"github.com/stiction-sim/stiction/contact"
	"github.com/stiction-sim/stiction/multibody"
	"github.com/stiction-sim/stiction/record"
	"github.com/stiction-sim/stiction/scene"
	"github.com/stiction-sim/stiction/sim"
)

// history keeps what the record command writes: every step's statistics,
// and every RecordEvery steps the state, contacts and constraint reports
// (the rows of docs/OUTPUT.md's files). It restarts at every reset and
// stops growing at its cap.
type history struct {
	b      *scene.Built
	limit  int
	every  int
	since  int // steps since the last kept frame
	stats  []sim.StepStats
	frames []histFrame
	full   bool
}

// histFrame is one kept instant.
type histFrame struct {
	state   multibody.State
	pairs   []contact.Pair
	gamma   []float64
	reports []constraint.Report
}

func (h *history) reset(b *scene.Built, limit int) {
	*h = history{b: b, limit: limit, every: max(1, b.RecordEvery), stats: h.stats[:0], frames: h.frames[:0]}
}

// steps returns the number of steps kept.
func (h *history) steps() int { return len(h.stats) }

// initial returns the first kept state.
func (h *history) initial() *multibody.State { return &h.frames[0].state }

// step keeps step st of s, and its frame every RecordEvery steps.
func (h *history) step(s *sim.Simulator, st sim.StepStats) {
	if len(h.stats) >= h.limit {
		h.full = true
		return
	}
	h.stats = append(h.stats, st)
	h.since++
	if h.since >= h.every {
		h.frame(s)
	}
}

// frame keeps the current state of s.
func (h *history) frame(s *sim.Simulator) {
	h.since = 0
	st := s.State
	h.frames = append(h.frames, histFrame{
		state:   multibody.State{Q: slices.Clone(st.Q), V: slices.Clone(st.V), T: st.T},
		pairs:   slices.Clone(s.Contacts()),
		gamma:   slices.Clone(s.Impulses()[:3*len(s.Contacts())]),
		reports: slices.Clone(s.ConstraintReports()),
	})
}

// edit keeps the state of s after a change of its coordinates: it replaces
// the last frame when that is at the same time, or adds a frame.
func (h *history) edit(s *sim.Simulator) {
	if h.full {
		return
	}
	if n := len(h.frames); n > 0 && h.frames[n-1].state.T == s.State.T {
		h.frames = h.frames[:n-1]
	}
	h.frame(s)
}

// write writes the history as a run directory (docs/OUTPUT.md) with the
// given stepping wall time, s.
func (h *history) write(dir string, wall float64) error {
	b := h.b
	w, err := record.Create(dir)
	if err != nil {
		return fmt.Errorf("record %s: %w", dir, err)
	}
	if err := w.Scene(record.DescribeScene(b.Name, b.Config.DT, h.every, b.Model, h.initial())); err != nil {
		return fmt.Errorf("record %s: %w", dir, err)
	}
	var acc record.Accumulator
	fi := 0
	h.writeFrame(w, &h.frames[0])
	for _, st := range h.stats {
		acc.Add(st)
		w.Step(st)
		for fi+1 < len(h.frames) && h.frames[fi+1].state.T <= st.T {
			fi++
			h.writeFrame(w, &h.frames[fi])
			acc.AddConstraints(h.frames[fi].reports, b.Config.DT)
		}
	}
	last := &h.frames[len(h.frames)-1].state
	sum := acc.Summary(b.Name, b.Config.DT, wall, b.Model, last)
	if err := w.Close(sum); err != nil {
		return fmt.Errorf("record %s: %w", dir, err)
	}
	return nil
}

func (h *history) writeFrame(w *record.Writer, f *histFrame) {
	b := h.b
	w.Trajectory(b.Model, &f.state)
	w.Contacts(f.state.T, b.Config.DT, b.Model, f.pairs, f.gamma)
	w.Constraints(f.state.T, b.Config.DT, f.reports)
}
