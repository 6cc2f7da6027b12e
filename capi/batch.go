package main

/*
#include <stdlib.h>
#define STICTION_NO_PROTOTYPES
#include "stiction.h"
*/
import "C"

import (
	"math"
	"unsafe"

	"github.com/stiction-sim/stiction/batch"
)

// cbatch is a batch whose copies' q, v and ctrl are contiguous C arrays:
// copy i's positions are q[i·nq : (i+1)·nq], and so on.
type cbatch struct {
	m      *model
	b      *batch.Batch
	datas  []*data
	hdata  []int64 // the copies' data handles, 0 until asked for
	blocks [3]unsafe.Pointer
	arrays [3][]float64 // q, v, ctrl of every copy
}

// newBatch builds n copies of m on workers goroutines.
func newBatch(m *model, n, workers int) (*cbatch, error) {
	if n <= 0 || n > 1<<20 {
		return nil, errorf(C.STICTION_E_ARG, "stiction_batch_make: %d copies: want 1 to %d", n, 1<<20)
	}
	if workers < 0 {
		return nil, errorf(C.STICTION_E_ARG, "stiction_batch_make: %d workers: want 0 (all cores) or more", workers)
	}
	mb := m.built.Model
	sizes := [3]int{mb.NQ, mb.NV, m.nu()}
	cb := &cbatch{m: m, hdata: make([]int64, n)}
	for k, sz := range sizes {
		cb.blocks[k], cb.arrays[k] = cfloats(n * sz)
	}
	copies := make([]*batch.Copy, n)
	for i := range copies {
		k := 0
		alloc := func(sz int) []float64 {
			s := cb.arrays[k][i*sizes[k] : (i+1)*sizes[k] : (i+1)*sizes[k]]
			k++
			return s[:sz]
		}
		d, err := newData(m, alloc)
		if err != nil {
			cb.free()
			return nil, err
		}
		d.owner = cb
		cb.datas = append(cb.datas, d)
		copies[i] = d.c
	}
	b, err := batch.New(copies, workers)
	if err != nil {
		cb.free()
		return nil, withCode(C.STICTION_E_ARG, err)
	}
	cb.b = b
	return cb, nil
}

// free stops the workers and releases the C memory and the copies' handles.
func (cb *cbatch) free() {
	if cb.b != nil {
		cb.b.Close()
	}
	for i, d := range cb.datas {
		if cb.hdata[i] != 0 {
			dropHandle(cb.hdata[i])
		}
		d.free()
	}
	for k, p := range cb.blocks {
		C.free(p)
		cb.blocks[k], cb.arrays[k] = nil, nil
	}
}

// step takes n steps of every copy, refusing non-finite controls first.
func (cb *cbatch) step(n int) error {
	if n < 0 {
		return errorf(C.STICTION_E_ARG, "stiction_batch_step: %d steps", n)
	}
	nu := cb.m.nu()
	for i, u := range cb.arrays[2] {
		if math.IsNaN(u) || math.IsInf(u, 0) {
			return errorf(C.STICTION_E_ARG, "ctrl of copy %d, actuator %d (%s) = %v is not finite", i/nu, i%nu, cb.m.names[C.STICTION_ACTUATOR][i%nu], u)
		}
	}
	for k := 0; k < n; k++ {
		if err := cb.b.Step(); err != nil {
			return errorf(C.STICTION_E_STEP, "batch step %d of %d: %w", k+1, n, err)
		}
	}
	return nil
}

func getBatch(h C.int64_t) (*cbatch, error) { return lookup[*cbatch](h, "batch") }

//export stiction_batch_make
func stiction_batch_make(h C.int64_t, n, workers C.int, out *C.int64_t) (rc C.int) {
	defer guard(&rc)
	m, err := lookup[*model](h, "model")
	if err != nil {
		return fail(err)
	}
	if out == nil {
		return fail(errorf(C.STICTION_E_ARG, "stiction_batch_make: out is NULL"))
	}
	cb, err := newBatch(m, int(n), int(workers))
	if err != nil {
		return fail(err)
	}
	*out = C.int64_t(newHandle(cb))
	return C.STICTION_OK
}

//export stiction_batch_free
func stiction_batch_free(h C.int64_t) (rc C.int) {
	defer guard(&rc)
	cb, err := getBatch(h)
	if err != nil {
		return fail(err)
	}
	dropHandle(int64(h))
	cb.free()
	return C.STICTION_OK
}

//export stiction_batch_step
func stiction_batch_step(h C.int64_t, ctrl *C.double, n C.int) (rc C.int) {
	defer guard(&rc)
	cb, err := getBatch(h)
	if err != nil {
		return fail(err)
	}
	if ctrl != nil {
		copy(cb.arrays[2], unsafe.Slice((*float64)(unsafe.Pointer(ctrl)), len(cb.arrays[2])))
	}
	if err := cb.step(int(n)); err != nil {
		return fail(err)
	}
	return C.STICTION_OK
}

//export stiction_batch_array
func stiction_batch_array(h C.int64_t, which C.int, ptr **C.double, n *C.int) (rc C.int) {
	defer guard(&rc)
	cb, err := getBatch(h)
	if err != nil {
		return fail(err)
	}
	if ptr == nil || n == nil {
		return fail(errorf(C.STICTION_E_ARG, "stiction_batch_array: ptr and len must not be NULL"))
	}
	if which < C.STICTION_QPOS || which > C.STICTION_CTRL {
		return fail(errorf(C.STICTION_E_ARG, "stiction_batch_array: array %d: a batch has STICTION_QPOS, STICTION_QVEL and STICTION_CTRL (0–2)", int(which)))
	}
	*ptr, *n = (*C.double)(cb.blocks[which]), C.int(len(cb.arrays[which]))
	return C.STICTION_OK
}

//export stiction_batch_data
func stiction_batch_data(h C.int64_t, i C.int, out *C.int64_t) (rc C.int) {
	defer guard(&rc)
	cb, err := getBatch(h)
	if err != nil {
		return fail(err)
	}
	if out == nil || i < 0 || int(i) >= len(cb.datas) {
		return fail(errorf(C.STICTION_E_ARG, "stiction_batch_data: no copy %d (%d copies) or out is NULL", int(i), len(cb.datas)))
	}
	if cb.hdata[i] == 0 {
		cb.hdata[i] = newHandle(cb.datas[i])
	}
	*out = C.int64_t(cb.hdata[i])
	return C.STICTION_OK
}

//export stiction_batch_reset
func stiction_batch_reset(h C.int64_t, i C.int) (rc C.int) {
	defer guard(&rc)
	cb, err := getBatch(h)
	if err != nil {
		return fail(err)
	}
	if int(i) >= len(cb.datas) {
		return fail(errorf(C.STICTION_E_ARG, "stiction_batch_reset: no copy %d (%d copies)", int(i), len(cb.datas)))
	}
	for k, d := range cb.datas {
		if i < 0 || k == int(i) {
			if err := d.c.Reset(); err != nil {
				return fail(err)
			}
		}
	}
	return C.STICTION_OK
}
