// Command capi is Stiction's C API, built as a shared library:
//
//	go build -buildmode=c-shared -o libstiction.so ./capi
//
// stiction.h declares it (docs/C_API.md documents every function). Go
// objects stay in a table of integer handles; C receives only pointers to
// memory allocated with malloc (the state, control and output arrays),
// which the engine steps in place (batch.Alloc). Every exported function
// recovers a panic of the engine into STICTION_E_INTERNAL, so no Go panic
// crosses into the host process.
//
// This is the only package of the module that uses cgo; the library and
// the CLI build with CGO_ENABLED=0, which leaves this package out.
package main

/*
#define STICTION_NO_PROTOTYPES
#include "stiction.h"
*/
import "C"

func main() {}
