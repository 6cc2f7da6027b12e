package main

/*
#define STICTION_NO_PROTOTYPES
#include "stiction.h"
*/
import "C"

import (
	"fmt"
	"sync"
)

// The handle table: every Go object that C names. Handles are never
// reused, so a freed handle stays invalid.
var (
	handleMu sync.Mutex
	handles  = map[int64]any{}
	lastH    int64
)

// newHandle stores x and returns its handle.
func newHandle(x any) int64 {
	handleMu.Lock()
	defer handleMu.Unlock()
	lastH++
	handles[lastH] = x
	return lastH
}

// dropHandle removes handle h.
func dropHandle(h int64) {
	handleMu.Lock()
	defer handleMu.Unlock()
	delete(handles, h)
}

// lookup returns the object of handle h if it is a T.
func lookup[T any](h C.int64_t, kind string) (T, error) {
	handleMu.Lock()
	x, ok := handles[int64(h)]
	handleMu.Unlock()
	t, isT := x.(T)
	switch {
	case !ok:
		return t, errorf(C.STICTION_E_HANDLE, "no %s with handle %d (freed, or never made)", kind, int64(h))
	case !isT:
		return t, errorf(C.STICTION_E_HANDLE, "handle %d is a %s, not a %s", int64(h), kindOf(x), kind)
	}
	return t, nil
}

func kindOf(x any) string {
	switch x.(type) {
	case *model:
		return "model"
	case *data:
		return "data"
	case *cbatch:
		return "batch"
	case *snapshot:
		return "snapshot"
	}
	return fmt.Sprintf("%T", x)
}
