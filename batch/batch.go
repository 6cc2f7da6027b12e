package batch

import (
	"fmt"
	"runtime"
	"sync/atomic"

	"github.com/stiction-sim/stiction/scene"
)

// Batch steps its copies on worker goroutines. Its methods must not be
// called concurrently; Close stops the workers.
type Batch struct {
	copies []*Copy
	errs   []error // per copy, of the last Step
	wake   []chan struct{}
	next   atomic.Int64  // the next copy to step in this Step (stepShare)
	gen    atomic.Uint64 // Steps started (and Close), which the workers wait on
	left   atomic.Int64  // workers other than the caller still in this Step
	stop   atomic.Bool
	closed bool
}

// spinWait is how many times a waiting worker or caller checks its
// condition, yielding between checks, before a worker sleeps on its wake
// channel. A Step's share on a few-microsecond model takes less than a
// sleeping goroutine takes to wake (tens of µs on a VM), so the wait spins
// first; a worker idle for longer than the spin, as between Steps while
// the caller computes its controls, sleeps.
const spinWait = 2000

// New returns a batch of the given copies stepped by workers goroutines
// (0: GOMAXPROCS; never more than the copies); the calling goroutine is
// worker 0. In each Step the workers take the copies one at a time, in
// index order, each the next copy not yet taken, so that a worker whose
// copies step faster (fewer contacts) is not left waiting for the other.
// Which worker steps a copy does not change its result.
func New(copies []*Copy, workers int) (*Batch, error) {
	if len(copies) == 0 {
		return nil, fmt.Errorf("batch: no copies")
	}
	if workers < 0 {
		return nil, fmt.Errorf("batch: %d workers: want 0 (GOMAXPROCS) or more", workers)
	}
	for i, c := range copies {
		if c == nil {
			return nil, fmt.Errorf("batch: copy %d is nil", i)
		}
	}
	if workers == 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	workers = min(workers, len(copies))
	b := &Batch{copies: copies, errs: make([]error, len(copies)), wake: make([]chan struct{}, workers)}
	for w := 1; w < workers; w++ {
		b.wake[w] = make(chan struct{}, 1)
		go b.worker(w)
	}
	return b, nil
}

// FromScene builds n copies of sc (scene.Build once per copy) and returns
// their batch on workers goroutines (0: GOMAXPROCS).
func FromScene(sc *scene.Scene, n, workers int) (*Batch, error) {
	if n <= 0 {
		return nil, fmt.Errorf("batch: %d copies: want at least 1", n)
	}
	copies := make([]*Copy, n)
	for i := range copies {
		b, err := scene.Build(sc)
		if err != nil {
			return nil, err
		}
		if copies[i], err = NewCopy(b, Make); err != nil {
			return nil, err
		}
	}
	return New(copies, workers)
}

// Len returns the number of copies.
func (b *Batch) Len() int { return len(b.copies) }

// Workers returns the number of worker goroutines (the caller's included).
func (b *Batch) Workers() int { return len(b.wake) }

// Copy returns copy i.
func (b *Batch) Copy(i int) *Copy { return b.copies[i] }

// worker steps its share of the copies each time a Step starts (gen
// moves). It spins for a while, then sleeps on its wake channel; Step
// leaves a token there after moving gen, so a worker that went to sleep
// does not miss the Step, and a stale token only makes it check gen again.
func (b *Batch) worker(w int) {
	seen := uint64(0)
	for {
		for spins := 0; b.gen.Load() == seen; spins++ {
			if spins < spinWait {
				runtime.Gosched()
			} else {
				<-b.wake[w]
			}
		}
		seen = b.gen.Load()
		if b.stop.Load() {
			return
		}
		b.stepShare()
		b.left.Add(-1)
	}
}

// stepShare steps the next copy not yet taken in this Step until none is
// left.
func (b *Batch) stepShare() {
	for {
		i := int(b.next.Add(1)) - 1
		if i >= len(b.copies) {
			return
		}
		b.errs[i] = b.stepCopy(i)
	}
}

// stepCopy steps copy i and turns a panic of the engine into the copy's
// error, so that a bug cannot kill a worker (and the process) silently.
func (b *Batch) stepCopy(i int) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("batch: internal error (panic): %v", r)
		}
	}()
	return b.copies[i].Step()
}

// Step takes one step of every copy (Copy.Step) and returns the error of
// the first copy, in index order, whose step failed (a *StepError); the
// other copies have stepped.
func (b *Batch) Step() error {
	if b.closed {
		return fmt.Errorf("batch: Step after Close")
	}
	b.next.Store(0)
	b.left.Store(int64(len(b.wake) - 1))
	b.start()
	b.stepShare()
	for b.left.Load() != 0 {
		runtime.Gosched()
	}
	for i, err := range b.errs {
		if err != nil {
			return &StepError{Copy: i, Err: err}
		}
	}
	return nil
}

// Close stops the workers. The copies stay usable one by one.
func (b *Batch) Close() {
	if b.closed {
		return
	}
	b.closed = true
	b.stop.Store(true)
	b.start()
}

// start moves gen, which the spinning workers see, and leaves a token for
// each sleeping one (a worker's channel holds at most one).
func (b *Batch) start() {
	b.gen.Add(1)
	for w := 1; w < len(b.wake); w++ {
		select {
		case b.wake[w] <- struct{}{}:
		default:
		}
	}
}

// StepError is the failure of one copy's step in Batch.Step.
type StepError struct {
	Copy int
	Err  error
}

func (e *StepError) Error() string { return fmt.Sprintf("batch: copy %d: %v", e.Copy, e.Err) }

func (e *StepError) Unwrap() error { return e.Err }
