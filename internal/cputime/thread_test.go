package cputime

import (
	"runtime"
	"testing"
	"time"
)

// sink keeps spin's result, so that the compiler keeps its loop.
var sink float64

// spin does a fixed amount of arithmetic (tens of milliseconds of CPU) on
// the calling thread and returns its result.
func spin() float64 {
	x := 1.0
	for range 30_000_000 {
		x = x*1.0000001 + 1e-9
	}
	return x
}

// TestThreadCountsOnlyThisThread: a goroutine that spins on another
// thread raises the process's CPU time and not that of a thread that
// blocks meanwhile, while the same spin on the blocked thread afterwards
// raises its own time by a like amount (CPU times of fixed work, which a
// loaded machine changes less than wall times).
func TestThreadCountsOnlyThisThread(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("Thread is Process off Linux")
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	p0, t0 := Process(), Thread()
	done := make(chan float64)
	go func() { done <- spin() }()
	sink += <-done // this thread blocks meanwhile
	p1, t1 := Process(), Thread()
	other := p1 - p0
	if other < 5*time.Millisecond {
		t.Fatalf("the other thread's spin raised the process's CPU by only %v", other)
	}
	if t1-t0 > other/4 {
		t.Errorf("a blocked thread gained %v of CPU while another spun for %v", t1-t0, other)
	}
	sink += spin()
	if own := Thread() - t1; own < other/2 || own > 2*other {
		t.Errorf("the same spin took %v on this thread and %v on the other", own, other)
	}
}
