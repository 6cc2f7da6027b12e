package batch

import (
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/stiction-sim/stiction/scene"
)

// Batch steps its copies on worker goroutines. Its methods must not be
// called concurrently; Close stops the workers.
type Batch struct {
	copies []*Copy
	errs   []error // per copy, of the last Step
	start  []chan struct{}
	next   atomic.Int64 // the next copy to step in this Step (stepShare)
	wg     sync.WaitGroup
	closed bool
}

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
	b := &Batch{copies: copies, errs: make([]error, len(copies)), start: make([]chan struct{}, workers)}
	for w := 1; w < workers; w++ {
		b.start[w] = make(chan struct{})
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
func (b *Batch) Workers() int { return len(b.start) }

// Copy returns copy i.
func (b *Batch) Copy(i int) *Copy { return b.copies[i] }

// worker steps its share of the copies each time it is started.
func (b *Batch) worker(w int) {
	for range b.start[w] {
		b.stepShare()
		b.wg.Done()
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
	b.wg.Add(len(b.start) - 1)
	for w := 1; w < len(b.start); w++ {
		b.start[w] <- struct{}{}
	}
	b.stepShare()
	b.wg.Wait()
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
	for w := 1; w < len(b.start); w++ {
		close(b.start[w])
	}
}

// StepError is the failure of one copy's step in Batch.Step.
type StepError struct {
	Copy int
	Err  error
}

func (e *StepError) Error() string { return fmt.Sprintf("batch: copy %d: %v", e.Copy, e.Err) }

func (e *StepError) Unwrap() error { return e.Err }
