package viewer

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"sync/atomic"
	"time"

	"github.com/stiction-sim/stiction/constraint"
	"github.com/stiction-sim/stiction/scene"
	"github.com/stiction-sim/stiction/sim"
)

// Loader builds model or scene name with keyframe key ("" for none) and
// returns it with the names of its keyframes.
type Loader func(name, key string) (*scene.Built, []string, error)

// SessionOptions configure a live Session.
type SessionOptions struct {
	// Rate is the initial real-time factor: 1 real time, 0 as fast as
	// possible.
	Rate float64
	// Paused starts the session paused.
	Paused bool
	// Models are the names offered by the page's model list.
	Models []string
	// RecordDir is the folder under which the record command writes run
	// directories (session-N); empty: the working directory.
	RecordDir string
	// HistorySteps caps the steps kept for the record command (0:
	// DefaultHistorySteps); the history restarts at every reset.
	HistorySteps int
	// FrameInterval is the period of the frames sent to the pages (0:
	// 1/60 s).
	FrameInterval time.Duration
}

// DefaultHistorySteps is the default cap of SessionOptions.HistorySteps.
const DefaultHistorySteps = 200_000

// Session runs one simulation interactively: one goroutine (Run) owns the
// simulator and takes commands from a channel; pages watch it through a hub.
// Everything but the channel, the hub and the atomics is touched by Run's
// goroutine only.
type Session struct {
	opt  SessionOptions
	load Loader
	cmds chan request
	hub  *hub
	done chan struct{} // closed when Run returns

	// owned by the Run goroutine
	name     string
	keys     []string
	b        *scene.Built
	sim      *sim.Simulator
	init     *sim.Checkpoint
	pert     *Perturb
	sens     *liveSensors // nil when the model has no sensors
	ctrl     []float64    // the control set from the page per actuator (NaN: the scene's target)
	paused   bool
	rate     float64
	anchorW  time.Time // wall time and simulated time the real-time clock counts from
	anchorT  float64
	wall     time.Duration // wall time spent running since the last reset
	runFrom  time.Time     // start of the current running stretch
	hist     history
	last     sim.StepStats
	failed   int // steps that did not converge since the last published frame
	pub      time.Time
	nrec     int
	served   int  // commands served since the session started (frames carry it)
	serving  bool // a command is being served: its frames answer it
	stepErr  error
	watchers atomic.Int32 // pages connected (read by Run to skip frames nobody sees)
}

// request is one command for the Run goroutine, with where the reply goes.
type request struct {
	cmd   Command
	from  *client    // nil from Go
	reply chan error // nil: errors go to from
	fn    func()     // when set, run instead of cmd
}

// NewSession loads model name with l and prepares a session (call Run).
func NewSession(l Loader, name string, opt SessionOptions) (*Session, error) {
	if opt.FrameInterval <= 0 {
		opt.FrameInterval = time.Second / 60
	}
	if opt.HistorySteps <= 0 {
		opt.HistorySteps = DefaultHistorySteps
	}
	if !(opt.Rate >= 0) || math.IsInf(opt.Rate, 0) || opt.Rate > MaxRate {
		return nil, fmt.Errorf("viewer: real-time factor %v: want 0 (as fast as possible) to %v", opt.Rate, MaxRate)
	}
	s := &Session{opt: opt, load: l, cmds: make(chan request), hub: newHub(), done: make(chan struct{}), paused: opt.Paused, rate: opt.Rate}
	if err := s.open(name, ""); err != nil {
		return nil, err
	}
	return s, nil
}

// open loads model name at keyframe key and makes it the session's.
func (s *Session) open(name, key string) error {
	b, keys, err := s.load(name, key)
	if err != nil {
		return fmt.Errorf("viewer: open %s: %w", name, err)
	}
	p := NewPerturb()
	cfg := b.Config
	cfg.Forces = append(slices.Clip(cfg.Forces), p)
	sm, err := sim.New(b.Model, b.State, cfg)
	if err != nil {
		return fmt.Errorf("viewer: open %s: %w", name, err)
	}
	sens, err := newLiveSensors(b)
	if err != nil {
		return fmt.Errorf("viewer: open %s: %w", name, err)
	}
	s.name, s.keys, s.b, s.sim, s.pert, s.sens = name, keys, b, sm, p, sens
	s.init = sm.Checkpoint()
	s.ctrl = make([]float64, len(s.actuators()))
	s.restart()
	return nil
}

// restart clears the controls, the perturbation, the history and the
// clocks after an open or a reset.
func (s *Session) restart() {
	for i := range s.ctrl {
		s.ctrl[i] = math.NaN()
		s.sim.ClearControl(i)
	}
	s.pert.Release()
	if s.sens != nil {
		s.sens.stepped = false
	}
	s.wall, s.last, s.failed, s.stepErr = 0, sim.StepStats{}, 0, nil
	s.hist.reset(s.b, s.opt.HistorySteps)
	s.hist.frame(s.sim)
	now := time.Now()
	s.reanchor(now)
	s.runFrom = now
}

// reanchor restarts the real-time clock at wall time now.
func (s *Session) reanchor(now time.Time) {
	s.anchorW, s.anchorT = now, s.sim.State.T
}

