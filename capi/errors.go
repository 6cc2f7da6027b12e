package main

/*
#include <stdlib.h>
#define STICTION_NO_PROTOTYPES
#include "stiction.h"
*/
import "C"

import (
	"errors"
	"fmt"
	"runtime/debug"
	"sync"
	"unsafe"
)

// apiError is an error with its return code.
type apiError struct {
	code int
	err  error
}

func (e *apiError) Error() string { return e.err.Error() }

func (e *apiError) Unwrap() error { return e.err }

// errorf returns an error with return code code.
func errorf(code int, format string, args ...any) error {
	return &apiError{code: code, err: fmt.Errorf(format, args...)}
}

// withCode gives err the return code code unless it has one.
func withCode(code int, err error) error {
	var ae *apiError
	if errors.As(err, &ae) {
		return err
	}
	return &apiError{code: code, err: err}
}

var (
	lastMu  sync.Mutex
	lastErr = C.CString("")
)

// fail records err as the last error and returns its code.
func fail(err error) C.int {
	code := C.STICTION_E_ARG
	var ae *apiError
	if errors.As(err, &ae) {
		code = ae.code
	}
	setLastError("stiction: " + err.Error())
	return C.int(code)
}

func setLastError(msg string) {
	cs := C.CString(msg)
	lastMu.Lock()
	old := lastErr
	lastErr = cs
	lastMu.Unlock()
	C.free(unsafe.Pointer(old))
}

// guard turns a panic into STICTION_E_INTERNAL; every exported function
// defers it.
func guard(rc *C.int) {
	if r := recover(); r != nil {
		setLastError(fmt.Sprintf("stiction: internal error (please report): panic: %v\n%s", r, debug.Stack()))
		*rc = C.STICTION_E_INTERNAL
	}
}

//export stiction_last_error
func stiction_last_error() *C.char {
	lastMu.Lock()
	defer lastMu.Unlock()
	return lastErr
}

var version = C.CString("stiction-capi 1")

//export stiction_version
func stiction_version() *C.char { return version }
