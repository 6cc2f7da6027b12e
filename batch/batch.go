package batch

import (
	"fmt"
	"runtime"
	"sync"

	"github.com/stiction-sim/stiction/scene"
)

// Batch steps its copies on worker goroutines. Its methods must not be
// called concurrently; Close stops the workers.
type Batch struct {
	copies []*Copy
	errs   []error // per copy, of the last Step
	start  []chan struct{}
	wg     sync.WaitGroup
	closed bool
}

// New returns a batch of the given copies stepped by workers goroutines
// (0: GOMAXPROCS; never more than the copies). Worker w steps copies
// [w·N/W, (w+1)·N/W); the calling goroutine is worker 0.
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

// block returns the copies of worker w.
func (b *Batch) block(w int) (lo, hi int) {
	n, nw := len(b.copies), len(b.start)
	return w * n / nw, (w + 1) * n / nw
}

// worker steps its block each time it is started.
func (b *Batch) worker(w int) {
	for range b.start[w] {
		b.stepBlock(w)
		b.wg.Done()
	}
}

func (b *Batch) stepBlock(w int) {
	lo, hi := b.block(w)
	for i := lo; i < hi; i++ {
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
	b.wg.Add(len(b.start) - 1)
	for w := 1; w < len(b.start); w++ {
		b.start[w] <- struct{}{}
	}
	b.stepBlock(0)
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