// Run steps the simulation and serves commands until ctx is done.
func (s *Session) Run(ctx context.Context) {
	defer close(s.done)
	tick := time.NewTicker(s.opt.FrameInterval)
	defer tick.Stop()
	for {
		if !s.paused && s.rate == 0 { // as fast as possible: poll
			select {
			case <-ctx.Done():
				return
			case r := <-s.cmds:
				s.serve(r)
			default:
				s.advance(time.Now())
			}
			continue
		}
		select {
		case <-ctx.Done():
			return
		case r := <-s.cmds:
			s.serve(r)
		case now := <-tick.C:
			s.advance(now)
		}
	}
}

// Do sends command c to the Run goroutine and waits for its outcome.
func (s *Session) Do(ctx context.Context, c Command) error {
	if err := c.Validate(); err != nil {
		return err
	}
	r := request{cmd: c, reply: make(chan error, 1)}
	select {
	case s.cmds <- r:
	case <-ctx.Done():
		return ctx.Err()
	case <-s.done:
		return errStopped
	}
	select {
	case err := <-r.reply:
		return err
	case <-ctx.Done():
		return ctx.Err()
	case <-s.done:
		return errStopped
	}
}

// serve runs one request and sends its error, if any, back.
func (s *Session) serve(r request) {
	if r.fn != nil {
		r.fn()
		return
	}
	if r.cmd.Type == "ping" && r.from != nil {
		r.from.send(pongMessage(r.cmd.ID), false)
		return
	}
	s.served++
	s.serving = true
	err := s.handle(r.cmd)
	s.serving = false
	if err != nil {
		err = fmt.Errorf("%s: %w", r.cmd.Type, err)
	}
	switch {
	case r.reply != nil:
		r.reply <- err
	case err != nil && r.from != nil:
		r.from.send(errorMessage(r.cmd.Type, err), false)
	}
}

// advance takes the steps that bring simulated time to the real-time clock
// (or steps for one frame interval as fast as possible), then publishes a
// frame (at most one per frame interval as fast as possible).
func (s *Session) advance(now time.Time) {
	if s.paused {
		return
	}
	budget := s.opt.FrameInterval * 3 / 4
	end := now.Add(budget)
	target := s.anchorT + s.rate*now.Sub(s.anchorW).Seconds()
	dt := s.b.Config.DT
	for s.rate == 0 || s.sim.State.T < target-dt/2 {
		if !s.stepOnce() {
			break
		}
		if time.Now().After(end) {
			if s.rate > 0 { // behind: run slower than asked rather than catch up
				s.anchorW, s.anchorT = time.Now(), s.sim.State.T
			}
			break
		}
		// A command waits one step at most, not the whole batch: it is
		// served now (it publishes what it changes), and the steps still
		// due are taken at the next tick.
		select {
		case r := <-s.cmds:
			s.serve(r)
			return
		default:
		}
	}
	if s.rate > 0 {
		s.publish() // a tick: one frame per frame interval
	} else {
		s.publishDue()
	}
}

// respond shows the effect of a command that changes the dynamics (a
// control, a perturbation) at once, in an out-of-band frame, rather than at
// the next tick: a session running in real time takes its next step now
// (ahead of the clock by at most one step; the clock then waits for it); a
// paused session, or one running as fast as possible, publishes its frame
// as it is.
func (s *Session) respond() {
	if !s.paused && s.rate > 0 {
		target := s.anchorT + s.rate*time.Since(s.anchorW).Seconds()
		if s.sim.State.T < target+s.b.Config.DT/2 && !s.stepOnce() {
			return // stepOnce paused the session and published
		}
	}
	s.publish()
}

// stepOnce takes one step, keeps it in the history and reports whether the
// session goes on (a failed step pauses it).
func (s *Session) stepOnce() bool {
	s.sens.start(s.sim.State)
	st, err := s.sim.Step()
	if err != nil {
		s.stepErr = err
		s.setPaused(true)
		s.hub.broadcast(errorMessage("step", fmt.Errorf("step %d failed, session paused (reset to go on): %w", s.sim.Steps()+1, err)), false)
		s.publish()
		return false
	}
	s.last = st
	if !stepOK(st) {
		s.failed++
	}
	s.hist.step(s.sim, st)
	return true
}

// setPaused pauses or resumes the clocks.
func (s *Session) setPaused(p bool) {
	now := time.Now()
	if p && !s.paused {
		s.wall += now.Sub(s.runFrom)
	}
	if !p && s.paused {
		s.reanchor(now)
		s.runFrom = now
	}
	s.paused = p
}

// wallTime returns the wall time spent running since the last reset.
func (s *Session) wallTime() time.Duration {
	if s.paused {
		return s.wall
	}
	return s.wall + time.Since(s.runFrom)
}

// publishDue publishes a frame when the last is a frame interval old.
func (s *Session) publishDue() {
	if time.Since(s.pub) >= s.opt.FrameInterval {
		s.publish()
	}
}

// publish sends the current frame to every page (nothing when none
// watches).
func (s *Session) publish() {
	s.pub = time.Now()
	if s.watchers.Load() == 0 {
		s.failed = 0
		return
	}
	s.hub.broadcastFrame(s.frameMessage(), s.serving)
	s.failed = 0
}

// errPaused is the error of commands that need a paused session.
var errPaused = errors.New("pause the session first")

// actuators returns the model's actuators.
func (s *Session) actuators() []constraint.Actuator {
	if s.b.Config.Constraints == nil {
		return nil
	}
	return s.b.Config.Constraints.Actuators
}
